package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// writers is a test of n threads each writing its own value to x: n!
// interleavings, a visited set that grows fast under SC.
func writers(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C %s\n{}\n", name)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "P%d(int *x)\n{\n\tWRITE_ONCE(*x, %d);\n}\n", i, i+1)
	}
	b.WriteString("exists (x=1)\n")
	return b.String()
}

// answers runs check --json and returns each test's record without its
// elapsed time.
func answers(t *testing.T, args ...string) map[string]map[string]any {
	t.Helper()
	out, errOut, code := run(t, append([]string{"check", "--model", "sc", "--json", "--allow-unknown"}, args...)...)
	require.Equal(t, exitOK, code, errOut)
	got := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var j map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &j), line)
		delete(j, "elapsed_s")
		got[j["test"].(string)] = j
	}
	return got
}

// TestAnswerIndependentOfTheBatch: a test's answer (observation, states,
// counts, the point where a limit stopped it) is the same alone, after
// a test that fills the memory cap, and beside it on another core. The
// cap is on what each test holds: with the cap on the whole process, the
// heavy test's memory (or its garbage) made the next one Unknown.
func TestAnswerIndependentOfTheBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("fills the memory cap")
	}
	dir := t.TempDir()
	heavy, target := filepath.Join(dir, "a-heavy.litmus"), filepath.Join(dir, "b-target.litmus")
	require.NoError(t, os.WriteFile(heavy, []byte(writers("heavy", 64)), 0o644))
	require.NoError(t, os.WriteFile(target, []byte(writers("target", 13)), 0o644))
	const capMiB = "40"
	alone := answers(t, "--max-memory", capMiB, target)["target"]
	require.Equal(t, "Sometimes", alone["observation"], alone["reason"])
	heavyAlone := answers(t, "--max-memory", capMiB, heavy)["heavy"]
	require.Equal(t, "Unknown", heavyAlone["observation"])
	require.Contains(t, heavyAlone["reason"], "memory cap: ")
	for _, jobs := range []string{"1", "2"} {
		both := answers(t, "--max-memory", capMiB, "--jobs", jobs, heavy, target)
		require.Equal(t, alone, both["target"], "--jobs %s, after the heavy test", jobs)
		require.Equal(t, heavyAlone, both["heavy"], "--jobs %s: the heavy test stops at the same point", jobs)
	}
}
