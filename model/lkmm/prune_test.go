package lkmm

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// allowedOnly is the part of a result pruning must not change: the
// allowed executions, their states, counts and flags.
func allowedOnly(r *Result) []any {
	return []any{r.Verdict, r.Reason, r.Ok, r.States, r.Positive, r.Negative, r.Flags, r.Cut}
}

// TestPruneProperties checks on random tests (marked accesses, RMWs,
// fences, locks, conditionals; more statements than TestFenceProperties
// so that locations get many writes) that pruning rf and co choices by
// coherence, atomicity and happens-before on every location gives the
// same allowed executions as no pruning at all.
func TestPruneProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var g genTest
		for i, n := 0, rapid.IntRange(2, 3).Draw(t, "threads"); i < n; i++ {
			var th []string
			for j, m := 0, rapid.IntRange(1, 3).Draw(t, "stmts"); j < m; j++ {
				th = append(th, genStmt(t, 0))
			}
			g.threads = append(g.threads, th)
		}
		src := g.source(false)
		test, err := litmus.Parse("gen.litmus", []byte(src))
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, src)
		}
		all, err := Check(context.Background(), test, Options{pruneFrom: 1})
		if err != nil {
			t.Fatalf("check: %v\n%s", err, src)
		}
		none, err := Check(context.Background(), test, Options{pruneFrom: -1})
		if err != nil {
			t.Fatalf("check: %v\n%s", err, src)
		}
		if fmt.Sprint(allowedOnly(all)) != fmt.Sprint(allowedOnly(none)) {
			t.Fatalf("pruning changes the result:\npruned:   %v\nunpruned: %v\n%s", allowedOnly(all), allowedOnly(none), src)
		}
		if all.Candidates > none.Candidates {
			t.Fatalf("pruning examines more candidates (%d > %d)\n%s", all.Candidates, none.Candidates, src)
		}
	})
}

// TestXchgLocks checks the benchmark's test with one global-lock thread:
// the outcome is forbidden (P0 reads the flag with acquire), with 296
// allowed executions, and the pruned search examines a few hundred
// candidates where the unpruned one examines over half a million (it
// takes seconds, so -short skips that comparison).
func TestXchgLocks(t *testing.T) {
	test := mustParse(t, "xchg-locks", xchgLocks(1))
	pruned, err := Check(context.Background(), test, Options{})
	require.NoError(t, err)
	require.Equal(t, []any{Never, 0, 296}, []any{pruned.Verdict, pruned.Positive, pruned.Negative})
	require.Less(t, pruned.Candidates, 1000)
	if testing.Short() {
		return
	}
	full, err := Check(context.Background(), test, Options{pruneFrom: -1})
	require.NoError(t, err)
	require.Equal(t, allowedOnly(full), allowedOnly(pruned))
	t.Logf("%d candidates pruned, %d unpruned", pruned.Candidates, full.Candidates)
}

// xchgLocks builds a test of the shape of Manfred Spraul's two-level
// locking tests (sem_lock() in ipc/sem.c): one thread takes a local lock
// with xchg_acquire and, if it sees the "global mode" flag, drops it, takes
// the global lock, retakes the local one and drops the global one; the
// others take the global lock, set the flag and take and drop the local
// lock. Locks are ints taken with xchg and freed with store-release, so
// the search sees many RMWs and writes per location. Each thread writes
// its own "held" marker inside its critical section and reads the
// other side's.
func xchgLocks(globals int) string {
	var b strings.Builder
	b.WriteString("C xchg-locks\n{}\n")
	b.WriteString(`P0(int *fl, int *g, int *gh, int *l, int *lh)
{
	int r0; int r1; int r2; int r3; int r4;
	r0 = xchg_acquire(l, 1);
	r1 = smp_load_acquire(fl);
	if (r1) {
		smp_store_release(l, 0);
		r2 = xchg_acquire(g, 1);
		r3 = xchg_acquire(l, 1);
		smp_store_release(g, 0);
	}
	r4 = READ_ONCE(*gh);
	WRITE_ONCE(*lh, 1);
	WRITE_ONCE(*lh, 0);
	smp_store_release(l, 0);
}
`)
	cond := []string{"0:r4=1"}
	for i := 1; i <= globals; i++ {
		fmt.Fprintf(&b, `P%d(int *fl, int *g, int *gh, int *l, int *lh)
{
	int r0; int r1; int r4;
	r0 = xchg_acquire(g, 1);
	WRITE_ONCE(*fl, 1);
	r1 = xchg_acquire(l, 1);
	smp_store_release(l, 0);
	r4 = READ_ONCE(*lh);
	WRITE_ONCE(*gh, 1);
	WRITE_ONCE(*gh, 0);
	smp_store_release(g, 0);
}
`, i)
		cond = append(cond, fmt.Sprintf("%d:r4=1", i))
	}
	fmt.Fprintf(&b, "exists ((%s) /\\ 0:r0=0 /\\ 0:r2=0 /\\ 0:r3=0", strings.Join(cond, " \\/ "))
	for i := 1; i <= globals; i++ {
		fmt.Fprintf(&b, " /\\ %d:r0=0 /\\ %d:r1=0", i, i)
	}
	b.WriteString(")\n")
	return b.String()
}

// BenchmarkXchgLocks runs xchgLocks with one thread taking the global
// lock. (With two, the test has several hundred thousand allowed
// executions; see docs/lkmm.md.)
func BenchmarkXchgLocks(b *testing.B) {
	t := mustParse(b, "xchg-locks", xchgLocks(1))
	for i := 0; i < b.N; i++ {
		if _, err := Check(context.Background(), t, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
