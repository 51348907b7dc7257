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
	edges := axiom.NewGraphEdges(g)
	edges.Base(x.Thread, x.PO, x.RMW, r.baseRel("rf"), r.baseRel("co"))
	for k := 1; k < len(cycle); k++ {
		label := r.label(cycle[k-1], cycle[k])
		if label == "" {
			label = "->"
		}
		edges.Add(cycle[k-1], cycle[k], label, true)
	}
	return g
}

// threadNumber is herd's Pn of a thread index (-1 for an initial write).
func threadNumber(x *axiom.Execution, th int) int {
	if th < 0 {
		return -1
	}
	return x.P.Threads[th].ID()
}
