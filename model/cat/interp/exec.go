package interp

import (
	"sort"

	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat"
)

// outcome is what the model says of one candidate execution along one
// path through its "with" choices.
type outcome struct {
	failed *failure // nil when the execution is consistent
	flags  []string // the flags raised, sorted
}

// failure is a check that rejected an execution.
type failure struct {
	name string    // the check's "as" name, or its text position
	test *cat.Test // the check
	why  string    // the explanation, when the runner was asked for one
	file *loadedFile
}

// runner executes the flat program of a model over one candidate.
type runner struct {
	ev   *evaluator
	m    *Model
	g    *globals
	root *scope
	// cache holds, for each top-level instruction whose value depends on
	// no candidate choice, its thunk (lets) or result (checks), computed
	// once per execution.
	cache *execCache
	emit  func(outcome) bool // returns false to stop the enumeration
	stop  bool
	// noPrune turns off the pruning of partial "with" choices (for the
	// differential tests).
	noPrune bool
	// wantWhy asks a failing check for an explanation in words.
	wantWhy bool
	// pending are the lazy top-level thunks bound since the last "with"
	// (see forcePending).
	pending []*thunk
}

// forcePending computes the lazy thunks bound since the last "with",
// keeping a failure in the thunk. A "with" runs the rest of the program
// once per choice, and frees what each run allocated: a value computed
// during a run must not outlive it, so the thunks bound before the
// "with" are computed before it.
func (r *runner) forcePending() {
	for _, th := range r.pending {
		if th.state == 0 {
			func() {
				defer func() {
					if x := recover(); x != nil {
						if _, ok := x.(*evalError); !ok {
							panic(x)
						}
					}
				}()
				r.ev.force(th, 0, "")
			}()
		}
	}
	r.pending = r.pending[:0]
}

// explainTest evaluates a failed check's relation again and explains it.
func (r *runner) explainTest(name string, t *cat.AppTest, sc *scope) (why string) {
	defer func() {
		if recover() != nil {
			why = "rejected by " + name
		}
	}()
	v := r.ev.eval(t.X, sc)
	if kindOf(v) != kRel {
		return "rejected by " + name
	}
	return r.explain(name, t, r.ev.asRel(v, t.X.Pos()))
}

// execCache keeps what does not depend on rf, co or the choices of
// "with" for one execution.
type execCache struct {
	lets   map[int][]*thunk
	checks map[int]bool
}

// env is where instructions bind names: the global table at the top
// level, a scope inside a procedure call.
type env struct {
	sc     *scope // nil at the top level
	global bool
}

func (r *runner) scopeOf(e env) *scope {
	if e.global {
		return r.root
	}
	return e.sc
}

func (r *runner) bind(e env, name string, th *thunk) env {
	if name == "" {
		return e
	}
	if e.global {
		r.g.bind(name, th)
		return e
	}
	return env{sc: e.sc.bind(name, th)}
}

// flags is a persistent set of flag names.
type flags []string

func (f flags) with(name string) flags {
	for _, n := range f {
		if n == name {
			return f
		}
	}
	out := append(append(flags(nil), f...), name)
	sort.Strings(out)
	return out
}

// runTop runs the flat program from instruction i.
func (r *runner) runTop(i int, fl flags) {
	if r.stop {
		return
	}
	stmts := r.m.prog
	for ; i < len(stmts); i++ {
		fs := &stmts[i]
		r.ev.file = fs.file
		if w, ok := fs.s.(*cat.WithFrom); ok {
			r.with(w, i, env{global: true}, fl)
			return
		}
		var ok bool
		fl, ok = r.exec(fs, i, env{global: true}, fl)
		if !ok || r.stop {
			return
		}
	}
	r.finish(fl)
}

// finish reports a consistent execution.
func (r *runner) finish(fl flags) {
	if !r.emit(outcome{flags: fl}) {
		r.stop = true
	}
}

// reject reports an execution a check rejected.
func (r *runner) reject(f *failure) {
	if !r.emit(outcome{failed: f}) {
		r.stop = true
	}
}

// exec executes one instruction in e, returning the flags and whether
// the execution goes on (false: a check rejected it, already reported).
// i is the instruction's index in the flat program, or -1 inside a
// procedure.
func (r *runner) exec(fs *flatStmt, i int, e env, fl flags) (flags, bool) {
	switch s := fs.s.(type) {
	case *cat.Let:
		if i >= 0 && fs.fixed {
			if ths, ok := r.cache.lets[i]; ok {
				k := 0
				for _, b := range s.Bindings {
					for _, n := range b.Pat.Names {
						r.bind(e, n, ths[k])
						k++
					}
				}
				return fl, true
			}
		}
		if i >= 0 && !fs.fixed && fs.lazy {
			for _, b := range s.Bindings {
				th := lazyGlobal(r.g, b.X, fs.file)
				r.pending = append(r.pending, th)
				r.g.bind(b.Pat.Names[0], th)
			}
			return fl, true
		}
		ths := r.let(s, e)
		if s.When != nil && !r.test(s.When, r.scopeOf(e)) {
			r.reject(&failure{name: testName(s.When, fs.file), file: fs.file})
			return fl, false
		}
		k := 0
		for _, b := range s.Bindings {
			for _, n := range b.Pat.Names {
				r.bind(e, n, ths[k])
				k++
			}
		}
		if i >= 0 && fs.fixed {
			r.cache.lets[i] = ths
		}
		return fl, true
	case *cat.Test:
		var ok bool
		if i >= 0 && fs.fixed {
			if c, have := r.cache.checks[i]; have {
				ok = c
			} else {
				ok = r.test(&s.AppTest, r.scopeOf(e))
				r.cache.checks[i] = ok
			}
		} else {
			ok = r.test(&s.AppTest, r.scopeOf(e))
		}
		switch s.Kind {
		case cat.Check:
			if !ok {
				f := &failure{name: testName(&s.AppTest, fs.file), test: s, file: fs.file}
				if r.wantWhy {
					f.why = r.explainTest(f.name, &s.AppTest, r.scopeOf(e))
				}
				r.reject(f)
				return fl, false
			}
		case cat.Flagged:
			if ok && s.Name != "" {
				fl = fl.with(s.Name)
			}
		case cat.UndefinedUnless:
			if !ok {
				fl = fl.with("undefined")
			}
		case cat.Assert:
			if !ok {
				r.ev.errorf(s.At, "assertion %s failed", testName(&s.AppTest, fs.file))
			}
		}
		return fl, true
	case *cat.Procedure:
		p := &procV{params: s.Params, body: s.Body, file: fs.file}
		sc := r.scopeOf(e)
		p.env = capture(sc, r.m.procFree(s))
		if s.Rec {
			p.env = p.env.bind(s.Name, valueThunk(p))
		}
		r.bind(e, s.Name, valueThunk(p))
		return fl, true
	case *cat.Call:
		th := r.scopeOf(e).lookup(s.Name)
		if th == nil {
			r.ev.errorf(s.At, "unbound procedure %s", s.Name)
		}
		p, ok := r.ev.force(th, s.At, s.Name).(*procV)
		if !ok {
			r.ev.errorf(s.At, "%s is not a procedure", s.Name)
		}
		arg := r.ev.eval(s.Arg, r.scopeOf(e))
		sc := &scope{parent: p.env}
		r.ev.bindArgs(s.At, p.params, arg, sc)
		return r.execBody(p.body, p.file, env{sc: sc}, fl)
	case *cat.Enum:
		// Enums are declared when the model is loaded (tags are static);
		// the enum's name is the set of its tags.
		var vs []Value
		for _, t := range s.Tags {
			vs = append(vs, tagV{typ: s.Name, name: t})
		}
		r.bind(e, s.Name, valueThunk(newValSet(vs)))
		return fl, true
	case *cat.Forall:
		v := r.ev.eval(s.Set, r.scopeOf(e))
		for _, m := range r.ev.members(v) {
			inner := r.bind(env{sc: r.scopeOf(e)}, s.Var, valueThunk(m))
			var ok bool
			fl, ok = r.execBody(s.Body, fs.file, inner, fl)
			if !ok {
				return fl, false
			}
		}
		return fl, true
	case *cat.MatchStmt:
		v := r.ev.eval(s.X, r.scopeOf(e))
		t, ok := v.(tagV)
		if !ok {
			r.ev.errorf(s.X.Pos(), "matching on non-tag value of type %s", typeName(v))
		}
		for _, c := range s.Clauses {
			if c.Tag == t.name {
				return r.execBody(c.Body, fs.file, e, fl)
			}
		}
		if s.HasDef {
			return r.execBody(s.Default, fs.file, e, fl)
		}
		r.ev.errorf(s.At, "pattern matching failed on value '%s", t.name)
	case *cat.IfVariant:
		body := s.Else
		if r.m.variant(s.Cond) {
			body = s.Then
		}
		return r.execBody(body, fs.file, e, fl)
	case *cat.WithFrom:
		r.ev.errorf(s.At, "with ... from is supported only at the top level of a model")
	case *cat.Show, *cat.ShowAs, *cat.Debug, *cat.Events, *cat.Include:
		// Display only (show, debug), bell declarations, and includes
		// already expanded when the model was loaded.
	}
	return fl, true
}

// execBody executes a list of instructions in e (a procedure body, a
// forall body, a match clause).
func (r *runner) execBody(body []cat.Stmt, file *loadedFile, e env, fl flags) (flags, bool) {
	saved := r.ev.file
	r.ev.file = file
	defer func() { r.ev.file = saved }()
	if e.global {
		// A match or if at the top level binds globally; give it a local
		// scope over the globals instead so that its lets stay inside.
		e = env{sc: &scope{parent: r.root}}
	}
	for _, s := range body {
		fs := &flatStmt{s: s, file: file}
		var ok bool
		if let, isLet := s.(*cat.Let); isLet {
			ths := r.let(let, e)
			if let.When != nil && !r.test(let.When, r.scopeOf(e)) {
				r.reject(&failure{name: testName(let.When, file), file: file})
				return fl, false
			}
			k := 0
			for _, b := range let.Bindings {
				for _, n := range b.Pat.Names {
					e = r.bind(e, n, ths[k])
					k++
				}
			}
			continue
		}
		if p, isProc := s.(*cat.Procedure); isProc {
			pv := &procV{params: p.Params, body: p.Body, file: file, env: capture(r.scopeOf(e), r.m.procFree(p))}
			e = r.bind(e, p.Name, valueThunk(pv))
			continue
		}
		fl, ok = r.exec(fs, -1, e, fl)
		if !ok {
			return fl, false
		}
	}
	return fl, true
}

// let evaluates the bindings of a let instruction lazily (rec ones at
// once, to their fixed point), returning one thunk per bound name in
// order.
func (r *runner) let(s *cat.Let, e env) []*thunk {
	sc := r.scopeOf(e)
	var out []*thunk
	if s.Rec {
		vals := r.ev.fixpoint(s.At, s.Bindings, sc)
		for _, b := range s.Bindings {
			for _, n := range b.Pat.Names {
				out = append(out, valueThunk(vals[n]))
			}
		}
		return out
	}
	for _, b := range s.Bindings {
		th := r.eager(b.X, sc)
		if len(b.Pat.Names) == 1 && !b.Pat.Tuple {
			out = append(out, th)
			continue
		}
		tmp := &scope{}
		r.ev.bindPat(b, th, tmp)
		out = append(out, tmp.vals...)
	}
	return out
}

// eager evaluates a binding at once. herd binds lazily, so a definition
// that fails matters only when used: a failure is kept in the thunk and
// raised where the name is used. (What the failed evaluation allocated
// stays, as in try.)
func (r *runner) eager(e cat.Expr, sc *scope) (th *thunk) {
	defer func() {
		if x := recover(); x != nil {
			err, ok := x.(*evalError)
			if !ok {
				panic(x)
			}
			th = &thunk{err: err, state: 2}
		}
	}()
	return valueThunk(r.ev.eval(e, sc))
}

// prepass computes, once per execution, the top-level lets and checks
// that depend on no candidate choice (see markFixed), so that each
// candidate finds them in the cache.
func (r *runner) prepass() {
	e := env{global: true}
	for i := range r.m.prog {
		fs := &r.m.prog[i]
		r.ev.file = fs.file
		switch s := fs.s.(type) {
		case *cat.Enum:
			r.exec(fs, i, e, nil)
		case *cat.Let:
			if !fs.fixed {
				continue
			}
			ths := r.let(s, e)
			r.cache.lets[i] = ths
			k := 0
			for _, b := range s.Bindings {
				for _, n := range b.Pat.Names {
					r.bind(e, n, ths[k])
					k++
				}
			}
		case *cat.Test:
			if fs.fixed {
				r.cache.checks[i] = r.test(&s.AppTest, r.root)
			}
		}
	}
}

// test evaluates [~] acyclic|irreflexive|empty e.
func (r *runner) test(t *cat.AppTest, sc *scope) bool {
	v := r.ev.eval(t.X, sc)
	var ok bool
	switch t.Op {
	case cat.Acyclic:
		ok = kindOf(v) == kEmpty || r.ev.asRel(v, t.X.Pos()).Acyclic()
	case cat.Irreflexive:
		ok = kindOf(v) == kEmpty || r.ev.asRel(v, t.X.Pos()).Irreflexive()
	case cat.IsEmpty:
		ok = isEmptyValue(v)
		if !ok {
			switch v := v.(type) {
			case universeV:
				ok = r.ev.x.N == 0
			case eventV, pairV, tagV, tupleV:
				ok = false
			case *linV, *productV:
				ok = len(r.ev.members(v)) == 0
			}
		}
	}
	if t.Not {
		ok = !ok
	}
	return ok
}

// with runs the rest of the program once for each member of the set,
// with the name bound to it. An empty set rejects the execution, as in
// herd.
func (r *runner) with(w *cat.WithFrom, i int, e env, fl flags) {
	r.forcePending()
	v := r.ev.eval(w.X, r.scopeOf(e))
	mark := r.g.mark()
	each := func(m Value) bool {
		emark := r.ev.mark()
		r.g.undo(mark)
		r.pending = r.pending[:0]
		r.bind(e, w.Var, valueThunk(m))
		r.runTop(i+1, fl)
		r.g.undo(mark)
		r.ev.reset(emark)
		return !r.stop
	}
	switch s := v.(type) {
	case emptyV:
		r.reject(&failure{name: "with " + w.Var + " from an empty set"})
	case *productV:
		wp := r.m.prunes[i]
		if wp.last < 0 || r.noPrune {
			r.ev.eachProduct(s, each)
			return
		}
		r.ev.eachProductPruned(s, func(partial axiom.Rel) bool {
			return r.pruneFails(i, wp, w.Var, partial)
		}, each)
	case *linV:
		r.ev.eachLin(s, func(rel axiom.Rel) bool { return each(r.ev.relv(rel)) })
	case valSetV:
		if len(s) == 0 {
			r.reject(&failure{name: "with " + w.Var + " from an empty set"})
			return
		}
		for _, m := range s {
			if !each(m) {
				return
			}
		}
	default:
		r.ev.errorf(w.X.Pos(), "with ... from needs a set, found %s", typeName(v))
	}
}

func testName(t *cat.AppTest, f *loadedFile) string {
	if t.Name != "" {
		return t.Name
	}
	if f != nil {
		return t.Op.String() + " check at " + f.file.Position(t.At).String()
	}
	return t.Op.String() + " check"
}

// pruneFails reports whether a check of the program after the "with" at
// index i rejects the partial value partial of its name: a check whose
// relation grows with that value (analyseWith), failing already, fails
// for every completion. The lets it needs are bound lazily.
func (r *runner) pruneFails(i int, wp withPrune, name string, partial axiom.Rel) (fails bool) {
	gmark := r.g.mark()
	emark := r.ev.mark()
	savedFile := r.ev.file
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(*evalError); !ok {
				panic(x)
			}
			fails = false // the complete candidate will report the error
		}
		r.g.undo(gmark)
		r.ev.reset(emark)
		r.ev.file = savedFile
	}()
	e := env{global: true}
	r.bind(e, name, valueThunk(r.ev.relv(partial)))
	for j := i + 1; j <= wp.last; j++ {
		fs := &r.m.prog[j]
		r.ev.file = fs.file
		switch s := fs.s.(type) {
		case *cat.Let:
			if ths, ok := r.cache.lets[j]; ok && fs.fixed {
				k := 0
				for _, b := range s.Bindings {
					for _, n := range b.Pat.Names {
						r.bind(e, n, ths[k])
						k++
					}
				}
				continue
			}
			if s.Rec || s.When != nil {
				ths := r.let(s, e)
				k := 0
				for _, b := range s.Bindings {
					for _, n := range b.Pat.Names {
						r.bind(e, n, ths[k])
						k++
					}
				}
				continue
			}
			for _, b := range s.Bindings {
				th := &thunk{expr: b.X, env: capture(r.root, r.m.freeVars(b.X)), file: fs.file}
				if len(b.Pat.Names) == 1 && !b.Pat.Tuple {
					r.bind(e, b.Pat.Names[0], th)
					continue
				}
				tmp := &scope{}
				r.ev.bindPat(b, th, tmp)
				for k, n := range tmp.names {
					r.bind(e, n, tmp.vals[k])
				}
			}
		case *cat.Test:
			if wp.checks[j] && !r.test(&s.AppTest, r.root) {
				return true
			}
		case *cat.Enum:
			r.exec(fs, j, e, nil)
		}
	}
	return false
}
