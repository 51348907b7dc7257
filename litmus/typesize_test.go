package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTypeSize(t *testing.T) {
	for _, c := range []struct {
		typ        string
		lp64, herd int
	}{
		{"", 8, 4}, // no type: a word for the operational engines, herd's int
		{"char", 1, 1}, {"uint8_t", 1, 1}, {"unsigned  char", 1, 1},
		{"short", 2, 2}, {"int16_t", 2, 2},
		{"int", 4, 4}, {"unsigned", 4, 4}, {"uint32_t", 4, 4}, {" int32_t ", 4, 4},
		{"long", 8, 4}, // the one type whose size the conventions disagree on
		{"unsigned long", 8, 8}, {"int64_t", 8, 8}, {"uintptr_t", 8, 8},
		{"int *", 8, 8}, {"struct foo *", 8, 8},
		{"u8", 1, 1}, {"s16", 2, 2}, {"u32", 4, 4}, {"u64", 8, 8}, // the kernel's fixed sizes
		{"atomic64_t", 8, 4}, {"my_int16", 2, 4}, // other names: by their words under LP64
		{"atomic_t", 8, 4}, {"spinlock_t", 8, 4},
		// Rows of the C scalar table that herd does not know: by their words
		// under LP64 (a code test's bool is 1 byte, pid_t 4; a plain one's not).
		{"signed short", 2, 2}, {"short int", 2, 4}, {"bool", 8, 4}, {"pid_t", 8, 4}, {"__u8", 8, 4},
	} {
		require.Equal(t, c.lp64, TypeSize(c.typ, LP64), "LP64 size of %q", c.typ)
		require.Equal(t, c.herd, TypeSize(c.typ, Herd), "herd's size of %q", c.typ)
	}
}
