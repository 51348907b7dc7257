package model

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/stretchr/testify/require"
)

// corpus is the conformance corpus, relative to this package's directory
// (../shared/corpus from the repository root).
var corpus = shared.Corpus()

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
	root := shared.CorpusDir(t, dir)
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
	for _, s := range r.States.All() {
		out = append(out, s.String())
	}
	return out
}

func checkFile(t *testing.T, path string, m Model, opt Options) *Result {
	t.Helper()
	test, err := litmus.ParseFile(path)
	require.NoError(t, err)
	p, err := Resolve(test, ResolveOptions{FreshZero: freshZero[rel(t, path)]})
	require.NoError(t, err)
	res, err := p.Check(context.Background(), m, opt)
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

// TestCorpusInclusion checks SC ⊆ TSO ⊆ PSO on every corpus C test, the
// reduced search against the plain one, and
// that a test with marked accesses only that LKMM forbids (expected/lkmm
// says Never) is Never under SC and TSO too: LKMM is weaker than x86-TSO
// under the kernel's x86 mapping.
func TestCorpusInclusion(t *testing.T) {
	for _, path := range corpusFiles(t, "lkmm") {
		name := rel(t, path)
		t.Run(name, func(t *testing.T) {
			test, err := litmus.ParseFile(path)
			require.NoError(t, err)
			var prev map[string]bool
			results := map[Model]*Result{}
			for _, m := range []Model{SC, TSO, PSO} {
				res, err := Check(context.Background(), test, m, Options{MaxStates: 2_000_000})
				require.NoError(t, err)
				require.NotEqual(t, Unknown, res.Verdict, "%s: %s", m, res.Reason)
				results[m] = res
				plain, err := Check(context.Background(), test, m, Options{MaxStates: 2_000_000, Plain: true})
				require.NoError(t, err)
				require.Equal(t, stateLines(plain), stateLines(res), "%s: reduced and plain searches differ", m)
				require.Equal(t, len(plain.Stuck), len(res.Stuck), "%s: stuck states differ", m)
				cur := map[string]bool{}
				for _, s := range stateLines(res) {
					cur[s] = true
				}
				for s := range prev {
					require.True(t, cur[s], "%s misses state %q of the stronger model", m, s)
				}
				prev = cur
			}
			exp := filepath.Join(corpus, "expected/lkmm", name+".out")
			if _, err := os.Stat(exp); err != nil || !markedOnly(test) {
				return
			}
			if want := readHerd(t, exp); want.observation == "Never" {
				for _, m := range []Model{SC, TSO} {
					require.Equal(t, Never, results[m].Verdict, "LKMM forbids it, so %s must", m)
				}
			}
		})
	}
}

// markedOnly reports whether every shared access of a C test goes through
// a primitive (no plain *x = v or r = *x): such a test has no data race.
func markedOnly(t *litmus.Test) bool {
	ok := true
	for _, p := range t.Procs {
		if p.Body == nil {
			continue
		}
		litmus.Inspect(p.Body, func(n litmus.Node) bool {
			switch n := n.(type) {
			case *litmus.UnaryExpr:
				if n.Op == "*" {
					ok = false
				}
			case *litmus.CallExpr:
				return false // the arguments of primitives are the marked accesses themselves
			}
			return true
		})
	}
	return ok
}
