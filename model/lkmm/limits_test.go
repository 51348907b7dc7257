package lkmm

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/stretchr/testify/require"
)

// longThread is a test whose P0 runs n smp_mb() after a store: one
// execution of n+3 events, whose relations take n² bits each.
func longThread(n int) string {
	return "C long\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n" + strings.Repeat("\tsmp_mb();\n", n) + "}\nexists (x=1)\n"
}

// TestTimeoutBoundsLongExecutions: the time limit holds inside the
// relation algebra of one large execution, where the engine used to poll
// only between candidates (20,000 smp_mb() with a 2 s timeout took 63 s),
// and the reason is in words, not "context deadline exceeded".
func TestTimeoutBoundsLongExecutions(t *testing.T) {
	res, err := Check(context.Background(), mustParse(t, "long", longThread(3000)), Options{Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, "timed out after 50ms", res.Reason)
}

// TestMemoryCapRefusesHugeExecutions: an execution whose relations
// cannot fit under the cap is refused before any is built (20,000
// smp_mb() used to reach 4.2 GB, and a 57 MB test a Go "out of memory"
// crash).
func TestMemoryCapRefusesHugeExecutions(t *testing.T) {
	res, err := Check(context.Background(), mustParse(t, "long", longThread(20000)), Options{})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, fmt.Sprintf("memory cap: an execution of 20002 events needs at least %s for its relations (64 of them, 20002² bits each), over the 1536.0 MiB cap", limit.Bytes(64*relBytes(20002))), res.Reason)
}

// TestMemoryCapHoldsWhileBuildingRelations: below that bound, the arena
// asks the budget before each block of relations, and the search stops
// at the cap.
func TestMemoryCapHoldsWhileBuildingRelations(t *testing.T) {
	const capBytes = 140 << 20
	runtime.GC()
	base := limit.ProcessHeld()
	res, err := Check(context.Background(), mustParse(t, "long", longThread(4000)), Options{MaxMemory: capBytes})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.True(t, strings.HasPrefix(res.Reason, "memory cap: "), res.Reason)
	require.LessOrEqual(t, limit.ProcessHeld(), base+capBytes+32<<20, "the process grew past what the search accounts")
}

// nest is a test whose P0 nests n loops, each header made by head(i),
// around one statement; the store after the nest is what the condition
// asks about.
func nest(n int, head func(i int) string) string {
	var b strings.Builder
	b.WriteString("C nest\n{}\nP0(int *x)\n{\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tint r%d;\n", i)
	}
	for i := 0; i < n; i++ {
		b.WriteString(head(i) + " {\n")
	}
	b.WriteString("r0 = r0;\n" + strings.Repeat("}\n", n) + "\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n")
	return b.String()
}

// checkWithin runs Check in a goroutine and fails the test when it has
// not returned within twice timeout plus a second: a check that a limit
// holds, generously measured, not a speed assertion.
func checkWithin(t *testing.T, src string, timeout time.Duration) *Result {
	t.Helper()
	test := mustParse(t, "nest", src)
	type answer struct {
		res *Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := Check(context.Background(), test, Options{Timeout: timeout})
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		require.NoError(t, a.err)
		return a.res
	case <-time.After(2*timeout + time.Second):
		t.Fatalf("the check with a %s timeout had not stopped after %s", timeout, 2*timeout+time.Second)
	}
	return nil
}

// TestNestedLoopsUnderTheBudget: herd's variable numbering counts a loop
// nest's code once per unrolled iteration, every way through, and the
// walk of a path through nested loops runs loopBound^depth statements with
// no event. Forty nested while (0) took hours (the count was not
// memoized), forty nested counted for loops as long (the walk polled the
// budget only per event): the first is answered at once, the second
// stops at the time limit.
func TestNestedLoopsUnderTheBudget(t *testing.T) {
	for _, n := range []int{40, 120} {
		res := checkWithin(t, nest(n, func(int) string { return "while (0)" }), time.Second)
		require.Equal(t, Always, res.Verdict, "%d nested while (0)", n)
	}
	res := checkWithin(t, nest(40, func(i int) string { return fmt.Sprintf("for (r%d = 0; r%d < 2; r%d++)", i, i, i) }), 200*time.Millisecond)
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, "timed out after 200ms", res.Reason)
}
