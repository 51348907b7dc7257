package axiom

import "github.com/litmus-dev/litmus/model/report"

// GraphEdges adds edges to a report.Graph of an execution, one per pair of
// events (the first added names it), as both axiomatic engines draw their
// witnesses and rejected executions (explain's pictures).
type GraphEdges struct {
	g   *report.Graph
	idx map[[2]int]int
}

// NewGraphEdges returns an edge adder for g.
func NewGraphEdges(g *report.Graph) *GraphEdges {
	return &GraphEdges{g: g, idx: map[[2]int]int{}}
}

// Add adds the edge a -> b named rel, or, when the pair has one already,
// only marks it as an edge of the cycle when cycle is true.
func (e *GraphEdges) Add(a, b int, rel string, cycle bool) {
	if i, ok := e.idx[[2]int{a, b}]; ok {
		e.g.Edges[i].Cycle = e.g.Edges[i].Cycle || cycle
		return
	}
	e.idx[[2]int{a, b}] = len(e.g.Edges)
	e.g.Edges = append(e.g.Edges, report.GraphEdge{From: a, To: b, Rel: rel, Cycle: cycle})
}

// Base adds the edges herd draws of an execution of n events, thread
// giving each event's thread (-1 for an initial write): po between
// neighbours of a thread, rmw, rf, co between neighbours in coherence
// order and fr to the next write in it, rf, co and fr suffixed "e"
// between threads and "i" within one.
func (e *GraphEdges) Base(thread []int, po, rmw, rf, co Rel) {
	n := len(thread)
	ext := func(a, b int, rel string) string {
		if thread[a] != thread[b] {
			return rel + "e"
		}
		return rel + "i"
	}
	last := map[int]int{}
	for i := 0; i < n; i++ {
		th := thread[i]
		if th < 0 {
			continue
		}
		if j, ok := last[th]; ok && po.Has(j, i) {
			e.Add(j, i, "po", false)
		}
		last[th] = i
	}
	for _, pr := range rmw.Pairs() {
		// Drawn beside a po edge of the same pair, and the edge a
		// later Add of the pair marks.
		e.idx[pr] = len(e.g.Edges)
		e.g.Edges = append(e.g.Edges, report.GraphEdge{From: pr[0], To: pr[1], Rel: "rmw"})
	}
	rfs := rf.Pairs()
	for _, pr := range rfs {
		e.Add(pr[0], pr[1], ext(pr[0], pr[1], "rf"), false)
	}
	next := make([]int, n)
	for i := range next {
		next[i] = -1
	}
	if co.N() > 0 {
		for _, pr := range co.Pairs() {
			a, b := pr[0], pr[1]
			imm := true
			for c := 0; c < n && imm; c++ {
				imm = !(co.Has(a, c) && co.Has(c, b))
			}
			if imm {
				next[a] = b
				e.Add(a, b, ext(a, b, "co"), false)
			}
		}
	}
	for _, pr := range rfs {
		// next != the read: a one-event AMO reads the write co-before
		// itself (OneEventView), which is no fr edge (herd's fr leaves
		// out id).
		if w := next[pr[0]]; w >= 0 && w != pr[1] {
			e.Add(pr[1], w, ext(pr[1], w, "fr"), false)
		}
	}
}
