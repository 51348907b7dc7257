package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/litmus"
)

// The differential tests of the spin-loop reduction (litmus.Awaits): a
// loop checked as an await of its exit condition against the same
// model with every loop unrolled (Options.Unroll), and against the
// operational SC engine, which runs the loops themselves.
//
// Why the state sets must be equal even when the unrolled search is cut
// by the loop bound: every execution of the reduced program is one of
// the real program in which the loop exits at its first try, so it is an
// execution of the unrolled program too (any bound of 1 or more); and
// every execution of the real program, the unrolled one's included, has
// the final state of a reduced one (the soundness argument of
// litmus/await.go). So reduced = real = unrolled, as sets of final
// states, as long as no other limit cuts either search.

// cutOnly reports whether r's search was complete but for the loop
// bound: its states are every state of the executions within the bound.
func cutOnly(r *Result) bool {
	const cut = "loops were unrolled"
	return r.Verdict != Unknown && (r.Incomplete == "" || strings.HasPrefix(r.Incomplete, cut)) || strings.HasPrefix(r.Reason, cut)
}

// awaitDiff checks test under the axiomatic models ms with and without
// the reduction, and against SC; it reports whether test has an await.
func awaitDiff(t require.TestingT, name string, test *litmus.Test, ms []Model) bool {
	awaitCompared = 0
	aw, _ := litmus.Awaits(test)
	if len(aw) == 0 {
		return false
	}
	ctx := context.Background()
	sc, err := Check(ctx, test, SC, Options{})
	require.NoError(t, err, name)
	for _, m := range ms {
		if !m.Applies(test.Arch) {
			continue
		}
		// A bound of 1 suffices (see above) and keeps the unrolled
		// search small: the unrolled LSE cmpxchg loop at herd's bound
		// of 2 takes over 20 s under aarch64. The limits guard the
		// machine; a comparison they cut is not made (cutOnly).
		lim := Options{LoopBound: 1, Timeout: 20 * time.Second, MaxMemory: 512 << 20}
		red, err := Check(ctx, test, m, lim)
		lim.Unroll = true
		un, err2 := Check(ctx, test, m, lim)
		if err != nil || err2 != nil {
			// A construct the architecture's compiler refuses
			// (multiplication on riscv) is refused either way.
			require.Equal(t, err != nil, err2 != nil, "%s under %s: reduced %v, unrolled %v", name, m, err, err2)
			continue
		}
		require.NotEqual(t, Unknown, red.Verdict, "%s under %s with the reduction: %s", name, m, red.Reason)
		require.True(t, slices.ContainsFunc(red.Loops, func(l string) bool { return strings.HasSuffix(l, "checked as an await of its exit condition") }), "%s under %s: %v", name, m, red.Loops)
		if cutOnly(un) {
			awaitCompared++
			require.Equal(t, stateLines(un), stateLines(red), "%s under %s: final states unrolled (-) and reduced (+)", name, m)
			require.Equal(t, un.Flags, red.Flags, "%s under %s: flags unrolled and reduced", name, m)
			if un.Verdict != Unknown {
				require.Equal(t, un.Verdict, red.Verdict, "%s under %s", name, m)
			}
		}
		// Every model here is weaker than SC: each state SC reaches
		// with the real loops is allowed.
		if sc.Verdict != Unknown {
			have := stateLines(red)
			for _, s := range stateLines(sc) {
				require.Contains(t, have, s, "%s: a state SC reaches with the real loops is not one %s with the reduction allows", name, m)
			}
		}
		if m == LKMM {
			stuckDiff(t, name, test, sc, red)
		}
	}
	scStuckSame(t, name, test, sc)
	return true
}

// scStuckSame checks the spin check (model/lkmm spin.go) for exactness
// where both families model the same thing: under model/cat/lib/sc.cat,
// the axiomatic SC, a thread can spin forever in an await exactly when
// the operational SC machine, running the real loops, has a state from
// which it can never finish. The check is sound (a witness extends to a
// fair infinite execution, so SC's search reaches a state from which
// the thread never leaves) and complete (a fair infinite SC execution in
// which the thread spins reduces to a witness), docs/semantics.md.
func scStuckSame(t require.TestingT, name string, test *litmus.Test, sc *Result) {
	if sc.Verdict == Unknown {
		return
	}
	if scCat.cat == nil {
		var err error
		scCat, err = LoadCat("cat/lib/sc.cat", CatOptions{})
		require.NoError(t, err)
	}
	r, err := Check(context.Background(), test, scCat, Options{})
	require.NoError(t, err, name)
	if r.Verdict == Unknown {
		return
	}
	require.Equal(t, stateLines(sc), stateLines(r), "%s: final states of SC and sc.cat", name)
	scSpinCompared++
	require.Equal(t, spinning(sc), len(r.Stuck) > 0, "%s: a thread can spin forever under SC (op %v) and sc.cat (%v)", name, sc.Stuck, r.Stuck)
}

// scSpinCompared counts the tests scStuckSame compared; scCat is
// sc.cat, loaded once.
var (
	scSpinCompared int
	scCat          Model
)

// stuckDiff checks the LKMM's threads that spin forever (model/lkmm
// spin.go) against the operational models running the real loops:
// a thread that can spin forever under sc, tso or pso can under the
// LKMM. A fair infinite SC (TSO, PSO) execution in which a thread spins
// in an await reads, from some iteration on, the last write of every
// location the iteration reads, and reduced to that one iteration it is
// an execution the LKMM allows (each of those models is stronger than
// the LKMM on a C test's primitives), so the LKMM's check finds it
// (docs/semantics.md, "Threads that spin forever"). The other way does
// not hold (the LKMM allows lost wakeups SC forbids).
func stuckDiff(t require.TestingT, name string, test *litmus.Test, sc, lk *Result) {
	if lk.Verdict == Unknown {
		return
	}
	for _, m := range []Model{SC, TSO, PSO} {
		op := sc
		if m != SC {
			var err error
			op, err = Check(context.Background(), test, m, Options{})
			require.NoError(t, err, name)
		}
		if op.Verdict == Unknown || !spinning(op) {
			continue
		}
		stuckCompared++
		require.NotEmpty(t, lk.Stuck, "%s: a thread can spin forever under %s (%s) but not under the LKMM", name, m, op.Stuck[0].Reason)
	}
	for _, s := range lk.Stuck {
		require.Contains(t, s.Reason, "can never finish (it spins at line", name)
	}
}

// stuckCompared counts the (test, operational model) pairs stuckDiff
// held the LKMM to.
var stuckCompared int

// spinning reports whether some stuck state of an operational result
// has a thread spinning in a loop (not waiting for a lock).
func spinning(r *Result) bool {
	for _, s := range r.Stuck {
		if strings.Contains(s.Reason, "can never finish") && !strings.Contains(s.Reason, "waits forever") {
			return true
		}
	}
	return false
}

// awaitCompared counts the models under which the last awaitDiff
// compared the state sets.
var awaitCompared int

func awaitModels(t *testing.T) []Model {
	ms := []Model{LKMM, AArch64, AArch64LLSC, RISCV, PPC}
	if _, err := os.Stat(kernelModelDir); err == nil {
		m, err := LoadKernel(kernelModelDir)
		require.NoError(t, err)
		ms = append(ms, m)
	}
	return ms
}

// TestAwaitDiffTestdata runs the differential test on every C test of
// the repository with a loop the reduction takes.
func TestAwaitDiffTestdata(t *testing.T) {
	var files []string
	for _, pat := range []string{"../testdata/*.litmus", "../testdata/code/*.litmus", "testdata/*/*.litmus",
		"../docs/examples/*.litmus", "../cmd/litmus/testdata/in/*.litmus", "../internal/harness/testdata/*.litmus"} {
		m, err := filepath.Glob(pat)
		require.NoError(t, err)
		files = append(files, m...)
	}
	ms := awaitModels(t)
	n, compared := 0, 0
	stuckCompared, scSpinCompared = 0, 0
	for _, f := range files {
		test, err := litmus.ParseFile(f)
		if err != nil || test.Arch != litmus.ArchC {
			continue
		}
		if _, err := Resolve(test, ResolveOptions{}); err != nil {
			continue
		}
		if awaitDiff(t, f, test, ms) {
			n++
			require.Greater(t, awaitCompared, 0, "%s: no model's unrolled search finished", f)
			compared += awaitCompared
		}
	}
	// The bundled loop tests: spin-waits (code and flat, acquire and
	// ONCE), seqcount, cmpxchg increment, lost-wakeup, c-spin.
	require.GreaterOrEqual(t, n, 10, "loop tests found")
	// lost-wakeup spins under tso and pso.
	require.GreaterOrEqual(t, stuckCompared, 2, "operational stuck answers compared")
	require.GreaterOrEqual(t, scSpinCompared, 10, "tests compared under SC and sc.cat")
	t.Logf("%d loop tests, %d (test, model) state sets compared, %d stuck answers", n, compared, stuckCompared)
}

// TestAwaitNotes pins which loops the reduction takes and why it leaves
// the others.
func TestAwaitNotes(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"while (!READ_ONCE(*x)) cpu_relax();", "checked as an await"},
		{"while (!smp_load_acquire(x)) { smp_rmb(); }", "checked as an await"},
		{"do { r0 = READ_ONCE(*x); } while (r0 != 1);", "checked as an await"},
		{"r0 = 0; while (r0 == 0) r0 = READ_ONCE(*x);", "checked as an await"},
		{"do { r0 = READ_ONCE(*x); } while (cmpxchg(x, r0, r0 + 1) != r0);", "checked as an await"},
		{"do { r0 = READ_ONCE(*x); } while (cmpxchg(x, r0, r0 + 1) == r0);", "unrolled (it calls cmpxchg, which may write)"},
		{"while (!READ_ONCE(*x)) WRITE_ONCE(*y, 1);", "unrolled (it calls WRITE_ONCE, which writes)"},
		{"while (!*x) cpu_relax();", "unrolled (it reads *x with a plain access)"},
		{"r0 = 0; do { r0 = r0 + READ_ONCE(*x); } while (r0 < 2);", "unrolled (an iteration reads r0 before it assigns it"},
		{"for (r0 = 0; r0 < 2; r0++) r1 = READ_ONCE(*x);", "unrolled (an iteration reads r0 before it assigns it"},
		{"while (!READ_ONCE(*x)) { if (READ_ONCE(*y)) break; }", "unrolled (it has a break besides its exit test)"},
		{"while (!READ_ONCE(*x)) smp_store_mb(*y, 1);", "unrolled (it calls smp_store_mb, which writes)"},
		{"while (!READ_ONCE(*y)) cpu_relax();", "unrolled (a location it reads may be written by the plain store at line 4"},
		// The try_cmpxchg retry loop as a code test lowers it
		// (litmus/retry.go), and what keeps it unrolled.
		{"r0 = READ_ONCE(*x); do { r1 = r0; r2 = cmpxchg(x, r1, r1 + 1); if (r2 != r1) r0 = r2; } while (r2 != r1);", "checked as an await"},
		{"r0 = atomic_read(x); do { r1 = r0; r2 = atomic_cmpxchg_acquire(x, r1, r0 * 2); if (r2 != r1) r0 = r2; } while (!(r2 == r1));", "checked as an await"},
		{"r0 = 0; do { r1 = r0; r2 = cmpxchg(x, r1, r1 + 1); if (r2 != r1) r0 = r2; } while (r2 != r1);", "unrolled (a try_cmpxchg retry loop, but r0 is not read from x with a relaxed read just before it"},
		{"r0 = smp_load_acquire(x); do { r1 = r0; r2 = cmpxchg(x, r1, r1 + 1); if (r2 != r1) r0 = r2; } while (r2 != r1);", "unrolled (a try_cmpxchg retry loop, but r0 is not read from x with a relaxed read"},
		{"r0 = READ_ONCE(*x); smp_mb(); do { r1 = r0; r2 = cmpxchg(x, r1, r1 + 1); if (r2 != r1) r0 = r2; } while (r2 != r1);", "unrolled (a try_cmpxchg retry loop, but r0 is not read from x"},
		{"r0 = READ_ONCE(*x); do { r1 = r0; r2 = cmpxchg(x, r1, READ_ONCE(*y)); if (r2 != r1) r0 = r2; } while (r2 != r1);", "unrolled (a try_cmpxchg retry loop, but an iteration has events before its cmpxchg"},
		{"r0 = READ_ONCE(*x); do { r2 = cmpxchg(x, r0, r0 + 1); if (r2 != r0) r0 = r2; } while (r2 != r0);", "unrolled (it calls cmpxchg, which may write)"},
	} {
		src := fmt.Sprintf("C t\n{}\nP0(int *x, int *y) {\n\t*y = 2;\n}\nP1(int *x, int *y) {\n\tint r0;\n\tint r1;\n\tint r2;\n\t%s\n}\nexists (1:r0=0)\n", tc.body)
		test, err := litmus.Parse("t.litmus", []byte(src))
		require.NoError(t, err, tc.body)
		_, notes := litmus.Awaits(test)
		require.Len(t, notes, 1, tc.body)
		require.Contains(t, notes[0].Text(), tc.want, tc.body)
	}
}

// spinTest draws a small C test: writers of x and f, and a thread that
// waits on f with one of the loop shapes, then reads x.
func spinTest(t *rapid.T) string {
	var b strings.Builder
	b.WriteString("C spin\n{}\n")
	store := rapid.SampledFrom([]string{"WRITE_ONCE(*%s, %d);", "smp_store_release(%s, %d);"})
	fence := rapid.SampledFrom([]string{"", "smp_wmb();", "smp_mb();"})
	nw := rapid.IntRange(1, 2).Draw(t, "writers")
	incs := 0
	for i := 0; i < nw; i++ {
		fmt.Fprintf(&b, "P%d(int *x, int *f)\n{\n", i)
		fmt.Fprintf(&b, "\t"+store.Draw(t, "sx")+"\n", "x", i+1)
		b.WriteString("\t" + fence.Draw(t, "fw") + "\n")
		fmt.Fprintf(&b, "\t"+store.Draw(t, "sf")+"\n", "f", 1) // the value awaited: some execution exits
		if rapid.Bool().Draw(t, "reset") {
			// The flag set back: an execution whose waiter reads
			// it last spins forever, under every model.
			b.WriteString("\tWRITE_ONCE(*f, 0);\n")
		}
		if incs == 0 && rapid.Bool().Draw(t, "inc") {
			incs++
			cas := rapid.SampledFrom([]string{"cmpxchg", "cmpxchg_relaxed", "cmpxchg_acquire"}).Draw(t, "cas")
			if rapid.Bool().Draw(t, "try") {
				// try_cmpxchg's retry loop (litmus/retry.go). (An
				// expected value off by one, which never matches,
				// makes x's value domain grow without end under
				// the LKMM: Unknown, so not drawn here.)
				b.WriteString("\t{ int o; int e; int r; o = READ_ONCE(*x); do { e = o; r = " + cas + "(x, e, e + 1); if (r != e) o = r; } while (r != e); }\n")
			} else {
				b.WriteString("\t{ int o; do { o = READ_ONCE(*x); } while (" + cas + "(x, o, o + 1) != o); }\n")
			}
		}
		b.WriteString("}\n")
	}
	load := rapid.SampledFrom([]string{"READ_ONCE(*f)", "smp_load_acquire(f)"}).Draw(t, "load")
	body := rapid.SampledFrom([]string{"cpu_relax();", "smp_rmb();", "smp_mb();", ";"}).Draw(t, "body")
	k := 1
	loops := []string{
		fmt.Sprintf("while (!%s) %s", load, body),
		fmt.Sprintf("do { r0 = %s; %s } while (r0 != %d);", load, body, k),
		fmt.Sprintf("r0 = 0; while (r0 == 0) { r0 = %s; %s }", load, body),
		fmt.Sprintf("while (1) { r0 = %s; if (r0 == %d) break; %s }", load, k, body),
		fmt.Sprintf("do { r0 = READ_ONCE(*x); } while (cmpxchg(x, r0, r0 + 10) != r0);"),
	}
	fmt.Fprintf(&b, "P%d(int *x, int *f)\n{\n\tint r0;\n\tint r1;\n\t%s\n\t%s\n\tr1 = READ_ONCE(*x);\n}\n",
		nw, rapid.SampledFrom(loops).Draw(t, "loop"), rapid.SampledFrom([]string{"", "smp_rmb();"}).Draw(t, "after"))
	fmt.Fprintf(&b, "locations [x; f; %d:r0]\nexists (%d:r1=0)\n", nw, nw)
	return b.String()
}

// TestAwaitDiffRapid runs the differential test on drawn spin-wait
// tests, under the LKMM. -short
// skips it.
func TestAwaitDiffRapid(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	stuckCompared, scSpinCompared = 0, 0
	defer func() {
		t.Logf("%d operational stuck answers compared with the LKMM's, %d tests under SC and sc.cat", stuckCompared, scSpinCompared)
	}()
	rapid.Check(t, func(t *rapid.T) {
		src := spinTest(t)
		test, err := litmus.Parse("spin.litmus", []byte(src))
		require.NoError(t, err, src)
		// The LKMM only: the architectures' unrolled compiled searches
		// held 5.5 GB over a hundred drawn tests (their memory is the
		// process's, which the other tests of this package then hit);
		// TestAwaitDiffTestdata runs all four on every bundled test.
		ms := []Model{LKMM}
		require.True(t, awaitDiff(t, src, test, ms), "the drawn loop is an await:\n%s", src)
	})
}

// TestAwaitTwinsKernelCat: the loop code tests and their twins under the
// kernel's own linux-kernel.cat (--model-dir) give the native LKMM's
// verdict (the golden of the eight built-in models is TestCodeTwins'),
// with every loop checked as an await.
func TestAwaitTwinsKernelCat(t *testing.T) {
	if _, err := os.Stat(kernelModelDir); err != nil {
		t.Skip("no shared corpus")
	}
	kern, err := LoadKernel(kernelModelDir)
	require.NoError(t, err)
	for _, tw := range codeTwins {
		if !strings.Contains(tw.code, "spinwait") && !strings.Contains(tw.code, "seqcount") && !strings.Contains(tw.code, "cmpxchg-inc") {
			continue
		}
		for _, f := range []string{tw.code, tw.twin} {
			test := parseFile(t, f)
			want, err := Check(context.Background(), test, LKMM, Options{})
			require.NoError(t, err)
			got, err := Check(context.Background(), test, kern, Options{})
			require.NoError(t, err)
			require.Equal(t, want.Verdict, got.Verdict, "%s under %s", f, kern)
			require.Equal(t, stateLines(want), stateLines(got), "%s under %s", f, kern)
			require.NotEmpty(t, got.Loops, f)
			for _, l := range got.Loops {
				require.Contains(t, l, "checked as an await", f)
			}
		}
	}
}

// TestLostWakeupStuck: the lost wakeup of docs/examples/lost-wakeup.litmus
// leaves the sleeper spinning forever under every model that allows it
// (tso, pso, the LKMM; SC forbids it), and the waker's smp_mb() between
// setting the condition and looking for a sleeper removes it under all
// of them.
func TestLostWakeupStuck(t *testing.T) {
	src, err := os.ReadFile("../docs/examples/lost-wakeup.litmus")
	require.NoError(t, err)
	fixed := strings.Replace(string(src), "WRITE_ONCE(*cond, 1);\n", "WRITE_ONCE(*cond, 1);\n\tsmp_mb();\n", 1)
	require.NotEqual(t, string(src), fixed)
	for _, tc := range []struct {
		src   string
		stuck map[Model]bool
	}{
		{string(src), map[Model]bool{SC: false, TSO: true, PSO: true, LKMM: true}},
		{fixed, map[Model]bool{SC: false, TSO: false, PSO: false, LKMM: false}},
	} {
		test, err := litmus.Parse("lost-wakeup.litmus", []byte(tc.src))
		require.NoError(t, err)
		for _, m := range []Model{SC, TSO, PSO, LKMM} {
			r, err := Check(context.Background(), test, m, Options{})
			require.NoError(t, err)
			require.NotEqual(t, Unknown, r.Verdict, r.Reason)
			require.Equal(t, tc.stuck[m], spinning(r), "%s:\n%s", m, tc.src)
		}
	}
}
