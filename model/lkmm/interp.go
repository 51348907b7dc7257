package lkmm

import (
	"fmt"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
)

// This file runs one thread's C code and records its events. The code runs
// with concrete values: every read takes one value of its location's value
// domain (a choice point), every branch follows the value it computes. The
// explorer in paths enumerates all choice sequences like an odometer, so
// a thread's traces are all the paths herd would build for it, each with
// its read values fixed; the execution builder later keeps only the reads
// some write of the same value can feed.

// trace is one path through one thread.
type trace struct {
	events []event
	regs   map[string]Val // final values of the thread's registers

	writes Set   // (location, value) pairs it writes, numbered by the search
	needs  []int // pairs its reads need from a write other than the initial one
}

// maxPaths bounds the paths of one thread (each read of a location with k
// values multiplies them by k).
const maxPaths = 1 << 20

type regVal struct {
	v Val
	t taint
}

type flow uint8

const (
	flowNormal flow = iota
	flowBreak
	flowContinue
	flowStop // the path ends here: infeasible, past the loop bound, or an error
)

type interp struct {
	p         *program
	b         *limit.Budget
	th        *thread
	dom       [][]Val // value domain of each location
	loopBound int

	choices []int // the choice made at each choice point so far
	counts  []int // the number of alternatives at each choice point
	pos     int

	events []event
	regs   map[string]*regVal
	ctrl   taint // reads the branches taken so far depend on

	dead bool  // a read had no possible value
	cut  bool  // a loop ran past the bound
	err  error // the code is not supported
}

// paths returns every trace of th given the value domains, and reports
// whether some path was cut by the loop bound.
func paths(p *program, b *limit.Budget, th *thread, dom [][]Val, loopBound int) ([]trace, bool, error) {
	return walk(p, b, th, dom, loopBound, false)
}

// prefixes is paths that also returns the events of the paths that die
// (a read with no value, a dereferenced integer, a division by zero) or
// are cut, up to where they stop. The value domains need their writes: a
// path may die only because a domain is still too small, as when a thread
// stores a pointer, reads it back and dereferences it (while the pointer's
// domain is {0}, every path dies at the dereference, and the store that
// would add the address to the domain is on no complete path).
func prefixes(p *program, b *limit.Budget, th *thread, dom [][]Val, loopBound int) ([]trace, error) {
	trs, _, err := walk(p, b, th, dom, loopBound, true)
	return trs, err
}

func walk(p *program, b *limit.Budget, th *thread, dom [][]Val, loopBound int, partial bool) ([]trace, bool, error) {
	in := &interp{p: p, b: b, th: th, dom: dom, loopBound: loopBound}
	var out []trace
	cut := false
	for n := 0; ; n++ {
		if n&63 == 0 {
			if err := b.Err(); err != nil {
				return nil, false, err
			}
		}
		in.run()
		if in.err != nil {
			return nil, false, in.err
		}
		if in.cut {
			cut = true
		}
		if partial && (in.cut || in.dead) {
			out = append(out, trace{events: in.events})
			if len(out) > maxPaths {
				return nil, false, &errLimit{fmt.Sprintf("P%d has more than %d paths", th.id, maxPaths)}
			}
		} else if !in.cut && !in.dead {
			regs := make(map[string]Val, len(in.regs))
			for k, r := range in.regs {
				regs[k] = r.v
			}
			out = append(out, trace{events: in.events, regs: regs})
			if len(out) > maxPaths {
				return nil, false, &errLimit{fmt.Sprintf("P%d has more than %d paths", th.id, maxPaths)}
			}
		}
		// Advance the odometer: the last choice point with an untried
		// alternative moves on, later ones start again.
		i := len(in.counts) - 1
		for i >= 0 && in.choices[i]+1 >= in.counts[i] {
			i--
		}
		if i < 0 {
			return out, cut, nil
		}
		in.choices = in.choices[:i+1]
		in.choices[i]++
	}
}

func (in *interp) run() {
	in.pos = 0
	in.counts = in.counts[:0]
	in.events = nil
	in.regs = map[string]*regVal{}
	for k, v := range in.th.regs {
		in.regs[k] = &regVal{v: v}
	}
	in.ctrl = nil
	in.dead, in.cut = false, false
	in.block(in.th.proc.Body.List)
}

// choose returns the alternative taken at the next choice point among n.
func (in *interp) choose(n int) int {
	if n == 0 {
		in.dead = true
		return -1
	}
	if in.pos == len(in.choices) {
		in.choices = append(in.choices, 0)
	}
	c := in.choices[in.pos]
	in.counts = append(in.counts, n)
	in.pos++
	return c
}

func (in *interp) stopped() bool { return in.dead || in.cut || in.err != nil }

func (in *interp) fail(pos litmus.Pos, format string, args ...any) {
	if in.err == nil {
		in.err = in.p.errorf(pos, format, args...)
	}
}

// emit appends an event and returns its index.
func (in *interp) emit(e event) int {
	e.thread = in.th.id
	e.ctrl = in.ctrl
	if len(in.events)&4095 == 4095 && in.err == nil {
		// A long path: check the budget on the way.
		in.err = in.b.Err()
	}
	in.events = append(in.events, e)
	return len(in.events) - 1
}

func (in *interp) block(list []litmus.Stmt) flow {
	for _, s := range list {
		if f := in.stmt(s); f != flowNormal {
			return f
		}
	}
	return flowNormal
}

func (in *interp) stmt(s litmus.Stmt) flow {
	if in.stopped() {
		return flowStop
	}
	switch s := s.(type) {
	case *litmus.BlockStmt:
		return in.block(s.List)
	case *litmus.EmptyStmt:
	case *litmus.DeclStmt:
		rv := &regVal{v: intVal(0)}
		if s.Init != nil {
			v, t := in.expr(s.Init)
			rv = &regVal{v: v, t: t}
		}
		in.regs[s.Name.Name] = rv
	case *litmus.ExprStmt:
		in.expr(s.X)
	case *litmus.AssignStmt:
		in.assign(s)
	case *litmus.IfStmt:
		c, t := in.expr(s.Cond)
		if in.stopped() {
			return flowStop
		}
		// The events of the branches depend on the condition; those
		// after the if statement do not (the LKMM's control
		// dependencies end with the statement, explanation.txt).
		saved := in.ctrl
		in.ctrl = in.ctrl.merge(t)
		f := flowNormal
		if c.truth() {
			f = in.stmt(s.Then)
		} else if s.Else != nil {
			f = in.stmt(s.Else)
		}
		in.ctrl = saved
		return f
	case *litmus.WhileStmt:
		return in.loop(nil, s.Cond, nil, s.Body, false)
	case *litmus.DoWhileStmt:
		return in.loop(nil, s.Cond, nil, s.Body, true)
	case *litmus.ForStmt:
		return in.loop(s.Init, s.Cond, s.Post, s.Body, false)
	case *litmus.BranchStmt:
		if s.Tok == "break" {
			return flowBreak
		}
		return flowContinue
	default:
		in.fail(s.Pos(), "unsupported statement")
	}
	if in.stopped() {
		return flowStop
	}
	return flowNormal
}

// loop runs a loop, unrolled at most loopBound times; a path that would
// run it once more is cut, as herd's -unroll does.
func (in *interp) loop(init litmus.Stmt, cond litmus.Expr, post litmus.Stmt, body litmus.Stmt, doWhile bool) flow {
	if init != nil {
		if in.stmt(init) == flowStop {
			return flowStop
		}
	}
	// herd unrolls a loop into nested if statements: each iteration
	// depends on every condition tested so far, the code after the loop
	// on none.
	saved := in.ctrl
	defer func() { in.ctrl = saved }()
	for iter := 0; ; iter++ {
		if !(doWhile && iter == 0) && cond != nil {
			c, t := in.expr(cond)
			if in.stopped() {
				return flowStop
			}
			in.ctrl = in.ctrl.merge(t)
			if !c.truth() {
				return flowNormal
			}
		}
		if iter >= in.loopBound {
			in.cut = true
			return flowStop
		}
		switch in.stmt(body) {
		case flowStop:
			return flowStop
		case flowBreak:
			return flowNormal
		}
		if post != nil {
			if in.stmt(post) == flowStop {
				return flowStop
			}
		}
	}
}

var assignOps = map[string]string{"+=": "+", "-=": "-", "&=": "&", "|=": "|", "^=": "^", "<<=": "<<", ">>=": ">>", "*=": "*", "/=": "/", "%=": "%", "++": "+", "--": "-"}

func (in *interp) assign(s *litmus.AssignStmt) {
	var v Val
	var t taint
	if s.Op != "=" {
		op, ok := assignOps[s.Op]
		if !ok {
			in.fail(s.OpPos, "unsupported assignment %s", s.Op)
			return
		}
		old, ot := in.expr(s.LHS)
		var rhs Val
		var rt taint
		if s.RHS != nil {
			rhs, rt = in.expr(s.RHS)
		} else {
			rhs = intVal(1)
		}
		v = in.binop(s.OpPos, op, old, rhs)
		t = ot.merge(rt)
	} else {
		v, t = in.expr(s.RHS)
	}
	if in.stopped() {
		return
	}
	switch l := unparen(s.LHS).(type) {
	case *litmus.Ident:
		in.regs[l.Name] = &regVal{v: v, t: t}
	case *litmus.UnaryExpr:
		if l.Op == "*" {
			loc, at, ok := in.pointer(l.X)
			if !ok {
				return
			}
			in.emit(event{kind: evW, rmwR: -1, loc: loc, val: v, addr: at, data: t, pos: s.Pos(), prim: "plain write"})
			return
		}
		in.fail(s.Pos(), "cannot assign to this expression")
	default:
		in.fail(s.Pos(), "cannot assign to this expression")
	}
}

func unparen(e litmus.Expr) litmus.Expr {
	for {
		switch p := e.(type) {
		case *litmus.ParenExpr:
			e = p.X
		case *litmus.CastExpr:
			e = p.X
		default:
			return e
		}
	}
}

// pointer evaluates an expression that must yield the address of a
// location, and returns the location and the reads the address depends on.
func (in *interp) pointer(e litmus.Expr) (int, taint, bool) {
	v, t := in.expr(e)
	if in.stopped() {
		return 0, nil, false
	}
	if !v.isAddr() {
		// herd's executions where a pointer holds an integer fault; the
		// path is infeasible rather than an error.
		in.dead = true
		return 0, nil, false
	}
	return v.loc(), t, true
}

// lvalue evaluates the location operand of READ_ONCE(*x) and friends: *e,
// or the name of a shared location.
func (in *interp) lvalue(e litmus.Expr) (int, taint, bool) {
	switch x := unparen(e).(type) {
	case *litmus.UnaryExpr:
		if x.Op == "*" {
			return in.pointer(x.X)
		}
	case *litmus.Ident:
		if _, isReg := in.regs[x.Name]; !isReg {
			if i, ok := in.p.index[x.Name]; ok {
				return i, nil, true
			}
		}
	}
	in.fail(e.Pos(), "expected *pointer")
	return 0, nil, false
}

// read emits a read of loc and picks its value.
func (in *interp) read(loc int, tags tag, addr taint, pos litmus.Pos, prim string) (Val, int) {
	d := in.dom[loc]
	c := in.choose(len(d))
	if c < 0 {
		return Val{}, -1
	}
	i := in.emit(event{kind: evR, rmwR: -1, loc: loc, tags: tags, val: d[c], addr: addr, pos: pos, prim: prim})
	return d[c], i
}

func (in *interp) expr(e litmus.Expr) (Val, taint) {
	if in.stopped() {
		return Val{}, nil
	}
	switch e := e.(type) {
	case *litmus.IntLit:
		return intVal(e.Value), nil
	case *litmus.ParenExpr:
		return in.expr(e.X)
	case *litmus.CastExpr:
		// Casts change no value: herd's values are integers and
		// location addresses.
		return in.expr(e.X)
	case *litmus.Ident:
		if r, ok := in.regs[e.Name]; ok {
			return r.v, r.t
		}
		if loc, ok := in.th.params[e.Name]; ok {
			return addrVal(loc), nil
		}
		if loc, ok := in.p.index[e.Name]; ok {
			return addrVal(loc), nil
		}
		switch e.Name {
		case "NULL", "false":
			return intVal(0), nil
		case "true":
			return intVal(1), nil
		}
		// herd reads an undeclared register as 0.
		return intVal(0), nil
	case *litmus.UnaryExpr:
		switch e.Op {
		case "*":
			loc, at, ok := in.pointer(e.X)
			if !ok {
				return Val{}, nil
			}
			v, i := in.read(loc, 0, at, e.Pos(), "plain read")
			if i < 0 {
				return Val{}, nil
			}
			return v, taint{i}
		case "&":
			if id, ok := unparen(e.X).(*litmus.Ident); ok {
				if loc, ok := in.p.index[id.Name]; ok {
					return addrVal(loc), nil
				}
			}
			if u, ok := unparen(e.X).(*litmus.UnaryExpr); ok && u.Op == "*" {
				return in.expr(u.X)
			}
			in.fail(e.Pos(), "unsupported address-of")
			return Val{}, nil
		}
		v, t := in.expr(e.X)
		return in.unop(e.OpPos, e.Op, v), t
	case *litmus.BinaryExpr:
		// herd evaluates both operands of every operator, && and ||
		// included (CSem's Op), so both sides' events always occur.
		x, tx := in.expr(e.X)
		y, ty := in.expr(e.Y)
		switch e.Op {
		case "&&":
			return boolVal(x.truth() && y.truth()), tx.merge(ty)
		case "||":
			return boolVal(x.truth() || y.truth()), tx.merge(ty)
		}
		return in.binop(e.OpPos, e.Op, x, y), tx.merge(ty)
	case *litmus.CondExpr:
		c, tc := in.expr(e.Cond)
		if c.truth() {
			v, t := in.expr(e.X)
			return v, tc.merge(t)
		}
		v, t := in.expr(e.Y)
		return v, tc.merge(t)
	case *litmus.CallExpr:
		return in.call(e)
	}
	in.fail(e.Pos(), "unsupported expression")
	return Val{}, nil
}

func boolVal(b bool) Val {
	if b {
		return intVal(1)
	}
	return intVal(0)
}

func (in *interp) unop(pos litmus.Pos, op string, v Val) Val {
	if v.isAddr() && op != "!" {
		in.dead = true // as in binop
		return Val{}
	}
	switch op {
	case "-":
		return intVal(-v.N)
	case "!":
		return boolVal(!v.truth())
	case "~":
		return intVal(^v.N)
	}
	in.fail(pos, "unsupported operator %s", op)
	return Val{}
}

func (in *interp) binop(pos litmus.Pos, op string, x, y Val) Val {
	switch op {
	case "==":
		return boolVal(x == y)
	case "!=":
		return boolVal(x != y)
	}
	if x.isAddr() || y.isAddr() {
		if op == "+" || op == "-" {
			if x.isAddr() && !y.isAddr() && y.N == 0 {
				return x
			}
		}
		// Arithmetic on an address: the engine has no pointer
		// arithmetic (no arrays), and a read may pick an address from
		// a domain shared with integers on a path no execution takes,
		// so the path is dropped rather than the test rejected.
		in.dead = true
		return Val{}
	}
	a, b := x.N, y.N
	switch op {
	case "+":
		return intVal(a + b)
	case "-":
		return intVal(a - b)
	case "*":
		return intVal(a * b)
	case "/", "%":
		if b == 0 {
			in.dead = true // herd: an execution dividing by zero does not exist
			return Val{}
		}
		if op == "/" {
			return intVal(a / b)
		}
		return intVal(a % b)
	case "&":
		return intVal(a & b)
	case "|":
		return intVal(a | b)
	case "^":
		return intVal(a ^ b)
	case "<<":
		return intVal(a << uint(b&63))
	case ">>":
		return intVal(a >> uint(b&63))
	case "<":
		return boolVal(a < b)
	case "<=":
		return boolVal(a <= b)
	case ">":
		return boolVal(a > b)
	case ">=":
		return boolVal(a >= b)
	}
	in.fail(pos, "unsupported operator %s", op)
	return Val{}
}
