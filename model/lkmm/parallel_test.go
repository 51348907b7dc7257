package lkmm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"github.com/litmus-dev/litmus/model/report"
)

// whole is everything a result says, the explanation and the candidate
// count included: the parallel search must give all of it as the
// sequential one does.
func whole(r *Result) string {
	graph := func(g *report.Graph) string {
		if g == nil {
			return "<nil>"
		}
		return fmt.Sprintf("%+v", *g)
	}
	return fmt.Sprint(r.Verdict, r.Reason, r.Ok, r.States, r.Positive, r.Negative, r.Flags, r.Cut,
		r.Candidates, r.Rejected, r.Why, r.Incomplete, r.Matches, graph(r.Witness), graph(r.WhyGraph))
}

// TestParallelWitnesses: explain's pictures (Options.Graphs) are the
// sequential search's, for the condition and for another state, on the
// bundled tests and the corpus.
func TestParallelWitnesses(t *testing.T) {
	files, err := filepath.Glob("../../testdata/*.litmus")
	require.NoError(t, err)
	for _, rel := range corpusTests(t) {
		files = append(files, filepath.Join(corpusRoot, "lkmm", rel))
	}
	state := &litmus.BoolProp{Value: true}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		test, err := litmus.Parse(f, b)
		if err != nil || test.Arch != litmus.ArchC {
			continue
		}
		if _, err := Check(context.Background(), test, Options{Workers: 1}); err != nil {
			continue
		}
		checkBoth(t, test, Options{Graphs: true}, f)
		checkBoth(t, test, Options{Graphs: true, WitnessFor: state}, f+" (any state)")
		n++
	}
	require.Positive(t, n)
}

// checkBoth runs test sequentially and with several workers (splitting
// even small tests into prefixes) and fails when the two differ.
func checkBoth(t require.TestingT, test *litmus.Test, opt Options, what string) {
	seq := opt
	seq.Workers = 1
	par := opt
	par.Workers, par.minParallel = 3, 2
	a, err := Check(context.Background(), test, seq)
	require.NoError(t, err, what)
	b, err := Check(context.Background(), test, par)
	require.NoError(t, err, what)
	require.Equal(t, whole(a), whole(b), "%s: the parallel search differs from the sequential one", what)
}

// TestParallelMatchesSequential: on every corpus C test and on the tests
// with herd7's outputs under testdata, the parallel search gives the
// sequential search's result exactly, and so it does when the candidate
// limit cuts the search short.
func TestParallelMatchesSequential(t *testing.T) {
	var files []string
	for _, rel := range corpusTests(t) {
		files = append(files, filepath.Join(corpusRoot, "lkmm", rel))
	}
	for _, dir := range []string{"testdata/thinair", "testdata/herdgen", "testdata/exprpo"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
		require.NoError(t, err)
		files = append(files, fs...)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		test, err := litmus.Parse(f, b)
		if err != nil {
			continue // the corpus test of a dialect this engine does not read
		}
		if _, err := Check(context.Background(), test, Options{Workers: 1}); err != nil {
			continue // refused by the engine, as TestCorpus expects
		}
		checkBoth(t, test, Options{}, f)
		checkBoth(t, test, Options{MaxCandidates: 3}, f+" (at most 3 candidates)")
		n++
	}
	require.Greater(t, n, 500)
}

// TestParallelProperties: the same on random tests.
func TestParallelProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var g genTest
		for i, n := 0, rapid.IntRange(2, 4).Draw(t, "threads"); i < n; i++ {
			var th []string
			for j, m := 0, rapid.IntRange(1, 3).Draw(t, "stmts"); j < m; j++ {
				th = append(th, genStmt(t, 0))
			}
			g.threads = append(g.threads, th)
		}
		src := g.source(false)
		test, err := litmus.Parse("gen.litmus", []byte(src))
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, src)
		}
		checkBoth(t, test, Options{}, src)
	})
}

// TestParallelLimitSkipsPrefixes: when a worker hits a limit, the
// prefixes no worker took yet are skipped, and the search still ends
// Unknown with the limit's reason (merging the skipped prefixes' empty
// findings panicked once final states were packed). Each worker fails on
// its first prefix, whose relation arena does not fit under 64 KiB, so
// every later prefix is skipped.
func TestParallelLimitSkipsPrefixes(t *testing.T) {
	test := mustParse(t, "rcu", shapes.RCURing("GGRRRRGG"))
	res, err := Check(context.Background(), test, Options{Workers: 2, minParallel: 2, MaxMemory: 64 << 10})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "memory cap: ")
	require.Zero(t, res.States.Len())
}
