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
	// ids numbers the linearisation and product values of one check, to
	// order them; it belongs to the check's runner, not to the Model,
	// which parallel checks share.
	ids *int
	// Scratch room of classes-loc.
	byLoc []axiom.Set
	locs  []int
	// classes-loc's memo for the structure of execution (see
	// classesLoc): the argument of its last computation, and an
	// argument with its result on the heap.
	clPrev, clArg []uint64
	clVal         Value
	// memo holds the runner's memo tables, rec records what the
	// evaluation being memoized reads, and impure counts the readings of
	// hidden inputs that forbid keeping a value (see memo.go).
	memo   *memos
	rec    *recorder
	impure int
}

// newID returns a number no other value of the check has.
func (ev *evaluator) newID() int {
	ev.impure++
	*ev.ids++
	return *ev.ids
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
	if th.gid != 0 && ev.rec != nil {
		ev.rec.note(th.gid)
	}
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
	saved, savedRec := ev.file, ev.rec
	ev.file = th.file
	var rc *recorder
	var tab *memoTable
	if th.gid != 0 {
		// A top-level binding's reads are its own: whoever forces it
		// depends on its value.
		ev.rec = nil
		if th.memo != 0 && ev.memo != nil {
			tab = &ev.memo.slot[th.memo-1]
			if e := ev.lookup1(tab); e != nil {
				th.v, th.state = ev.result(e, 0), 2
				th.expr, th.env = nil, nil
				ev.file = saved
				ev.rec = savedRec
				return th.v
			}
			rc = ev.startRecord(tab)
			ev.rec = rc
		}
	}
	defer func() {
		ev.file, ev.rec = saved, savedRec
		ev.endRecord(rc)
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
	if rc != nil {
		ev.memo.one[0] = th.v
		ev.store(tab, rc, ev.memo.one[:], true)
	}
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
		c := ev.bx.closures.one()
		*c = closureV{params: e.Params, body: e.Body, env: ev.capture(sc, ev.m.freeVars(e)), name: e.Name, file: ev.file}
		return c
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
		n := 0
		for _, b := range bs {
			n += len(b.Pat.Names)
		}
		out := ev.newScopeCap(sc, n)
		for _, b := range bs {
			th := ev.lazyThunk(b.X, ev.capture(sc, ev.m.freeVars(b.X)), ev.file)
			ev.bindPat(b, th, out)
		}
		return out
	}
	frame, _ := ev.fixpoint(pos, bs, sc, nil)
	return frame
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
	tup, ok := asTuple(v)
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
//
// check, when not nil, is a let rec's "when" test: as herd's env_rec_vals
// does, it is evaluated after every round of the iteration with the names
// bound to that round's values, and the first failure stops the iteration
// and is reported (false). Like herd, a let rec of functions only has no
// rounds and never evaluates it.
func (ev *evaluator) fixpoint(pos cat.Pos, bs []*cat.Binding, sc *scope, check func(*scope) bool) (*scope, bool) {
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
			c := ev.bx.closures.one()
			*c = closureV{params: f.Params, body: f.Body, env: frame, name: b.Pat.Names[0], file: ev.file}
			frame.vals[frameIndex(frame, b.Pat.Names[0])] = ev.valueThunk(c)
		} else {
			vals = true
		}
	}
	if !vals {
		return frame, true
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
			tup, ok := asTuple(v)
			if !ok || len(tup) != len(names) {
				ev.errorf(b.At, "binding mismatch")
			}
			for i, n := range names {
				changed = set(n, tup[i]) || changed
			}
		}
		if check != nil && !check(frame) {
			return frame, false
		}
		if !changed {
			return frame, true
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
		var v Value
		var err error
		if f.mapOf != nil {
			v, err = ev.mapSet(f.mapOf, arg)
		} else {
			v, err = f.fn(ev, arg)
		}
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
	tup, ok := asTuple(arg)
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
