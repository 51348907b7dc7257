package op

import (
	"context"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/model/report"
	"github.com/stretchr/testify/require"
)

// srcu_down_read in P0, srcu_up_read in P1 with the index passed through
// memory: the section spans P0's read of y and P1's read of x, so seeing
// the grace period's x=1 in P1 and missing its y=1 in P0 is forbidden.
const srcuCross = `C srcu-cross
{}
P0(int *y, struct srcu_struct *s, int *idx)
{
	int r0;
	int r2;
	r0 = srcu_down_read(s);
	WRITE_ONCE(*idx, r0);
	r2 = READ_ONCE(*y);
}
P1(int *x, struct srcu_struct *s, int *idx)
{
	int r1;
	int r3;
	r1 = READ_ONCE(*x);
	r3 = READ_ONCE(*idx);
	srcu_up_read(s, r3);
}
P2(int *x, int *y, struct srcu_struct *s)
{
	WRITE_ONCE(*y, 1);
	synchronize_srcu(s);
	WRITE_ONCE(*x, 1);
}
exists (1:r1=1 /\ 0:r2=0)
`

func TestSRCUCrossThread(t *testing.T) {
	for _, m := range []Machine{SC, TSO, PSO} {
		plain := run(t, srcuCross, m, report.Options{Plain: true})
		red := run(t, srcuCross, m, report.Options{})
		require.Equal(t, stateLines(plain), stateLines(red), m.String())
		require.Equal(t, report.Never, red.Verdict, m.String())
		require.Empty(t, red.Stuck, m.String())
		// Every other combination is reachable.
		require.Equal(t, []string{"0:r2=0; 1:r1=0;", "0:r2=1; 1:r1=0;", "0:r2=1; 1:r1=1;"}, stateLines(red), m.String())
	}
}

// An unlock with no section open is a debt: the next section of s is
// over at once, so the grace period need not wait for P0 and it may read
// y before the grace period and x after it. Without the stray unlock the
// section is real and that outcome is forbidden.
func TestSRCUDebt(t *testing.T) {
	src := `C srcu-debt
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	STRAY
	r0 = srcu_down_read(s);
	r2 = READ_ONCE(*y);
	r1 = READ_ONCE(*x);
	srcu_up_read(s, r0);
}
P1(int *x, int *y, struct srcu_struct *s)
{
	WRITE_ONCE(*y, 1);
	synchronize_srcu(s);
	WRITE_ONCE(*x, 1);
}
exists (0:r1=1 /\ 0:r2=0)
`
	for _, m := range []Machine{SC, TSO, PSO} {
		res := run(t, strings.ReplaceAll(src, "STRAY", "srcu_up_read(s, 0);"), m, report.Options{})
		require.Equal(t, report.Sometimes, res.Verdict, m.String())
		require.Empty(t, res.Stuck, m.String())
		res = run(t, strings.ReplaceAll(src, "STRAY", ""), m, report.Options{})
		require.Equal(t, report.Never, res.Verdict, m.String())
		require.Empty(t, res.Stuck, m.String())
	}
}

// An index that is not 0 names no section: the unlock ends nothing, and a
// grace period waiting for the section never ends.
func TestSRCUWrongIndex(t *testing.T) {
	src := `C srcu-wrong-index
{}
P0(struct srcu_struct *s)
{
	int r0;
	r0 = srcu_down_read(s);
}
P1(int *x, struct srcu_struct *s)
{
	srcu_up_read(s, 5);
}
P2(int *x, struct srcu_struct *s)
{
	synchronize_srcu(s);
	WRITE_ONCE(*x, 1);
}
exists (x=1)
`
	res := run(t, src, SC, report.Options{})
	require.NotEmpty(t, res.Stuck)
	require.Contains(t, res.Stuck[0].Reason, "P2 waits forever")
}

// Two sections of s open in two threads: an unlock in a third cannot say
// which one it ends, and the test is rejected rather than one of them
// chosen silently.
func TestSRCUAmbiguous(t *testing.T) {
	src := `C srcu-ambiguous
{}
P0(struct srcu_struct *s)
{
	int r0;
	r0 = srcu_down_read(s);
}
P1(struct srcu_struct *s)
{
	int r0;
	r0 = srcu_down_read(s);
}
P2(struct srcu_struct *s)
{
	srcu_up_read(s, 0);
}
exists (0:r0=0)
`
	test, err := parseSrc("t.litmus", src)
	require.NoError(t, err)
	_, err = Check(context.Background(), test, SC, report.Options{})
	require.ErrorContains(t, err, "t.litmus:15:2: P2: srcu_up_read(s, 0): P0 and P1 each have a read-side section of s open with index 0; which one this ends is not modelled")
}

// rcu_read_unlock has no index and no cross-thread use: outside a section
// it is still an error.
func TestRCUUnlockOutside(t *testing.T) {
	src := "C e\n{}\nP0(int *x)\n{\n\trcu_read_unlock();\n}\nexists (x=0)\n"
	test, err := parseSrc("t.litmus", src)
	require.NoError(t, err)
	_, err = Check(context.Background(), test, SC, report.Options{})
	require.ErrorContains(t, err, "t.litmus:5:2: P0: rcu_read_unlock() outside a read-side critical section")
}

// A cross-thread unlock is a full barrier first: the unlocking thread's
// earlier store is visible before the grace period that waited for the
// section ends (without it, TSO and PSO would let P2 miss z=1).
func TestSRCUCrossThreadBarrier(t *testing.T) {
	src := `C srcu-cross-barrier
{}
P0(struct srcu_struct *s, int *go)
{
	int r0;
	r0 = srcu_down_read(s);
	WRITE_ONCE(*go, 1);
}
P1(struct srcu_struct *s, int *go, int *z)
{
	int r2;
	r2 = READ_ONCE(*go);
	WRITE_ONCE(*z, 1);
	srcu_up_read(s, 0);
}
P2(struct srcu_struct *s, int *go, int *z)
{
	int r1;
	int r4;
	r4 = READ_ONCE(*go);
	synchronize_srcu(s);
	r1 = READ_ONCE(*z);
}
exists (1:r2=1 /\ 2:r4=1 /\ 2:r1=0)
`
	for _, m := range []Machine{SC, TSO, PSO} {
		for _, plain := range []bool{false, true} {
			res := run(t, src, m, report.Options{Plain: plain})
			require.Equal(t, report.Never, res.Verdict, "%s plain=%v", m, plain)
			require.Empty(t, res.Stuck)
		}
	}
	// The condition is reachable when the store comes after the unlock.
	late := strings.Replace(src, "WRITE_ONCE(*z, 1);\n\tsrcu_up_read(s, 0);", "srcu_up_read(s, 0);\n\tWRITE_ONCE(*z, 1);", 1)
	require.NotEqual(t, src, late)
	res := run(t, late, TSO, report.Options{})
	require.Equal(t, report.Sometimes, res.Verdict)
}
