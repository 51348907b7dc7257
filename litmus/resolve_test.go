package litmus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestResolveNames: names used as locations must be parameters, shared
// locations of the init section, or registers set before the use.
func TestResolveNames(t *testing.T) {
	for _, c := range []struct {
		body string
		want string // "" when the body is fine, else the error
	}{
		{"r0 = READ_ONCE(*x);", ""},
		{"WRITE_ONCE(*y, 1); atomic_inc(a); spin_lock(l); spin_unlock(l);", ""},
		{"int *r1; r1 = READ_ONCE(*x); WRITE_ONCE(*r1, 1);", ""},
		{"r2 = x; WRITE_ONCE(*r2, 1);", ""}, // an undeclared register, assigned first
		{"int r3; WRITE_ONCE(*r3, 1);", ""}, // declared: a register holding 0
		{"WRITE_ONCE(*z, 1);", ""},          // z is in the init section
		{"r0 = READ_ONCE(g);", ""},          // g: an address used in the init section
		{"WRITE_ONCE(*q, 1);", "6:13: undeclared location q (not a parameter of P0, not in the init section, not a register set earlier)"},
		{"r0 = READ_ONCE(*xx);", "6:17: undeclared location xx (not a parameter of P0, not in the init section, not a register set earlier); did you mean x?"},
		{"spin_lock(lk);", "6:11: undeclared location lk (not a parameter of P0, not in the init section, not a register set earlier); did you mean l?"},
		{"atomic_inc(aa); atomic_inc(aa);", "6:12: undeclared location aa (not a parameter of P0, not in the init section, not a register set earlier); did you mean a?"},
		{"WRITE_ONCE(*r4, 1); r4 = x;", "6:13: undeclared location r4 (not a parameter of P0, not in the init section, not a register set earlier); did you mean r0?"},
		{"r0 = READ_ONCE(yy);", "6:16: undeclared location yy (not a parameter of P0, not in the init section, not a register set earlier); did you mean y?"},
	} {
		src := "C t\n{ int z = 0; int *p = &g; }\nP0(int *x, int *y, atomic_t *a, spinlock_t *l)\n{\n\tint r0;\n" + c.body + "\n}\nexists (x=1)\n"
		tst, err := Parse("t.litmus", []byte(src))
		require.NoError(t, err, c.body)
		errs := ResolveNames(tst)
		if c.want == "" {
			require.Empty(t, errs, c.body)
			continue
		}
		require.Len(t, errs, 1, c.body)
		require.Equal(t, "t.litmus:"+c.want, errs[0].Error(), c.body)
	}
}

// TestResolveNamesPerThread: a parameter of one thread is not a location
// of another.
func TestResolveNamesPerThread(t *testing.T) {
	src := "C t\n{}\nP0(int *flag)\n{\n\tWRITE_ONCE(*flag, 1);\n}\nP1(int *buf)\n{\n\tint r0;\n\tr0 = READ_ONCE(*flag);\n}\nexists (1:r0=1)\n"
	tst, err := Parse("t.litmus", []byte(src))
	require.NoError(t, err)
	errs := ResolveNames(tst)
	require.Len(t, errs, 1)
	require.True(t, strings.HasPrefix(errs[0].Error(), "t.litmus:10:18: undeclared location flag (not a parameter of P1"), errs[0].Error())
}
