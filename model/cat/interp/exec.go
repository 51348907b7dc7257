package interp

import (
	"sort"
	"strings"

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
	ev *evaluator
	m  *Model
	g  *globals
	al *axiom.Arena // the arena of the executions and the evaluation
	// roots[i] is the scope of top-level instruction i (and the last one
	// that of the end of the program).
	roots []scope
	// checks holds the result of each fixed check of the execution, once
	// computed: 0 not yet, 1 passed, 2 failed.
	checks []uint8
	// explainAt is the scope of the check being explained.
	explainAt *scope
	emit      func(outcome) bool // returns false to stop the enumeration
	stop      bool
	// noPrune turns off the pruning of partial "with" choices (for the
	// differential tests).
	noPrune bool
	// skipAll and skipChecks ignore the outcome of every check, or of
	// the checks so named (CheckOptions.SkipChecks).
	skipAll    bool
	skipChecks map[string]bool
	// strictSkip is herd's -strictskip: a skipped check that fails adds
	// its name, marked (skippedMark), to the execution's flags, and
	// finish keeps the execution only when every skipped check did.
	strictSkip bool
	// wantWhy asks a failing check for an explanation in words.
	wantWhy bool
	// lastPath is the path of events the last explanation spelled.
	lastPath []int
	// pending are the lazy top-level thunks bound since the last "with"
	// (see forcePending).
	pending []*thunk
	// withs are the states of the nested "with"s being run (depth of
	// them), kept for the next candidates.
	withs []*withRun
	depth int
	// memo holds the memo tables of the search (see memo.go).
	memo memos
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

// getRunner returns a runner for a search, reusing one a finished search
// left: its arena and chunks are large, and a corpus of small tests would
// otherwise spend much of its time allocating and clearing them.
func (m *Model) getRunner() *runner {
	if r, ok := m.runners.Get().(*runner); ok {
		*r.ev.ids = 0
		return r
	}
	return newRunner(m)
}

// putRunner gives back a runner whose search is done.
func (m *Model) putRunner(r *runner) {
	r.emit = nil
	r.explainAt = nil
	r.pending = r.pending[:0]
	for _, wr := range r.withs {
		wr.fl, wr.walk = nil, productWalk{}
	}
	if r.al.Words() > maxPooledWords {
		// A large execution's arena is let go rather than kept for
		// the next search, whose memory cap it would count against
		// (the process is capped as a whole): 20,000 smp_mb() left
		// 800 MiB held after their check.
		return
	}
	m.runners.Put(r)
}

// maxPooledWords bounds the arena of a runner kept for reuse: 8 MiB.
const maxPooledWords = 1 << 20

func newRunner(m *Model) *runner {
	r := &runner{ev: &evaluator{m: m, tags: m.tags, ids: new(int)}, m: m, g: newGlobals(m), al: &axiom.Arena{}}
	r.roots = make([]scope, len(m.prog)+1)
	for i := range r.roots {
		r.roots[i] = scope{global: r.g, at: i}
	}
	r.checks = make([]uint8, len(m.prog))
	return r
}

// explainTest evaluates a failed check's relation again and explains it.
func (r *runner) explainTest(name string, t *cat.AppTest, sc *scope) (why string) {
	r.explainAt = sc
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

// env is where instructions bind names: the global table at the top
// level (instruction at), a scope inside a procedure call.
type env struct {
	sc     *scope // nil at the top level
	global bool
	at     int
}

// top is the environment of top-level instruction i.
func top(i int) env { return env{global: true, at: i} }

func (r *runner) scopeOf(e env) *scope {
	if e.global {
		return &r.roots[e.at]
	}
	return e.sc
}

// bind binds a name in a local environment.
func (r *runner) bind(e env, name string, th *thunk) env {
	if name == "" {
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

// runTop runs the instructions a candidate runs (m.perCand) from the k-th.
func (r *runner) runTop(k int, fl flags) {
	if r.stop {
		return
	}
	for ; k < len(r.m.perCand); k++ {
		i := r.m.perCand[k]
		fs := &r.m.prog[i]
		r.ev.file = fs.file
		if w, ok := fs.s.(*cat.WithFrom); ok {
			r.with(w, i, k, fl)
			return
		}
		var ok bool
		fl, ok = r.exec(fs, i, top(i), fl)
		if !ok || r.stop {
			return
		}
	}
	r.finish(fl)
}

// skippedMark begins the pseudo-flag of a skipped check that failed,
// under -strictskip; no flag of a model can begin with it.
const skippedMark = "\x00skipped "

// finish reports a consistent execution; under -strictskip, one that
// fails every skipped check (herd's machModelChecker.ml keeps an
// execution when the set of skipped checks it failed equals
// -skipchecks), the others being rejected.
func (r *runner) finish(fl flags) {
	if r.strictSkip {
		failed := 0
		for len(fl) > 0 && strings.HasPrefix(fl[0], skippedMark) {
			failed++
			fl = fl[1:]
		}
		if failed < len(r.skipChecks) {
			r.reject(&failure{name: "-strictskip (a skipped check holds)"})
			return
		}
	}
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
		// Only at the top level: a body's lets are bound by execBody.
		if fs.lazy {
			// herd binds the names of a let lazily: a definition no
			// check needs is never computed. The thunk sees the
			// bindings of instruction i, whichever are made later.
			for k, b := range s.Bindings {
				th := r.ev.lazyThunk(b.X, r.scopeOf(e), fs.file)
				if i >= 0 && e.global && fs.slots[k] >= 0 {
					th.memo = int32(fs.slots[k]) + 1
				}
				r.pending = append(r.pending, th)
				r.g.set(fs.slots[k], th)
			}
			return fl, true
		}
		var ths []*thunk
		ok := true
		if i >= 0 && e.global && s.When == nil && r.ev.memo != nil {
			ths = r.memoLet(i, s, e)
		} else {
			ths, ok = r.let(s, e)
		}
		if !ok {
			r.reject(&failure{name: testName(s.When, fs.file), file: fs.file})
			return fl, false
		}
		for k, th := range ths {
			r.g.set(fs.slots[k], th)
		}
		return fl, true
	case *cat.Test:
		var ok bool
		if i >= 0 && fs.fixed {
			// A fixed check is evaluated for the first candidate that
			// reaches it, once per execution.
			if r.checks[i] == 0 {
				r.checks[i] = 2
				if r.test(&s.AppTest, r.scopeOf(e)) {
					r.checks[i] = 1
				}
			}
			ok = r.checks[i] == 1
		} else if i >= 0 && e.global && r.ev.memo != nil {
			ok = r.memoTest(i, &s.AppTest, r.scopeOf(e))
		} else {
			ok = r.test(&s.AppTest, r.scopeOf(e))
		}
		switch s.Kind {
		case cat.Check:
			if !ok && s.Name != "" && r.skipChecks[s.Name] && r.strictSkip {
				fl = fl.with(skippedMark + s.Name)
			}
			if !ok && (r.skipAll || s.Name != "" && r.skipChecks[s.Name]) {
				ok = true // herd's -skipchecks, -through
			}
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
		p.env = r.ev.capture(sc, r.m.procFree(s))
		if s.Rec {
			p.env = p.env.bind(s.Name, valueThunk(p))
		}
		r.g.set(fs.slots[0], valueThunk(p))
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
		sc := r.ev.newScope(p.env)
		r.ev.bindArgs(s.At, p.params, arg, sc)
		return r.execBody(p.body, p.file, env{sc: sc}, fl)
	case *cat.Enum:
		// Enums are declared when the model is loaded (tags are static);
		// the enum's name is the set of its tags.
		v, ok := r.m.enumSets[s]
		if !ok {
			v = enumValue(s)
		}
		th := valueThunk(v)
		if e.global {
			r.g.set(fs.slots[0], th)
		}
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
		e = env{sc: &scope{parent: r.scopeOf(e)}}
	}
	for _, s := range body {
		fs := &flatStmt{s: s, file: file}
		var ok bool
		if let, isLet := s.(*cat.Let); isLet {
			ths, ok := r.let(let, e)
			if !ok {
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
			pv := &procV{params: p.Params, body: p.Body, file: file, env: r.ev.capture(r.scopeOf(e), r.m.procFree(p))}
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

// let evaluates the bindings of a let instruction at once (rec ones to
// their fixed point), returning one thunk per name of its patterns in
// order (nil for _).
func (r *runner) let(s *cat.Let, e env) ([]*thunk, bool) {
	sc := r.scopeOf(e)
	var out []*thunk
	if s.Rec {
		var check func(*scope) bool
		if s.When != nil {
			check = func(frame *scope) bool { return r.test(s.When, frame) }
		}
		frame, ok := r.ev.fixpoint(s.At, s.Bindings, sc, check)
		for _, b := range s.Bindings {
			for _, n := range b.Pat.Names {
				var th *thunk
				if n != "" {
					th = frame.vals[frameIndex(frame, n)]
				}
				out = append(out, th)
			}
		}
		return out, ok
	}
	for _, b := range s.Bindings {
		th := r.eager(b.X, sc)
		if len(b.Pat.Names) == 1 && !b.Pat.Tuple {
			out = append(out, th)
			continue
		}
		tmp := &scope{}
		r.ev.bindPat(b, th, tmp)
		k := 0
		for _, n := range b.Pat.Names {
			if n == "" {
				out = append(out, nil)
				continue
			}
			out = append(out, tmp.vals[k])
			k++
		}
	}
	return out, true
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
	return r.ev.valueThunk(r.ev.eval(e, sc))
}

// prepass computes, once per execution, the top-level lets, procedures
// and enums that depend on no candidate choice (see markFixed): their
// slots keep the values for every candidate.
func (r *runner) prepass() {
	clear(r.checks)
	for i := range r.m.prog {
		fs := &r.m.prog[i]
		if !fs.fixed {
			continue
		}
		r.ev.file = fs.file
		switch s := fs.s.(type) {
		case *cat.Enum, *cat.Procedure:
			r.exec(fs, i, top(i), nil)
		case *cat.Let:
			ths, _ := r.let(s, top(i)) // a fixed let has no when
			for k, th := range ths {
				r.g.set(fs.slots[k], th)
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
			case eventV, pairV, tagV, *tupleV:
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
// The with is instruction i, the k-th a candidate runs.
func (r *runner) with(w *cat.WithFrom, i, k int, fl flags) {
	r.forcePending()
	v := r.ev.eval(w.X, &r.roots[i])
	if r.depth == len(r.withs) {
		wr := &withRun{r: r}
		wr.each, wr.prune = wr.choose, wr.pruneFails
		r.withs = append(r.withs, wr)
	}
	wr := r.withs[r.depth]
	r.depth++
	defer func() { r.depth-- }()
	wr.i, wr.k, wr.fl, wr.slot, wr.wp = i, k, fl, r.m.prog[i].slots[0], r.m.prunes[i]
	each := wr.each
	switch s := v.(type) {
	case emptyV:
		r.reject(&failure{name: "with " + w.Var + " from an empty set"})
	case *productV:
		if wr.wp.last < 0 || r.noPrune {
			r.ev.walkProduct(&wr.walk, s, nil, each)
			return
		}
		r.ev.walkProduct(&wr.walk, s, wr.prune, each)
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

// enumValue is the set of an enum's tags.
func enumValue(s *cat.Enum) valSetV {
	var vs []Value
	for _, t := range s.Tags {
		vs = append(vs, tagV{typ: s.Name, name: t})
	}
	return newValSet(vs)
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

// withRun is the state of a "with" being run, kept by the runner for the
// next candidate (a "with" runs for every candidate, and its closures
// and product walk would otherwise be allocated each time).
type withRun struct {
	r     *runner
	i, k  int // the with is instruction i, the k-th a candidate runs
	slot  int
	fl    flags
	wp    withPrune
	each  func(Value) bool     // choose
	prune func(axiom.Rel) bool // pruneFails
	walk  productWalk
}

// choose runs the rest of the program with the with's name bound to m.
func (wr *withRun) choose(m Value) bool {
	r := wr.r
	emark := r.ev.mark()
	r.pending = r.pending[:0]
	r.g.set(wr.slot, r.ev.valueThunk(m))
	r.runTop(wr.k+1, wr.fl)
	r.ev.reset(emark)
	return !r.stop
}

// pruneFails is runner.pruneFails for the with's partial value.
func (wr *withRun) pruneFails(partial axiom.Rel) bool {
	return wr.r.pruneFails(wr.i, wr.wp, partial)
}

// pruneFails reports whether a check of the program after the "with" at
// index i rejects the partial value partial of its name: a check whose
// relation grows with that value (analyseWith), failing already, fails
// for every completion. The lets it needs are bound lazily; the complete
// candidates bind them again.
func (r *runner) pruneFails(i int, wp withPrune, partial axiom.Rel) (fails bool) {
	emark := r.ev.mark()
	savedFile := r.ev.file
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(*evalError); !ok {
				panic(x)
			}
			fails = false // the complete candidate will report the error
		}
		r.ev.reset(emark)
		r.ev.file = savedFile
	}()
	r.g.set(r.m.prog[i].slots[0], r.ev.valueThunk(r.ev.relv(partial)))
	for j := i + 1; j <= wp.last; j++ {
		fs := &r.m.prog[j]
		if fs.fixed {
			continue // computed by the prepass
		}
		r.ev.file = fs.file
		switch s := fs.s.(type) {
		case *cat.Let:
			if fs.lazy {
				for k, b := range s.Bindings {
					r.g.set(fs.slots[k], r.ev.lazyThunk(b.X, &r.roots[j], fs.file))
				}
				continue
			}
			ths, ok := r.let(s, top(j))
			if !ok {
				// A let rec's when test failed on the partial value:
				// its names are left half computed, so nothing after
				// can be judged here; the complete candidates will.
				return false
			}
			for k, th := range ths {
				r.g.set(fs.slots[k], th)
			}
		case *cat.Test:
			if wp.checks[j] && !r.test(&s.AppTest, &r.roots[j]) {
				return true
			}
		}
	}
	return false
}
