package lkmm

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"github.com/stretchr/testify/require"
)

// TestArenaReuse checks that a test gives the same Result after other
// tests, whose arenas the pool hands on with their words, as alone with
// a fresh arena: every corpus test and two generated ones, first each
// with the pool emptied, then all again in the reverse order.
func TestArenaReuse(t *testing.T) {
	var tests []*litmus.Test
	for _, rel := range corpusTests(t) {
		test, err := litmus.ParseFile(filepath.Join(corpusRoot, "lkmm", rel))
		require.NoError(t, err)
		tests = append(tests, test)
	}
	tests = append(tests, mustParse(t, "sb", shapes.SBRing(6)), mustParse(t, "iriw", shapes.IRIW(3)))
	alone := make([]*Result, len(tests))
	for i, test := range tests {
		for arenas.Get() != nil {
		}
		res, err := Check(context.Background(), test, Options{Workers: 1})
		require.NoError(t, err, test.Name)
		alone[i] = res
	}
	before := arenasReused.Load()
	for i := len(tests) - 1; i >= 0; i-- {
		res, err := Check(context.Background(), tests[i], Options{Workers: 1})
		require.NoError(t, err, tests[i].Name)
		if !reflect.DeepEqual(alone[i], res) {
			require.Failf(t, "a reused arena changes the result", "%s\nalone: %+v\nafter others: %+v", tests[i].Name, alone[i], res)
		}
	}
	require.Positive(t, arenasReused.Load()-before, "no arena was reused: the test compared nothing")
}

// walkOnly hides a thread's WalkWrites, so that axiom.Program.Domains
// builds its paths (Walk) as it does for a semantics without the
// shortcut.
type walkOnly struct{ axiom.Thread }

// TestWalkWritesSameDomains checks the domains' shortcut (WalkWrites,
// the writes of the paths without the paths) against the domains
// computed from the paths themselves, on every corpus test, the code
// tests and generated shapes. The domains are capped at as many rounds as
// a path has writes, as check computes them first (uncapped, a counting
// loop's domains grow round after round up to axiom.MaxDomain values);
// the rounds are the same either way.
func TestWalkWritesSameDomains(t *testing.T) {
	var tests []*litmus.Test
	for _, rel := range corpusTests(t) {
		test, err := litmus.ParseFile(filepath.Join(corpusRoot, "lkmm", rel))
		require.NoError(t, err)
		tests = append(tests, test)
	}
	codes, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "code", "*.litmus"))
	for _, f := range codes {
		if test, err := litmus.ParseFile(f); err == nil {
			tests = append(tests, test)
		}
	}
	tests = append(tests, mustParse(t, "sb", shapes.SBRing(4)), mustParse(t, "iriw", shapes.IRIW(3)), mustParse(t, "rcu", shapes.RCURing("GGRRRRGG")))
	compared := 0
	for _, test := range tests {
		p, err := newProgram(test)
		if err != nil {
			continue // an input error either way
		}
		p.setAwaits(false)
		fast := p.axiomProgram(0, nil)
		plain := p.axiomProgram(0, nil)
		for i, th := range plain.Threads {
			plain.Threads[i] = walkOnly{th}
		}
		d1, c1, e1 := fast.Domains(true)
		d2, c2, e2 := plain.Domains(true)
		require.Equal(t, e2, e1, "%s: error", test.Name)
		require.Equal(t, c2, c1, "%s: converged", test.Name)
		require.Equal(t, d2, d1, "%s: domains", test.Name)
		compared++
	}
	require.Greater(t, compared, 130, "too few tests compared")
}
