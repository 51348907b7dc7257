package lkmm

import (
	"context"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPrimitives runs small tests of primitives the shared corpus does not
// cover (plain accesses, bitops, refcount_t, SRCU, trylock), with verdicts
// argued from linux-kernel.cat and the kernel documents in each case.
func TestPrimitives(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		verdict Verdict
		flags   []string
	}{
		{
			// Two plain accesses to x from different threads, nothing
			// ordering them: a data race.
			name: "plain race",
			src: `C plain-race
{}
P0(int *x) { *x = 1; }
P1(int *x) { int r0; r0 = *x; }
exists (1:r0=1)`,
			verdict: Sometimes, flags: []string{"data-race"},
		},
		{
			// Release/acquire message passing orders the plain accesses
			// around it: no race, and the stale read is forbidden.
			name: "plain MP release acquire",
			src: `C plain-mp
{}
P0(int *x, int *y) { *x = 1; smp_store_release(y, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = smp_load_acquire(y); if (r0) r1 = *x; }
exists (1:r0=1 /\ 1:r1=0)`,
			verdict: Never,
		},
		{
			// refcount-vs-atomic.rst: the decrement that does not reach
			// zero is RELEASE, the one that does is also ACQUIRE, so
			// the last put sees the writes before the other puts.
			name: "refcount_dec_and_test",
			src: `C refcount
{ c=2; }
P0(int *x, refcount_t *c) { int r0; WRITE_ONCE(*x, 1); r0 = refcount_dec_and_test(c); }
P1(int *x, refcount_t *c) { int r1; int r2; r1 = refcount_dec_and_test(c); r2 = READ_ONCE(*x); }
exists (1:r1=1 /\ 1:r2=0)`,
			verdict: Never,
		},
		{
			// atomic_dec is unordered (atomic_t.txt): the same shape is
			// allowed when the first put is a plain atomic_dec.
			name: "atomic_dec unordered",
			src: `C atomic-dec
{ c=2; }
P0(int *x, atomic_t *c) { WRITE_ONCE(*x, 1); atomic_dec(c); }
P1(int *x, atomic_t *c) { int r1; int r2; r1 = atomic_dec_and_test(c); r2 = READ_ONCE(*x); }
exists (1:r1=1 /\ 1:r2=0)`,
			verdict: Sometimes,
		},
		{
			// atomic_bitops.txt: clear_bit_unlock is RELEASE and a
			// successful test_and_set_bit_lock ACQUIRE.
			name: "bit lock handover",
			src: `C bitlock
{ f=1; }
P0(int *x, unsigned long *f) { WRITE_ONCE(*x, 1); clear_bit_unlock(0, f); }
P1(int *x, unsigned long *f) { int r0; int r1; r0 = test_and_set_bit_lock(0, f); r1 = READ_ONCE(*x); }
exists (1:r0=0 /\ 1:r1=0)`,
			verdict: Never,
		},
		{
			// set_bit is an unordered RMW; smp_mb__before_atomic orders
			// the write before it.
			name: "set_bit before_atomic",
			src: `C setbit-mb
{}
P0(int *x, unsigned long *f) { WRITE_ONCE(*x, 1); smp_mb__before_atomic(); set_bit(0, f); }
P1(int *x, unsigned long *f) { int r0; int r1; r0 = smp_load_acquire(f); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\ 1:r1=0)`,
			verdict: Never,
		},
		{
			name: "set_bit unordered",
			src: `C setbit
{}
P0(int *x, unsigned long *f) { WRITE_ONCE(*x, 1); set_bit(0, f); }
P1(int *x, unsigned long *f) { int r0; int r1; r0 = smp_load_acquire(f); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\ 1:r1=0)`,
			verdict: Sometimes,
		},
		{
			// __set_bit is a plain read and a plain write: two of them
			// race, and one update can be lost.
			name: "__set_bit lost update",
			src: `C nonatomic-setbit
{}
P0(unsigned long *f) { __set_bit(0, f); }
P1(unsigned long *f) { __set_bit(1, f); }
exists (f=1)`,
			verdict: Sometimes, flags: []string{"data-race"},
		},
		{
			name: "set_bit atomic",
			src: `C atomic-setbit
{}
P0(unsigned long *f) { set_bit(0, f); }
P1(unsigned long *f) { set_bit(1, f); }
exists (f=1)`,
			verdict: Never,
		},
		{
			// The SRCU grace-period guarantee, as RCU+sync+read.
			name: "SRCU",
			src: `C srcu
{}
P0(int *x, int *y, struct srcu_struct *s) { int r0; r0 = srcu_read_lock(s); WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); srcu_read_unlock(s, r0); }
P1(int *x, int *y, struct srcu_struct *s) { int r1; int r2; r1 = READ_ONCE(*x); synchronize_srcu(s); r2 = READ_ONCE(*y); }
exists (1:r1=1 /\ 1:r2=0)`,
			verdict: Never,
		},
		{
			// A grace period on another srcu_struct does not wait.
			name: "SRCU other domain",
			src: `C srcu2
{}
P0(int *x, int *y, struct srcu_struct *s) { int r0; r0 = srcu_read_lock(s); WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); srcu_read_unlock(s, r0); }
P1(int *x, int *y, struct srcu_struct *t) { int r1; int r2; r1 = READ_ONCE(*x); synchronize_srcu(t); r2 = READ_ONCE(*y); }
exists (1:r1=1 /\ 1:r2=0)`,
			verdict: Sometimes,
		},
		{
			// Critical sections of one lock exclude each other: no
			// increment is lost, and the plain accesses inside do not
			// race.
			name: "locked counter",
			src: `C locked-counter
{}
P0(int *x, spinlock_t *l) { int r0; spin_lock(l); r0 = *x; *x = r0 + 1; spin_unlock(l); }
P1(int *x, spinlock_t *l) { int r0; spin_lock(l); r0 = *x; *x = r0 + 1; spin_unlock(l); }
exists (x=1)`,
			verdict: Never,
		},
		{
			name: "unlocked counter",
			src: `C unlocked-counter
{}
P0(int *x) { int r0; r0 = *x; *x = r0 + 1; }
P1(int *x) { int r0; r0 = *x; *x = r0 + 1; }
exists (x=1)`,
			verdict: Sometimes, flags: []string{"data-race"},
		},
		{
			// A successful trylock after the unlock sees the critical
			// section's write.
			name: "trylock",
			src: `C trylock
{}
P0(int *x, spinlock_t *l) { spin_lock(l); WRITE_ONCE(*x, 1); spin_unlock(l); }
P1(int *x, spinlock_t *l) { int r0; int r1; r0 = spin_trylock(l); if (r0) { r1 = READ_ONCE(*x); spin_unlock(l); } }
exists (1:r0=1 /\ 1:r1=0)`,
			verdict: Sometimes, // P1 may take the lock first
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Check(context.Background(), mustParse(t, tc.name, tc.src), Options{})
			require.NoError(t, err)
			require.Equal(t, tc.verdict, res.Verdict, "P=%d N=%d why=%s", res.Positive, res.Negative, res.Why)
			require.Equal(t, tc.flags, res.Flags)
		})
	}
}

// TestLimits checks the answers that are not verdicts: an input the
// engine does not support is an error with its position, a limit on
// candidates or a cancelled context is Unknown with a reason, and a loop
// past its bound sets Cut.
func TestLimits(t *testing.T) {
	ctx := context.Background()
	arr := mustParse(t, "arr.litmus", "C arr\n{ int t[2]; }\nP0(int *t) { WRITE_ONCE(*t, 1); }\nexists (0:r0=0)\n")
	_, err := Check(ctx, arr, Options{})
	require.ErrorContains(t, err, "arr.litmus:2:3: arrays are not supported")

	sb := mustParse(t, "sb", shapes.SBRing(4))
	res, err := Check(ctx, sb, Options{MaxCandidates: 1})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "state limit of 1 candidate executions reached")
	// Three candidates already show executions that satisfy the
	// condition and executions that do not: Sometimes is exact.
	res, err = Check(ctx, sb, Options{MaxCandidates: 3})
	require.NoError(t, err)
	require.Equal(t, Sometimes, res.Verdict)
	require.Equal(t, "state limit of 3 candidate executions reached", res.Incomplete)
	require.True(t, res.Ok)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	res, err = Check(cancelled, mustParse(t, "sb", shapes.SBRing(6)), Options{})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, "cancelled before the search finished", res.Reason)

	spin := mustParse(t, "spin", `C spin
{}
P0(int *x, int *y) { WRITE_ONCE(*y, 1); smp_store_release(x, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = 0; while (!smp_load_acquire(x)) r0 = r0 + 1; r1 = READ_ONCE(*y); }
exists (1:r1=0)`)
	res, err = Check(ctx, spin, Options{})
	require.NoError(t, err)
	require.True(t, res.Cut, "the spin loop can run past the bound")
	require.Equal(t, Never, res.Verdict)
	require.Equal(t, 1, res.States.Len())
}
