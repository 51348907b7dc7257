package lkmm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

const mpRelAcq = `C MP+rel+acq

{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	smp_store_release(y, 1);
}

P1(int *x, int *y)
{
	int r0;
	int r1;

	r0 = smp_load_acquire(y);
	r1 = READ_ONCE(*x);
}

exists (1:r0=1 /\ 1:r1=0)
`

const rcuSyncRead = `C RCU+sync+read

{}

P0(int *x, int *y)
{
	rcu_read_lock();
	WRITE_ONCE(*x, 1);
	WRITE_ONCE(*y, 1);
	rcu_read_unlock();
}

P1(int *x, int *y)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*x);
	synchronize_rcu();
	r1 = READ_ONCE(*y);
}

exists (1:r0=1 /\ 1:r1=0)
`

// TestWhy checks the explanation of a forbidden outcome: the check that
// rejects it and the cycle in base relations.
func TestWhy(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"MP", mpRelAcq, "rejected by happens-before: cycle P1: R[once] x=0 -fre-> P0: W[once] x=1 -po-> " +
			"P0: W[release] y=1 -rfe-> P1: R[acquire] y=1 -po-> P1: R[once] x=0"},
		{"RCU", rcuSyncRead, "rejected by rcu: cycle P1: R[once] y=0 -fre-> P0: W[once] y=1 -po-> P0: F[rcu-unlock] " +
			"-rcu-rscs^-1-> P0: F[rcu-lock] -po-> P0: W[once] x=1 -rfe-> P1: R[once] x=1 -po[sync-rcu]-> P1: R[once] y=0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Check(context.Background(), mustParse(t, tc.name, tc.src), Options{})
			require.NoError(t, err)
			require.Equal(t, Never, res.Verdict)
			require.Equal(t, tc.want, res.Why)
			require.Equal(t, 1, sumCounts(res.Rejected), "one candidate satisfies the condition")
		})
	}
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
