package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestStateSetIsSortedDistinct: the packed set holds exactly the
// distinct rows added, in the order of the per-location order given,
// whatever the number of values per location (the rows are repacked as
// codes widen) and the order they come in; printing a packed state
// prints the unpacked one.
func TestStateSetIsSortedDistinct(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cols := rapid.IntRange(0, 6).Draw(t, "cols")
		spread := rapid.IntRange(1, 700).Draw(t, "spread")
		rows := rapid.SliceOfN(rapid.SliceOfN(rapid.IntRange(-spread, spread), cols, cols), 0, 300).Draw(t, "rows")
		locs := make([]string, cols)
		for i := range locs {
			locs[i] = fmt.Sprintf("%d:r%d", i, i)
		}
		set := NewStateSet[int](cols)
		want := map[string][]int{}
		for _, r := range rows {
			k := fmt.Sprint(r)
			_, had := want[k]
			want[k] = r
			require.Equal(t, !had, set.Add(r), "Add reports a new state")
		}
		require.Equal(t, len(want), set.Len())
		var sorted [][]int
		for _, r := range want {
			sorted = append(sorted, r)
		}
		// Order location 0 descending, the others ascending: the set
		// must follow the order it is given, not the integers'.
		less := func(c, a, b int) bool {
			if c == 0 {
				return a > b
			}
			return a < b
		}
		slices.SortFunc(sorted, func(a, b []int) int {
			for c := range a {
				switch {
				case less(c, a[c], b[c]):
					return -1
				case less(c, b[c], a[c]):
					return 1
				}
			}
			return 0
		})
		sts := set.States(locs, func(_ int, v int) Value { return Value{Int: int64(v)} }, less)
		require.Equal(t, len(sorted), sts.Len())
		for i, r := range sorted {
			var b strings.Builder
			for c, v := range r {
				if c > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "%s=%d;", locs[c], v)
			}
			require.Equal(t, b.String(), sts.Line(i))
			require.Equal(t, b.String(), sts.At(i).String())
		}
	})
}

// TestStatesPackInTheirInformationSize: nineteen one-bit locations over
// all their 2^19 values take 3 bytes a state, and a location that never
// changes takes none.
func TestStatesPackInTheirInformationSize(t *testing.T) {
	const cols = 20
	set := NewStateSet[int](cols)
	row := make([]int, cols)
	for n := 0; n < 1<<19; n++ {
		for c := 0; c < 19; c++ {
			row[c] = n >> c & 1
		}
		row[19] = 7
		require.True(t, set.Add(row))
	}
	require.Less(t, set.Bytes(), uint64(12<<20), "3 bytes a row and 8 of hash table, doubled at most")
	locs := make([]string, cols)
	sts := set.States(locs, func(_ int, v int) Value { return Value{Int: int64(v)} }, func(_ int, a, b int) bool { return a < b })
	require.Equal(t, 3*(1<<19), len(sts.rows))
	require.Equal(t, Value{Int: 7}, sts.Value(12345, 19))
	require.Equal(t, Value{Int: 1}, sts.Value(1, 18), "the first location is the highest bits: state 1 differs from state 0 in the last")
}

// TestPackStatesEqualSetsEqual: two packings of the same states in
// different orders are equal values, as the engines' differential tests
// compare them.
func TestPackStatesEqualSetsEqual(t *testing.T) {
	st := func(a, b int64) State {
		return State{Values: []LocValue{{Loc: "0:r0", Val: Value{Int: a}}, {Loc: "[x]", Val: Value{Int: b}}}}
	}
	less := func(_ int, a, b Value) bool { return a.Int < b.Int }
	x := PackStates([]State{st(1, 2), st(0, 5), st(1, 2)}, less)
	y := PackStates([]State{st(0, 5), st(1, 2)}, less)
	require.Equal(t, x, y)
	require.Equal(t, "0:r0=0; [x]=5;\n0:r0=1; [x]=2;\n", x.String())
	require.Equal(t, States{}, PackStates(nil, less))
}

// BenchmarkStateSet adds the 2^19 states of nineteen one-bit registers
// (the 19-thread RCU rings' final states) and sorts them: the cost of a
// final state in time and bytes.
func BenchmarkStateSet(b *testing.B) {
	const cols = 19
	row := make([]int, cols)
	var held uint64
	for i := 0; i < b.N; i++ {
		set := NewStateSet[int](cols)
		for n := 0; n < 1<<19; n++ {
			for c := range row {
				row[c] = n >> c & 1
			}
			set.Add(row)
		}
		held = set.Bytes()
		sts := set.States(make([]string, cols), func(_ int, v int) Value { return Value{Int: int64(v)} }, func(_ int, a, b int) bool { return a < b })
		if sts.Len() != 1<<19 {
			b.Fatal(sts.Len())
		}
	}
	b.ReportMetric(float64(held)/(1<<19), "B/state")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(1<<19), "ns/state")
}
