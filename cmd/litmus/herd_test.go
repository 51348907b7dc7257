package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const corpus = "../../../shared/corpus"

// herdLines keeps the lines of a herd7 output that litmus must reproduce
// exactly: the Test line, States and the state lines, Ok/No, Condition,
// and the Observation line without its P N counts (herd counts candidate
// executions, litmus counts final states).
func herdLines(out string) []string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimRight(l, " ")
		switch {
		case strings.HasPrefix(l, "Observation "):
			f := strings.Fields(l)
			keep = append(keep, strings.Join(f[:3], " "))
		case strings.HasPrefix(l, "Test "), strings.HasPrefix(l, "States "), l == "Ok", l == "No",
			strings.HasPrefix(l, "Condition "), strings.HasSuffix(l, ";"):
			keep = append(keep, l)
		}
	}
	return keep
}

// TestHerdOutputX86 compares litmus check --model tso with herd7's
// x86-TSO output for every X86 test of the shared corpus, line by line.
func TestHerdOutputX86(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("shared corpus not present")
	}
	var files []string
	for _, dir := range []string{"x86/catalogue/x86/tests", "x86/catalogue/x86_64/tests", "x86/herd/tests/instructions/X86_64"} {
		fs, _ := filepath.Glob(filepath.Join(corpus, dir, "*.litmus"))
		files = append(files, fs...)
	}
	require.NotEmpty(t, files)
	for _, f := range files {
		rel, _ := filepath.Rel(corpus, f)
		t.Run(rel, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(corpus, "expected/x86tso", rel+".out"))
			if err != nil {
				t.Skip("no herd output for this test")
			}
			out, errOut, code := run(t, "check", "--model", "tso", "--time=false", f)
			require.NotEqual(t, exitUsage, code, errOut)
			require.Equal(t, herdLines(string(want)), herdLines(out))
		})
	}
}
