package axiom

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// randomExecution draws an execution of a few threads of reads and
// writes over a few locations and values: what the rf enumeration reads
// of it (the events, their threads and program order).
func randomExecution(t *rapid.T) *Execution {
	nLoc := rapid.IntRange(1, 3).Draw(t, "locs")
	p := &Program{Names: make([]string, nLoc)}
	x := &Execution{P: p, Al: &Arena{}}
	for l := range nLoc {
		x.Ev = append(x.Ev, &Event{Thread: -1, Kind: KindW, Loc: l, RMW: -1})
		x.Thread = append(x.Thread, -1)
	}
	nThreads := rapid.IntRange(1, 3).Draw(t, "threads")
	for ti := range nThreads {
		x.Start = append(x.Start, len(x.Ev))
		n := rapid.IntRange(0, 4).Draw(t, "events")
		for range n {
			kind := rapid.SampledFrom([]Kind{KindR, KindW, KindF}).Draw(t, "kind")
			e := &Event{Thread: ti, Kind: kind, Loc: -1, RMW: -1}
			if kind != KindF {
				e.Loc = rapid.IntRange(0, nLoc-1).Draw(t, "loc")
				e.Val = Int(int64(rapid.IntRange(0, 1).Draw(t, "val")))
			}
			x.Ev = append(x.Ev, e)
			x.Thread = append(x.Thread, ti)
		}
	}
	x.N = len(x.Ev)
	return x
}

// rfs lists the rf an enumeration visits, in order, with the sources
// each read has when it is visited.
func rfs(en *RFEnum) [][]int {
	if en == nil {
		return nil
	}
	var out [][]int
	en.Each(func(rf Rel) bool {
		var pairs []int
		for _, p := range rf.Pairs() {
			pairs = append(pairs, p[0], p[1])
		}
		out = append(out, append(pairs, en.Src...))
		return true
	})
	return out
}

// TestRFEnumReset checks that an enumeration reset for execution after
// execution (reusing its room) visits the same rf as a new one for each.
func TestRFEnumReset(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var reused RFEnum
		for range rapid.IntRange(1, 4).Draw(t, "executions") {
			x := randomExecution(t)
			uniproc := rapid.Bool().Draw(t, "uniproc")
			fresh := newRFEnum(x, uniproc, nil)
			ok := reused.Reset(x, uniproc, nil)
			require.Equal(t, fresh != nil, ok)
			if !ok {
				continue
			}
			// The reads and sources of each location (an empty list
			// of the reused room is a nil one of the new).
			require.Equal(t, len(fresh.Reads), len(reused.Reads))
			for l := range fresh.Reads {
				require.Equal(t, len(fresh.Reads[l]), len(reused.Reads[l]))
				for i := range fresh.Reads[l] {
					require.Equal(t, fresh.Reads[l][i], reused.Reads[l][i])
					require.Equal(t, fresh.Sources[l][i], reused.Sources[l][i])
				}
			}
			require.Nil(t, reused.Check)
			require.Equal(t, rfs(fresh), rfs(&reused))
		}
	})
}
