package interp

import (
	"fmt"
	"strings"

	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat"
)

// This file says in words why a check rejected a candidate: the check's
// name and a cycle of its relation (or a pair of it, for empty), spelled
// out as a path of base relations: po (with the fences it crosses), rf,
// co and fr, internal or external.

// explain describes the failure of check t, whose relation was rel, in
// the current candidate.
func (r *runner) explain(name string, t *cat.AppTest, rel axiom.Rel) string {
	x := r.ev.x
	if rel.N() == 0 {
		return "rejected by " + name
	}
	var cyc []int
	if t != nil && t.Op == cat.IsEmpty {
		if ps := rel.Pairs(); len(ps) > 0 {
			r.lastPath = []int{ps[0][0], ps[0][1]}
			return fmt.Sprintf("rejected by %s: %s", name, r.spell(r.lastPath))
		}
		return "rejected by " + name
	}
	if c := rel.FindCycle(); c != nil {
		cyc = c
	} else {
		for i := 0; i < x.N; i++ {
			if rel.Has(i, i) {
				cyc = []int{i}
				break
			}
		}
	}
	if cyc == nil {
		return "rejected by " + name
	}
	var path []int
	for k, a := range cyc {
		b := cyc[(k+1)%len(cyc)]
		seg := r.basePath(a, b)
		if seg == nil {
			seg = []int{a, b}
		}
		path = append(path, seg[:len(seg)-1]...)
	}
	path = append(path, path[0])
	r.lastPath = path
	return fmt.Sprintf("rejected by %s: cycle %s", name, r.spell(path))
}

// baseRel returns the relation a name is bound to now, or an empty one.
func (r *runner) baseRel(name string) (rel axiom.Rel) {
	defer func() {
		if recover() != nil {
			rel = r.ev.emptyRel()
		}
	}()
	th := r.explainAt.lookup(name)
	if th == nil {
		return r.ev.emptyRel()
	}
	return r.ev.asRel(r.ev.force(th, 0, name), 0)
}

// basePath returns a shortest path from a to b (a cycle when a == b)
// along po, rf, co and fr edges, or nil.
func (r *runner) basePath(a, b int) []int {
	x := r.ev.x
	rf, co, fr := r.baseRel("rf"), r.baseRel("co"), r.baseRel("fr")
	next := func(u, v int) bool {
		return x.PO.Has(u, v) || rf.Has(u, v) || co.Has(u, v) || fr.Has(u, v)
	}
	prev := make([]int, x.N)
	for i := range prev {
		prev[i] = -1
	}
	queue := []int{a}
	seen := make([]bool, x.N)
	seen[a] = true
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for v := 0; v < x.N; v++ {
			if !next(u, v) {
				continue
			}
			if v == b {
				path := []int{b}
				for w := u; w != a; w = prev[w] {
					path = append(path, w)
				}
				path = append(path, a)
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if !seen[v] {
				seen[v] = true
				prev[v] = u
				queue = append(queue, v)
			}
		}
	}
	return nil
}

// spell prints a path of events with the base relation of each step.
func (r *runner) spell(path []int) string {
	var b strings.Builder
	for k, e := range path {
		if k > 0 {
			fmt.Fprintf(&b, " -%s-> ", r.label(path[k-1], e))
		}
		b.WriteString(r.describe(e))
	}
	return b.String()
}

// label names the base relation of an edge: rfe, coi, fri, po (with the
// fences it crosses), ...
func (r *runner) label(a, b int) string {
	x := r.ev.x
	suffix := "i"
	if x.Thread[a] != x.Thread[b] {
		suffix = "e"
	}
	for _, n := range []string{"rf", "co", "fr"} {
		if r.baseRel(n).Has(a, b) {
			return n + suffix
		}
	}
	if x.PO.Has(a, b) {
		var fences []string
		for k := a + 1; k < b; k++ {
			if x.Ev[k].Kind == axiom.KindF && x.Thread[k] == x.Thread[a] {
				fences = append(fences, r.tagText(x.Ev[k]))
			}
		}
		if len(fences) > 0 {
			return "po[" + strings.Join(fences, ",") + "]"
		}
		return "po"
	}
	return ""
}

// describe prints an event: its thread, kind, tags, location and value.
func (r *runner) describe(i int) string {
	x := r.ev.x
	e := x.Ev[i]
	who := "init"
	if e.Thread >= 0 {
		who = fmt.Sprintf("P%d", e.Thread)
	}
	tags := r.tagText(e)
	switch e.Kind {
	case axiom.KindF:
		return fmt.Sprintf("%s: F[%s]", who, tags)
	case axiom.KindB:
		return who + ": branch"
	}
	kind := "R"
	if e.Kind == axiom.KindW {
		kind = "W"
	}
	if tags != "" {
		kind += "[" + tags + "]"
	}
	if e.Loc < 0 {
		return who + ": " + kind
	}
	return fmt.Sprintf("%s: %s %s=%s", who, kind, x.P.Names[e.Loc], e.Val.Format(x.P.Names))
}

// tagText lists an event's tags, leaving out those every access has.
func (r *runner) tagText(e *axiom.Event) string {
	var parts []string
	e.Tags.Each(func(t int) {
		if name := r.ev.x.P.Vocab[t]; name != "Exp" {
			parts = append(parts, name)
		}
	})
	return strings.Join(parts, ",")
}
