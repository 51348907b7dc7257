package model

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// inc_not_zero rows take their operands from the table (Imm): they add 1
// unless the count is 0, fully ordered on success for atomic_t, unordered
// for refcount_t (refcount-vs-atomic.rst).
func TestIncNotZero(t *testing.T) {
	sb := func(prim string, c int) string {
		return fmt.Sprintf(`C inz
{ c=%d; }
P0(int *x, int *y, atomic_t *c)
{
	int r0;
	int r1;
	WRITE_ONCE(*x, 1);
	r0 = %s(c);
	r1 = READ_ONCE(*y);
}
P1(int *x, int *y)
{
	int r2;
	WRITE_ONCE(*y, 1);
	smp_mb();
	r2 = READ_ONCE(*x);
}
locations [c; 0:r0;]
exists (0:r1=0 /\ 1:r2=0)
`, c, prim)
	}
	cases := []struct {
		prim     string
		c        int
		r0, cEnd int64
		lkmm     Verdict // the SB outcome under LKMM
	}{
		{"atomic_inc_not_zero", 1, 1, 2, Never},       // succeeds: fully ordered
		{"atomic_inc_not_zero", 0, 0, 0, Sometimes},   // fails: no ordering
		{"atomic_long_inc_not_zero", 1, 1, 2, Never},  //
		{"refcount_inc_not_zero", 1, 1, 2, Sometimes}, // unordered even on success
		{"refcount_inc_not_zero", 0, 0, 0, Sometimes}, //
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/c=%d", c.prim, c.c), func(t *testing.T) {
			test, err := parseSrc("inz.litmus", sb(c.prim, c.c))
			require.NoError(t, err)
			for _, m := range []Model{SC, TSO, LKMM} {
				r, err := Check(context.Background(), test, m, Options{})
				require.NoError(t, err, m)
				want := Never
				if m == LKMM {
					want = c.lkmm
				}
				require.Equal(t, want, r.Verdict, "%s under %s", c.prim, m)
				require.NotZero(t, r.States.Len())
				for _, s := range r.States.All() {
					seen := 0
					for _, lv := range s.Values {
						switch lv.Loc {
						case "0:r0":
							seen++
							require.Equal(t, c.r0, lv.Val.Int, "%s return value under %s", c.prim, m)
						case "[c]", "c":
							seen++
							require.Equal(t, c.cEnd, lv.Val.Int, "final count under %s", m)
						}
					}
					require.Equal(t, 2, seen, "state %v lacks c or 0:r0", s)
				}
			}
		})
	}
}

// refcount_add_not_zero(i, r) adds i unless the count is 0.
func TestAddNotZero(t *testing.T) {
	for _, c := range []struct {
		init, r0, end int64
	}{{2, 1, 5}, {0, 0, 0}} {
		src := fmt.Sprintf("C anz\n{ r=%d; }\nP0(refcount_t *r)\n{\n\tint r0;\n\tr0 = refcount_add_not_zero(3, r);\n}\nlocations [r;]\nexists (0:r0=%d)\n", c.init, c.r0)
		test, err := parseSrc("anz.litmus", src)
		require.NoError(t, err)
		for _, m := range []Model{SC, LKMM} {
			res, err := Check(context.Background(), test, m, Options{})
			require.NoError(t, err)
			require.Equal(t, Always, res.Verdict, "init %d under %s", c.init, m)
			require.Equal(t, 1, res.States.Len())
			require.Contains(t, res.States.At(0).String(), fmt.Sprintf("r]=%d;", c.end))
		}
	}
}
