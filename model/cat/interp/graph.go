package interp

import (
	"strings"

	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/report"
)

// graph draws the current candidate as herd draws an execution: the
// events, po between neighbours of a thread, rf, co between neighbours in
// coherence order and fr to the next write, as the model binds them at
// the scope being explained (the end of the program for an allowed
// execution); cycle, when not empty, is the failing check's path (first
// event repeated last), its steps marked.
func (r *runner) graph(cycle []int, failed, final string) *report.Graph {
	x := r.ev.x
	if r.explainAt == nil {
		r.explainAt = &r.roots[len(r.m.prog)]
		defer func() { r.explainAt = nil }()
	}
	g := &report.Graph{Rejected: failed, Final: final}
	file := x.P.Test.File
	for i := 0; i < x.N; i++ {
		e := x.Ev[i]
		label := r.describe(i)
		if k := strings.Index(label, ": "); k >= 0 {
			label = label[k+2:]
		}
		line := 0
		if e.Thread >= 0 && e.Pos.IsValid() && file != nil {
			line = file.Position(e.Pos).Line
		}
		g.Events = append(g.Events, report.GraphEvent{Thread: threadNumber(x, e.Thread), Label: label, Line: line, Source: e.Text, Pos: e.Pos})
	}
	idx := map[[2]int]int{}
	add := func(a, b int, rel string, cyc bool) {
		if i, ok := idx[[2]int{a, b}]; ok {
			g.Edges[i].Cycle = g.Edges[i].Cycle || cyc
			return
		}
		idx[[2]int{a, b}] = len(g.Edges)
		g.Edges = append(g.Edges, report.GraphEdge{From: a, To: b, Rel: rel, Cycle: cyc})
	}
	ext := func(a, b int, rel string) string {
		if x.Thread[a] != x.Thread[b] {
			return rel + "e"
		}
		return rel + "i"
	}
	last := map[int]int{}
	for i := 0; i < x.N; i++ {
		th := x.Thread[i]
		if th < 0 {
			continue
		}
		if j, ok := last[th]; ok && x.PO.Has(j, i) {
			add(j, i, "po", false)
		}
		last[th] = i
	}
	for _, pr := range x.RMW.Pairs() {
		idx[[2]int{pr[0], pr[1]}] = len(g.Edges)
		g.Edges = append(g.Edges, report.GraphEdge{From: pr[0], To: pr[1], Rel: "rmw"})
	}
	rf, co := r.baseRel("rf"), r.baseRel("co")
	for _, pr := range rf.Pairs() {
		add(pr[0], pr[1], ext(pr[0], pr[1], "rf"), false)
	}
	next := immediate(co, x.N)
	for a, b := range next {
		if b >= 0 {
			add(a, b, ext(a, b, "co"), false)
		}
	}
	for _, pr := range rf.Pairs() {
		// n != pr[1]: a one-event AMO reads the write co-before itself
		// (axiom.OneEventView), which is no fr edge (herd's fr leaves
		// out id).
		if n := next[pr[0]]; n >= 0 && n != pr[1] {
			add(pr[1], n, ext(pr[1], n, "fr"), false)
		}
	}
	for k := 1; k < len(cycle); k++ {
		a, b := cycle[k-1], cycle[k]
		label := r.label(a, b)
		if label == "" {
			label = "->"
		}
		add(a, b, label, true)
	}
	return g
}

// immediate returns, for each event, its immediate successor in the
// order co (-1 when none).
func immediate(co axiom.Rel, n int) []int {
	next := make([]int, n)
	for i := range next {
		next[i] = -1
	}
	if co.N() == 0 {
		return next
	}
	for _, pr := range co.Pairs() {
		a, b := pr[0], pr[1]
		imm := true
		for c := 0; c < n && imm; c++ {
			if co.Has(a, c) && co.Has(c, b) {
				imm = false
			}
		}
		if imm {
			next[a] = b
		}
	}
	return next
}

// threadNumber is herd's Pn of a thread index (-1 for an initial write).
func threadNumber(x *axiom.Execution, th int) int {
	if th < 0 {
		return -1
	}
	return x.P.Threads[th].ID()
}
