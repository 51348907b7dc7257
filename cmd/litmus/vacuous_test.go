package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A misspelt location is an error under every model (the architecture
// models compile C tests: model/kcomp resolves names the same way),
// printed once, with
// a suggestion; it used to read as a register holding 0, every execution
// was dropped, and "Result: Never" passed with no final state.
func TestCheckMisspeltLocationIsAnError(t *testing.T) {
	out, errOut, code := run(t, "check", "--model", "all", "testdata/in/mp-typo.litmus")
	require.Equal(t, exitUsage, code, out)
	const msg = "litmus: testdata/in/mp-typo.litmus:24:18: undeclared location flga (not a parameter of P1, not in the init section, not a register set earlier); did you mean flag?\n"
	require.Equal(t, msg, errOut, "the error, once for all eight models")
	require.Regexp(t, `MP-typo(\s+input error){8}\n`, out)
	require.NotContains(t, out, "(ok)")

	out, _, code = run(t, "check", "--model", "all", "--json", "testdata/in/mp-typo.litmus")
	require.Equal(t, exitUsage, code)
	require.Equal(t, 8, strings.Count(out, `"observation":"Error"`), out)
}

// A test in which no execution reaches the end meets no Never or Always
// expectation, under every model.
func TestCheckNoFinalStateFails(t *testing.T) {
	out, errOut, code := run(t, "check", "--model", "all", "testdata/in/mp-filtered.litmus")
	require.Equal(t, exitCheck, code, out+errOut)
	require.Contains(t, out, "MP-filtered  Never (no final state)  Never (no final state)  Never (no final state)  Never (no final state)")
	for _, m := range []string{"sc", "tso", "pso", "lkmm"} {
		require.Contains(t, errOut, "mp-filtered.litmus: "+m+": no execution reaches the end of the test (0 final states: the filter excludes every final state), so Never checks nothing")
	}
	out, _, _ = run(t, "check", "--model", "lkmm", "--json", "testdata/in/mp-filtered.litmus")
	require.Contains(t, out, `"expected":"Never","ok":false`)
}
