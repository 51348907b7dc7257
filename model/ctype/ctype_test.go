package ctype

import (
	"math"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
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

func TestLocations(t *testing.T) {
	test, err := litmus.Parse("l.litmus", []byte("C l\n{ short w; long v; }\nP0(int *x, long *y, short *w, int **p, char *c, long *v)\n{\n\tWRITE_ONCE(*x, 1);\n}\nP1(int *c, int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n"))
	require.NoError(t, err)
	// x is an int wherever it is named; w is the init section's short; c
	// is a char in P0 and an int in P1, so not narrowed; y, v, p are 64-bit.
	require.Equal(t, map[string]Kind{"x": {32, true}, "w": {16, true}}, Locations(test))
}
