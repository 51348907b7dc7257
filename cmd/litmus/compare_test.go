package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkJSON runs check --json with args and writes its output to file.
func checkJSON(t *testing.T, file string, args ...string) int {
	t.Helper()
	out, errOut, code := run(t, append([]string{"check", "--json", "--allow-unknown"}, args...)...)
	require.NotEqual(t, exitUsage, code, errOut)
	require.NoError(t, os.WriteFile(file, []byte(out), 0o644))
	return strings.Count(out, "\n")
}

// TestShardCompareRoundTrip: the N shards of a run check every file
// once, and compare finds their merged outputs the same as the whole
// run; a run under another model shows the verdicts that changed, with
// exit status 1.
func TestShardCompareRoundTrip(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	n := checkJSON(t, whole, "--model", "sc", "../../testdata")
	require.Greater(t, n, 5)
	shards := filepath.Join(dir, "shards")
	require.NoError(t, os.Mkdir(shards, 0o755))
	total := 0
	for k := 1; k <= 3; k++ {
		total += checkJSON(t, filepath.Join(shards, fmt.Sprintf("shard-%d.jsonl", k)), "--model", "sc", "--shard", fmt.Sprintf("%d/3", k), "../../testdata")
	}
	require.Equal(t, n, total, "the shards check every file once")

	out, errOut, code := run(t, "compare", whole, shards)
	require.Equal(t, exitOK, code, out+errOut)
	require.Equal(t, fmt.Sprintf("%d results: %d same, 0 changed verdict, 0 changed states, 0 only in OLD, 0 only in NEW; Unknown: 0 in OLD, 0 in NEW\n", n, n), out)

	tso := filepath.Join(dir, "tso.jsonl")
	checkJSON(t, tso, "--model", "tso", "../../testdata")
	out, _, code = run(t, "compare", whole, tso)
	require.Equal(t, exitCheck, code, out)
	require.Contains(t, out, "by file\n")
	require.Contains(t, out, "CHANGED   ../../testdata/nospace-mirror-after.litmus sc->tso: Never -> Sometimes\n")
	require.NotContains(t, out, "nospace.litmus", "same answer under both")

	// Fewer files than shards: the empty shard checks nothing and
	// succeeds.
	out, errOut, code = run(t, "check", "--model", "sc", "--json", "--shard", "9/9", "../../testdata/nospace.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Empty(t, out)
}

// TestCompareInputErrors: a line that is no result and a result twice
// with two answers are input errors with their file:line; a result on
// one side only is a difference.
func TestCompareInputErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	a := `{"file":"a.litmus","model":"lkmm","observation":"Never","states":["x=0;"]}` + "\n"
	b := `{"file":"b.litmus","model":"lkmm","observation":"Unknown","states":[]}` + "\n"
	good := write("good.jsonl", a)
	bad := write("bad.jsonl", a+"Test SB Allowed\n")
	_, errOut, code := run(t, "compare", good, bad)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "bad.jsonl:2: not a result of 'litmus check --json'")

	twice := write("twice.jsonl", a+strings.Replace(a, "Never", "Sometimes", 1))
	_, errOut, code = run(t, "compare", good, twice)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "twice.jsonl:2: a.litmus under lkmm again, with another answer than at ")

	more := write("more.jsonl", a+b)
	out, _, code := run(t, "compare", good, more)
	require.Equal(t, exitCheck, code)
	require.Equal(t, "ONLY-NEW  b.litmus lkmm: Unknown\n2 results: 1 same, 0 changed verdict, 0 changed states, 0 only in OLD, 1 only in NEW; Unknown: 0 in OLD, 1 in NEW\n", out)

	gained := write("gained.jsonl", strings.Replace(a, `["x=0;"]`, `["x=0;","x=1;"]`, 1))
	out, _, code = run(t, "compare", good, gained)
	require.Equal(t, exitCheck, code)
	require.Contains(t, out, "STATES    a.litmus lkmm: Never, +1 -0 states\n")
	out, _, code = run(t, "compare", "--states=false", good, gained)
	require.Equal(t, exitOK, code, out)

	_, errOut, code = run(t, "compare", good)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "usage: litmus compare")
}
