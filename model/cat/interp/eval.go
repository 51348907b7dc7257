package interp

import (
	"fmt"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat"
)

// evalError is an error of the model met while evaluating it: an unbound
// name, a type mismatch, a failed primitive. It is raised with panic and
// caught by try ... with, and at the top of a run.
type evalError struct {
	pos litmus.Position
	msg string
}

func (e *evalError) Error() string {
	if e.pos.IsValid() || e.pos.Filename != "" {
		return e.pos.String() + ": " + e.msg
	}
	return e.msg
}

// evaluator evaluates expressions over one execution.
type evaluator struct {
	m    *Model
	x    *axiom.Execution
	al   *axiom.Arena
	all  axiom.Set
	file *loadedFile // the file of the code being evaluated, for positions

	unv, id axiom.Rel // computed on first use
	hasUnv  bool

	tags map[string]string // tag name -> its enum
	cand *candidate        // the candidate being evaluated (rf sources, uniproc)
	bx   boxes
	g    *globals // the top-level bindings, for globalVar
	// skip holds, for the execution, which intersections and
	// differences may skip their second operand (see skipper); nil when
	// none may.
	skip map[*cat.Op]uint8
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

func (ev *evaluator) errorf(pos cat.Pos, format string, args ...any) {
	var p litmus.Position
	if ev.file != nil {
		p = ev.file.file.Position(pos)
	}
	panic(&evalError{pos: p, msg: fmt.Sprintf(format, args...)})
}

func (ev *evaluator) universeRel() axiom.Rel {
	if !ev.hasUnv {
		ev.unv = ev.al.Cross(ev.x.N, ev.all, ev.all)
		ev.id = ev.al.Ident(ev.x.N, ev.all)
		ev.hasUnv = true
	}
	return ev.unv
}

func (ev *evaluator) idRel() axiom.Rel {
	ev.universeRel()
	return ev.id
}

func (ev *evaluator) emptyRel() axiom.Rel { return ev.al.Rel(ev.x.N) }

// force returns the value of a thunk, computing it if needed.
func (ev *evaluator) force(th *thunk, pos cat.Pos, name string) Value {
	switch th.state {
	case 2:
		if th.err != nil {
			panic(th.err)
		}
		return th.v
	case 1:
		ev.errorf(pos, "%s is defined in terms of itself (use let rec)", name)
	}
	th.state = 1
	saved := ev.file
	ev.file = th.file
	defer func() {
		ev.file = saved
		if r := recover(); r != nil {
			if e, ok := r.(*evalError); ok {
				th.err, th.state = e, 2
			} else {
				th.state = 0
			}
			panic(r)
		}
	}()
	th.v = ev.eval(th.expr, th.env)
	th.state = 2
	th.expr, th.env = nil, nil
	return th.v
}

func (ev *evaluator) lookup(sc *scope, name string, pos cat.Pos) Value {
	th := sc.lookup(name)
	if th == nil {
		ev.errorf(pos, "unbound name %s", name)
	}
	return ev.force(th, pos, name)
}

// eval evaluates e in scope sc.
func (ev *evaluator) eval(e cat.Expr, sc *scope) Value {
	switch e := e.(type) {
	case *cat.Empty:
		return theEmpty
	case *cat.Universe:
		return theUniverse
	case *cat.Tag:
		typ, ok := ev.tags[e.Name]
		if !ok {
			ev.errorf(e.At, "tag '%s is undefined", e.Name)
		}
		return tagV{typ: typ, name: e.Name}
	case *globalVar:
		var th *thunk
		if e.base {
			th = ev.g.base[e.slot]
		} else {
			th = ev.g.slots[e.slot]
		}
		if th == nil {
			ev.errorf(e.At, "unbound name %s", e.Name)
		}
		return ev.force(th, e.At, e.Name)
	case *cat.Var:
		return ev.lookup(sc, e.Name, e.At)
	case *cat.Op1:
		return ev.evalOp1(e, sc)
	case *cat.Op:
		return ev.evalOp(e, sc)
	case *cat.App:
		f := ev.eval(e.Fun, sc)
		arg := ev.eval(e.Arg, sc)
		return ev.apply(e.At, f, arg)
	case *cat.Fun:
		return &closureV{params: e.Params, body: e.Body, env: ev.capture(sc, ev.m.freeVars(e)), name: e.Name, file: ev.file}
	case *cat.ExplicitSet:
		return ev.explicitSet(e, sc)
	case *cat.Bind:
		return ev.eval(e.Body, ev.bindLocal(e.At, e.Rec, e.Bindings, sc))
	case *cat.Match:
		v := ev.eval(e.X, sc)
		t, ok := v.(tagV)
		if !ok {
			ev.errorf(e.X.Pos(), "matching on non-tag value of type %s", typeName(v))
		}
		for _, c := range e.Clauses {
			if c.Tag == t.name {
				return ev.eval(c.Body, sc)
			}
		}
		if e.Default != nil {
			return ev.eval(e.Default, sc)
		}
		ev.errorf(e.At, "pattern matching failed on value '%s", t.name)
	case *cat.MatchSet:
		return ev.matchSet(e, sc)
	case *cat.Try:
		return ev.try(e, sc)
	case *cat.If:
		if ev.cond(e.Cond, sc) {
			return ev.eval(e.Then, sc)
		}
		return ev.eval(e.Else, sc)
	}
	ev.errorf(e.Pos(), "unsupported expression")
	return nil
}

// try evaluates try e with d. What the failed evaluation of e allocated
// stays until the candidate is done: it may have computed a lazy binding
// made before, whose value must outlive the try.
func (ev *evaluator) try(e *cat.Try, sc *scope) (v Value) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(*evalError); !ok {
					panic(r)
				}
				v = nil
			}
		}()
		v = ev.eval(e.X, sc)
	}()
	if v == nil {
		return ev.eval(e.Default, sc)
	}
	return v
}

// bindLocal evaluates the bindings of let [rec] ... in, returning the
// scope of the body.
func (ev *evaluator) bindLocal(pos cat.Pos, rec bool, bs []*cat.Binding, sc *scope) *scope {
	if !rec {
		out := ev.newScope(sc)
		for _, b := range bs {
			th := ev.lazyThunk(b.X, ev.capture(sc, ev.m.freeVars(b.X)), ev.file)
			ev.bindPat(b, th, out)
		}
		return out
	}
	return ev.fixpoint(pos, bs, sc)
}

// bindPat binds the pattern of b to the thunk th in out.
func (ev *evaluator) bindPat(b *cat.Binding, th *thunk, out *scope) {
	if !b.Pat.Tuple && len(b.Pat.Names) == 1 {
		if b.Pat.Names[0] != "" {
			out.names = append(out.names, b.Pat.Names[0])
			out.vals = append(out.vals, th)
		}
		return
	}
	v := ev.force(th, b.At, "pattern")
	tup, ok := v.(tupleV)
	if !ok || len(tup) != len(b.Pat.Names) {
		ev.errorf(b.At, "binding mismatch: %d names for a %s", len(b.Pat.Names), typeName(v))
	}
	for i, n := range b.Pat.Names {
		if n != "" {
			out.names = append(out.names, n)
			out.vals = append(out.vals, ev.valueThunk(tup[i]))
		}
	}
}

// fixpoint computes let rec bindings: functions are closures that see
// each other; other values are the least fixed point reached from 0 by
// evaluating the bindings in turn until nothing changes, as herd does. It
// returns the scope over sc that binds the names to their values.
func (ev *evaluator) fixpoint(pos cat.Pos, bs []*cat.Binding, sc *scope) *scope {
	frame := ev.newScope(sc)
	for _, b := range bs {
		for _, n := range b.Pat.Names {
			if n != "" {
				frame.names = append(frame.names, n)
				frame.vals = append(frame.vals, ev.valueThunk(theEmpty))
			}
		}
	}
	// Closures capture the frame itself, so that they see each other and
	// the current values.
	vals := false
	for _, b := range bs {
		if f, ok := b.X.(*cat.Fun); ok && len(b.Pat.Names) == 1 {
			frame.vals[frameIndex(frame, b.Pat.Names[0])] = ev.valueThunk(&closureV{params: f.Params, body: f.Body, env: frame, name: b.Pat.Names[0], file: ev.file})
		} else {
			vals = true
		}
	}
	if !vals {
		return frame
	}
	// set binds name n to v, reporting whether its value changed.
	set := func(n string, v Value) bool {
		if n == "" {
			return false
		}
		k := frameIndex(frame, n)
		changed := compareValues(frame.vals[k].v, v) != 0
		frame.vals[k] = ev.valueThunk(v)
		return changed
	}
	for iter := 0; ; iter++ {
		if iter > 10000 {
			ev.errorf(pos, "let rec does not reach a fixed point")
		}
		changed := false
		for _, b := range bs {
			if _, ok := b.X.(*cat.Fun); ok && len(b.Pat.Names) == 1 {
				continue
			}
			v := ev.eval(b.X, frame)
			names := b.Pat.Names
			if !b.Pat.Tuple && len(names) == 1 {
				changed = set(names[0], v) || changed
				continue
			}
			tup, ok := v.(tupleV)
			if !ok || len(tup) != len(names) {
				ev.errorf(b.At, "binding mismatch")
			}
			for i, n := range names {
				changed = set(n, tup[i]) || changed
			}
		}
		if !changed {
			return frame
		}
	}
}

// frameIndex returns the index of the last binding of n in frame.
func frameIndex(frame *scope, n string) int {
	for k := len(frame.names) - 1; k >= 0; k-- {
		if frame.names[k] == n {
			return k
		}
	}
	return -1
}

// apply applies a function to an argument.
func (ev *evaluator) apply(pos cat.Pos, f, arg Value) Value {
	switch f := f.(type) {
	case *closureV:
		sc := ev.newScope(f.env)
		ev.bindArgs(pos, f.params, arg, sc)
		saved := ev.file
		ev.file = f.file
		v := ev.eval(f.body, sc)
		ev.file = saved
		return v
	case *primV:
		v, err := f.fn(ev, arg)
		if err != nil {
			ev.errorf(pos, "primitive %s: %v", f.name, err)
		}
		return v
	}
	ev.errorf(pos, "closure or primitive expected, found %s", typeName(f))
	return nil
}

// bindArgs binds parameters to an argument: one name takes the whole
// value, several names the members of a tuple.
func (ev *evaluator) bindArgs(pos cat.Pos, params cat.Pat, arg Value, sc *scope) {
	names := params.Names
	if len(names) == 1 {
		if names[0] != "" {
			sc.names = append(sc.names, names[0])
			sc.vals = append(sc.vals, ev.valueThunk(arg))
		}
		return
	}
	tup, ok := arg.(tupleV)
	if !ok || len(tup) != len(names) {
		if len(names) == 0 {
			return
		}
		ev.errorf(pos, "argument mismatch: %d parameters, argument %s", len(names), typeName(arg))
	}
	for i, n := range names {
		if n != "" {
			sc.names = append(sc.names, n)
			sc.vals = append(sc.vals, ev.valueThunk(tup[i]))
		}
	}
}

func (ev *evaluator) explicitSet(e *cat.ExplicitSet, sc *scope) Value {
	if len(e.Elems) == 0 {
		return theEmpty
	}
	vs := make([]Value, 0, len(e.Elems))
	for _, a := range e.Elems {
		vs = append(vs, ev.eval(a, sc))
	}
	switch vs[0].(type) {
	case eventV:
		s := ev.al.Set(ev.x.N)
		for i, v := range vs {
			ei, ok := v.(eventV)
			if !ok {
				ev.errorf(e.Elems[i].Pos(), "mixed types in set: event and %s", typeName(v))
			}
			s.Add(int(ei))
		}
		return ev.setv(s)
	case pairV:
		r := ev.emptyRel()
		for i, v := range vs {
			p, ok := v.(pairV)
			if !ok {
				ev.errorf(e.Elems[i].Pos(), "mixed types in set: pair and %s", typeName(v))
			}
			r.Add(p[0], p[1])
		}
		return ev.relv(r)
	}
	return newValSet(vs)
}

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
			out[i] = ev.eval(a, sc)
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
				acc = ev.setv(ev.asSet(v, a.Pos()).Clone())
			case pairV:
				acc = ev.relv(ev.pairRel(v))
			case *relV:
				acc = ev.relv(v.r.Clone())
			case *setV:
				acc = ev.setv(v.s.Clone())
			default:
				acc = v
			}
		case vk != k:
			ev.errorf(a.Pos(), "mixing %s and %s in union", typeName(acc), typeName(v))
		case k == kEvents:
			s := acc.(*setV).s
			t := ev.asSet(v, a.Pos())
			for i := range s {
				s[i] |= t[i]
			}
		case k == kRel:
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
		case tupleV:
			if len(x) == 2 {
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

// matchSet evaluates match e with {} -> a || x ++ s -> b end.
func (ev *evaluator) matchSet(e *cat.MatchSet, sc *scope) Value {
	v := ev.eval(e.X, sc)
	bind := func(elt Value, rest Value, pre Value) Value {
		inner := ev.newScope(sc)
		add := func(n string, v Value) {
			if n != "" {
				inner.names = append(inner.names, n)
				inner.vals = append(inner.vals, ev.valueThunk(v))
			}
		}
		if e.PreForm {
			add(e.Pre, pre)
		}
		add(e.Elt, elt)
		add(e.Rest, rest)
		return ev.eval(e.NonEmpty, inner)
	}
	switch s := v.(type) {
	case emptyV:
		return ev.eval(e.Empty, sc)
	case *setV:
		first := -1
		s.s.Each(func(i int) {
			if first < 0 {
				first = i
			}
		})
		if first < 0 {
			return ev.eval(e.Empty, sc)
		}
		rest := s.s.Clone()
		rest[first>>6] &^= 1 << (uint(first) & 63)
		return bind(eventV(first), ev.setv(rest), ev.setv(ev.al.Set(ev.x.N)))
	case *relV:
		ps := s.r.Pairs()
		if len(ps) == 0 {
			return ev.eval(e.Empty, sc)
		}
		rest := s.r.Clone()
		rest.Del(ps[0][0], ps[0][1])
		return bind(pairV(ps[0]), ev.relv(rest), ev.relv(ev.emptyRel()))
	case valSetV:
		if len(s) == 0 {
			return ev.eval(e.Empty, sc)
		}
		return bind(s[0], s[1:], valSetV{})
	case *linV, *productV:
		vs := ev.members(s)
		if len(vs) == 0 {
			return ev.eval(e.Empty, sc)
		}
		return bind(vs[0], vs[1:], valSetV{})
	}
	ev.errorf(e.X.Pos(), "set-matching on non-set value of type %s", typeName(v))
	return nil
}

// cond evaluates the condition of an if expression.
func (ev *evaluator) cond(c cat.Cond, sc *scope) bool {
	switch c := c.(type) {
	case *cat.VariantCond:
		return ev.m.variant(c.V)
	case *cat.EqCond:
		return compareValues(ev.eval(c.X, sc), ev.eval(c.Y, sc)) == 0
	case *cat.SubsetCond:
		v1, v2 := ev.eval(c.X, sc), ev.eval(c.Y, sc)
		switch {
		case kindOf(v1) == kEmpty:
			return true
		case kindOf(v1) == kRel || kindOf(v2) == kRel:
			return ev.asRel(v1, c.X.Pos()).Subset(ev.asRel(v2, c.Y.Pos()))
		case kindOf(v1) == kEvents || kindOf(v2) == kEvents:
			return ev.asSet(v1, c.X.Pos()).Subset(ev.asSet(v2, c.Y.Pos()))
		case kindOf(v1) == kValSet && kindOf(v2) == kValSet:
			for _, x := range v1.(valSetV) {
				found := false
				for _, y := range v2.(valSetV) {
					if compareValues(x, y) == 0 {
						found = true
					}
				}
				if !found {
					return false
				}
			}
			return true
		}
		ev.errorf(c.Pos(), "cannot perform subset on %s", typeName(v1))
	case *cat.InCond:
		v1 := ev.eval(c.X, sc)
		switch x := v1.(type) {
		case eventV:
			return ev.asSet(ev.eval(c.Y, sc), c.Y.Pos()).Has(int(x))
		case pairV:
			return ev.asRel(ev.eval(c.Y, sc), c.Y.Pos()).Has(x[0], x[1])
		}
		v2 := ev.eval(c.Y, sc)
		if kindOf(v2) == kEmpty {
			return false
		}
		for _, y := range ev.members(v2) {
			if compareValues(v1, y) == 0 {
				return true
			}
		}
		return false
	}
	return false
}
