package lkmm

import (
	"fmt"
	"strings"
)

// describe prints an event the way herd's diagrams label them: the
// thread, the kind with its annotation, the location and the value.
func (x *execution) describe(p *program, i int) string {
	e := x.ev[i]
	var who string
	if e.thread < 0 {
		who = "init"
	} else {
		who = fmt.Sprintf("P%d", e.thread)
	}
	var b strings.Builder
	switch e.kind {
	case evR:
		b.WriteString("R")
	case evW:
		b.WriteString("W")
	case evF:
		return fmt.Sprintf("%s: F[%s]", who, fenceText[e.fence])
	case evSync:
		return fmt.Sprintf("%s: SRCU[sync-srcu] %s", who, p.names[e.loc])
	}
	if ann := tagText(e.tags); ann != "" {
		b.WriteString("[" + ann + "]")
	}
	fmt.Fprintf(&b, " %s=%s", p.names[e.loc], e.val.Format(p.names))
	return who + ": " + b.String()
}

func tagText(t tag) string {
	var parts []string
	names := []struct {
		t tag
		s string
	}{{tOnce, "once"}, {tAcquire, "acquire"}, {tRelease, "release"}, {tMb, "mb"}, {tNoreturn, "noreturn"},
		{tLKR, "LKR"}, {tLKW, "LKW"}, {tUL, "UL"}, {tLF, "LF"}, {tRL, "RL"}, {tRU, "RU"},
		{tSrcuLock, "srcu-lock"}, {tSrcuUnlock, "srcu-unlock"}}
	for _, n := range names {
		if t&n.t != 0 {
			parts = append(parts, n.s)
		}
	}
	return strings.Join(parts, ",")
}

// label names the relation that best explains the edge a -> b of a
// failed check.
func (x *execution) label(rel *relations, a, b int) string {
	if rel == nil {
		return "->"
	}
	ext := x.thread[a] != x.thread[b]
	named := []struct {
		r    Rel
		name string
	}{{rel.rf, "rf"}, {rel.co, "co"}, {rel.fr, "fr"}, {rel.rmw, "rmw"}, {rel.ppo, "ppo"},
		{rel.prop, "prop"}, {rel.strongFence, "strong-fence"}, {rel.hb, "hb"}, {rel.pb, "pb"}, {rel.rb, "rb"}}
	for _, nr := range named {
		if nr.r.Words() != nil && nr.r.Has(a, b) {
			if ext && (nr.name == "rf" || nr.name == "co" || nr.name == "fr") {
				return nr.name + "e"
			}
			return nr.name
		}
	}
	if rel.po.Words() != nil && rel.po.Has(a, b) {
		return "po"
	}
	return "->"
}

// explain says in words why the model rejected x: the check, and a
// cycle of the failing relation spelled out in base relations (po, rf,
// co, fr), each po step naming the fences it crosses.
func (x *execution) explain(p *program, out outcome) string {
	why, _ := x.explainPath(p, out)
	return why
}

// explainPath is explain, with the cycle's path of events (its first
// event repeated last; nil when explain names no cycle).
func (x *execution) explainPath(p *program, out outcome) (string, []int) {
	if out.bad.Words() == nil {
		return "rejected by " + out.failed, nil
	}
	var cyc []int
	if c := out.bad.FindCycle(); c != nil {
		cyc = c
	} else {
		for i := 0; i < x.n; i++ {
			if out.bad.Has(i, i) {
				cyc = []int{i}
				break
			}
		}
	}
	if cyc == nil {
		if pr := out.bad.Pairs(); len(pr) > 0 {
			return fmt.Sprintf("rejected by %s: %s", out.failed, x.spell(p, []int{pr[0][0], pr[0][1]}, false)), []int{pr[0][0], pr[0][1]}
		}
		return "rejected by " + out.failed, nil
	}
	// Expand each edge of the cycle into a shortest path of base edges.
	var path []int
	for k, a := range cyc {
		b := cyc[(k+1)%len(cyc)]
		seg := x.basePath(a, b)
		if seg == nil {
			seg = []int{a, b}
		}
		path = append(path, seg[:len(seg)-1]...)
	}
	path = append(path, path[0])
	return fmt.Sprintf("rejected by %s: cycle %s", out.failed, x.spell(p, path, true)), path
}

// spell prints a path of events with the base relation of each step.
func (x *execution) spell(p *program, path []int, _ bool) string {
	var b strings.Builder
	for k, e := range path {
		if k > 0 {
			fmt.Fprintf(&b, " -%s-> ", x.baseLabel(path[k-1], e))
		}
		b.WriteString(x.describe(p, e))
	}
	return b.String()
}

// basePath returns a shortest path from a to b (a cycle when a == b)
// along po, rf, co and fr edges, or nil.
func (x *execution) basePath(a, b int) []int {
	fr := x.rf.Inv().Seq(x.co)
	// An RCU guarantee is a cycle only once a critical section is read
	// from its unlock back to its lock.
	rscsi := x.matchRCU(x.fenceSets[fRcuLock], x.fenceSets[fRcuUnlock]).Inv()
	next := func(u, v int) bool {
		return x.po.Has(u, v) || x.rf.Has(u, v) || x.co.Has(u, v) || fr.Has(u, v) || rscsi.Has(u, v)
	}
	prev := make([]int, x.n)
	for i := range prev {
		prev[i] = -1
	}
	queue := []int{a}
	seen := make([]bool, x.n)
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for v := 0; v < x.n; v++ {
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
			if !seen[v] && v != a {
				seen[v] = true
				prev[v] = u
				queue = append(queue, v)
			}
		}
	}
	return nil
}

// baseLabel names the base relation of the step a -> b: rf, co, fr with
// an e suffix between threads, or po with the fences it crosses.
func (x *execution) baseLabel(a, b int) string {
	ext := x.thread[a] != x.thread[b]
	suffix := ""
	if ext {
		suffix = "e"
	}
	switch {
	case x.rf.Has(a, b):
		return "rf" + suffix
	case x.co.Has(a, b):
		return "co" + suffix
	case x.rf.Inv().Seq(x.co).Has(a, b):
		return "fr" + suffix
	case x.ev[a].kind == evF && x.ev[a].fence == fRcuUnlock && x.ev[b].kind == evF && x.ev[b].fence == fRcuLock:
		return "rcu-rscs^-1"
	case x.po.Has(a, b):
		var fences []string
		for k := a + 1; k < b; k++ {
			if x.ev[k].kind == evF {
				fences = append(fences, fenceText[x.ev[k].fence])
			}
		}
		if x.rmw.Has(a, b) {
			return "rmw"
		}
		if len(fences) > 0 {
			return "po[" + strings.Join(fences, ",") + "]"
		}
		return "po"
	}
	return "->"
}
