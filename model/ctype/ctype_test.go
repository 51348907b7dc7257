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
	} {
		require.Equal(t, c.want, Of(c.typ).Convert(c.v), "(%s)%d", c.typ, c.v)
	}
}
