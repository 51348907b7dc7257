package axiom

import (
	"slices"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/litmus"
)

// TestSortStatesIsStateLess: SortStates orders states as sort.Slice with
// StateLess does (the plain sort is the reference), on values of every
// kind StateLess tells apart: integers, symbolic values, location names.
func TestSortStatesIsStateLess(t *testing.T) {
	ce := &CondEval{p: &Program{Test: &litmus.Test{}, Index: map[string]int{"x": 0, "S9": 1}}}
	vals := []string{"0", "1", "-1", "10", "9223372036854775807", "-9223372036854775808", "S1", "S2", "S10", "S9", "x", "y"}
	rapid.Check(t, func(t *rapid.T) {
		cols := rapid.IntRange(1, 4).Draw(t, "cols")
		n := rapid.IntRange(0, 40).Draw(t, "n")
		var sts []State
		for range n {
			st := make(State, cols)
			for c := range st {
				st[c] = Binding{Loc: "r", Val: rapid.SampledFrom(vals).Draw(t, "v")}
			}
			sts = append(sts, st)
		}
		want := slices.Clone(sts)
		sort.SliceStable(want, func(i, j int) bool { return ce.StateLess(want[i], want[j]) })
		ce.SortStates(sts)
		if !slices.EqualFunc(want, sts, func(a, b State) bool { return slices.Equal(a, b) }) {
			t.Fatalf("SortStates %v\nStateLess %v", sts, want)
		}
	})
}
