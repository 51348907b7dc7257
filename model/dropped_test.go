package model

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// P1 may read p before P0 publishes x and then dereference 0: that
// execution has no meaning and is dropped; the others are kept.
const derefNull = `C deref-null
{}
P0(int *x, int **p)
{
	WRITE_ONCE(*x, 1);
	smp_store_release(p, x);
}
P1(int **p)
{
	int *r1;
	int r2;
	r1 = smp_load_acquire(p);
	r2 = READ_ONCE(*r1);
}
exists (1:r1=x /\ 1:r2=0)
`

func TestDroppedAccess(t *testing.T) {
	for _, m := range []Model{SC, TSO, PSO} {
		for _, plain := range []bool{false, true} {
			res := run(t, derefNull, m, Options{Plain: plain})
			require.Equal(t, []string{"1:r1=x; 1:r2=1;"}, stateLines(res), "%s plain=%v", m, plain)
			require.Equal(t, Never, res.Verdict)
			require.Empty(t, res.Stuck, "a dropped execution is not stuck")
			require.Len(t, res.Dropped, 1)
			require.Equal(t, int64(1), res.Stats.Dropped)
			d := res.Dropped[0]
			require.Equal(t, []int{1}, d.Threads)
			require.Equal(t, "P1 accesses 0, which is not the address of a shared location, at line 13: r2 = READ_ONCE(*r1)", d.Reason)
			last := d.Trace.Steps[len(d.Trace.Steps)-1]
			require.Equal(t, StepBlock, last.Kind)
			require.Equal(t, 13, last.Pos.Line)
		}
	}
}

// A store through a bad pointer is dropped as well, and in a program that
// loops the states leading only to it are not reported as stuck.
func TestDroppedStoreInLoop(t *testing.T) {
	src := `C drop-loop
{}
P0(int *x, int **p)
{
	smp_store_release(p, x);
}
P1(int **p, int *y)
{
	int *r1;
	int r2 = 0;
	while (r2 < 2)
		r2 = r2 + 1;
	r1 = READ_ONCE(*p);
	WRITE_ONCE(*r1, 5);
	WRITE_ONCE(*y, 1);
}
exists (x=5)
`
	for _, m := range []Model{SC, TSO, PSO} {
		res := run(t, src, m, Options{})
		require.Equal(t, Always, res.Verdict, m.String())
		require.Empty(t, res.Stuck, m.String())
		require.Len(t, res.Dropped, 1, m.String())
		require.Contains(t, res.Dropped[0].Reason, "P1 accesses 0")
	}
}

// An integer that is not an address is dropped too, not an error.
func TestDroppedInteger(t *testing.T) {
	src := "C e\n{}\nP0(int *x)\n{\n\tint r0;\n\tr0 = 5;\n\tWRITE_ONCE(*r0, 1);\n}\nexists (x=0)\n"
	res := run(t, src, TSO, Options{})
	require.Zero(t, res.States.Len())
	require.Equal(t, Never, res.Verdict)
	require.Equal(t, "P0 accesses 5, which is not the address of a shared location, at line 7: WRITE_ONCE(*r0, 1)", res.Dropped[0].Reason)
}

// A name used as a location that is neither a parameter, a location of
// the init section nor a register set before (gpl here, a typo for gbl)
// is an error under every model, with a suggestion. herd7's C parser would
// read it as a register holding 0 and drop the executions that use it,
// which turns a typo into a pass that checked nothing.
func TestUndeclaredLocationIsAnError(t *testing.T) {
	src := `C undeclared
{}
P0(int *f, spinlock_t *gbl)
{
	int r1;
	spin_lock(gbl);
	r1 = READ_ONCE(*f);
	if (r1)
		spin_unlock(gpl);
	else
		spin_unlock(gbl);
}
P1(int *f)
{
	WRITE_ONCE(*f, 1);
}
exists (0:r1=1)
`
	test, err := parseSrc("t.litmus", src)
	require.NoError(t, err)
	for _, m := range Models() {
		_, err := Check(context.Background(), test, m, Options{})
		require.Error(t, err, m.String())
		require.Equal(t, "t.litmus:9:15: undeclared location gpl (not a parameter of P0, not in the init section, not a register set earlier); did you mean gbl?", err.Error(), m.String())
	}
}
