package litmus

import (
	"fmt"
	"sort"
)

// This file decides which loops of a C test the axiomatic models check as
// an await of their exit condition: the spin-loop reduction ("spin
// assume") of GenMC (Kokologiannakis, Ren, Vafeiadis, "Dynamic partial
// order reductions for spinloops", FMCAD 2021) and Dartagnan. A loop
// qualifies when its failed iterations (those after which it runs again)
// leave nothing behind that another thread or the rest of the thread can
// see:
//
//   - they write no memory: no store, no plain write, no RMW but a
//     cmpxchg in the exit test whose success ends the loop (a failed
//     cmpxchg is a read);
//   - their reads are marked (READ_ONCE, smp_load_acquire, atomic_read,
//     a failed cmpxchg, ...) and no thread writes a location the loop
//     reads with a plain store: under the LKMM a failed iteration's read
//     of such a location could be the one that races;
//   - their fences are smp_mb, smp_rmb, smp_wmb, barrier and cpu_relax;
//   - every register the loop assigns is assigned again, before it is
//     read, in the part of an iteration that runs before its exit test,
//     so an iteration starts from the state the loop started from and a
//     failed iteration's registers are overwritten by the last one.
//
// Then an execution that runs k failed iterations and a last one has the
// final state of the execution that runs the last one alone, and its
// failed iterations only add events (reads, fences) whose ordering
// constraints the model must also satisfy: removing them keeps a
// consistent execution consistent, as the models' axioms are built from
// po, rf, co, fr, dependencies and fences by union, sequence and closure.
// So the loop is checked as ONE iteration followed by the assumption that
// its exit condition holds; an execution in which it does not is the
// thread spinning forever, which has no final state (docs/semantics.md).
// Other loops are unrolled a bounded number of times.

// Await is a loop reduced to one iteration and the assumption that it
// exits.
type Await struct {
	Loop Stmt // the *WhileStmt, *DoWhileStmt or *ForStmt
	// Pre are the statements of an iteration before its exit test (a
	// do-while's body; the statements before "if (E) break;" of a
	// while (1)); a while or for loop has none.
	Pre []Stmt
	// Cont is the exit test's negation: true when the iteration failed
	// and the loop would run again.
	Cont Expr
	// Enter, when not nil, is tested first: the loop runs (Pre, then
	// Cont) only when it holds. A while loop whose body sets the
	// registers its condition tests is "if (C) do B while (C)".
	Enter Expr
	// Carried, when not empty, is the register a try_cmpxchg retry
	// loop carries from one iteration to the next (retry.go): its
	// value comes from the read just before the loop, the event that
	// precedes the iteration's first, so a thread spins forever only
	// when that read too reads the last write.
	Carried string
}

// LoopNote says how one loop of a test is checked, for the results.
type LoopNote struct {
	Proc  int
	Loop  Stmt
	Await bool
	// Line is "P1 line 12: while loop"; Why says why a loop that is
	// not an await is not.
	Line, Why string
}

// Text is the note in words: "P1 line 12: while loop checked as an await
// of its exit condition", "P0 line 9: for loop unrolled (it writes *x)".
func (n LoopNote) Text() string {
	if n.Await {
		return n.Line + " checked as an await of its exit condition"
	}
	return n.Line + " unrolled (" + n.Why + ")"
}

// Awaits returns the loops of t that are checked as awaits, by loop
// statement, and a note on every loop of t (reduced or not, with why
// not), in the order of the threads and the source.
func Awaits(t *Test) (map[Stmt]*Await, []LoopNote) {
	if t == nil || t.Arch != ArchC {
		return nil, nil
	}
	a := &awaitAnalysis{t: t, plain: map[string]Pos{}, prior: map[Stmt][]Stmt{}}
	a.plainWrites()
	a.befores()
	out := map[Stmt]*Await{}
	var notes []LoopNote
	for _, pr := range t.Procs {
		if pr.Body == nil {
			continue
		}
		params := map[string]bool{}
		for _, p := range pr.Params {
			params[p.Name.Name] = true
		}
		Inspect(pr.Body, func(n Node) bool {
			s, ok := n.(Stmt)
			if !ok || !isLoop(s) {
				return true
			}
			aw, why := a.loop(pr, params, s)
			line := 0
			if t.File != nil {
				line = t.File.Position(s.Pos()).Line
			}
			note := LoopNote{Proc: pr.ID, Loop: s, Await: aw != nil, Line: fmt.Sprintf("P%d line %d: %s", pr.ID, line, loopWord(s)), Why: why}
			if aw != nil {
				out[s] = aw
			}
			notes = append(notes, note)
			return true
		})
	}
	return out, notes
}

func isLoop(s Stmt) bool {
	switch s.(type) {
	case *WhileStmt, *DoWhileStmt, *ForStmt:
		return true
	}
	return false
}

func loopWord(s Stmt) string {
	switch s.(type) {
	case *DoWhileStmt:
		return "do-while loop"
	case *ForStmt:
		return "for loop"
	}
	return "while loop"
}

type awaitAnalysis struct {
	t *Test
	// plain maps the locations some thread writes with a plain store to
	// the first such store; "" stands for a store through a pointer the
	// analysis cannot name.
	plain map[string]Pos
	// prior maps a loop to the statements that run before it in its
	// block, declarations without a value skipped (retry.go).
	prior map[Stmt][]Stmt
}

// plainWrites collects the plain stores of every thread.
func (a *awaitAnalysis) plainWrites() {
	for _, pr := range a.t.Procs {
		if pr.Body == nil {
			continue
		}
		params := map[string]bool{}
		for _, p := range pr.Params {
			params[p.Name.Name] = true
		}
		note := func(name string, pos Pos) {
			if _, ok := a.plain[name]; !ok {
				a.plain[name] = pos
			}
		}
		Inspect(pr.Body, func(n Node) bool {
			switch n := n.(type) {
			case *AssignStmt:
				if u, ok := Unparen(n.LHS).(*UnaryExpr); ok && u.Op == "*" {
					note(a.target(params, u.X, false), n.Pos())
				}
			case *CallExpr:
				if p, ok := a.t.Primitive(n.Fun.Name); ok && p.NonAtomic && p.Loc >= 0 && p.Loc < len(n.Args) {
					note(a.target(params, n.Args[p.Loc], p.Args[p.Loc] == ArgLval), n.Pos())
				}
			}
			return true
		})
	}
}

// target names the location a pointer expression (or, with lval, an
// lvalue *p) designates: a thread parameter or a location of the test;
// "" when it is not fixed.
func (a *awaitAnalysis) target(params map[string]bool, e Expr, lval bool) string {
	e = Unparen(e)
	if lval {
		u, ok := e.(*UnaryExpr)
		if !ok || u.Op != "*" {
			if id, ok := e.(*Ident); ok {
				return id.Name
			}
			return ""
		}
		e = Unparen(u.X)
	}
	if u, ok := e.(*UnaryExpr); ok && u.Op == "&" {
		if id, ok := Unparen(u.X).(*Ident); ok {
			return id.Name
		}
	}
	if id, ok := e.(*Ident); ok && params[id.Name] {
		return id.Name
	}
	return ""
}

// shape splits a loop into the statements before its exit test, the
// test's negation and the statements after it.
func shape(s Stmt) (pre []Stmt, cont Expr, post []Stmt, ok bool) {
	switch s := s.(type) {
	case *DoWhileStmt:
		return stmts(s.Body), s.Cond, nil, s.Cond != nil
	case *WhileStmt:
		if c, isLit := Unparen(s.Cond).(*IntLit); isLit && c.Value != 0 {
			return breakShape(stmts(s.Body))
		}
		return nil, s.Cond, stmts(s.Body), true
	case *ForStmt:
		body := stmts(s.Body)
		if s.Post != nil {
			body = append(body, s.Post)
		}
		if s.Cond == nil {
			if s.Post != nil {
				return nil, nil, nil, false
			}
			return breakShape(body)
		}
		return nil, s.Cond, body, true
	}
	return nil, nil, nil, false
}

// breakShape reads "S; if (E) break; B" (a while (1), or a while whose
// condition calls a function as a code test lowers it).
func breakShape(list []Stmt) ([]Stmt, Expr, []Stmt, bool) {
	for i, s := range list {
		is, ok := s.(*IfStmt)
		if !ok || is.Else != nil {
			continue
		}
		th := is.Then
		if b, ok := th.(*BlockStmt); ok && len(b.List) == 1 {
			th = b.List[0]
		}
		if br, ok := th.(*BranchStmt); ok && br.Tok == "break" {
			return list[:i], &UnaryExpr{OpPos: is.If, Op: "!", X: &ParenExpr{Lparen: is.If, X: is.Cond, Rparen: is.If}}, list[i+1:], true
		}
	}
	return nil, nil, nil, false
}

func stmts(s Stmt) []Stmt {
	if b, ok := s.(*BlockStmt); ok {
		return b.List
	}
	if s == nil {
		return nil
	}
	return []Stmt{s}
}

// awaitFences are the fences a failed iteration may hold.
var awaitFences = map[string]bool{"mb": true, "rmb": true, "wmb": true, "barrier": true}

// loop decides whether loop s of pr is an await, and says why not.
func (a *awaitAnalysis) loop(pr *Proc, params map[string]bool, s Stmt) (*Await, string) {
	pre, cont, post, ok := shape(s)
	if !ok {
		return nil, "it has no exit test"
	}
	if aw, why, isRetry := a.retryLoop(params, s); isRetry {
		return aw, why
	}
	c := &effects{a: a, params: params, assigned: map[string]bool{}}
	for _, x := range pre {
		c.stmt(x)
	}
	c.exitTest(cont)
	for _, x := range post {
		c.stmt(x)
	}
	if c.why != "" {
		return nil, c.why
	}
	for _, loc := range sortedKeys(c.reads) {
		pos, ok := a.plain[loc]
		if !ok {
			pos, ok = a.plain[""]
		}
		if !ok && loc == "" {
			for _, k := range sortedKeys(a.plain) {
				pos, ok = a.plain[k], true
				break
			}
		}
		if ok {
			return nil, fmt.Sprintf("a location it reads may be written by the plain store at line %d, and a failed iteration's read could be the one that races", a.line(pos))
		}
	}
	// Every register the loop assigns is assigned before it is read by
	// the part of an iteration before the exit test.
	why := defined(c.assigned, pre, cont)
	if why == "" && (pre != nil || !a.hasEvents(post)) {
		return &Await{Loop: s, Pre: pre, Cont: cont}, ""
	}
	// A while loop whose body sets what its condition tests, or whose
	// body has events of its own (a fence, a read), is checked in its
	// rotated form, so that an execution that enters the loop keeps
	// one instance of the body: its events are what a model's flags
	// may be about (aarch64.cat flags the fences of the inner shareable
	// domain).
	if _, isDo := s.(*DoWhileStmt); !isDo && pre == nil {
		// while (C) B is "if (C) do B while (C)": the test on entry,
		// then a do-while whose iterations start afresh
		// (r = 0; while (!r) r = READ_ONCE(*x);).
		if defined(c.assigned, post, cont) == "" {
			return &Await{Loop: s, Enter: cont, Pre: post, Cont: cont}, ""
		}
	}
	if why == "" {
		why = "its body assigns registers"
	}
	return nil, why
}

// hasEvents reports whether the statements call a primitive with an
// event (anything but cpu_relax).
func (a *awaitAnalysis) hasEvents(list []Stmt) bool {
	found := false
	for _, x := range list {
		Inspect(x, func(n Node) bool {
			if call, ok := n.(*CallExpr); ok {
				if p, ok := a.t.Primitive(call.Fun.Name); !ok || p.Kind != KNop {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// defined says why not every register of assigned is assigned by pre
// before it is read there or by cont ("" when all are).
func defined(assigned map[string]bool, pre []Stmt, cont Expr) string {
	d := &defs{assigned: assigned, def: map[string]bool{}}
	for _, x := range pre {
		d.stmt(x)
	}
	d.reads(cont)
	if d.why == "" {
		for _, r := range sortedKeys(assigned) {
			if !d.def[r] {
				d.why = fmt.Sprintf("it assigns %s, which an iteration does not assign before its exit test", r)
				break
			}
		}
	}
	return d.why
}

func (a *awaitAnalysis) line(p Pos) int {
	if a.t.File == nil {
		return 0
	}
	return a.t.File.Position(p).Line
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// effects checks that the statements of a loop write nothing and read
// only with marked accesses; it collects the registers they assign and the
// locations they read.
type effects struct {
	a        *awaitAnalysis
	params   map[string]bool
	assigned map[string]bool
	reads    map[string]bool
	depth    int // nested loops
	why      string
}

func (c *effects) no(format string, args ...any) {
	if c.why == "" {
		c.why = fmt.Sprintf(format, args...)
	}
}

func (c *effects) stmt(s Stmt) {
	switch s := s.(type) {
	case *BlockStmt:
		for _, x := range s.List {
			c.stmt(x)
		}
	case *EmptyStmt:
	case *DeclStmt:
		if s.Init != nil {
			c.assigned[s.Name.Name] = true
			c.expr(s.Init)
		}
	case *AssignStmt:
		switch l := Unparen(s.LHS).(type) {
		case *Ident:
			c.assigned[l.Name] = true
		default:
			c.no("it writes %s", ExprString(s.LHS))
			return
		}
		c.expr(s.RHS)
	case *ExprStmt:
		c.expr(s.X)
	case *IfStmt:
		c.expr(s.Cond)
		c.stmt(s.Then)
		if s.Else != nil {
			c.stmt(s.Else)
		}
	case *WhileStmt:
		c.depth++
		c.expr(s.Cond)
		c.stmt(s.Body)
		c.depth--
	case *DoWhileStmt:
		c.depth++
		c.stmt(s.Body)
		c.expr(s.Cond)
		c.depth--
	case *ForStmt:
		c.depth++
		if s.Init != nil {
			c.stmt(s.Init)
		}
		c.expr(s.Cond)
		if s.Post != nil {
			c.stmt(s.Post)
		}
		c.stmt(s.Body)
		c.depth--
	case *BranchStmt:
		if c.depth == 0 {
			c.no("it has a %s besides its exit test", s.Tok)
		}
	case nil:
	default:
		c.no("it holds a statement the reduction does not know")
	}
}

// exitTest checks the loop's continue condition: like any expression,
// except that it may be a cmpxchg whose success ends the loop,
// "cmpxchg(p, o, n) != o" (a failed cmpxchg writes nothing).
func (c *effects) exitTest(cont Expr) {
	if call, args, ok := c.cmpxchgTest(cont); ok {
		c.read(call, c.a.target(c.params, args[0], false))
		for _, x := range args {
			c.expr(x)
		}
		return
	}
	c.expr(cont)
}

// cmpxchgTest matches "CALL != O", "O != CALL" or "!(CALL == O)" where
// CALL is a cmpxchg of expected value O, a register or a constant.
func (c *effects) cmpxchgTest(e Expr) (*CallExpr, []Expr, bool) {
	e = Unparen(e)
	neq := true
	if u, ok := e.(*UnaryExpr); ok && u.Op == "!" {
		e, neq = Unparen(u.X), false
		if u2, ok := e.(*UnaryExpr); ok && u2.Op == "!" {
			e, neq = Unparen(u2.X), true
		}
	}
	b, ok := e.(*BinaryExpr)
	if !ok || (neq && b.Op != "!=") || (!neq && b.Op != "==") {
		return nil, nil, false
	}
	for _, pair := range [][2]Expr{{b.X, b.Y}, {b.Y, b.X}} {
		call, ok := Unparen(pair[0]).(*CallExpr)
		if !ok {
			continue
		}
		p, ok := c.a.t.Primitive(call.Fun.Name)
		if !ok || p.Kind != KRMW || p.Op != RMWCmpxchg || len(call.Args) != 3 || p.Loc != 0 {
			continue
		}
		if pure(call.Args[1]) && pure(pair[1]) && ExprString(Unparen(call.Args[1])) == ExprString(Unparen(pair[1])) {
			return call, call.Args, true
		}
	}
	return nil, nil, false
}

// pure reports whether e is a register or a constant.
func pure(e Expr) bool {
	switch e := Unparen(e).(type) {
	case *Ident, *IntLit:
		return true
	case *UnaryExpr:
		return e.Op == "-" && pure(e.X)
	}
	return false
}

func (c *effects) read(call *CallExpr, loc string) {
	if c.reads == nil {
		c.reads = map[string]bool{}
	}
	c.reads[loc] = true
}

func (c *effects) expr(e Expr) {
	if e == nil || c.why != "" {
		return
	}
	switch e := e.(type) {
	case *IntLit, *Ident:
	case *ParenExpr:
		c.expr(e.X)
	case *CastExpr:
		c.expr(e.X)
	case *UnaryExpr:
		switch e.Op {
		case "*":
			c.no("it reads %s with a plain access", ExprString(e))
			return
		case "&":
			return
		}
		c.expr(e.X)
	case *BinaryExpr:
		c.expr(e.X)
		c.expr(e.Y)
	case *CondExpr:
		c.expr(e.Cond)
		c.expr(e.X)
		c.expr(e.Y)
	case *CallExpr:
		p, ok := c.a.t.Primitive(e.Fun.Name)
		if !ok {
			c.no("it calls %s", e.Fun.Name)
			return
		}
		switch {
		case p.Kind == KLoad && p.Loc >= 0 && p.Loc < len(e.Args):
			c.read(e, c.a.target(c.params, e.Args[p.Loc], p.Args[p.Loc] == ArgLval))
			for i, x := range e.Args {
				if i != p.Loc {
					c.expr(x)
				}
			}
			if p.Args[p.Loc] == ArgLval {
				if u, ok := Unparen(e.Args[p.Loc]).(*UnaryExpr); ok && u.Op == "*" {
					c.expr(u.X)
				}
			} else {
				c.expr(e.Args[p.Loc])
			}
		case p.Kind == KNop:
		case p.Kind == KFence && awaitFences[p.Fence]:
		default:
			c.no("it calls %s, which %s", e.Fun.Name, effectWord(p))
		}
	default:
		c.no("it holds %s", ExprString(e))
	}
}

func effectWord(p *Primitive) string {
	switch p.Kind {
	case KStore:
		return "writes"
	case KRMW:
		return "may write"
	case KFence:
		return "is a fence the reduction does not drop (" + p.Fence + ")"
	}
	return "is a " + p.Kind.String()
}

// defs checks that the registers a loop assigns are assigned before they
// are read, in an iteration's statements before its exit test.
type defs struct {
	assigned map[string]bool // the registers the loop assigns
	def      map[string]bool // those assigned so far on every way
	why      string
}

func (d *defs) reads(e Expr) {
	if e == nil {
		return
	}
	Inspect(e, func(n Node) bool {
		if id, ok := n.(*Ident); ok && d.assigned[id.Name] && !d.def[id.Name] && d.why == "" {
			d.why = fmt.Sprintf("an iteration reads %s before it assigns it, so iterations depend on each other", id.Name)
		}
		return true
	})
}

func (d *defs) copy() map[string]bool {
	m := make(map[string]bool, len(d.def))
	for k, v := range d.def {
		m[k] = v
	}
	return m
}

func (d *defs) stmt(s Stmt) {
	switch s := s.(type) {
	case *BlockStmt:
		for _, x := range s.List {
			d.stmt(x)
		}
	case *DeclStmt:
		if s.Init != nil {
			d.reads(s.Init)
			d.def[s.Name.Name] = true
		}
	case *AssignStmt:
		if s.Op != "=" {
			d.reads(s.LHS)
		}
		d.reads(s.RHS)
		if id, ok := Unparen(s.LHS).(*Ident); ok {
			d.def[id.Name] = true
		}
	case *ExprStmt:
		d.reads(s.X)
	case *IfStmt:
		d.reads(s.Cond)
		saved := d.copy()
		d.stmt(s.Then)
		then := d.def
		d.def = saved
		if s.Else != nil {
			d.stmt(s.Else)
			els := d.def
			d.def = map[string]bool{}
			for k := range then {
				if els[k] {
					d.def[k] = true
				}
			}
		} else {
			d.def = saved
		}
	case *DoWhileStmt:
		// The body runs at least once; a break inside would make
		// what follows it conditional, so the body counts only when
		// it has none.
		if hasBranch(s.Body) {
			saved := d.copy()
			d.stmt(s.Body)
			d.reads(s.Cond)
			d.def = saved
			return
		}
		d.stmt(s.Body)
		d.reads(s.Cond)
	case *WhileStmt, *ForStmt:
		saved := d.copy()
		if f, ok := s.(*ForStmt); ok {
			if f.Init != nil {
				d.stmt(f.Init)
				saved = d.copy()
			}
			d.reads(f.Cond)
			d.stmt(f.Body)
			if f.Post != nil {
				d.stmt(f.Post)
			}
		} else {
			w := s.(*WhileStmt)
			d.reads(w.Cond)
			d.stmt(w.Body)
		}
		d.def = saved
	}
}

// hasBranch reports whether s holds a break or continue of its own loop.
func hasBranch(s Stmt) bool {
	found := false
	var walk func(s Stmt)
	walk = func(s Stmt) {
		switch s := s.(type) {
		case *BranchStmt:
			found = true
		case *BlockStmt:
			for _, x := range s.List {
				walk(x)
			}
		case *IfStmt:
			walk(s.Then)
			if s.Else != nil {
				walk(s.Else)
			}
		}
	}
	walk(s)
	return found
}
