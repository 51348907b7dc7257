package lkmm

import (
	"strings"

	"github.com/litmus-dev/litmus/model/report"
)

// graph returns x as herd draws a candidate execution: the events, po
// between neighbours of a thread, rf, co between neighbours in coherence
// order, fr to the next write, rmw. When cycle is not empty (the path of
// a failed check that explain found, first event repeated last), its
// steps are marked, and a step that is no edge drawn yet is added with
// its base label.
func (x *execution) graph(p *program, cycle []int, failed string, final string) *report.Graph {
	g := &report.Graph{Rejected: failed, Final: final}
	for i := 0; i < x.n; i++ {
		e := x.ev[i]
		label := x.describe(p, i)
		if k := strings.Index(label, ": "); k >= 0 {
			label = label[k+2:]
		}
		line := 0
		if e.thread >= 0 && e.pos.IsValid() && p.test.File != nil {
			line = p.test.File.Position(e.pos).Line
		}
		g.Events = append(g.Events, report.GraphEvent{Thread: e.thread, Label: label, Line: line, Source: e.prim, Pos: e.pos})
	}
	idx := map[[2]int]int{}
	add := func(a, b int, rel string) {
		if _, ok := idx[[2]int{a, b}]; ok {
			return
		}
		idx[[2]int{a, b}] = len(g.Edges)
		g.Edges = append(g.Edges, report.GraphEdge{From: a, To: b, Rel: rel})
	}
	// po between neighbours: the last earlier event of the same thread.
	last := map[int]int{}
	for i := x.nLoc; i < x.n; i++ {
		th := x.thread[i]
		if j, ok := last[th]; ok && x.po.Has(j, i) {
			add(j, i, "po")
		}
		last[th] = i
	}
	for _, pr := range x.rmw.Pairs() {
		idx[[2]int{pr[0], pr[1]}] = len(g.Edges) // rmw before po would hide it
		g.Edges = append(g.Edges, report.GraphEdge{From: pr[0], To: pr[1], Rel: "rmw"})
	}
	ext := func(a, b int, rel string) string {
		if x.thread[a] != x.thread[b] {
			return rel + "e"
		}
		return rel + "i"
	}
	for _, pr := range x.rf.Pairs() {
		add(pr[0], pr[1], ext(pr[0], pr[1], "rf"))
	}
	// co and fr between neighbours in coherence order.
	next := make([]int, x.n)
	for i := range next {
		next[i] = -1
	}
	for _, pr := range x.co.Pairs() {
		a, b := pr[0], pr[1]
		immediate := true
		for c := 0; c < x.n && immediate; c++ {
			if x.co.Has(a, c) && x.co.Has(c, b) {
				immediate = false
			}
		}
		if immediate {
			next[a] = b
			add(a, b, ext(a, b, "co"))
		}
	}
	for _, pr := range x.rf.Pairs() {
		w, r := pr[0], pr[1]
		if n := next[w]; n >= 0 && n != r {
			add(r, n, ext(r, n, "fr"))
		}
	}
	for k := 1; k < len(cycle); k++ {
		a, b := cycle[k-1], cycle[k]
		if i, ok := idx[[2]int{a, b}]; ok {
			g.Edges[i].Cycle = true
			continue
		}
		idx[[2]int{a, b}] = len(g.Edges)
		g.Edges = append(g.Edges, report.GraphEdge{From: a, To: b, Rel: x.baseLabel(a, b), Cycle: true})
	}
	return g
}
