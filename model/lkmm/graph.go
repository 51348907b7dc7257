package lkmm

import (
	"strings"

	"github.com/litmus-dev/litmus/model/axiom"
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
	edges := axiom.NewGraphEdges(g)
	edges.Base(x.thread, x.po, x.rmw, x.rf, x.co)
	for k := 1; k < len(cycle); k++ {
		edges.Add(cycle[k-1], cycle[k], x.baseLabel(cycle[k-1], cycle[k]), true)
	}
	return g
}
