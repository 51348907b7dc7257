package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The advice of fences --suggest on the cases, text and JSON.
var suggestCases = []struct{ name, file string }{
	{"wfree-mb", "advice/wfree-mb.litmus"},
	{"mp-mbs", "advice/mp-mbs.litmus"},
	{"sb-mbs", "advice/sb-mbs.litmus"},
	{"mp-acquire-rmb", "advice/mp-acquire-rmb.litmus"},
	{"nospace", "nospace.litmus"},
}

func TestSuggestGolden(t *testing.T) {
	for _, c := range suggestCases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, "fences", "--suggest", "../../testdata/"+c.file)
			require.Equal(t, exitOK, code, errOut)
			golden(t, "suggest/"+c.name+".txt", out)
			out, errOut, code = run(t, "fences", "--suggest", "--json", "../../testdata/"+c.file)
			require.Equal(t, exitOK, code, errOut)
			golden(t, "suggest/"+c.name+".jsonl", out)
		})
	}
}

// suggestions reads fences --suggest --json into construct -> suggest,
// by line.
func suggestions(t *testing.T, file string) map[int][2]string {
	out, errOut, code := run(t, "fences", "--suggest", "--json", file)
	require.Equal(t, exitOK, code, errOut)
	got := map[int][2]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var rec struct {
			Line      int                         `json:"line"`
			Construct string                      `json:"construct"`
			Suggest   string                      `json:"suggest"`
			Verdicts  map[string]string           `json:"verdicts"`
			Cost      []struct{ Arch, To string } `json:"cost"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		require.Len(t, rec.Verdicts, 6, "a verdict per model")
		got[rec.Line] = [2]string{rec.Construct, rec.Suggest}
	}
	return got
}

// TestSuggestCases: the "done when", read from the JSON records.
func TestSuggestCases(t *testing.T) {
	got := suggestions(t, "../../testdata/advice/wfree-mb.litmus")
	require.Equal(t, [2]string{"smp_mb()", "smp_mb__after_atomic()"}, got[32])
	require.Equal(t, [2]string{"smp_mb()", "smp_mb()"}, got[43])
	got = suggestions(t, "../../testdata/advice/mp-mbs.litmus")
	require.Equal(t, "smp_wmb()", got[18][1])
	require.Contains(t, []string{"smp_rmb()", "smp_load_acquire(y)"}, got[28][1])
	got = suggestions(t, "../../testdata/advice/sb-mbs.litmus")
	require.Equal(t, [2]string{"smp_mb()", "smp_mb()"}, got[19])
	require.Equal(t, [2]string{"smp_mb()", "smp_mb()"}, got[28])
	got = suggestions(t, "../../testdata/nospace.litmus")
	require.Equal(t, [2]string{"smp_mb()", "smp_mb()"}, got[64], "tcp_check_space()'s smp_mb() stays")
}

func TestSuggestErrors(t *testing.T) {
	_, errOut, code := run(t, "fences", "--json", "../../testdata/nospace.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "--json goes with --suggest")
	_, errOut, code = run(t, "fences", "--suggest", "testdata/in/mp-lisa.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "kernel's C primitives")
}
