package lkmm

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
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
