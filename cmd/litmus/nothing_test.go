package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The cases of issue #26: each exited 0 with "passed" on main, having
// checked nothing. Each is now one input error, printed once under
// --model all, and no model answers.
func TestChecksNothingIsAnError(t *testing.T) {
	for _, tc := range []struct {
		file string
		errs []string
	}{
		{"sb-typo-verdict", []string{
			"sb-typo-verdict.litmus:7:12: Result: unknown verdict Nevr (want Never, Sometimes, Always or DEADLOCK); did you mean Never?",
			"sb-typo-verdict.litmus:8:11: Result-TS0: unknown model TS0 (want sc, tso, pso, lkmm, aarch64, aarch64-llsc, riscv, ppc or an alias: 'litmus help models', or a model of the run); did you mean Result-TSO?",
		}},
		{"mp-cond-typo", []string{
			"mp-cond-typo.litmus:30:9: unknown location flga: no thread accesses it and the init section does not declare it (herd7 reads it as a fresh 0, as --fresh-zero does); did you mean flag?",
			"mp-cond-typo.litmus:30:19: unknown register 0:r7: P0 never uses it and the init section does not set it (herd7 reads it as a fresh 0, as --fresh-zero does)",
		}},
		{"mov-too-big", []string{
			"mov-too-big.litmus:6:2: MOV: integer 9223372036854775807 out of range in operand '#9223372036854775807' (herd7 reads AArch64 integers as 63-bit, -2^62 to 2^62-1)",
		}},
		{"thread-gap", []string{
			"thread-gap.litmus:13:1: expected process P1, found P2 (threads are numbered P0, P1, ... in order, as herd7 requires)",
		}},
	} {
		path := "testdata/in/" + tc.file + ".litmus"
		out, errOut, code := run(t, "check", "--model", "all", path)
		require.Equal(t, exitUsage, code, tc.file)
		var want string
		for _, e := range tc.errs {
			want += "litmus: testdata/in/" + e + "\n"
		}
		require.Equal(t, want, errOut, "%s: each error once, whatever --model says", tc.file)
		require.NotContains(t, out, "(ok)")
		require.NotContains(t, out, "internal error")
		require.Contains(t, out, "\n0 passed, 1 failed\n")
		for _, m := range []string{"tso", "lkmm", "aarch64"} {
			_, errOut1, code := run(t, "check", "--model", m, path)
			require.Equal(t, exitUsage, code, "%s under %s", tc.file, m)
			require.Equal(t, want, errOut1, "%s under %s: the same error under every model", tc.file, m)
		}
	}
}

// --fresh-zero reads a name only the final section uses as herd7 does,
// a fresh 0; the condition of mp-cond-typo then holds nowhere and every
// model says Never, which is why it is not the default.
func TestFreshZeroIsHerdsReading(t *testing.T) {
	out, errOut, code := run(t, "check", "--fresh-zero", "--model", "sc,lkmm,aarch64", "testdata/in/mp-cond-typo.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Regexp(t, `MP-cond-typo\s+Never\s+Never \(ok\)\s+Never\n`, out)
	// The note: the Result line is the LKMM's; sc and aarch64 have none.
	require.Contains(t, out, "\n1 passed, 0 failed, 2 unjudged (no expectation)\n")
}

// A test no expectation judges is not a pass: the summary line counts it
// apart (issue #26 item 5, #27 "N passed counts results that had no
// expectation").
func TestSummaryCountsJudgedResults(t *testing.T) {
	out, _, code := run(t, "check", "--model", "sc,tso", "testdata/in/sb-mbs.litmus", "testdata/in/wrong-expect.litmus")
	require.Equal(t, exitCheck, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Regexp(t, `^\d+ passed, 1 failed, \d+ unjudged \(no expectation\)$`, lines[len(lines)-1], out)
}

// With several models, a Result line for a model outside the run is
// noted once; one for a model the run has is not.
func TestExpectationOutsideTheRunIsNoted(t *testing.T) {
	_, errOut, code := run(t, "check", "--model", "sc,tso", "testdata/in/wrong-expect.litmus")
	require.Equal(t, exitCheck, code)
	require.NotContains(t, errOut, "note:")
	_, errOut, _ = run(t, "check", "--model", "sc,pso", "testdata/in/wrong-expect.litmus")
	require.Equal(t, 1, strings.Count(errOut, "wrong-expect.litmus:4:4: note: Result-TSO: not checked: tso is not among the models of this run"), errOut)
}
