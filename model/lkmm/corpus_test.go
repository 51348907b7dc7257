package lkmm

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/internal/shared"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/stretchr/testify/require"
)

// corpusRoot is the shared conformance corpus, relative to this package.
var corpusRoot = shared.Corpus()

// herdOutput is what herd7 printed for one test.
type herdOutput struct {
	states      []string
	verdict     string
	pos, neg    int
	ok          bool
	flags       []string
	observation bool
}

func readHerdOutput(t *testing.T, path string) herdOutput {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var h herdOutput
	sc := bufio.NewScanner(f)
	inStates := false
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "States "):
			inStates = true
			continue
		case line == "Ok" || line == "No":
			inStates = false
			h.ok = line == "Ok"
		case strings.HasPrefix(line, "Flag "):
			h.flags = append(h.flags, strings.TrimPrefix(line, "Flag "))
		case strings.HasPrefix(line, "Observation ") && len(fields) >= 5:
			h.observation = true
			h.verdict = fields[2]
			h.pos, _ = strconv.Atoi(fields[3])
			h.neg, _ = strconv.Atoi(fields[4])
		}
		if inStates {
			h.states = append(h.states, strings.TrimSpace(line))
		}
	}
	require.NoError(t, sc.Err())
	sort.Strings(h.flags)
	return h
}

// corpusTests returns the C tests of the LKMM corpus, relative to its lkmm/
// folder.
func corpusTests(t testing.TB) []string {
	root := shared.CorpusDir(t, "lkmm")
	var files []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".litmus") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// TestCorpus checks every C test of the shared LKMM corpus against herd7's
// output: the verdict, the set of final states, Ok/No and the flags, plus
// the kernel's "Result:" comment when it names a verdict.
func TestCorpus(t *testing.T) {
	files := corpusTests(t)
	pass, countsMatch := 0, 0
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			path := filepath.Join(corpusRoot, "lkmm", rel)
			test, err := litmus.ParseFile(path)
			require.NoError(t, err)
			want := readHerdOutput(t, filepath.Join(corpusRoot, "expected", "lkmm", "lkmm", rel+".out"))
			require.True(t, want.observation, "no Observation line in herd's output")
			res, err := Check(context.Background(), test, Options{})
			require.NoError(t, err)
			var got []string
			for _, s := range res.States.All() {
				got = append(got, s.String())
			}
			require.Equal(t, want.verdict, res.Verdict.String(), "verdict (P=%d N=%d, herd P=%d N=%d; why: %s; reason: %s)", res.Positive, res.Negative, want.pos, want.neg, res.Why, res.Reason)
			require.Equal(t, want.states, got, "final states")
			require.Equal(t, want.ok, res.Ok, "Ok/No")
			require.Equal(t, want.flags, res.Flags, "flags")
			if r, ok := test.Expectations()["LKMM"]; ok && (r == "Never" || r == "Sometimes" || r == "Always") {
				require.Equal(t, r, res.Verdict.String(), "the test's Result: comment")
			}
			pass++
			// herd counts executions (distinct rf and co), not states;
			// the engine enumerates the same candidates, so the counts
			// agree too.
			require.Equal(t, [2]int{want.pos, want.neg}, [2]int{res.Positive, res.Negative}, "Positive/Negative counts")
			countsMatch++
		})
	}
	t.Logf("LKMM corpus: %d of %d tests give herd7's verdict and states; %d also its P/N counts", pass, len(files), countsMatch)
}
