package interp

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/litmus-dev/litmus/model/axiom"
)

// primitives are the functions herd provides natively, plus cross, which
// herd's cross.cat defines in cat and this interpreter computes lazily
// (so that "with co from" can enumerate and prune orders one location at
// a time instead of building every combination first), and map, which
// herd's stdlib.cat defines in cat and which the co generation applies to
// every candidate (see mapSet).
var primitives = map[string]func(ev *evaluator, arg Value) (Value, error){
	"domain": func(ev *evaluator, arg Value) (Value, error) {
		switch v := arg.(type) {
		case emptyV, universeV:
			return v, nil
		case *relV:
			return ev.setv(v.r.Domain()), nil
		case pairV:
			s := ev.al.Set(ev.x.N)
			s.Add(v[0])
			return ev.setv(s), nil
		}
		return nil, fmt.Errorf("relation expected, %s found", typeName(arg))
	},
	"range": func(ev *evaluator, arg Value) (Value, error) {
		switch v := arg.(type) {
		case emptyV, universeV:
			return v, nil
		case *relV:
			return ev.setv(v.r.Range()), nil
		case pairV:
			s := ev.al.Set(ev.x.N)
			s.Add(v[1])
			return ev.setv(s), nil
		}
		return nil, fmt.Errorf("relation expected, %s found", typeName(arg))
	},
	"fail": func(ev *evaluator, arg Value) (Value, error) {
		return nil, fmt.Errorf("fail on %s", formatValue(arg, ev.x))
	},
	"different-values": func(ev *evaluator, arg Value) (Value, error) {
		r, ok := arg.(*relV)
		if !ok {
			if kindOf(arg) == kEmpty {
				return theEmpty, nil
			}
			return nil, fmt.Errorf("relation expected, %s found", typeName(arg))
		}
		out := ev.emptyRel()
		for _, p := range r.r.Pairs() {
			a, b := ev.x.Ev[p[0]], ev.x.Ev[p[1]]
			if a.Kind != axiom.KindF && b.Kind != axiom.KindF && a.Val != b.Val {
				out.Add(p[0], p[1])
			}
		}
		return ev.relv(out), nil
	},
	"classes-loc": classesLoc,
	"linearisations": func(ev *evaluator, arg Value) (Value, error) {
		t, ok := asTuple(arg)
		if !ok || len(t) != 2 {
			return nil, fmt.Errorf("expected (set, relation), found %s", typeName(arg))
		}
		s := ev.asSetOrErr(t[0])
		r := ev.asRelOrErr(t[1])
		if s == nil || r.N() == 0 && ev.x.N > 0 {
			return nil, fmt.Errorf("expected (set, relation), found (%s, %s)", typeName(t[0]), typeName(t[1]))
		}
		ws := ev.bx.ints.many(s.Len())[:0]
		s.Each(func(i int) { ws = append(ws, i) })
		before := ev.emptyRel()
		for _, a := range ws {
			for _, b := range ws {
				if a != b && r.Has(a, b) {
					before.Add(a, b)
				}
			}
		}
		l := ev.bx.lins.one()
		*l = linV{ws: ws, before: before, id: ev.newID()}
		return l, nil
	},
	"cross": func(ev *evaluator, arg Value) (Value, error) {
		var comps []Value
		switch v := arg.(type) {
		case emptyV:
		case valSetV:
			comps = ev.bx.vals.many(len(v))[:0]
			for _, c := range v {
				switch c := c.(type) {
				case valSetV, *linV:
					comps = append(comps, c)
				case emptyV:
					comps = append(comps, valSetV{})
				default:
					return nil, fmt.Errorf("set of sets of relations expected, found a set of %s", typeName(c))
				}
			}
		default:
			return nil, fmt.Errorf("set of sets of relations expected, found %s", typeName(arg))
		}
		p := ev.bx.prods.one()
		*p = productV{comps: comps, id: ev.newID()}
		return p, nil
	},
	"map": func(ev *evaluator, f Value) (Value, error) {
		p := ev.bx.prims.one()
		*p = primV{name: "map", mapOf: f}
		return p, nil
	},
	"tag2events": func(ev *evaluator, arg Value) (Value, error) {
		t, ok := arg.(tagV)
		if !ok {
			return nil, fmt.Errorf("tag expected, %s found", typeName(arg))
		}
		name := setName(t.name)
		if i := ev.x.P.TagIndex(name); i >= 0 {
			return ev.setv(ev.x.Tag[i]), nil
		}
		return theEmpty, nil
	},
}

// primValues are the values of the primitives (they hold no state).
var primValues = func() map[string]*primV {
	out := make(map[string]*primV, len(primitives))
	for name, fn := range primitives {
		out[name] = &primV{name: name, fn: fn}
	}
	return out
}()

// setName is the event set an annotation names: its first letter
// upper-cased, as herd's bell sets are (tag2instrs_var).
func setName(tag string) string {
	if tag == "" {
		return tag
	}
	return strings.ToUpper(tag[:1]) + tag[1:]
}

func classesLoc(ev *evaluator, arg Value) (Value, error) {
	var s axiom.Set
	switch v := arg.(type) {
	case *setV:
		s = v.s
	case emptyV:
		return valSetV{}, nil
	case universeV:
		s = ev.all
	default:
		return nil, fmt.Errorf("event set expected, %s found", typeName(arg))
	}
	// The classes of the events of a structure of execution depend on
	// nothing else: classes-loc(W) of the co generation is the same for
	// every candidate. An argument met twice in a row gets its result
	// copied to the heap, to outlive the candidate, and later calls
	// with it return that.
	if ev.clVal != nil && slices.Equal(ev.clArg, s) {
		return ev.clVal, nil
	}
	v := ev.classesLoc(s)
	if ev.clPrev != nil && slices.Equal(ev.clPrev, s) {
		ev.clArg, ev.clVal = slices.Clone(s), heapValSet(v)
	}
	ev.clPrev = append(ev.clPrev[:0], s...)
	return v, nil
}

// heapValSet returns a copy of a set of event sets on the heap.
func heapValSet(v valSetV) Value {
	out := make(valSetV, len(v))
	for i, m := range v {
		out[i] = &setV{s: slices.Clone(m.(*setV).s)}
	}
	return out
}

// classesLoc computes classes-loc(s) in the evaluator's arena.
func (ev *evaluator) classesLoc(s axiom.Set) valSetV {
	// byLoc and locs are the evaluator's scratch room: only the sets
	// they point at, from the arena, are kept.
	byLoc := ev.byLoc[:0]
	for range ev.x.P.Names {
		byLoc = append(byLoc, nil)
	}
	locs := ev.locs[:0]
	s.Each(func(i int) {
		l := ev.x.Ev[i].Loc
		if l < 0 {
			return
		}
		for l >= len(byLoc) {
			byLoc = append(byLoc, nil)
		}
		if byLoc[l] == nil {
			byLoc[l] = ev.al.Set(ev.x.N)
			locs = append(locs, l)
		}
		byLoc[l].Add(i)
	})
	out := ev.bx.vals.many(len(locs))
	for k, l := range locs {
		out[k] = ev.setv(byLoc[l])
	}
	clear(byLoc)
	ev.byLoc, ev.locs = byLoc, locs
	return newValSet(out)
}

func (ev *evaluator) asSetOrErr(v Value) axiom.Set {
	switch v := v.(type) {
	case *setV:
		return v.s
	case emptyV:
		return ev.al.Set(ev.x.N)
	case universeV:
		return ev.all
	case eventV:
		s := ev.al.Set(ev.x.N)
		s.Add(int(v))
		return s
	}
	return nil
}

func (ev *evaluator) asRelOrErr(v Value) axiom.Rel {
	switch v := v.(type) {
	case *relV:
		return v.r
	case emptyV:
		return ev.emptyRel()
	case universeV:
		return ev.universeRel()
	case pairV:
		return ev.pairRel(v)
	}
	return axiom.Rel{}
}

// members returns the members of a set value.
func (ev *evaluator) members(v Value) []Value {
	switch v := v.(type) {
	case emptyV:
		return nil
	case valSetV:
		return v
	case *setV:
		var out []Value
		v.s.Each(func(i int) { out = append(out, eventV(i)) })
		return out
	case *relV:
		var out []Value
		for _, p := range v.r.Pairs() {
			out = append(out, pairV(p))
		}
		return out
	case *linV:
		var out []Value
		ev.eachLin(v, func(r axiom.Rel) bool {
			out = append(out, ev.relv(r.Clone()))
			return true
		})
		return out
	case *productV:
		var out []Value
		ev.eachProduct(v, func(m Value) bool {
			out = append(out, m)
			return true
		})
		return newValSet(out)
	}
	ev.errorf(0, "set expected, %s found", typeName(v))
	return nil
}

// orderRel returns the strict total order of order as a relation.
func (ev *evaluator) orderRel(order []int) axiom.Rel {
	r := ev.emptyRel()
	for i := 0; i < len(order); i++ {
		for j := i + 1; j < len(order); j++ {
			r.Add(order[i], order[j])
		}
	}
	return r
}

// eachLin calls f with every total order a linV stands for. When the
// candidate comes from a model that checks uniproc and the events are
// writes of one location, the orders that coherence rejects given the
// candidate's rf are skipped (they would be rejected anyway).
func (ev *evaluator) eachLin(l *linV, f func(axiom.Rel) bool) bool {
	r, n, before := ev.linOrder(l)
	switch n {
	case 0:
		return true
	case 1:
		return f(r)
	}
	return axiom.Linearisations(l.ws, before, func(order []int) bool {
		return f(ev.orderRel(order))
	})
}

// linOrder returns the order l forces, with n = 1, when it leaves no
// choice; n = 0 when it leaves no order; n = 2 when the orders of ws
// that extend before are to be enumerated.
func (ev *evaluator) linOrder(l *linV) (r axiom.Rel, n int, before axiom.Rel) {
	must := ev.mustOf(l)
	r, n = ev.forcedOrder(l.ws, l.before, must)
	if n == 2 {
		before = ev.withMust(l, must)
	}
	return r, n, before
}

// hasOrder reports whether some total order of ws extends before, as
// axiom.HasLinearisation, without allocating when ws is small.
func hasOrder(ws []int, before axiom.Rel) bool {
	if len(ws) > 64 {
		return axiom.HasLinearisation(ws, before)
	}
	left := uint64(1)<<len(ws) - 1
	if len(ws) == 64 {
		left = ^uint64(0)
	}
	for left != 0 {
		progress := false
		for m := left; m != 0; m &= m - 1 {
			k := bits.TrailingZeros64(m)
			free := true
			for m2 := left &^ (1 << k); m2 != 0; m2 &= m2 - 1 {
				if before.Has(ws[bits.TrailingZeros64(m2)], ws[k]) {
					free = false
					break
				}
			}
			if free {
				left &^= 1 << k
				progress = true
			}
		}
		if !progress {
			return false
		}
	}
	return true
}

// forcedOrder tells whether before, with the pairs of must among ws
// (when must is not the zero Rel), leaves no choice in ordering ws: it
// returns 1 and the order as a relation when it leaves exactly one total
// order, 0 when it leaves none (it forces a prefix, after which the rest
// has a cycle), and 2 when it leaves a choice somewhere, to be
// enumerated. A forced order is the common case of the orders of one
// location's writes given what its reads saw (one write and the initial
// one, say), and needs none of the enumeration's buffers.
func (ev *evaluator) forcedOrder(ws []int, before, must axiom.Rel) (axiom.Rel, int) {
	if len(ws) > 64 {
		return axiom.Rel{}, 2
	}
	r := ev.emptyRel()
	left := uint64(1)<<len(ws) - 1
	if len(ws) == 64 {
		left = ^uint64(0)
	}
	var placed uint64
	for left != 0 {
		next := -1
		for m := left; m != 0; m &= m - 1 {
			k := bits.TrailingZeros64(m)
			free := true
			for m2 := left &^ (1 << k); m2 != 0; m2 &= m2 - 1 {
				a := ws[bits.TrailingZeros64(m2)]
				if before.Has(a, ws[k]) || must.N() > 0 && must.Has(a, ws[k]) {
					free = false
					break
				}
			}
			if free {
				if next >= 0 {
					return axiom.Rel{}, 2 // two choices
				}
				next = k
			}
		}
		if next < 0 {
			return axiom.Rel{}, 0 // a cycle
		}
		for m := placed; m != 0; m &= m - 1 {
			r.Add(ws[bits.TrailingZeros64(m)], ws[next])
		}
		placed |= 1 << next
		left &^= 1 << next
	}
	return r, 1
}

// mustOf returns the coherence order the candidate's reads impose on the
// events of a linearisation, when they are writes of one location and
// the model checks uniproc; the zero Rel otherwise.
func (ev *evaluator) mustOf(l *linV) axiom.Rel {
	c := ev.cand
	if c == nil || !c.uniproc || len(l.ws) < 2 {
		return axiom.Rel{}
	}
	ev.impure++ // the candidate's rf, which no binding holds
	loc := ev.x.Ev[l.ws[0]].Loc
	for _, w := range l.ws {
		if e := ev.x.Ev[w]; e.Loc != loc || e.Kind != axiom.KindW {
			return axiom.Rel{}
		}
	}
	return c.must(loc)
}

// withMust adds must (mustOf(l)), the coherence constraints of the
// candidate, to a linearisation of one location's writes.
func (ev *evaluator) withMust(l *linV, must axiom.Rel) axiom.Rel {
	if must.N() == 0 {
		return l.before
	}
	before := l.before.Clone()
	for _, a := range l.ws {
		for _, b := range l.ws {
			if must.Has(a, b) {
				before.Add(a, b)
			}
		}
	}
	return before
}

// eachProduct calls f with every member of a product: the union of one
// member of each component.
func (ev *evaluator) eachProduct(p *productV, f func(Value) bool) bool {
	return ev.walkProduct(&productWalk{}, p, nil, f)
}

// walkProduct is eachProduct that asks prune (when not nil), after each
// component but the last, whether the union chosen so far already fails;
// when it does, no completion of it is tried. It asks only when enough
// combinations remain to pay for the question. w is room for the walk's
// state.
func (ev *evaluator) walkProduct(w *productWalk, p *productV, prune func(axiom.Rel) bool, f func(Value) bool) bool {
	n := len(p.comps)
	*w = productWalk{ev: ev, p: p, prune: prune, f: f, acc: ev.emptyRel(), remaining: w.remaining[:0], orders: w.orders[:0]}
	// The orders each linearisation leaves, computed once for the walk.
	for _, c := range p.comps {
		var o linOrderOf
		if l, ok := c.(*linV); ok {
			o.r, o.n, o.before = ev.linOrder(l)
		}
		w.orders = append(w.orders, o)
	}
	if prune != nil {
		// remaining[k]: an estimate of the combinations of components
		// k...
		if cap(w.remaining) < n+1 {
			w.remaining = make([]float64, 0, n+1)
		}
		w.remaining = w.remaining[:n+1]
		w.remaining[n] = 1
		for k := n - 1; k >= 0; k-- {
			size := 1.0
			switch c := p.comps[k].(type) {
			case *linV:
				// The orders the candidate leaves: one when they
				// are forced (a location's initial and final
				// writes and one between, say), none when they
				// are cyclic; otherwise at most len(ws)!.
				switch n := w.orders[k].n; n {
				case 0, 1:
					size = float64(n)
				default:
					for i := 2; i <= len(c.ws); i++ {
						size *= float64(i)
					}
				}
			case valSetV:
				size = float64(len(c))
			}
			w.remaining[k] = w.remaining[k+1] * size
		}
	}
	return w.rec(0)
}

// productWalk is the state of walkProduct: acc is the union of the
// members chosen so far.
type productWalk struct {
	ev        *evaluator
	p         *productV
	prune     func(axiom.Rel) bool
	f         func(Value) bool
	acc       axiom.Rel
	remaining []float64
	orders    []linOrderOf // by component: linOrder's result for a linV
}

// linOrderOf is what linOrder returns for one linearisation.
type linOrderOf struct {
	r, before axiom.Rel
	n         int
}

// rec chooses a member of component k and of the components after it.
func (w *productWalk) rec(k int) bool {
	ev := w.ev
	if k == len(w.p.comps) {
		return w.f(ev.relv(w.acc.Clone()))
	}
	saved := w.acc.Clone()
	switch c := w.p.comps[k].(type) {
	case *linV:
		r, n, before := w.orders[k].r, w.orders[k].n, w.orders[k].before
		switch n {
		case 1:
			if !w.step(k, saved, r) {
				return false
			}
		case 2:
			if !axiom.Linearisations(c.ws, before, func(order []int) bool {
				return w.step(k, saved, ev.orderRel(order))
			}) {
				return false
			}
		}
	case valSetV:
		for _, m := range c {
			var r axiom.Rel
			switch m := m.(type) {
			case *relV:
				r = m.r
			case pairV:
				r = ev.pairRel(m)
			default:
				if kindOf(m) != kEmpty {
					ev.errorf(0, "cross: relation expected, %s found", typeName(m))
				}
				r = ev.emptyRel()
			}
			if !w.step(k, saved, r) {
				return false
			}
		}
	}
	copy(w.acc.Words(), saved.Words())
	return true
}

// step adds r, the member chosen for component k, to saved, the union
// of the members chosen before it, and goes on with component k+1.
func (w *productWalk) step(k int, saved, r axiom.Rel) bool {
	acc := w.acc.Words()
	copy(acc, saved.Words())
	for i, x := range r.Words() {
		acc[i] |= x
	}
	if w.prune != nil && k+1 < len(w.p.comps) && w.remaining[k+1] >= 4 && w.prune(w.acc) {
		return true
	}
	return w.rec(k + 1)
}

// mapSet is herd's stdlib map f S, computed natively: the cat definition
//
//	let map f =
//	  let rec do_map S = match S with
//	  || {} -> {}
//	  || e ++ rest -> f e ++ do_map rest
//	  end in
//	  do_map
//
// applies f to the members of S in order (the first member of an event
// set or relation is its least; the order matters, as linearisations and
// cross number their results) and then adds each result, the last first,
// to {}; this does the same without a scope and a closure call per member.
// Once the first addition makes a set of values (the last result is not
// an event or a pair), every later one adds to that set and cannot fail:
// the result is the set of all results, built at once.
func (ev *evaluator) mapSet(f, set Value) (Value, error) {
	var elems []Value
	switch s := set.(type) {
	case emptyV, valSetV, *setV, *relV, *linV, *productV:
		elems = ev.members(s)
	default:
		return nil, fmt.Errorf("set-matching on non-set value of type %s", typeName(set))
	}
	out := ev.bx.vals.many(len(elems))
	for i, e := range elems {
		out[i] = ev.apply(0, f, e)
	}
	if len(out) > 0 {
		switch out[len(out)-1].(type) {
		case eventV, pairV:
		default:
			// newValSet keeps the first of equal values; the additions
			// keep the one added first, the last result. Results in
			// increasing order (linearisations, numbered as they are
			// made) are the set as they are.
			if increasing(out) {
				return valSetV(out), nil
			}
			slices.Reverse(out)
			return newValSet(out), nil
		}
	}
	var acc Value = theEmpty
	for i := len(out) - 1; i >= 0; i-- {
		acc = ev.addValues(out[i], acc, 0, 0)
	}
	return acc, nil
}

// increasing reports whether vs is strictly increasing (compareValues).
func increasing(vs []Value) bool {
	for i := 1; i < len(vs); i++ {
		if compareValues(vs[i-1], vs[i]) >= 0 {
			return false
		}
	}
	return true
}
