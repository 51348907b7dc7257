package ctype

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConvert(t *testing.T) {
	for _, c := range []struct {
		typ  string
		v    int64
		want int64
	}{
		{"int", math.MaxInt32 + 1, math.MinInt32},
		{"", math.MaxInt32 + 1, math.MinInt32},
		{"long", math.MaxInt32 + 1, math.MaxInt32 + 1},
		{"long", math.MinInt64, math.MinInt64},
		{"unsigned int", -1, math.MaxUint32},
		{"u8", 257, 1},
		{"char", -1, 255},
		{"signed char", 255, -1},
		{"short", 1 << 15, -1 << 15},
		{"int *", 1 << 40, 1 << 40},
		{"unsigned long", -1, -1},
		{"const int", math.MaxInt32 + 1, math.MinInt32},
		{"__u8", 257, 1}, {"signed short int", 1 << 15, -1 << 15},
		// Rows of litmus's C scalar table whose width the engines do not
		// model: a 64-bit value.
		{"bool", 2, 2}, {"pid_t", 1 << 40, 1 << 40}, {"atomic_t", 1 << 40, 1 << 40},
	} {
		require.Equal(t, c.want, Of(c.typ).Convert(c.v), "(%s)%d", c.typ, c.v)
	}
}

func TestWide(t *testing.T) {
	for typ, want := range map[string]bool{
		"long": true, "unsigned  long": true, "u64": true, "size_t": true, "atomic_long_t": true,
		"int": false, "int *": false, "loff_t": false, "local_t": false, "": false,
	} {
		require.Equal(t, want, Wide(typ), "Wide(%q)", typ)
	}
}
