package model

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

// corpus is the conformance corpus, relative to this package's directory
// (../shared/corpus from the repository root).
const corpus = "../../shared/corpus"

// herdOutput is what we compare in a herd7 output file.
type herdOutput struct {
	name, kind  string
	states      []string
	ok          bool
	condition   string
	observation string // "Never", "Sometimes", "Always"
}

func readHerd(t *testing.T, path string) herdOutput {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var h herdOutput
	sc := bufio.NewScanner(f)
	inStates := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fields := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "Test ") && len(fields) >= 3:
			h.name, h.kind = fields[1], fields[2]
		case strings.HasPrefix(line, "States "):
			inStates = true
			continue
		case line == "Ok" || line == "No":
			h.ok = line == "Ok"
			inStates = false
		case strings.HasPrefix(line, "Condition "):
			h.condition = strings.TrimPrefix(line, "Condition ")
		case strings.HasPrefix(line, "Observation ") && len(fields) >= 3:
			h.observation = fields[2]
		}
		if inStates && line != "" {
			h.states = append(h.states, line)
		}
	}
	require.NoError(t, sc.Err())
	return h
}

// corpusFiles returns the .litmus files under dir, sorted, skipping the
// test when the corpus is absent.
func corpusFiles(t *testing.T, dir string) []string {
	t.Helper()
	root := filepath.Join(corpus, dir)
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus not found at %s", root)
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".litmus") {
			files = append(files, p)
		}
		return err
	})
	require.NoError(t, err)
	sort.Strings(files)
	return files
}

func rel(t *testing.T, path string) string {
	r, err := filepath.Rel(corpus, path)
	require.NoError(t, err)
	return r
}

func stateLines(r *Result) []string {
	var out []string
	for _, s := range r.States {
		out = append(out, s.String())
	}
	return out
}

func checkFile(t *testing.T, path string, m Model, opt Options) *Result {
	t.Helper()
	test, err := litmus.ParseFile(path)
	require.NoError(t, err)
	res, err := Check(context.Background(), test, m, opt)
	require.NoError(t, err)
	return res
}

// TestConformanceX86 checks every X86 and X86_64 test against herd7's
// x86tso output: the same state set, verdict, Ok/No and condition.
func TestConformanceX86(t *testing.T) {
	for _, path := range corpusFiles(t, "x86") {
		name := rel(t, path)
		t.Run(name, func(t *testing.T) {
			want := readHerd(t, filepath.Join(corpus, "expected/x86tso", name+".out"))
			for _, plain := range []bool{false, true} {
				res := checkFile(t, path, TSO, Options{Plain: plain})
				require.Equal(t, want.states, stateLines(res), "states (plain=%v)", plain)
				require.Equal(t, want.observation, res.Verdict.String(), "verdict")
				require.Equal(t, want.ok, res.Ok, "Ok/No")
				require.Equal(t, want.kind, res.Kind, "kind")
				require.Equal(t, want.condition, res.Condition, "condition")
			}
		})
	}
}

// TestConformanceSC checks every C test with an expected/sc output: the
// same state set and verdict under SC.
func TestConformanceSC(t *testing.T) {
	for _, path := range corpusFiles(t, "lkmm") {
		name := rel(t, path)
		exp := filepath.Join(corpus, "expected/sc", name+".out")
		if _, err := os.Stat(exp); err != nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			want := readHerd(t, exp)
			for _, plain := range []bool{false, true} {
				res := checkFile(t, path, SC, Options{Plain: plain})
				require.Equal(t, want.states, stateLines(res), "states (plain=%v)", plain)
				require.Equal(t, want.observation, res.Verdict.String(), "verdict")
				require.Equal(t, want.ok, res.Ok, "Ok/No")
				require.Equal(t, want.condition, res.Condition, "condition")
			}
		})
	}
}
