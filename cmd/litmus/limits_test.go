package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// runStdin runs the litmus command line in-process with stdin.
func runStdin(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// Input is bounded: a file past litmus.MaxSize is refused with a clear
// error, and the other files are still checked ("check /dev/zero" used to
// grow without limit).
func TestCheckRefusesHugeInput(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.litmus")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("\t\t\t\t\t\t\t\n"), 1<<20+1), 0o644))
	out, errOut, code := run(t, "check", "--model", "sc", "--time=false", big, "../../testdata/nospace.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "big.litmus: more than 8 MiB; litmus reads tests up to 8 MiB")
	require.Contains(t, out, "Test nospace Allowed")
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, errOut, code = run(t, "check", "/dev/zero")
		require.Equal(t, exitUsage, code)
		require.Contains(t, errOut, "litmus: /dev/zero: more than 8 MiB")
	}
}

// "check -" reads the test from standard input.
func TestCheckReadsStdin(t *testing.T) {
	src, err := os.ReadFile("../../testdata/nospace.litmus")
	require.NoError(t, err)
	out, errOut, code := runStdin(t, string(src), "check", "--model", "sc", "--time=false", "-")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Observation nospace Never 0 4")
	out, _, _ = runStdin(t, string(src), "check", "--model", "sc", "--json", "-")
	require.Contains(t, out, `"file":"<stdin>"`)
	_, errOut, code = runStdin(t, "C bad\n{}\nP0(int *x) { WRITE_ONCE(*x, 1) }\n", "check", "-")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "litmus: <stdin>:3:")
}

// The LKMM honours --timeout inside one large execution, with the reason
// in words.
func TestCheckLKMMTimeout(t *testing.T) {
	src := "C long\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n" + strings.Repeat("\tsmp_mb();\n", 3000) + "}\nexists (x=1)\n"
	out, errOut, code := runStdin(t, src, "check", "--model", "lkmm", "--timeout", "50ms", "--time=false", "-")
	require.Equal(t, exitCheck, code)
	require.Contains(t, out, "Unknown long timed out after 50ms\n")
	require.Contains(t, errOut, "lkmm: verdict Unknown: timed out after 50ms")
}

// The operational search says when its partial-order reduction does not
// apply, under -v and in JSON, the same way for a loop and for
// invariants (a 33-thread test used to lose the reduction silently; a
// loop or an invariant still does, and says so).
func TestCheckSaysWhenUnreduced(t *testing.T) {
	loop := "C loop\n{}\nP0(int *x)\n{\n\tint r0;\n\tr0 = READ_ONCE(*x);\n\twhile (r0 == 0)\n\t\tr0 = READ_ONCE(*x);\n}\nP1(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (0:r0=1)\n"
	out, errOut, code := runStdin(t, loop, "check", "-v", "--model", "tso", "--time=false", "-")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Search loop plain: the program loops, so the partial-order reduction does not apply and every interleaving is explored\n")
	out, _, _ = runStdin(t, loop, "check", "--json", "--model", "sc", "-")
	require.Contains(t, out, `"unreduced":"the program loops"`)

	out, _, _ = run(t, "check", "-v", "--model", "pso", "--time=false", "../../testdata/nospace-mirror-invariant.litmus")
	require.Contains(t, out, "Search nospace-mirror-invariant plain: invariants are checked in every state, so the partial-order reduction does not apply")
	out, _, _ = run(t, "check", "--json", "--model", "sc", "../../testdata/nospace-mirror-invariant.litmus")
	require.Contains(t, out, `"unreduced":"invariants are checked in every state"`)

	// Reduced: nothing said; the other engines say nothing either.
	out, _, _ = run(t, "check", "-v", "--model", "tso", "--time=false", "../../testdata/nospace.litmus")
	require.NotContains(t, out, "Search ")
	out, _, _ = run(t, "check", "--json", "--model", "tso", "../../testdata/nospace.litmus")
	require.NotContains(t, out, "unreduced")
	out, _, _ = run(t, "check", "-v", "--model", "lkmm", "--time=false", "../../testdata/nospace.litmus")
	require.NotContains(t, out, "Search ")
}
