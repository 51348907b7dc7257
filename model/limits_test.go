package model

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/stretchr/testify/require"
)

// manyThreads is n threads that each store once: 2^n states under SC, far
// more than any memory cap holds for n = 64.
func manyThreads(n int) string {
	var b strings.Builder
	b.WriteString("C many\n{}\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "P%d(int *x)\n{\n\tWRITE_ONCE(*x, %d);\n}\n", i, i+1)
	}
	b.WriteString("exists (x=1)\n")
	return b.String()
}

// TestMemoryCapIsWhatTheTestHolds: the cap bounds what the search
// holds, and the search ends Unknown saying so; what the engine accounts
// is what the process grows by, within 32 MiB (copies of growing arrays,
// garbage not yet collected). An estimate that counted less would let
// the process grow past the cap.
func TestMemoryCapIsWhatTheTestHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("fills the memory cap")
	}
	test, err := parseSrc("many.litmus", manyThreads(64))
	require.NoError(t, err)
	const capBytes = 48 << 20
	runtime.GC()
	base := limit.ProcessHeld()
	// As the command does: the collector keeps garbage under the cap.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(base + capBytes)))

	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			h := limit.ProcessHeld()
			mu.Lock()
			peak = max(peak, h)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	res, err := Check(context.Background(), test, SC, Options{MaxMemory: capBytes, NoWitness: true})
	close(done)
	wg.Wait()
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.True(t, strings.HasPrefix(res.Reason, "memory cap: "), res.Reason)
	grew := uint64(0) // the process may give back more than the search takes
	if peak > base {
		grew = peak - base
	}
	t.Logf("cap %s, process grew by %s, %s", limit.Bytes(capBytes), limit.Bytes(grew), res.Reason)
	require.LessOrEqual(t, grew, uint64(capBytes+32<<20), "the process grew by %s with a %s cap", limit.Bytes(grew), limit.Bytes(capBytes))
}

// TestTimeoutReasonInWords: a search stopped by its time limit says so
// in words, under every model.
func TestTimeoutReasonInWords(t *testing.T) {
	test, err := parseSrc("many.litmus", manyThreads(20))
	require.NoError(t, err)
	for _, m := range []Model{SC, TSO, PSO} {
		res, err := Check(context.Background(), test, m, Options{Timeout: 20 * time.Millisecond, NoWitness: true})
		require.NoError(t, err)
		require.Equal(t, Unknown, res.Verdict, m.String())
		require.Equal(t, "timed out after 20ms", res.Reason, m.String())
	}
}

// spinCount's P0 counts how often it finds x still 0: the count, and so
// the state space, is unbounded.
const spinCount = `C spin-count
{}
P0(int *x)
{
	int r0;
	int r1;
	r0 = 0;
	do {
		r1 = READ_ONCE(*x);
		r0 = r0 + 1;
	} while (r1 == 0);
}
P1(int *x)
{
	WRITE_ONCE(*x, 1);
}
exists (0:r0=1)
`

// TestBoundedSometimesIsExact: a search cut short after it found final
// states where the proposition holds and where it fails answers
// Sometimes, exactly, and says what it did not finish; one that found
// only one kind answers Unknown, with no Ok.
func TestBoundedSometimesIsExact(t *testing.T) {
	for _, m := range []Model{SC, TSO, PSO} {
		res := run(t, spinCount, m, Options{MaxStates: 200})
		require.Equal(t, Sometimes, res.Verdict, m.String())
		require.True(t, res.Ok, m.String())
		require.Equal(t, "state limit of 200 states reached", res.Incomplete, m.String())
		require.Equal(t, []string{"stuck threads"}, res.Partial, m.String())
		require.Empty(t, res.Reason, m.String())

		res = run(t, strings.Replace(spinCount, "exists (0:r0=1)", "exists (0:r0=0)", 1), m, Options{MaxStates: 200})
		require.Equal(t, Unknown, res.Verdict, m.String())
		require.False(t, res.Ok, m.String())
		require.Empty(t, res.Incomplete, m.String())
	}
}

// TestLongConditionIsLinear: a test whose condition has 20,000 conjuncts
// is checked with memory linear in its length, under every model; herd's
// Condition line used to be built by concatenation up the left-deep tree
// (40,000 conjuncts took 6.4 s, 100,000 took 25 s).
func TestLongConditionIsLinear(t *testing.T) {
	const n = 20000
	src := "C conds\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (" + strings.Repeat("x=1 /\\ ", n-1) + "x=1)\n"
	test, err := parseSrc("conds.litmus", src)
	require.NoError(t, err)
	for _, m := range Models() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := Check(context.Background(), test, m, Options{})
		runtime.ReadMemStats(&after)
		require.NoError(t, err)
		require.Equal(t, Always, res.Verdict, m.String())
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1000*len(src)), "%s allocated %d bytes for a %d-byte test", m, after.TotalAlloc-before.TotalAlloc, len(src))
	}
}

// TestStuckWhereTheThreadStays: a thread that spins for ever is reported
// at its loop (it used to be reported at the line before), with a trace
// into the loop.
func TestStuckWhereTheThreadStays(t *testing.T) {
	src := "C spin\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n\twhile (1) {}\n}\nexists (x=1)\n"
	for _, m := range []Model{SC, TSO, PSO} {
		res := run(t, src, m, Options{})
		require.Len(t, res.Stuck, 1, m.String())
		require.Equal(t, "P0 can never finish (it is at line 6: while (1))", res.Stuck[0].Reason, m.String())
		steps := res.Stuck[0].Trace.Steps
		require.NotEmpty(t, steps)
		require.Equal(t, "WRITE_ONCE(*x, 1)", steps[0].Text, m.String())
	}
}

// TestStuckReportedOnce: the lost wakeup leaves the sleeper spinning in
// the same loop from several states; it is reported once, not once per
// state.
func TestStuckReportedOnce(t *testing.T) {
	src, err := os.ReadFile("../docs/examples/lost-wakeup.litmus")
	require.NoError(t, err)
	for _, m := range []Model{TSO, PSO} {
		res := run(t, string(src), m, Options{})
		require.Len(t, res.Stuck, 1, m.String())
		require.Equal(t, "P0 can never finish (it is at line 20: while (r1 == 0))", res.Stuck[0].Reason, m.String())
	}
}

// TestLimitsHoldUnderCatModels checks the time limit and the memory cap
// under the models the cat interpreter runs: an architecture model on an
// AArch64 test with a large state space, and the kernel's model from
// files on a C test. Each stops with Unknown and the limit in words.
func TestLimitsHoldUnderCatModels(t *testing.T) {
	var b strings.Builder
	b.WriteString("AArch64 many\n{\n")
	const n = 8
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d:X1=x%d; %d:X2=x%d;\n", i, i, i, (i+1)%n)
	}
	b.WriteString("}\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "P%d", i)
	}
	b.WriteString(" ;\n")
	for _, row := range []string{"MOV W0,#1", "STR W0,[X1]", "LDR W3,[X2]", "STR W0,[X2]", "LDR W4,[X1]"} {
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(row)
		}
		b.WriteString(" ;\n")
	}
	b.WriteString("exists (0:X3=0)\n")
	test, err := parseSrc("many.litmus", b.String())
	require.NoError(t, err)
	res, err := Check(context.Background(), test, AArch64, Options{Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, "timed out after 50ms", res.Reason)
	// The cap is on what the search holds: its relation arena's first
	// block (128 KiB) does not fit under 64 KiB.
	res, err = Check(context.Background(), test, AArch64, Options{MaxMemory: 64 << 10})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "memory cap")

	// The architecture models on a C test, compiled as the kernel
	// compiles it (checkCompiled): the same budget, the same words.
	c, err := parseSrc("many.litmus", manyThreads(12))
	require.NoError(t, err)
	for _, m := range []Model{AArch64, AArch64LLSC, RISCV, PPC} {
		res, err := Check(context.Background(), c, m, Options{Timeout: 50 * time.Millisecond})
		require.NoError(t, err, m.String())
		require.Equal(t, Unknown, res.Verdict, m.String())
		require.Equal(t, "timed out after 50ms", res.Reason, m.String())
		res, err = Check(context.Background(), c, m, Options{MaxMemory: 64 << 10})
		require.NoError(t, err, m.String())
		require.Equal(t, Unknown, res.Verdict, m.String())
		require.Contains(t, res.Reason, "memory cap", m.String())
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err = Check(ctx, c, m, Options{})
		require.NoError(t, err, m.String())
		require.Equal(t, Unknown, res.Verdict, m.String())
		require.Equal(t, "cancelled before the search finished", res.Reason, m.String())
	}
	// --max-states bounds the candidate executions as for an assembly
	// test: the search stops with Unknown, and says which limit.
	var w strings.Builder
	w.WriteString("C wide\n{}\n")
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&w, "P%d(int *x)\n{\n\tint r0;\n\tWRITE_ONCE(*x, %d);\n\tr0 = READ_ONCE(*x);\n}\n", i, i+1)
	}
	w.WriteString("exists (0:r0=1)\n")
	wide, err := parseSrc("wide.litmus", w.String())
	require.NoError(t, err)
	for _, m := range []Model{AArch64, AArch64LLSC, RISCV, PPC} {
		full, err := Check(context.Background(), wide, m, Options{})
		require.NoError(t, err, m.String())
		require.Equal(t, Sometimes, full.Verdict, m.String())
		require.Greater(t, full.Stats.States, int64(10), m.String())
		res, err := Check(context.Background(), wide, m, Options{MaxStates: 10})
		require.NoError(t, err, m.String())
		require.Equal(t, Unknown, res.Verdict, m.String())
		require.Equal(t, "more than 10 candidate executions", res.Reason, m.String())
	}

	if _, err := os.Stat(kernelModelDir); err != nil {
		t.Skip("no shared corpus")
	}
	kernel, err := LoadKernel(kernelModelDir)
	require.NoError(t, err)
	res, err = Check(context.Background(), c, kernel, Options{Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, "timed out after 50ms", res.Reason)
}

// checkWithin runs Check in a goroutine and fails the test when it has
// not returned within 1.5 times opt.Timeout plus a second: a check that
// the limit holds, measured generously, not a speed assertion.
func checkWithin(t *testing.T, test *litmus.Test, m Model, opt Options) *Result {
	t.Helper()
	type answer struct {
		res *Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := Check(context.Background(), test, m, opt)
		done <- answer{res, err}
	}()
	bound := opt.Timeout*3/2 + time.Second
	select {
	case a := <-done:
		require.NoError(t, a.err, m.String())
		return a.res
	case <-time.After(bound):
		t.Fatalf("%s: the check with a %s timeout had not stopped after %s", m, opt.Timeout, bound)
	}
	return nil
}

// TestTimeoutCoversArchSetUp: the compiled architecture models poll the
// budget while they compile the C test and while they build the
// execution's base relations (quadratic in its events): 20,000 smp_mb()
// with a 1 s limit ran 4 s, the relations of the one execution being
// built after the deadline.
func TestTimeoutCoversArchSetUp(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20,000-line test under two models")
	}
	// The next tests measure what the process holds: give back what
	// these executions took.
	t.Cleanup(debug.FreeOSMemory)
	test, err := parseSrc("long.litmus", "C long\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n"+strings.Repeat("\tsmp_mb();\n", 20000)+"}\nexists (x=1)\n")
	require.NoError(t, err)
	for _, m := range []Model{AArch64, RISCV} {
		// What the last check took is garbage, but counts against the
		// cap until the collector gives it back.
		debug.FreeOSMemory()
		res := checkWithin(t, test, m, Options{Timeout: time.Second})
		require.Equal(t, Unknown, res.Verdict, m.String())
		// The time limit, or on a machine slow enough to build the
		// relations this far, the memory cap: a limit either way, within
		// the bound checkWithin holds.
		if res.Reason != "timed out after 1s" {
			require.True(t, strings.HasPrefix(res.Reason, "memory cap: "), "%s: %s", m, res.Reason)
		}
	}
}

// TestMemoryCapCoversCollection: the cap holds for the whole run under
// the LKMM, the collection and printing of the final states included:
// the search keeps room for copying the states it found. A 32-thread
// ring of smp_mb() with --max-memory 300 held 379 MiB at its peak (and
// 2.69 GB against the default 1.5 GiB); it now stops at the cap, saying
// why.
func TestMemoryCapCoversCollection(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a memory cap")
	}
	test, err := parseSrc("ring.litmus", mbRing(32))
	require.NoError(t, err)
	debug.FreeOSMemory()
	capBytes := limit.ProcessHeld() + 96<<20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(capBytes)))
	peak := watchPeak()
	res, err := Check(context.Background(), test, LKMM, Options{Timeout: 10 * time.Second, MaxMemory: capBytes})
	if err == nil {
		err = res.WriteHerd(io.Discard) // the printing is under the cap too
	}
	held := peak()
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	// The final states are packed (a dozen bytes each), so the search
	// may reach its time limit before the cap; either way the process
	// stays under the cap.
	require.True(t, strings.HasPrefix(res.Reason, "memory cap: ") || strings.HasPrefix(res.Reason, "timed out"), res.Reason)
	require.LessOrEqual(t, held, capBytes+32<<20, "the process held %s with a %s cap", limit.Bytes(held), limit.Bytes(capBytes))
}

// mbRing is n threads in a ring, each storing to its location, then
// smp_mb(), then loading its neighbour's, with every register in the
// condition: 2^n final states, far more than any search lists in seconds.
func mbRing(n int) string {
	var b strings.Builder
	b.WriteString("C ring\n{}\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "P%d(int *x%d, int *x%d)\n{\n\tint r0;\n\tWRITE_ONCE(*x%d, 1);\n\tsmp_mb();\n\tr0 = READ_ONCE(*x%d);\n}\n", i, i, (i+1)%n, i, (i+1)%n)
	}
	b.WriteString("exists (0:r0=0")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, " /\\ %d:r0=0", i)
	}
	b.WriteString(")\n")
	return b.String()
}

// TestTimeoutCoversCollection: --timeout bounds the whole run under every
// model, the collection, sorting and printing of the states found
// included: the LKMM on a 32-thread ring of smp_mb() with a 60 s limit
// ran 97 s, the states found being sorted and printed after the
// deadline. Each model's check and herd's printing of its answer end
// within 1.5 times the limit plus a second (checkWithin's generous
// bound: a limit held, not a speed measured).
func TestTimeoutCoversCollection(t *testing.T) {
	if testing.Short() {
		t.Skip("runs each model to its time limit")
	}
	test, err := parseSrc("ring.litmus", mbRing(32))
	require.NoError(t, err)
	const d = 2 * time.Second
	for _, m := range allModels() {
		start := time.Now()
		done := make(chan error, 1)
		var res *Result
		go func() {
			var err error
			res, err = Check(context.Background(), test, m, Options{Timeout: d})
			if err == nil {
				err = res.WriteHerd(io.Discard)
			}
			done <- err
		}()
		bound := d*3/2 + time.Second
		select {
		case err := <-done:
			require.NoError(t, err, m.String())
		case <-time.After(bound):
			t.Fatalf("%s: checking and printing with a %s timeout had not ended after %s", m, d, bound)
		}
		require.Equal(t, Unknown, res.Verdict, m.String())
		require.Equal(t, "timed out after 2s", res.Reason, m.String())
		t.Logf("%s: %.2f s", m, time.Since(start).Seconds())
		debug.FreeOSMemory()
	}
}
