package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeTest writes src to a file in a temporary directory.
func writeTest(t *testing.T, name, src string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(f, []byte(src), 0o644))
	return f
}

// fences on a test whose own search ends Unknown says so, instead of
// "no ordering constructs to weaken" for a test with ten smp_mb().
func TestFencesUnknownBaseline(t *testing.T) {
	src := "C mb10\n{}\nP0(int *x, int *y)\n{\n\tint r0;\n\tWRITE_ONCE(*x, 1);\n" + strings.Repeat("\tsmp_mb();\n", 10) +
		"\tr0 = READ_ONCE(*y);\n}\nP1(int *x, int *y)\n{\n\tint r0;\n\tWRITE_ONCE(*y, 1);\n\tr0 = READ_ONCE(*x);\n}\nexists (0:r0=0 /\\ 1:r0=0)\n"
	out, _, code := run(t, "fences", "--model", "sc", "--max-states", "3", writeTest(t, "mb10.litmus", src))
	require.Equal(t, exitCheck, code)
	require.Contains(t, out, "mb10 under sc: Unknown as written\n  the search of the test as written ended Unknown (state limit of 3 states reached): none of its 10 ordering constructs can be judged")
	require.NotContains(t, out, "no ordering constructs to weaken")
}

// explain --dot with no execution to draw is an error, not a silent
// exit 0 without the file (no execution reaching the outcome under an
// operational model). Under an axiomatic model that forbids the outcome
// the picture is the rejected execution, its cycle drawn bold.
func TestExplainDotWithoutExecution(t *testing.T) {
	file := filepath.Join(t.TempDir(), "g.dot")
	_, errOut, code := run(t, "explain", "--model", "lkmm", "--dot", file, "../../testdata/nospace.litmus")
	require.Equal(t, exitOK, code, errOut)
	dot, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Contains(t, string(dot), "nospace under lkmm: Never (forbidden: propagation)")
	require.Contains(t, string(dot), "penwidth=2.5", "the cycle is marked")
	_, errOut, code = run(t, "explain", "--model", "tso", "--dot", file, "../../testdata/nospace.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "litmus: --dot: nothing to draw under tso: no execution reaches exists (0:r0=0 /\\ 0:r1=0 /\\ 1:r3=0)")

	// With a file, the file holds the graph and stdout the explanation.
	out, errOut, code := run(t, "explain", "--model", "tso", "--dot", file, "../../testdata/nospace-mirror-after.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "An execution reaching the condition")
	dot, err = os.ReadFile(file)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(dot), "digraph"))
}

// A bad --state is an error about the flag, not about the test file (it
// used to blame the file's line 4), under every model.
func TestExplainBadStateBlamesTheFlag(t *testing.T) {
	for _, m := range []string{"sc", "lkmm"} {
		_, errOut, code := run(t, "explain", "--model", m, "--state", "zz=1", "../../testdata/nospace.litmus")
		require.Equal(t, exitUsage, code)
		require.Equal(t, "litmus: --state: unknown location zz\n", errOut)
		_, errOut, _ = run(t, "explain", "--model", m, "--state", "5:r0=1", "../../testdata/nospace.litmus")
		require.Equal(t, "litmus: --state: no thread P5\n", errOut)
	}
}

// An error that every model finds in the test is printed once under
// --model all ("no thread P5" used to come four times).
func TestErrorOfEveryModelPrintedOnce(t *testing.T) {
	src, err := os.ReadFile("../../testdata/nospace.litmus")
	require.NoError(t, err)
	f := writeTest(t, "p5.litmus", strings.Replace(string(src), "exists (0:r0=0", "exists (5:r0=0", 1))
	_, errOut, code := run(t, "check", "--model", "all", f)
	require.Equal(t, exitUsage, code)
	require.Equal(t, 1, strings.Count(errOut, "no thread P5"), errOut)
}

// Limits that cannot mean what they say are usage errors (exit 2), not
// silently accepted; so are arguments to version.
func TestBadFlagValuesAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--max-states", "0"}, {"--max-states", "-5"}, {"--timeout", "-1s"},
		{"--jobs", "0"}, {"--jobs", "-1"}, {"--max-memory", "0"}, {"--max-states", "many"},
	} {
		for _, cmd := range []string{"check", "explain", "fences"} {
			_, errOut, code := run(t, append([]string{cmd}, append(args, "../../testdata/nospace.litmus")...)...)
			require.Equal(t, exitUsage, code, "%s %v", cmd, args)
			require.Contains(t, errOut, "invalid value \""+args[1]+"\" for flag -"+args[0][2:], "%s %v", cmd, args)
		}
	}
	_, _, code := run(t, "check", "--timeout", "0", "--time=false", "../../testdata/nospace.litmus")
	require.Equal(t, exitOK, code, "--timeout 0 means no time limit")
	_, errOut, code := run(t, "version", "extra")
	require.Equal(t, exitUsage, code)
	require.Equal(t, "litmus: usage: litmus version\n", errOut)
}

// The summary keeps its columns after a file that does not parse.
func TestSummaryAlignedAfterInputError(t *testing.T) {
	out, _, _ := run(t, "check", "--model", "all", "testdata/in/bad-syntax.litmus", "../../testdata/nospace.litmus")
	lines := strings.Split(out, "\n")
	require.GreaterOrEqual(t, len(lines), 3, out)
	col := strings.Index(lines[0], "sc")
	require.Equal(t, col, strings.Index(lines[1], "input error"), out)
	require.Equal(t, col, strings.Index(lines[2], "Never (ok)"), out)
	require.Equal(t, strings.Index(lines[0], "lkmm"), strings.LastIndex(lines[2], "Never (ok)"), out)
}

// 65 threads are refused under every model alike, with one message; the
// LKMM used to accept what the others refused.
func TestThreadLimitUnderEveryModel(t *testing.T) {
	var b strings.Builder
	b.WriteString("C t65\n{}\n")
	for i := 0; i < 65; i++ {
		b.WriteString("P" + strconv.Itoa(i) + "(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\n")
	}
	b.WriteString("exists (x=1)\n")
	out, errOut, code := run(t, "check", "--model", "all", writeTest(t, "t65.litmus", b.String()))
	require.Equal(t, exitUsage, code)
	require.Contains(t, out, "t65   input error  input error  input error  input error")
	require.Equal(t, 1, strings.Count(errOut, "65 threads; at most 64 are supported"), errOut)
}

// The docs and the help are true for what changed (issue 10, item 7).
func TestHelpAndDocsSayWhatIsTrue(t *testing.T) {
	models, _, _ := run(t, "help", "models")
	for _, reason := range []string{"state limit", "time limit", "interrupt", "memory cap", "store buffer past 64", "unrolled", "256", "2^20 paths", "allowed\nexecutions under the axiomatic models"} {
		require.Contains(t, models, reason, "help models must list every reason for Unknown")
	}
	js, _, _ := run(t, "help", "json")
	require.Contains(t, js, "allowed\n                        executions under lkmm")
	require.Contains(t, js, "always 0 under lkmm")

	// litmus CMD --help prints the command's help, flags included.
	for _, c := range []string{"check", "explain", "fences", "diff", "fmt"} {
		out, errOut, code := run(t, c, "--help")
		require.Equal(t, exitOK, code, errOut)
		want, _, _ := run(t, "help", c)
		require.Equal(t, want, out)
		require.Contains(t, out, "Flags:")
	}

	guide, err := os.ReadFile("../../docs/guide.md")
	require.NoError(t, err)
	require.NotContains(t, string(guide), "prefix every command with `go run ./cmd/`")
	require.NotContains(t, string(guide), "a search also stops at 1.5 GiB of memory")
	require.Contains(t, string(guide), "Under `lkmm` it\ncounts allowed executions")
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	require.Contains(t, string(readme), "Go 1.26 or later")
	require.Contains(t, string(readme), "$(go env GOBIN)")
}

// JSON error records carry kind, condition and expected when the file
// parsed, as the schema lists them.
func TestJSONErrorRecordsHaveTheSchema(t *testing.T) {
	out, _, code := run(t, "check", "--model", "lkmm", "--json", "testdata/in/mp-typo.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, out, `"observation":"Error","kind":"Allowed","condition":"exists (1:r0=1 /\\ 1:r1=0)"`)
	require.Contains(t, out, `"expected":"Never"`)
}

// The version names the revision once, and says (devel) without a stamp.
func TestVersionFromBuildInfo(t *testing.T) {
	require.Equal(t, "litmus (devel)", versionFrom(nil))
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201163025-20317e10012a"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "20317e10012a46e17ef07c5c0a3c0433587d4651"}, {Key: "vcs.modified", Value: "true"}}}
	require.Equal(t, "litmus v0.0.0-20261201163025-20317e10012a+dirty", versionFrom(bi))
	bi.Main.Version = "(devel)"
	require.Equal(t, "litmus (devel) 20317e10012a+dirty", versionFrom(bi))
}
