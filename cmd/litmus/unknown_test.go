package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// judgeLikeKernel reads herd output as the kernel's judgelitmus.sh does:
// the test passes when an Observation line carries the expected word
// ("Never 0 0" at the end of the line for DEADLOCK).
func judgeLikeKernel(out, outcome string) bool {
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "Observation") {
			continue
		}
		if outcome == "DEADLOCK" {
			return strings.HasSuffix(l, "Never 0 0")
		}
		return strings.Contains(l, outcome)
	}
	return false
}

// An Unknown result prints nothing a herd-reading script takes for a
// verdict: no Ok/No, no Witnesses/Positive/Negative, no counts on the
// Observation line (it used to print "No" and "Positive: 1 Negative: 20").
func TestUnknownPrintsNoVerdict(t *testing.T) {
	src, err := os.ReadFile("testdata/in/spin-count.litmus")
	require.NoError(t, err)
	f := filepath.Join(t.TempDir(), "spin-count0.litmus")
	require.NoError(t, os.WriteFile(f, []byte(strings.Replace(string(src), "exists (0:r0=1)", "exists (0:r0=0)", 1)), 0o644))
	out, _, code := run(t, "check", "--model", "sc", "--max-states", "200", "--time=false", f)
	require.Equal(t, exitCheck, code)
	require.Contains(t, out, "\nObservation spin-count Unknown\nUnknown spin-count state limit of 200 states reached\n")
	require.NotRegexp(t, regexp.MustCompile(`(?m)^(Ok|No|Witnesses|Positive:.*)$`), out)
	for _, outcome := range []string{"Never", "Sometimes", "Always", "DEADLOCK"} {
		require.False(t, judgeLikeKernel(out, outcome), "judgelitmus.sh would read %s in:\n%s", outcome, out)
	}
}

// A bounded search that has found final states both satisfying and
// violating the condition has an exact verdict: Sometimes, with a note
// that the rest (here, stuck threads) was checked only in part.
func TestBoundedSometimesIsExact(t *testing.T) {
	out, errOut, code := run(t, "check", "--model", "sc", "--max-states", "200", "--time=false", "testdata/in/spin-count.litmus")
	require.Equal(t, exitCheck, code, "stuck threads were not searched for everywhere")
	require.Contains(t, out, "Ok\nWitnesses\nPositive: 1 Negative: 20\nCondition exists (0:r0=1)\nObservation spin-count Sometimes 1 20\n")
	require.Contains(t, out, "Incomplete spin-count the search stopped early (state limit of 200 states reached)")
	require.True(t, judgeLikeKernel(out, "Sometimes"))
	require.Contains(t, errOut, "sc: the search stopped early (state limit of 200 states reached): Sometimes is certain, but stuck threads were checked only in the part explored")

	_, _, code = run(t, "check", "--model", "sc", "--max-states", "200", "--allow-unknown", "testdata/in/spin-count.litmus")
	require.Equal(t, exitOK, code)
	out, _, _ = run(t, "check", "--model", "sc", "--max-states", "200", "--json", "testdata/in/spin-count.litmus")
	require.Contains(t, out, `"observation":"Sometimes","incomplete":"state limit of 200 states reached"`)
	require.Contains(t, out, `"herd_ok":true`)
}

// explain says when the search stopped early though the verdict is
// certain.
func TestExplainIncomplete(t *testing.T) {
	out, errOut, code := run(t, "explain", "--model", "sc", "--max-states", "200", "testdata/in/spin-count.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "Test spin-count under sc: Sometimes (21 final states, 202 states explored)\nThe search stopped early (state limit of 200 states reached) after it found final states where the condition holds and where it fails: Sometimes is certain")
}
