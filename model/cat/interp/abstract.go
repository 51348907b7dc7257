package interp

import "github.com/litmus-dev/litmus/model/cat"

// This file is the abstract evaluation of a model that decides which
// operations may skip an operand (see skip.go): it follows the
// evaluator over what each value may be rather than what it is.

// akinds is the set of kinds a value may have.
type akinds uint8

const (
	akE   akinds = 1 << iota // 0
	akU                      // _
	akS                      // an event set or an event
	akR                      // a relation or a pair
	akV                      // a set of values
	akL                      // a lazy set of relations (linearisations, cross)
	akO                      // anything else: a tuple, a tag, a function...
	akAll = akE | akU | akS | akR | akV | akL | akO
)

// aval is what the abstract evaluation knows of a value: its possible
// kinds, whether computing it may fail, whether a loose skip may have
// changed its representation, and, for a function, which one.
type aval struct {
	k    akinds
	fail bool
	rep  bool
	fn   *afun
}

// afun is a function value: a primitive, or a closure with the abstract
// scope it was made in.
type afun struct {
	prim string
	f    *cat.Fun
	env  *aenv
}

var unknown = aval{k: akAll, fail: true}

// aenv is an abstract scope; at its root, names resolve to the top-level
// bindings instruction at sees.
type aenv struct {
	names  []string
	vals   []aval
	parent *aenv
	at     int
}

// skipper is one abstract evaluation of the program.
type skipper struct {
	m     *Model
	slots []aval // the top-level bindings, by slot
	base  []aval // the base bindings
	mask  map[*cat.Op]uint8
	inFun int // inside a closure body: its operations are not recorded
	depth int
	// repBad reports that a value a loose skip may have changed reaches
	// an operation that can tell (see above): no loose skip then.
	repBad bool
}

// kindsOf returns the kind of a value.
func kindsOf(v Value) akinds {
	switch v.(type) {
	case emptyV:
		return akE
	case universeV:
		return akU
	case *setV, eventV:
		return akS
	case *relV, pairV:
		return akR
	case valSetV:
		return akV
	case *linV, *productV:
		return akL
	}
	return akO
}

// run evaluates the program abstractly: the fixed bindings are known,
// the others follow from their definitions.
func (sk *skipper) run() {
	m := sk.m
	for i := range m.prog {
		fs := &m.prog[i]
		root := &aenv{at: i}
		if fs.fixed {
			// A fixed function: keep its definition, for applications.
			if l, ok := fs.s.(*cat.Let); ok && !l.Rec {
				for k, b := range l.Bindings {
					if f, ok := b.X.(*cat.Fun); ok && fs.slots[k] >= 0 && !sk.slots[fs.slots[k]].fail {
						sk.slots[fs.slots[k]] = aval{k: akO, fn: &afun{f: f, env: root}}
					}
				}
			}
			continue
		}
		switch s := fs.s.(type) {
		case *cat.Let:
			if s.When != nil {
				sk.test(s.When, root)
			}
			vals := sk.let(s.Rec, s.Bindings, root)
			for k, v := range vals {
				if fs.slots[k] >= 0 {
					sk.slots[fs.slots[k]] = v
				}
			}
		case *cat.Test:
			sk.test(&s.AppTest, root)
		case *cat.WithFrom:
			v := sk.expr(s.X, root)
			sk.repBad = sk.repBad || v.rep
			// The members of linearisations and cross are relations.
			member := aval{k: akAll}
			if v.k&^(akL|akE) == 0 {
				member = aval{k: akR}
			}
			sk.slots[fs.slots[0]] = member
		case *cat.Procedure:
			sk.slots[fs.slots[0]] = aval{k: akO}
			sk.repBad = sk.repBad || sk.readsRep(m.procFree(s), root)
		default:
			sk.repBad = sk.repBad || sk.readsRep(m.stmtsFree([]cat.Stmt{s}, nil), root)
		}
	}
}

// test evaluates a check abstractly: acyclic and irreflexive fail on a
// value that is not a relation (an empty set, but not 0), and the
// explanation of a failure tells _ from a relation.
func (sk *skipper) test(t *cat.AppTest, env *aenv) {
	v := sk.expr(t.X, env)
	if !v.rep {
		return
	}
	if t.Op != cat.IsEmpty && v.k&^(akE|akU|akR) != 0 || v.k&akU != 0 {
		sk.repBad = true
	}
}

// readsRep reports whether one of names may have been changed by a loose
// skip: a construct the abstract evaluation does not follow reads it.
func (sk *skipper) readsRep(names []string, env *aenv) bool {
	for _, n := range names {
		if env.lookup(sk, n).rep {
			return true
		}
	}
	return false
}

// let evaluates the bindings of a let abstractly, returning one value per
// name of its patterns.
func (sk *skipper) let(rec bool, bs []*cat.Binding, env *aenv) []aval {
	var out []aval
	if rec {
		frame := sk.fixpoint(bs, env)
		for _, b := range bs {
			for _, n := range b.Pat.Names {
				out = append(out, frame.lookup(sk, n))
			}
		}
		return out
	}
	for _, b := range bs {
		v := sk.expr(b.X, env)
		if len(b.Pat.Names) == 1 && !b.Pat.Tuple {
			out = append(out, v)
			continue
		}
		for range b.Pat.Names {
			out = append(out, aval{k: akAll, fail: true, rep: v.rep})
		}
	}
	return out
}

// fixpoint evaluates let rec bindings abstractly: from 0, joining what
// each round gives until nothing grows. The fixed point compares values,
// so a loose skip must not reach it.
func (sk *skipper) fixpoint(bs []*cat.Binding, env *aenv) *aenv {
	frame := &aenv{parent: env, at: env.at}
	for _, b := range bs {
		for _, n := range b.Pat.Names {
			frame.names = append(frame.names, n)
			frame.vals = append(frame.vals, aval{k: akE})
		}
	}
	index := func(n string) int {
		for k := len(frame.names) - 1; k >= 0; k-- {
			if frame.names[k] == n {
				return k
			}
		}
		return -1
	}
	for _, b := range bs {
		if f, ok := b.X.(*cat.Fun); ok && len(b.Pat.Names) == 1 {
			frame.vals[index(b.Pat.Names[0])] = aval{k: akO, fn: &afun{f: f, env: frame}}
		}
	}
	set := func(n string, v aval) bool {
		k := index(n)
		if k < 0 {
			return false
		}
		old := frame.vals[k]
		nv := aval{k: old.k | v.k, fail: old.fail || v.fail, rep: old.rep || v.rep}
		frame.vals[k] = nv
		return nv != old
	}
	for iter := 0; ; iter++ {
		if iter > 20 {
			for k := range frame.vals {
				frame.vals[k] = unknown
			}
			sk.repBad = true
			return frame
		}
		changed := false
		for _, b := range bs {
			if _, ok := b.X.(*cat.Fun); ok && len(b.Pat.Names) == 1 {
				continue
			}
			v := sk.expr(b.X, frame)
			sk.repBad = sk.repBad || v.rep
			if !b.Pat.Tuple && len(b.Pat.Names) == 1 {
				changed = set(b.Pat.Names[0], v) || changed
				continue
			}
			for _, n := range b.Pat.Names {
				changed = set(n, unknown) || changed
			}
		}
		if !changed {
			return frame
		}
	}
}

// lookup returns what name n is in env.
func (env *aenv) lookup(sk *skipper, n string) aval {
	at := 0
	for e := env; e != nil; e = e.parent {
		for k := len(e.names) - 1; k >= 0; k-- {
			if e.names[k] == n {
				return e.vals[k]
			}
		}
		at = e.at
	}
	info := sk.m.names[n]
	if info == nil {
		return unknown
	}
	for k := len(info.defs) - 1; k >= 0; k-- {
		if info.defs[k].at < at {
			return sk.slots[info.defs[k].slot]
		}
	}
	return sk.base[info.base]
}

// expr evaluates e abstractly in env, recording the masks of the
// intersections and differences met outside closure bodies.
func (sk *skipper) expr(e cat.Expr, env *aenv) aval {
	v := sk.expr1(e, env)
	if v.fail && v.rep {
		sk.repBad = true
	}
	return v
}

func (sk *skipper) expr1(e cat.Expr, env *aenv) aval {
	switch e := e.(type) {
	case *cat.Empty:
		return aval{k: akE}
	case *cat.Universe:
		return aval{k: akU}
	case *globalVar:
		if e.base {
			return sk.base[e.slot]
		}
		return sk.slots[e.slot]
	case *cat.Var:
		return env.lookup(sk, e.Name)
	case *cat.Op1:
		return sk.op1(e, env)
	case *cat.Op:
		return sk.op(e, env)
	case *cat.App:
		return sk.app(e, env)
	case *cat.Fun:
		return aval{k: akO, fn: &afun{f: e, env: env}}
	case *cat.Bind:
		if e.Rec {
			return sk.expr(e.Body, sk.fixpoint(e.Bindings, env))
		}
		inner := &aenv{parent: env, at: env.at}
		var fail, rep bool
		for _, b := range e.Bindings {
			v := sk.expr(b.X, env)
			if len(b.Pat.Names) == 1 && !b.Pat.Tuple {
				inner.names = append(inner.names, b.Pat.Names[0])
				inner.vals = append(inner.vals, v)
				continue
			}
			// A tuple pattern is matched at once.
			fail, rep = true, rep || v.rep
			for _, n := range b.Pat.Names {
				inner.names = append(inner.names, n)
				inner.vals = append(inner.vals, unknown)
			}
		}
		v := sk.expr(e.Body, inner)
		v.fail, v.rep = v.fail || fail, v.rep || rep
		return v
	case *cat.Try:
		x := sk.expr(e.X, env)
		if !x.fail {
			return x
		}
		d := sk.expr(e.Default, env)
		return aval{k: x.k | d.k, fail: d.fail, rep: x.rep || d.rep}
	}
	// Tags, explicit sets, matches, conditionals: not followed.
	if sk.readsRep(sk.m.freeVars(e), env) {
		sk.repBad = true
	}
	return unknown
}

func (sk *skipper) op1(e *cat.Op1, env *aenv) aval {
	x := sk.expr(e.X, env)
	out := aval{fail: x.fail, rep: x.rep}
	var ok akinds
	switch e.Op {
	case cat.OpPlus, cat.OpInv:
		ok = akE | akU | akR
		out.k = x.k & ok
	case cat.OpStar, cat.OpOpt:
		ok = akE | akU | akR
		if x.k&(akE|akR) != 0 {
			out.k |= akR
		}
		out.k |= x.k & akU
	case cat.OpComp:
		ok = akE | akU | akS | akR
		if x.k&akE != 0 {
			out.k |= akU
		}
		if x.k&akU != 0 {
			out.k |= akE
		}
		out.k |= x.k & (akS | akR)
	case cat.OpToID:
		ok = akE | akU | akS
		out.k = x.k & akE
		if x.k&(akU|akS) != 0 {
			out.k |= akR
		}
	default:
		return unknown
	}
	if x.k&^ok != 0 {
		out.fail = true
	}
	return out
}

// family is the kind an operand gives a union, an intersection or a
// difference: event sets, relations or sets of values.
func family(k akinds) akinds { return k & (akS | akR | akV) }

// single reports whether k is one family.
func single(k akinds) bool { return k == akS || k == akR || k == akV }

func (sk *skipper) op(e *cat.Op, env *aenv) aval {
	switch e.Op {
	case cat.OpTuple:
		out := aval{k: akO}
		for _, a := range e.Args {
			v := sk.expr(a, env)
			out.fail, out.rep = out.fail || v.fail, out.rep || v.rep
		}
		return out
	case cat.OpUnion:
		out := aval{k: akE}
		var fam akinds
		for _, a := range e.Args {
			v := sk.expr(a, env)
			out.fail = out.fail || v.fail || v.k&(akL|akO) != 0
			out.rep = out.rep || v.rep
			if v.k&akE == 0 {
				out.k &^= akE
			}
			out.k |= v.k & (akU | akS | akR | akV)
			fam |= family(v.k)
		}
		if fam != 0 && !single(fam) {
			out.fail = true // a mix
		}
		return out
	case cat.OpSeq:
		out := aval{k: akE | akR}
		for _, a := range e.Args {
			want := akE | akU | akR
			if t, ok := a.(*cat.Op1); ok && t.Op == cat.OpToID {
				a, want = t.X, akE|akU|akS
			}
			v := sk.expr(a, env)
			out.fail = out.fail || v.fail || v.k&^want != 0
			out.rep = out.rep || v.rep
		}
		return out
	case cat.OpInter:
		a, b := e.Args[0], e.Args[1]
		if c, ok := b.(*cat.Op1); ok && c.Op == cat.OpComp {
			return sk.diff(e, sk.expr(a, env), sk.expr(c.X, env))
		}
		if c, ok := a.(*cat.Op1); ok && c.Op == cat.OpComp {
			return sk.diff(e, sk.expr(b, env), sk.expr(c.X, env))
		}
		return sk.inter(e, sk.expr(a, env), sk.expr(b, env))
	case cat.OpDiff:
		return sk.diff(e, sk.expr(e.Args[0], env), sk.expr(e.Args[1], env))
	case cat.OpCartesian:
		out := aval{k: akR}
		for _, a := range e.Args {
			v := sk.expr(a, env)
			out.fail = out.fail || v.fail || v.k&^(akE|akU|akS) != 0
			out.rep = out.rep || v.rep
		}
		return out
	}
	if sk.readsRep(sk.m.freeVars(e), env) {
		sk.repBad = true
	}
	return unknown
}

// record narrows the mask of e to m.
func (sk *skipper) record(e *cat.Op, m uint8) {
	if sk.inFun > 0 {
		return
	}
	if old, ok := sk.mask[e]; ok {
		m &= old
	}
	sk.mask[e] = m
}

// inter is evaluator.inter on x and y, recording the mask of e: with an
// empty first operand, 0 gives 0 whatever y is; an empty relation (set)
// gives itself when y is a relation (set) or _, and loosely when y may
// also be 0.
func (sk *skipper) inter(e *cat.Op, x, y aval) aval {
	var m uint8
	if !y.fail {
		m = skipZero
		if y.k&^(akR|akU) == 0 {
			m |= skipRel
		}
		if y.k&^(akS|akU) == 0 {
			m |= skipSet
		}
		if y.k&^(akR|akU|akE) == 0 {
			m |= skipRelLoose
		}
		if y.k&^(akS|akU|akE) == 0 {
			m |= skipSetLoose
		}
	}
	sk.record(e, m)
	out := aval{fail: x.fail || y.fail, rep: x.rep || y.rep}
	if x.k&akU != 0 {
		out.k |= y.k
	}
	if y.k&akU != 0 {
		out.k |= x.k
	}
	if (x.k|y.k)&akE != 0 {
		out.k |= akE
	}
	out.k |= family(x.k) & family(y.k)
	if m&skipLoose != 0 && y.k&akE != 0 && sk.inFun == 0 {
		// A loose skip gives the empty first operand.
		out.k |= x.k & (akR | akS)
		out.rep = true
	}
	xf, yf := family(x.k)|x.k&(akL|akO), family(y.k)|y.k&(akL|akO)
	if xf != 0 && yf != 0 && (xf != yf || !single(xf)) {
		out.fail = true
	}
	return out
}

// diff is evaluator.diffValues on x and y, recording the mask of e: with
// an empty first operand, 0 gives 0 unless y is not a set; an empty
// relation (set) gives itself when y is a relation (set) or 0, and
// loosely when y may also be _.
func (sk *skipper) diff(e *cat.Op, x, y aval) aval {
	var m uint8
	if !y.fail {
		if y.k&(akL|akO) == 0 {
			m = skipZero
		}
		if y.k&^(akR|akE) == 0 {
			m |= skipRel
		}
		if y.k&^(akS|akE) == 0 {
			m |= skipSet
		}
		if y.k&^(akR|akE|akU) == 0 {
			m |= skipRelLoose
		}
		if y.k&^(akS|akE|akU) == 0 {
			m |= skipSetLoose
		}
	}
	sk.record(e, m)
	out := aval{fail: x.fail || y.fail || (x.k|y.k)&(akL|akO) != 0, rep: x.rep || y.rep}
	if y.k&akU != 0 || x.k&akE != 0 {
		out.k |= akE
	}
	if y.k&akE != 0 {
		out.k |= x.k
	}
	if x.k&akU != 0 {
		out.k |= family(y.k)
		if y.k&akV != 0 {
			out.fail = true // the complement of a set of values
		}
	}
	out.k |= family(x.k) & family(y.k)
	if m&skipLoose != 0 && y.k&akU != 0 && sk.inFun == 0 {
		// A loose skip gives the empty first operand.
		out.k |= x.k & (akR | akS)
		out.rep = true
	}
	xf, yf := family(x.k), family(y.k)
	if xf != 0 && yf != 0 && (xf != yf || !single(xf)) {
		out.fail = true
	}
	return out
}

func (sk *skipper) app(e *cat.App, env *aenv) aval {
	f := sk.expr(e.Fun, env)
	var args []aval // the members of a tuple argument
	if t, ok := e.Arg.(*cat.Op); ok && t.Op == cat.OpTuple {
		for _, a := range t.Args {
			args = append(args, sk.expr(a, env))
		}
	}
	arg := aval{k: akO}
	if args == nil {
		arg = sk.expr(e.Arg, env)
	} else {
		for _, a := range args {
			arg.fail, arg.rep = arg.fail || a.fail, arg.rep || a.rep
		}
	}
	if f.fn == nil {
		if arg.rep || f.rep {
			sk.repBad = true
		}
		return unknown
	}
	v := sk.call(f.fn, arg, args)
	v.fail = v.fail || f.fail || arg.fail
	v.rep = v.rep || f.rep || arg.rep
	return v
}

// call is what applying fn to arg (whose members are args when it is
// written as a tuple) returns.
func (sk *skipper) call(fn *afun, arg aval, args []aval) aval {
	if fn.f == nil {
		return sk.prim(fn.prim, arg)
	}
	fun := fn.f
	if sk.depth > 8 {
		if arg.rep {
			sk.repBad = true
		}
		return unknown
	}
	inner := &aenv{parent: fn.env, at: fn.env.at}
	names := fun.Params.Names
	switch {
	case len(names) == 1:
		inner.names = append(inner.names, names[0])
		inner.vals = append(inner.vals, arg)
	case len(names) == len(args):
		inner.names = append(inner.names, names...)
		inner.vals = append(inner.vals, args...)
	default:
		if arg.rep {
			sk.repBad = true
		}
		return unknown
	}
	sk.depth++
	sk.inFun++
	v := sk.expr(fun.Body, inner)
	sk.inFun--
	sk.depth--
	return v
}

// prim is what a primitive returns.
func (sk *skipper) prim(name string, arg aval) aval {
	switch name {
	case "domain", "range":
		out := aval{k: arg.k & (akE | akU), fail: arg.k&^(akE|akU|akR) != 0, rep: arg.rep}
		if arg.k&akR != 0 {
			out.k |= akS
		}
		return out
	case "different-values":
		return aval{k: arg.k & (akE | akR), fail: arg.k&^(akE|akR) != 0, rep: arg.rep}
	case "cross", "linearisations":
		return aval{k: akL, fail: true, rep: arg.rep}
	}
	if arg.rep {
		sk.repBad = true
	}
	return unknown
}
