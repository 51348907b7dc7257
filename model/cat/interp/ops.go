package interp

import (
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat"
)

// This file evaluates the operators of the cat language on sets and
// relations, as herd's interpreter does.

func (ev *evaluator) evalOp1(e *cat.Op1, sc *scope) Value {
	v := ev.eval(e.X, sc)
	switch e.Op {
	case cat.OpPlus:
		switch v := v.(type) {
		case emptyV, universeV:
			return v
		case *relV:
			return ev.relv(v.r.Plus())
		case pairV:
			return ev.relv(ev.pairRel(v))
		}
	case cat.OpStar, cat.OpOpt:
		switch v := v.(type) {
		case emptyV:
			return ev.relv(ev.idRel().Clone())
		case universeV:
			return v
		case *relV:
			if e.Op == cat.OpStar {
				return ev.relv(v.r.Star())
			}
			return ev.relv(v.r.Opt())
		case pairV:
			if e.Op == cat.OpStar {
				return ev.relv(ev.pairRel(v).Star())
			}
			return ev.relv(ev.pairRel(v).Opt())
		}
	case cat.OpComp:
		switch v := v.(type) {
		case emptyV:
			return theUniverse
		case universeV:
			return theEmpty
		case *setV:
			return ev.setv(ev.all.Minus(v.s))
		case *relV:
			return ev.relv(v.r.Compl())
		case valSetV:
			if len(v) > 0 {
				if t, ok := v[0].(tagV); ok {
					return ev.tagComplement(t.typ, v)
				}
			}
		}
		ev.errorf(e.At, "set or relation expected, %s found", typeName(v))
	case cat.OpInv:
		switch v := v.(type) {
		case emptyV, universeV:
			return v
		case *relV:
			return ev.relv(v.r.Inv())
		case pairV:
			return pairV{v[1], v[0]}
		}
	case cat.OpToID:
		switch v := v.(type) {
		case emptyV:
			return theEmpty
		case universeV:
			return ev.relv(ev.idRel())
		case *setV:
			return ev.relv(ev.al.Ident(ev.x.N, v.s))
		case eventV:
			r := ev.emptyRel()
			r.Add(int(v), int(v))
			return ev.relv(r)
		}
		ev.errorf(e.At, "event set expected in [...], %s found", typeName(v))
	}
	ev.errorf(e.At, "relation expected for %s, %s found", e.Op, typeName(v))
	return nil
}

func (ev *evaluator) pairRel(p pairV) axiom.Rel {
	r := ev.emptyRel()
	r.Add(p[0], p[1])
	return r
}

func (ev *evaluator) tagComplement(typ string, v valSetV) Value {
	all := ev.m.enums[typ]
	var out []Value
	for _, t := range all {
		tv := tagV{typ: typ, name: t}
		found := false
		for _, w := range v {
			if compareValues(w, tv) == 0 {
				found = true
				break
			}
		}
		if !found {
			out = append(out, tv)
		}
	}
	return newValSet(out)
}

// asRel converts v to a relation, as herd's eval_rel does.
func (ev *evaluator) asRel(v Value, pos cat.Pos) axiom.Rel {
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
	ev.errorf(pos, "relation expected, %s found", typeName(v))
	return axiom.Rel{}
}

// asSet converts v to a set of events, as herd's eval_events does.
func (ev *evaluator) asSet(v Value, pos cat.Pos) axiom.Set {
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
	ev.errorf(pos, "event set expected, %s found", typeName(v))
	return nil
}

// kind classifies a value for the set operators.
type kind uint8

const (
	kOther kind = iota
	kEmpty
	kUniverse
	kEvents
	kRel
	kValSet
)

func kindOf(v Value) kind {
	switch v.(type) {
	case emptyV:
		return kEmpty
	case universeV:
		return kUniverse
	case *setV, eventV:
		return kEvents
	case *relV, pairV:
		return kRel
	case valSetV:
		return kValSet
	}
	return kOther
}

func (ev *evaluator) evalOp(e *cat.Op, sc *scope) Value {
	switch e.Op {
	case cat.OpTuple:
		out := ev.bx.tuple(len(e.Args))
		for i, a := range e.Args {
			(*out)[i] = ev.eval(a, sc)
		}
		return out
	case cat.OpUnion:
		return ev.union(e, sc)
	case cat.OpSeq:
		return ev.seq(e, sc)
	case cat.OpInter:
		return ev.inter(e, sc)
	case cat.OpDiff:
		return ev.diff(e, sc)
	case cat.OpCartesian:
		s1 := ev.asSet(ev.eval(e.Args[0], sc), e.Args[0].Pos())
		s2 := ev.asSet(ev.eval(e.Args[1], sc), e.Args[1].Pos())
		return ev.relv(ev.al.Cross(ev.x.N, s1, s2))
	case cat.OpAdd:
		return ev.add(e, sc)
	}
	ev.errorf(e.At, "unsupported operator %s", e.Op)
	return nil
}

func (ev *evaluator) union(e *cat.Op, sc *scope) Value {
	var acc Value = theEmpty
	k := kEmpty
	// owned reports whether acc is this union's own (a relation or set
	// it may add to): the first operand is copied only when a second
	// one comes, so that a union with one non-empty operand (mb's eight
	// terms in a test with one kind of fence) copies nothing. No
	// operation changes a value it did not make.
	owned := false
	own := func() {
		if owned {
			return
		}
		switch v := acc.(type) {
		case *relV:
			acc = ev.relv(v.r.Clone())
		case *setV:
			acc = ev.setv(v.s.Clone())
		}
		owned = true
	}
	for _, a := range e.Args {
		v := ev.eval(a, sc)
		vk := kindOf(v)
		switch {
		case vk == kEmpty:
			continue
		case vk == kUniverse:
			return theUniverse
		case vk == kOther:
			ev.errorf(a.Pos(), "cannot perform union on %s", typeName(v))
		case k == kEmpty:
			k = vk
			switch v := v.(type) {
			case eventV:
				acc, owned = ev.setv(ev.asSet(v, a.Pos()).Clone()), true
			case pairV:
				acc, owned = ev.relv(ev.pairRel(v)), true
			default:
				acc = v
			}
		case vk != k:
			ev.errorf(a.Pos(), "mixing %s and %s in union", typeName(acc), typeName(v))
		case k == kEvents:
			own()
			s := acc.(*setV).s
			t := ev.asSet(v, a.Pos())
			for i := range s {
				s[i] |= t[i]
			}
		case k == kRel:
			own()
			r := acc.(*relV).r
			t := ev.asRel(v, a.Pos())
			for i, w := range t.Words() {
				r.Words()[i] |= w
			}
		case k == kValSet:
			acc = newValSet(append(append([]Value(nil), acc.(valSetV)...), v.(valSetV)...))
		}
	}
	return acc
}

// seq evaluates a sequence as herd's seq_args does: from the left,
// stopping at the first operand or prefix that is empty. The result is
// then 0, and the operands after it are not evaluated: with a sequence
// such as rcu-gp ; rcu-link ; rcu-rscsi, a test without grace periods
// never computes rcu-link.
func (ev *evaluator) seq(e *cat.Op, sc *scope) Value {
	var acc axiom.Rel
	have := false
	// dom is the set of the filters [S] that begin the sequence, kept as
	// a set until a relation comes: [S] ; r is r with its domain
	// restricted to S, and needs no identity relation.
	var dom axiom.Set
	for _, a := range e.Args {
		// [S] ; r and r ; [S] filter, as herd's Rid.
		if t, ok := a.(*cat.Op1); ok && t.Op == cat.OpToID {
			v := ev.eval(t.X, sc)
			if kindOf(v) == kEmpty {
				return theEmpty
			}
			s := ev.asSet(v, t.X.Pos())
			switch {
			case have:
				acc = acc.Restrict(nil, s)
				if acc.Empty() {
					return theEmpty
				}
			case dom == nil:
				dom = s
			default:
				dom = dom.Inter(s)
			}
			if !have && dom.Empty() {
				return theEmpty
			}
			continue
		}
		v := ev.eval(a, sc)
		if kindOf(v) == kEmpty {
			return theEmpty
		}
		r := ev.asRel(v, a.Pos())
		switch {
		case have:
			acc = acc.Seq(r)
		case dom != nil:
			acc = r.Restrict(dom, nil)
		default:
			acc = r
		}
		have = true
		if acc.Empty() {
			return theEmpty
		}
	}
	if !have {
		return ev.relv(ev.al.Ident(ev.x.N, dom))
	}
	return ev.relv(acc)
}

func (ev *evaluator) inter(e *cat.Op, sc *scope) Value {
	a, b := e.Args[0], e.Args[1]
	// r & ~s is r \ s, as herd's eval_diff (avoids building ~s).
	if c, ok := b.(*cat.Op1); ok && c.Op == cat.OpComp {
		v1 := ev.eval(a, sc)
		if ev.skips(e, v1) {
			return v1
		}
		return ev.diffValues(e.At, v1, ev.eval(c.X, sc), a.Pos(), c.X.Pos())
	}
	if c, ok := a.(*cat.Op1); ok && c.Op == cat.OpComp {
		v1 := ev.eval(b, sc)
		if ev.skips(e, v1) {
			return v1
		}
		return ev.diffValues(e.At, v1, ev.eval(c.X, sc), b.Pos(), c.X.Pos())
	}
	v1 := ev.eval(a, sc)
	if ev.skips(e, v1) {
		return v1
	}
	v2 := ev.eval(b, sc)
	k1, k2 := kindOf(v1), kindOf(v2)
	switch {
	case k1 == kUniverse:
		return v2
	case k2 == kUniverse:
		return v1
	case k1 == kEmpty || k2 == kEmpty:
		return theEmpty
	case k1 == kRel && k2 == kRel:
		return ev.relv(ev.asRel(v1, a.Pos()).Inter(ev.asRel(v2, b.Pos())))
	case k1 == kEvents && k2 == kEvents:
		return ev.setv(ev.asSet(v1, a.Pos()).Inter(ev.asSet(v2, b.Pos())))
	case k1 == kValSet && k2 == kValSet:
		var out []Value
		for _, x := range v1.(valSetV) {
			for _, y := range v2.(valSetV) {
				if compareValues(x, y) == 0 {
					out = append(out, x)
					break
				}
			}
		}
		return newValSet(out)
	}
	ev.errorf(e.At, "intersection of %s and %s", typeName(v1), typeName(v2))
	return nil
}

func (ev *evaluator) diff(e *cat.Op, sc *scope) Value {
	v1 := ev.eval(e.Args[0], sc)
	if ev.skips(e, v1) {
		return v1
	}
	return ev.diffValues(e.At, v1, ev.eval(e.Args[1], sc), e.Args[0].Pos(), e.Args[1].Pos())
}

func (ev *evaluator) diffValues(pos cat.Pos, v1, v2 Value, p1, p2 cat.Pos) Value {
	k1, k2 := kindOf(v1), kindOf(v2)
	switch {
	case k1 == kOther:
		ev.errorf(p1, "difference on %s", typeName(v1))
	case k2 == kOther:
		ev.errorf(p2, "difference on %s", typeName(v2))
	case k2 == kUniverse, k1 == kEmpty:
		return theEmpty
	case k2 == kEmpty:
		return v1
	case k1 == kUniverse && k2 == kRel:
		return ev.relv(ev.asRel(v2, p2).Compl())
	case k1 == kUniverse && k2 == kEvents:
		return ev.setv(ev.all.Minus(ev.asSet(v2, p2)))
	case k1 == kUniverse && k2 == kValSet:
		vs := v2.(valSetV)
		if t, ok := vs[0].(tagV); ok {
			return ev.tagComplement(t.typ, vs)
		}
		ev.errorf(p1, "cannot build universe for %s", typeName(v2))
	case k1 == kRel && k2 == kRel:
		return ev.relv(ev.asRel(v1, p1).Minus(ev.asRel(v2, p2)))
	case k1 == kEvents && k2 == kEvents:
		return ev.setv(ev.asSet(v1, p1).Minus(ev.asSet(v2, p2)))
	case k1 == kValSet && k2 == kValSet:
		var out []Value
		for _, x := range v1.(valSetV) {
			found := false
			for _, y := range v2.(valSetV) {
				if compareValues(x, y) == 0 {
					found = true
					break
				}
			}
			if !found {
				out = append(out, x)
			}
		}
		return newValSet(out)
	}
	ev.errorf(pos, "mixing %s and %s in difference", typeName(v1), typeName(v2))
	return nil
}

func (ev *evaluator) add(e *cat.Op, sc *scope) Value {
	v1, v2 := ev.eval(e.Args[0], sc), ev.eval(e.Args[1], sc)
	return ev.addValues(v1, v2, e.Args[0].Pos(), e.Args[1].Pos())
}

// addValues returns v1 ++ v2; p1 and p2 are the operands' positions.
func (ev *evaluator) addValues(v1, v2 Value, p1, p2 cat.Pos) Value {
	switch s := v2.(type) {
	case universeV:
		return theUniverse
	case emptyV:
		switch x := v1.(type) {
		case eventV:
			set := ev.al.Set(ev.x.N)
			set.Add(int(x))
			return ev.setv(set)
		case pairV:
			return ev.relv(ev.pairRel(x))
		}
		return valSetV{v1}
	case valSetV:
		return newValSet(append(append([]Value(nil), s...), v1))
	case *relV:
		switch x := v1.(type) {
		case pairV:
			r := s.r.Clone()
			r.Add(x[0], x[1])
			return ev.relv(r)
		case *tupleV:
			if x := *x; len(x) == 2 {
				a, ok1 := x[0].(eventV)
				b, ok2 := x[1].(eventV)
				if ok1 && ok2 {
					r := s.r.Clone()
					r.Add(int(a), int(b))
					return ev.relv(r)
				}
			}
		}
		ev.errorf(p1, "this expression of type %s should be a pair", typeName(v1))
	case *setV:
		if x, ok := v1.(eventV); ok {
			set := s.s.Clone()
			set.Add(int(x))
			return ev.setv(set)
		}
		ev.errorf(p1, "this expression of type %s should be an event", typeName(v1))
	}
	ev.errorf(p2, "this expression of type %s should be a set", typeName(v2))
	return nil
}

// skips reports whether operation e, whose first operand is v, may skip
// its second: v is empty and the abstract evaluation found that the
// second operand can neither fail nor change the result (see skipper).
func (ev *evaluator) skips(e *cat.Op, v Value) bool {
	if ev.skip == nil {
		return false
	}
	var bit uint8
	switch v := v.(type) {
	case emptyV:
		bit = skipZero
	case *relV:
		if !v.r.Empty() {
			return false
		}
		bit = skipRel | skipRelLoose
	case *setV:
		if !v.s.Empty() {
			return false
		}
		bit = skipSet | skipSetLoose
	default:
		return false
	}
	return ev.skip[e]&bit != 0
}
