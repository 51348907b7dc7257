package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/model"
	"github.com/stretchr/testify/require"
)

// siteLine finds the fences output line for a construct.
func siteLine(t *testing.T, out, text string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, text) && (strings.Contains(l, "NECESSARY") || strings.Contains(l, "redundant")) && strings.Contains(l, "->") {
			return l
		}
	}
	t.Fatalf("no fences line for %s in:\n%s", text, out)
	return ""
}

func TestFencesBothMbNecessaryUnderTSO(t *testing.T) {
	out, errOut, code := run(t, "fences", "--model", "tso", "testdata/in/sb-mbs.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "SB+mbs under tso: Never as written")
	n := strings.Count(out, "NECESSARY")
	require.Equal(t, 2, n, "both smp_mb() must be necessary:\n%s", out)
	require.Contains(t, out, "minimal sufficient set: smp_mb() (P0, line 12), smp_mb() (P1, line 21)")
}

func TestFencesRedundantWmb(t *testing.T) {
	out, errOut, code := run(t, "fences", "--model", "tso", "testdata/in/sb-mb-wmb.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, siteLine(t, out, "smp_wmb()"), "redundant")
	require.Equal(t, 2, strings.Count(out, "NECESSARY"), out)
	require.Contains(t, out, "smp_rmb()/smp_wmb() compile to nothing")
}

func TestFencesAfterAtomicRedundantUnderTSO(t *testing.T) {
	out, errOut, code := run(t, "fences", "--model", "tso,pso", "testdata/in/sb-atomic.litmus")
	require.Equal(t, exitOK, code, errOut)
	tso := out[:strings.Index(out, "under pso")]
	require.Contains(t, siteLine(t, tso, "smp_mb__after_atomic()"), "redundant")
	require.Contains(t, tso, "already a full barrier")
	// The atomic_inc itself is what orders the store: made plain, the
	// outcome appears.
	require.Contains(t, siteLine(t, tso, "atomic_inc(c)"), "NECESSARY")
}

func TestCheckInputErrorStillChecksOthers(t *testing.T) {
	out, errOut, code := run(t, "check", "--time=false", "testdata/in/bad-syntax.litmus", "testdata/in/sb-mbs.litmus")
	require.Equal(t, exitUsage, code)
	require.Regexp(t, regexp.MustCompile(`litmus: testdata/in/bad-syntax.litmus:\d+:\d+: `), errOut)
	require.Contains(t, errOut, "smp_mb__after_atomic", "the unknown primitive gets a suggestion")
	require.Contains(t, out, "Test SB+mbs Allowed", "the good file is still checked")
}

func TestCheckExpectationMismatchExits1(t *testing.T) {
	_, errOut, code := run(t, "check", "--time=false", "testdata/in/wrong-expect.litmus")
	require.Equal(t, exitCheck, code)
	require.Contains(t, errOut, "tso: expected Never, got Sometimes")
}

func TestCheckUsageErrors(t *testing.T) {
	_, _, code := run(t, "check")
	require.Equal(t, exitUsage, code)
	_, errOut, code := run(t, "check", "--model", "arm", "testdata/in/sb-mbs.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "unknown model")
	_, _, code = run(t, "check", "testdata/no-such-file.litmus")
	require.Equal(t, exitUsage, code)
	_, _, code = run(t, "frobnicate")
	require.Equal(t, exitUsage, code)
}

// TestCheckDeterministicAcrossJobs: the output is the same whatever the
// parallelism, in workers and in GOMAXPROCS.
func TestCheckDeterministicAcrossJobs(t *testing.T) {
	args := []string{"check", "--model", "all", "-v", "--time=false"}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one, _, c1 := run(t, append(append(args, "--jobs", "1"), "../../testdata")...)
	runtime.GOMAXPROCS(2)
	two, _, c2 := run(t, append(append(args, "--jobs", "2"), "../../testdata")...)
	require.Equal(t, c1, c2)
	require.Equal(t, one, two)
}

func TestFmtRoundTrip(t *testing.T) {
	for _, f := range seedTests(t) {
		out, errOut, code := run(t, "fmt", f)
		require.Equal(t, exitOK, code, errOut)
		tmp := filepath.Join(t.TempDir(), filepath.Base(f))
		require.NoError(t, os.WriteFile(tmp, []byte(out), 0o644))
		again, _, code := run(t, "fmt", tmp)
		require.Equal(t, exitOK, code)
		require.Equal(t, out, again, "fmt is not idempotent on %s", f)
	}
	_, _, code := run(t, "fmt", "testdata/in/bad-syntax.litmus")
	require.Equal(t, exitUsage, code)
}

func TestExplainDot(t *testing.T) {
	out, errOut, code := run(t, "explain", "--model", "tso", "--dot", "-", "../../testdata/nospace-mirror-after.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.True(t, strings.HasPrefix(out, "digraph"), "stdout is the graph alone, for dot:\n%s", out)
	require.Contains(t, errOut, "An execution reaching the condition", "the explanation goes to stderr")
	dot := out
	require.Contains(t, dot, "subgraph cluster_P0")
	require.Contains(t, dot, "subgraph cluster_P1")
	// P1 reads nospace=0 from the initial state, while P0's store is
	// still buffered: the witness's key reads-from edge, from the
	// initial-state node of nospace.
	m := regexp.MustCompile(`(e\d+) \[label="[a-z]+: initial nospace"`).FindStringSubmatch(dot)
	require.NotNil(t, m, "no initial-state node for nospace:\n%s", dot)
	require.Regexp(t, regexp.MustCompile(m[1]+` -> e\d+ \[label="rf"`), dot)
	golden(t, "explain/nospace-mirror-after-tso.dot", dot)
}

func TestExplainState(t *testing.T) {
	out, errOut, code := run(t, "explain", "--model", "sc", "--state", "0:r0=1 /\\ 1:r3=0", "../../testdata/nospace.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "An execution reaching the final state 0:r0=1 /\\ 1:r3=0:")
	_, errOut, code = run(t, "explain", "--state", "0:r0=", "../../testdata/nospace.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "--state")
}

func TestDiffExitCodes(t *testing.T) {
	out, _, code := run(t, "diff", "--model", "tso", "../../testdata/nospace.litmus", "../../testdata/nospace-mirror-after.litmus")
	require.Equal(t, exitCheck, code, "a bad outcome became reachable")
	require.Contains(t, out, "tso: Never -> Sometimes (CHANGED)")
	require.Contains(t, out, "+ 0:r0=0; 0:r1=0; 1:r3=0;")
	_, _, code = run(t, "diff", "--model", "tso", "../../testdata/nospace-mirror-after.litmus", "../../testdata/nospace.litmus")
	require.Equal(t, exitOK, code, "a fix is not a regression")
}

func TestVersion(t *testing.T) {
	out, _, code := run(t, "version")
	require.Equal(t, exitOK, code)
	require.True(t, strings.HasPrefix(out, "litmus "), out)
}

func TestCheckJSONParseError(t *testing.T) {
	out, _, code := run(t, "check", "--json", "testdata/in/bad-syntax.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, out, `"observation":"Error"`)
	require.Regexp(t, regexp.MustCompile(`"error":"testdata/in/bad-syntax.litmus:\d+:\d+: `), out)
}

// TestHelpMatchesDefaults keeps the documented state limit true.
func TestHelpMatchesDefaults(t *testing.T) {
	out, _, _ := run(t, "help", "check")
	require.Contains(t, out, "(default "+strconv.Itoa(model.DefaultMaxStates)+")")
	require.Contains(t, out, "(default "+strconv.Itoa(model.DefaultMaxMemory>>20)+")")
}

func TestFencesX86(t *testing.T) {
	f := filepath.Join(corpus, "x86/catalogue/x86/tests/SB+mfences.litmus")
	if _, err := os.Stat(f); err != nil {
		t.Skip("shared corpus not present")
	}
	out, errOut, code := run(t, "fences", "--model", "tso", f)
	require.Equal(t, exitOK, code, errOut)
	require.Equal(t, 2, strings.Count(out, "NECESSARY"), out)
	require.Contains(t, out, "minimal sufficient set: MFENCE (P0, line 12), MFENCE (P1, line 12)")
}

func TestCheckReportsDroppedExecutions(t *testing.T) {
	out, _, code := run(t, "check", "--model", "sc,tso", "testdata/in/deref-null.litmus")
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "Never +dropped")
	out, _, _ = run(t, "check", "--model", "tso", "--time=false", "testdata/in/deref-null.litmus")
	require.Regexp(t, regexp.MustCompile(`(?m)^Dropped deref-null P1 accesses 0`), out)
	out, _, _ = run(t, "check", "--model", "tso", "--json", "testdata/in/deref-null.litmus")
	require.Regexp(t, regexp.MustCompile(`"dropped":[1-9]`), out)
}

// The kernel's "Result: DEADLOCK" expects no execution to complete: stuck
// states under the operational models, herd's "Never 0 0" under LKMM.
func TestCheckDeadlockExpectation(t *testing.T) {
	out, errOut, code := run(t, "check", "--model", "all", "testdata/in/lock-twice.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Never (ok) +stuck")
	// The same test without the expectation fails on the stuck thread.
	src, err := os.ReadFile("testdata/in/lock-twice.litmus")
	require.NoError(t, err)
	tmp := filepath.Join(t.TempDir(), "lock-twice.litmus")
	require.NoError(t, os.WriteFile(tmp, []byte(strings.Replace(string(src), "Result: DEADLOCK", "", 1)), 0o644))
	_, errOut, code = run(t, "check", "--model", "sc", tmp)
	require.Equal(t, exitCheck, code)
	require.Contains(t, errOut, "stuck: P0 waits forever")
}

// TestCheckLISA checks that a LISA test is checked under the LKMM, that
// with several models the operational ones leave it alone, and that asking
// for one of them alone says why it cannot.
func TestCheckLISA(t *testing.T) {
	out, errOut, code := run(t, "check", "--model", "all", "testdata/in/mp-lisa.litmus", "testdata/in/sb-mbs.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Regexp(t, regexp.MustCompile(`MP\+o-wmb-o\+o-rmb-o\s+n/a\s+n/a\s+n/a\s+Never \(ok\)`), out)

	out, errOut, code = run(t, "check", "--model", "lkmm", "--time=false", "testdata/in/mp-lisa.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Observation MP+o-wmb-o+o-rmb-o Never 0 3")

	_, errOut, code = run(t, "check", "--model", "sc", "testdata/in/mp-lisa.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "LISA tests are checked under the Linux-kernel memory model only (--model lkmm)")

	_, errOut, code = run(t, "fences", "--model", "lkmm", "testdata/in/mp-lisa.litmus")
	require.NotEqual(t, exitOK, code)
	require.Contains(t, errOut, "fences does not weaken LISA annotations")
}

// TestArchTestsFmtAndCheck checks that AArch64, RISCV and PPC tests print
// with fmt idempotently, and that a bundled AArch64 example is checked under
// its architecture's model by default.
func TestArchTestsFmtAndCheck(t *testing.T) {
	for _, f := range []string{"../../docs/examples/mp-dmb-addr.litmus",
		"../../litmus/testdata/parse/riscv_forms.litmus", "../../litmus/testdata/parse/ppc_forms.litmus"} {
		out, errOut, code := run(t, "fmt", f)
		require.Equal(t, exitOK, code, errOut)
		tmp := filepath.Join(t.TempDir(), filepath.Base(f))
		require.NoError(t, os.WriteFile(tmp, []byte(out), 0o644))
		again, _, code := run(t, "fmt", tmp)
		require.Equal(t, exitOK, code)
		require.Equal(t, out, again, "fmt is not idempotent on %s", f)
	}
	out, errOut, code := run(t, "check", "--time=false", "../../docs/examples/mp-dmb-addr.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Regexp(t, `Observation \S+ Never 0 \d+`, out)
}

// TestExpectationByAlias: a Result line may name a model by any of its
// names, with a '-' in it.
func TestExpectationByAlias(t *testing.T) {
	src, err := os.ReadFile("../../docs/examples/arch/aarch64/SB+dsb.sts.litmus")
	require.NoError(t, err)
	f := filepath.Join(t.TempDir(), "sb.litmus")
	require.NoError(t, os.WriteFile(f, []byte(strings.Replace(string(src), "Result-AARCH64:", "Result-ARM64:", 1)), 0o644))
	out, errOut, code := run(t, "check", "--model", "aarch64", f)
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Observation SB+dsb.sts Never")
	out, _, _ = run(t, "check", "--model", "all", f)
	require.Contains(t, out, "Never (ok)")
}
