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
// exactly: the Test line, States and the state lines, Ok/No, Flag lines,
// Condition, and the Observation line. The P N counts are kept only with
// counts set: herd counts candidate executions, which the LKMM engine
// does too, while the operational models count final states.
func herdLines(out string, counts bool) []string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimRight(l, " ")
		switch {
		case strings.HasPrefix(l, "Observation "):
			if !counts {
				l = strings.Join(strings.Fields(l)[:3], " ")
			}
			keep = append(keep, l)
		case counts && strings.HasPrefix(l, "Positive: "):
			keep = append(keep, l)
		case strings.HasPrefix(l, "Test "), strings.HasPrefix(l, "States "), l == "Ok", l == "No", strings.HasPrefix(l, "Flag "),
			strings.HasPrefix(l, "Condition "), strings.HasSuffix(l, ";"):
			keep = append(keep, l)
		}
	}
	return keep
}

// compareWithHerd runs litmus check under model on every test of the
// corpus directories and compares its output with herd7's in
// herdFreshZero are the corpus tests whose herd7 answers rest on its
// reading of a register only the condition names, a fresh 0: they are
// checked with --fresh-zero (model/resolve_test.go's freshZero, and
// docs/testing.md, say why).
var herdFreshZero = map[string]bool{
	"x86/herd/tests/instructions/X86_64/A000.litmus": true,
	"x86/herd/tests/instructions/X86_64/A003.litmus": true,
}

// expected/<expected>/, line by line.
func compareWithHerd(t *testing.T, model, expected string, counts bool, dirs ...string) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("shared corpus not present")
	}
	var files []string
	for _, dir := range dirs {
		fs, _ := filepath.Glob(filepath.Join(corpus, dir, "*.litmus"))
		files = append(files, fs...)
	}
	require.NotEmpty(t, files)
	compared := 0
	for _, f := range files {
		rel, _ := filepath.Rel(corpus, f)
		want, err := os.ReadFile(filepath.Join(corpus, "expected", expected, rel+".out"))
		if err != nil {
			continue // herd gave no output for this test under this model
		}
		compared++
		t.Run(rel, func(t *testing.T) {
			args := []string{"check", "--model", model, "--time=false", f}
			if herdFreshZero[rel] {
				args = append(args[:1], append([]string{"--fresh-zero"}, args[1:]...)...)
			}
			out, errOut, code := run(t, args...)
			require.NotEqual(t, exitUsage, code, errOut)
			require.Equal(t, herdLines(string(want), counts), herdLines(out, counts))
		})
	}
	t.Logf("%d tests compared with herd7 under %s", compared, model)
	require.NotZero(t, compared)
}

// TestHerdOutputX86 compares litmus check --model tso with herd7's
// x86-TSO output for every X86 test of the shared corpus.
func TestHerdOutputX86(t *testing.T) {
	compareWithHerd(t, "tso", "x86tso", false, "x86/catalogue/x86/tests", "x86/catalogue/x86_64/tests", "x86/herd/tests/instructions/X86_64")
}

var cDirs = []string{"lkmm/tools/memory-model/litmus-tests", "lkmm/herdtools7-catalogue-linux/tests",
	"lkmm/Documentation/litmus-tests/atomic", "lkmm/Documentation/litmus-tests/locking", "lkmm/Documentation/litmus-tests/rcu"}

// TestHerdOutputLKMM compares litmus check --model lkmm with herd7's
// linux-kernel.cfg output for every C test, counts included.
func TestHerdOutputLKMM(t *testing.T) { compareWithHerd(t, "lkmm", "lkmm", true, cDirs...) }

// TestHerdOutputSC compares litmus check --model sc with herd7's sc.cat
// output for the C tests herd could run under it.
func TestHerdOutputSC(t *testing.T) { compareWithHerd(t, "sc", "sc", false, cDirs...) }
