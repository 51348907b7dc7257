package advice

import (
	"fmt"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// The ladder: every primitive a construct may become, in the order that
// breaks ties between equal costs. Each candidate is kept only when it is
// a weakening (no dearer on any architecture, cheaper on one) or a
// trade-off (cheaper on one, incomparable on another, dearer on none);
// the verdict checks decide which are sufficient.

// add appends candidate c to k when its cost makes it worth trying.
func (k *construct) add(c *candidate, prims []string) {
	c.cost = costOfAll(prims)
	switch {
	case c.cost.weaker(k.cost):
		c.weaker = true
	case c.cost.tradeoff(k.cost):
	default:
		return
	}
	k.cands = append(k.cands, c)
}

// order sorts the candidates cheapest first, the ladder's order breaking
// ties.
func (k *construct) order() {
	sort.SliceStable(k.cands, func(i, j int) bool { return k.cands[i].cost.weight() < k.cands[j].cost.weight() })
}

func (f *finder) isAccess(s litmus.Stmt) bool {
	_, ok := f.accessOf(s)
	return ok
}

// fenceCands: a fence may go (nothing, or an existing dependency), become
// smp_mb__after_atomic() after an RMW or smp_mb__before_atomic() before
// one, smp_rmb() or smp_wmb(), or give way to an acquire on the load just
// before it or a release on the store just after it.
func (f *finder) fenceCands(k *construct, c *litmus.CallExpr, es *litmus.ExprStmt, path []frame) {
	own := c.Fun.Name
	line := f.line(c.Pos())
	var prevA, nextA access
	var prevAcq, nextRel string
	var prevPrims, nextPrims []string
	if s := f.neighbour(path, -1, f.isAccess, never); s != nil {
		prevA, _ = f.accessOf(s)
		if prevA.load {
			prevAcq = f.orderedName(prevA, acquireOf, "smp_load_acquire")
		}
		if prevAcq != "" {
			prevPrims = f.primsOf(s)
		}
	}
	if s := f.neighbour(path, +1, f.isAccess, never); s != nil {
		nextA, _ = f.accessOf(s)
		if !nextA.load {
			nextRel = f.orderedName(nextA, releaseOf, "smp_store_release")
		}
		if nextRel != "" {
			nextPrims = f.primsOf(s)
		}
	}
	around := func(mid ...string) []string {
		return append(append(append([]string(nil), prevPrims...), mid...), nextPrims...)
	}
	k.cost = costOfAll(around(own))
	remove := edit{stmt: es.Pos(), end: es.End(), line: line, from: k.text + ";", to: ""}

	nothing := &candidate{label: "nothing", edits: []edit{remove}}
	if dep := f.dependency(path); dep != "" {
		nothing.note = "it relies on " + dep
	}
	k.add(nothing, around())

	rename := func(name, note string) {
		if name == own {
			return
		}
		if _, ok := f.t.Primitive(name); !ok {
			return
		}
		r := call(c, name)
		k.add(&candidate{suggest: name + "()", label: name + "()", note: note,
			edits: []edit{{call: c.Pos(), end: c.End(), repl: r, line: line, from: k.text, to: name + "()"}}}, around(name))
	}
	rename("smp_rmb", "")
	rename("smp_wmb", "")
	if s := f.neighbour(path, -1, func(s litmus.Stmt) bool { return f.hasRMW(s) != nil }, simple); s != nil {
		r := f.hasRMW(s)
		rename("smp_mb__after_atomic", fmt.Sprintf("it orders the RMW %s (line %d) before it, and what precedes that", litmus.ExprString(r), f.line(r.Pos())))
	}
	if s := f.neighbour(path, +1, func(s litmus.Stmt) bool { return f.hasRMW(s) != nil }, simple); s != nil {
		r := f.hasRMW(s)
		rename("smp_mb__before_atomic", fmt.Sprintf("it orders the RMW %s (line %d) after it, and what follows that", litmus.ExprString(r), f.line(r.Pos())))
	}
	if prevAcq != "" {
		ns := f.loadStmt(prevA, prevAcq)
		pl := f.line(prevA.stmt.Pos())
		text := litmus.ExprString(loadCall(ns))
		k.add(&candidate{suggest: text, label: fmt.Sprintf("%s (line %d) and no %s", text, pl, k.text),
			edits: []edit{remove, {stmt: prevA.stmt.Pos(), end: prevA.stmt.End(), stmts: []litmus.Stmt{ns}, line: pl, from: stmtText(prevA.stmt) + ";", to: stmtText(ns) + ";"}}},
			append([]string{prevAcq}, nextPrims...))
	}
	if nextRel != "" {
		ns := f.storeStmt(nextA, nextRel)
		nl := f.line(nextA.stmt.Pos())
		text := stmtText(ns)
		k.add(&candidate{suggest: text, label: fmt.Sprintf("%s (line %d) and no %s", text, nl, k.text),
			edits: []edit{remove, {stmt: nextA.stmt.Pos(), end: nextA.stmt.End(), stmts: []litmus.Stmt{ns}, line: nl, from: stmtText(nextA.stmt) + ";", to: text + ";"}}},
			append(append([]string(nil), prevPrims...), nextRel))
	}
	k.order()
}

// loadCall is the call a load statement makes.
func loadCall(s litmus.Stmt) litmus.Expr {
	switch s := s.(type) {
	case *litmus.AssignStmt:
		return s.RHS
	case *litmus.DeclStmt:
		return s.Init
	}
	return nil
}

// orderedName is the acquire or release form of access a ("" when it has
// none): from the table for a marked access, plain for a plain one.
func (f *finder) orderedName(a access, forms map[string]string, plain string) string {
	name := plain
	if a.call != nil {
		name = forms[a.call.Fun.Name]
	}
	if _, ok := f.t.Primitive(name); !ok {
		return ""
	}
	return name
}

// dependency names the dependency that orders the accesses around a
// fence without it, when the syntax shows one: the access after the fence
// is under an if on, or has an address or value computed from, a register
// a load before it wrote. The checks decide whether it suffices (the LKMM
// orders a control dependency only before a store, for instance); this
// only says what a removal relies on.
func (f *finder) dependency(path []frame) string {
	s := f.neighbour(path, +1, f.isAccess, never)
	if s == nil {
		return ""
	}
	next, _ := f.accessOf(s)
	loadedBy := func(reg string) string {
		ld := f.neighbour(path, -1, func(s litmus.Stmt) bool {
			a, ok := f.accessOf(s)
			return ok && a.load && a.reg == reg
		}, simple)
		if ld == nil {
			return ""
		}
		return fmt.Sprintf("%s (line %d)", stmtText(ld), f.line(ld.Pos()))
	}
	for _, reg := range regsOf(next.loc) {
		if src := loadedBy(reg); src != "" {
			return "the address dependency on " + src
		}
	}
	if !next.load && next.val != nil {
		for _, reg := range regsOf(next.val) {
			if src := loadedBy(reg); src != "" {
				return "the data dependency on " + src
			}
		}
	}
	for lvl := len(path) - 1; lvl >= 0; lvl-- {
		if o, ok := path[lvl].owner.(*litmus.IfStmt); ok {
			for _, reg := range regsOf(o.Cond) {
				if src := loadedBy(reg); src != "" {
					return "the control dependency on " + src
				}
			}
		}
	}
	return ""
}

// regsOf lists the names e reads.
func regsOf(e litmus.Expr) []string {
	var out []string
	if e == nil {
		return nil
	}
	litmus.Inspect(e, func(n litmus.Node) bool {
		if id, ok := n.(*litmus.Ident); ok {
			out = append(out, id.Name)
		}
		return true
	})
	return out
}

// acquireCands: an acquire load may be a marked load, or one followed by
// smp_rmb().
func (f *finder) acquireCands(k *construct, c *litmus.CallExpr, p *litmus.Primitive, st litmus.Stmt) {
	k.cost = costOfAll([]string{p.Name})
	once := onceOf[p.Name]
	if _, ok := f.t.Primitive(once); !ok || len(c.Args) != 1 {
		k.none = "it has no marked unordered form"
		return
	}
	loc := c.Args[0]
	if p.Args[0] == litmus.ArgPtr {
		loc = deref(loc)
	}
	r := call(c, once, f.argFor(once, loc))
	line := f.line(c.Pos())
	text := litmus.ExprString(r)
	k.add(&candidate{suggest: text, label: text, edits: []edit{{call: c.Pos(), end: c.End(), repl: r, line: line, from: k.text, to: text}}}, []string{once})
	if a, ok := f.accessOf(st); ok && a.load && a.call == c {
		ns := f.loadStmt(a, once)
		rmb := fenceStmt(c, "smp_rmb")
		k.add(&candidate{suggest: text + "; smp_rmb()", label: text + " then smp_rmb()",
			edits: []edit{{stmt: st.Pos(), end: st.End(), stmts: []litmus.Stmt{ns, rmb}, line: line, from: stmtText(st) + ";", to: stmtText(ns) + "; smp_rmb();"}}},
			[]string{once, "smp_rmb"})
	}
	k.order()
}

// releaseCands: a release store may be a marked store, or one after
// smp_wmb().
func (f *finder) releaseCands(k *construct, c *litmus.CallExpr, p *litmus.Primitive, st litmus.Stmt) {
	k.cost = costOfAll([]string{p.Name})
	once := onceOf[p.Name]
	if _, ok := f.t.Primitive(once); !ok || len(c.Args) != 2 {
		k.none = "it has no marked unordered form"
		return
	}
	loc := c.Args[0]
	if p.Args[0] == litmus.ArgPtr {
		loc = deref(loc)
	}
	r := call(c, once, f.argFor(once, loc), c.Args[1])
	line := f.line(c.Pos())
	text := litmus.ExprString(r)
	k.add(&candidate{suggest: text, label: text, edits: []edit{{call: c.Pos(), end: c.End(), repl: r, line: line, from: k.text, to: text}}}, []string{once})
	if es, ok := st.(*litmus.ExprStmt); ok && es.X == c {
		wmb := fenceStmt(c, "smp_wmb")
		k.add(&candidate{suggest: "smp_wmb(); " + text, label: "smp_wmb() then " + text,
			edits: []edit{{stmt: st.Pos(), end: st.End(), stmts: []litmus.Stmt{wmb, &litmus.ExprStmt{X: r, EndPos: es.EndPos}}, line: line, from: stmtText(st) + ";", to: "smp_wmb(); " + text + ";"}}},
			[]string{"smp_wmb", once})
	}
	k.order()
}

// rmwCands: an ordered RMW may be its _release, _acquire or _relaxed
// form, where the kernel has one.
func (f *finder) rmwCands(k *construct, c *litmus.CallExpr, p *litmus.Primitive) {
	k.cost = costOfAll([]string{p.Name})
	base := p.Name
	for _, suf := range []string{"_acquire", "_release", "_relaxed"} {
		base = strings.TrimSuffix(base, suf)
	}
	line := f.line(c.Pos())
	for _, suf := range []string{"_release", "_acquire", "_relaxed"} {
		name := base + suf
		q, ok := f.t.Primitive(name)
		if !ok || name == p.Name || q.Kind != p.Kind || q.Op != p.Op || q.Ret != p.Ret {
			continue
		}
		r := call(c, name, c.Args...)
		text := litmus.ExprString(r)
		k.add(&candidate{suggest: text, label: text, edits: []edit{{call: c.Pos(), end: c.End(), repl: r, line: line, from: k.text, to: text}}}, []string{name})
	}
	if len(k.cands) == 0 {
		k.none = "the kernel has no weaker form of " + p.Name + "()"
	}
	k.order()
}
