package lkmm

import (
	"fmt"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/ctype"
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
	flow   *axiom.Flow    // how its values depend on its reads
	shape  int            // its structure, numbered per thread (search.shapes)

	writes Set   // (location, value) pairs it writes, numbered by the search
	needs  []int // pairs its reads need from a write other than the initial one
}

// maxPaths bounds the paths of one thread (each read of a location with k
// values multiplies them by k).
const maxPaths = 1 << 20

type regVal struct {
	v Val
	t taint
	f vflow
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

	odo axiom.Odometer // the choices of the path being walked

	events []event
	regs   map[string]regVal
	ctrl   taint // reads the branches taken so far depend on

	dead bool  // a read had no possible value
	cut  bool  // a loop ran past the bound
	err  error // the code is not supported
	// halted: the path ends at a fault it keeps (fault.go).
	halted bool

	// partial: the walk is for the value domains, and reads may return
	// top.
	partial bool
	// reuse: the paths share one events buffer (walkWrites); evHint is
	// the most events of a path so far, the room a new path's buffer
	// starts with.
	reuse  bool
	evHint int
	// nd is the vflow of the value the last expr returned.
	nd vflow
	// need and fixed are the path's axiom.Flow Need and Fixed.
	need  taint
	fixed []int
	// herd's variables (symvar.go): varBase are those of the threads
	// before, nvar those of the path so far, varMax the largest of each
	// read's value.
	varBase, nvar int32
	varMax        []int32 // by read index, 0 past its end
	varSeen       bool    // some read has a variable (noteVar)
	// counted memoizes countStmt for the registers the path has so far
	// (symvar.go); steps counts the statements run, to poll the budget.
	counted map[litmus.Stmt]int32
	steps   int
	// conv converts a value assigned to a register to its declared C
	// type (model/ctype), for the registers of narrow types.
	conv map[string]ctype.Kind
}

// paths returns every trace of th given the value domains, and reports
// whether some path was cut by the loop bound.
func paths(p *program, b *limit.Budget, th *thread, dom [][]Val, loopBound int) ([]trace, bool, error) {
	return walk(p, b, th, dom, loopBound, false)
}

// walk runs th over every choice of read values (and, with partial, top
// too) and returns its paths. With partial set (the walk for the value
// domains) it also returns the events of the paths that die (a read with
// no value, a dereferenced integer, a division by zero) or are cut, up to
// where they stop: a path may die only because a domain is still too
// small, as when a thread stores a pointer, reads it back and
// dereferences it (while the pointer's domain is {0}, every path dies at
// the dereference, and the store that would add the address to the
// domain is on no complete path).
func walk(p *program, b *limit.Budget, th *thread, dom [][]Val, loopBound int, partial bool) ([]trace, bool, error) {
	var out []trace
	cut, err := walkEach(p, b, th, dom, loopBound, partial, false, func(in *interp) {
		if partial && (in.cut || in.dead) {
			out = append(out, trace{events: in.events})
		} else if !in.cut && !in.dead {
			regs := make(map[string]Val, len(in.regs))
			for k, r := range in.regs {
				regs[k] = r.v
			}
			out = append(out, trace{events: in.events, regs: regs, flow: in.flow()})
		}
	})
	if err != nil {
		return nil, false, err
	}
	return out, cut, nil
}

// walkWrites calls write for every write (as package axiom counts them:
// axiomKind) of every path walk(..., true) returns, and returns the most
// writes of one path: the walk for the value domains, without building
// the paths (axiom.WriteWalker).
func walkWrites(p *program, b *limit.Budget, th *thread, dom [][]Val, loopBound int, write func(loc int, v Val)) (int, error) {
	most := 0
	_, err := walkEach(p, b, th, dom, loopBound, true, true, func(in *interp) {
		nw := 0
		for i := range in.events {
			if e := &in.events[i]; axiomKind(e) == axiom.KindW {
				nw++
				write(e.loc, e.val)
			}
		}
		most = max(most, nw)
	})
	return most, err
}

// walkEach runs th over every choice of read values (and, with partial,
// top too), calling kept after each path walk keeps: every path with
// partial, else those that neither die nor are cut. With reuse, the
// paths share one events buffer (kept must not hold on to in.events).
// It reports whether some path was cut by the loop bound.
func walkEach(p *program, b *limit.Budget, th *thread, dom [][]Val, loopBound int, partial, reuse bool, kept func(*interp)) (bool, error) {
	in := &interp{p: p, b: b, th: th, dom: dom, loopBound: loopBound, partial: partial, reuse: reuse}
	if !partial {
		in.varBase = p.varBase(th, loopBound)
	}
	cut := false
	paths := 0
	for n := 0; ; n++ {
		if n&63 == 0 {
			if err := b.Err(); err != nil {
				return false, err
			}
		}
		in.run()
		if in.err != nil {
			return false, in.err
		}
		if in.cut {
			cut = true
		}
		if partial || (!in.cut && !in.dead) {
			kept(in)
			if paths++; paths > maxPaths {
				return false, &errLimit{Msg: fmt.Sprintf("P%d has more than %d paths", th.id, maxPaths)}
			}
		}
		in.evHint = max(in.evHint, len(in.events))
		if !in.odo.Next() {
			return cut, nil
		}
	}
}

func (in *interp) run() {
	in.odo.Start()
	if in.reuse {
		in.events = in.events[:0]
	} else {
		in.events = make([]event, 0, in.evHint)
	}
	if in.regs == nil {
		in.regs = make(map[string]regVal, len(in.th.regs))
	} else {
		clear(in.regs) // a path's registers are copied out (walk), never kept
	}
	for k, v := range in.th.regs {
		in.regs[k] = regVal{v: v}
	}
	in.ctrl = nil
	in.dead, in.cut, in.halted = false, false, false
	in.need, in.fixed = nil, nil
	// The maps and varMax are the previous path's, emptied: a path's
	// flow copies what it needs from them.
	in.nvar, in.varMax, in.varSeen = 0, in.varMax[:0], false
	clear(in.counted)
	clear(in.conv)
	if in.p.test.Arch == litmus.ArchLISA {
		in.lisaRun()
		return
	}
	in.block(in.th.proc.Body.List)
}

// choose returns the alternative taken at the next choice point among n.
func (in *interp) choose(n int) int {
	if n == 0 {
		in.dead = true
		return -1
	}
	return in.odo.Choose(n)
}

func (in *interp) stopped() bool { return in.dead || in.cut || in.halted || in.err != nil }

func (in *interp) fail(pos litmus.Pos, format string, args ...any) {
	if in.err == nil {
		in.err = in.p.errorf(pos, format, args...)
	}
}

// emit appends an event and returns its index.
func (in *interp) emit(e event) int {
	e.thread = in.th.id
	e.ctrl = in.ctrl
	in.p.narrowWrite(&e)
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
	// A path through nested loops may run loopBound^depth statements
	// with no event (emit polls too): poll the budget on the way.
	if in.steps++; in.steps&1023 == 0 {
		if in.err = in.b.Err(); in.err != nil {
			return flowStop
		}
	}
	switch s := s.(type) {
	case *litmus.BlockStmt:
		return in.block(s.List)
	case *litmus.EmptyStmt:
	case *litmus.DeclStmt:
		// herd's C semantics makes a declaration without initializer a
		// no-op (CSem's DeclReg): "int r2;" keeps the value the init
		// section gave r2 ({ 0:r2=5; }), and an undeclared register
		// reads as 0 anyway.
		if k := ctype.Of(s.Type); k.Narrow() {
			if in.conv == nil {
				in.conv = map[string]ctype.Kind{}
			}
			in.conv[s.Name.Name] = k
		}
		if s.Init != nil {
			v, t := in.expr(s.Init)
			in.setReg(s.Name.Name, regVal{v: v, t: t, f: in.nd})
		} else if _, ok := in.regs[s.Name.Name]; !ok {
			in.setReg(s.Name.Name, regVal{v: intVal(0)})
		}
	case *litmus.ExprStmt:
		in.expr(s.X)
	case *litmus.AssignStmt:
		in.assign(s)
	case *litmus.IfStmt:
		c, t := in.expr(s.Cond)
		if in.stopped() {
			return flowStop
		}
		if in.condAllocs(s.Cond) {
			in.newVar()
		}
		c = in.branch(c, t)
		// The events of the branches depend on the condition; those
		// after the if statement do not (the LKMM's control
		// dependencies end with the statement, explanation.txt).
		saved := in.ctrl
		in.ctrl = in.ctrl.Merge(t)
		f := flowNormal
		if c.Truth() {
			f = in.stmt(s.Then)
			in.nvar += in.countStmt(s.Else)
		} else {
			in.nvar += in.countStmt(s.Then)
			if s.Else != nil {
				f = in.stmt(s.Else)
			}
		}
		in.ctrl = saved
		return f
	case *litmus.WhileStmt:
		if aw := in.p.awaits.of(s); aw != nil {
			return in.await(nil, aw)
		}
		return in.loop(nil, s.Cond, nil, s.Body, false)
	case *litmus.DoWhileStmt:
		if aw := in.p.awaits.of(s); aw != nil {
			return in.await(nil, aw)
		}
		return in.loop(nil, s.Cond, nil, s.Body, true)
	case *litmus.ForStmt:
		if aw := in.p.awaits.of(s); aw != nil {
			return in.await(s.Init, aw)
		}
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
			if in.condAllocs(cond) {
				in.newVar()
			}
			c = in.branch(c, t)
			in.ctrl = in.ctrl.Merge(t)
			if !c.Truth() {
				// herd built the body and the rest of the loop too.
				if iter < in.loopBound {
					in.nvar += in.countStmt(body) + in.countStmt(post) + in.countLoop(cond, body, post, iter+1)
				}
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
	var f vflow
	if s.Op != "=" {
		op, ok := assignOps[s.Op]
		if !ok {
			in.fail(s.OpPos, "unsupported assignment %s", s.Op)
			return
		}
		old, ot := in.expr(s.LHS)
		of := in.nd
		var rhs Val
		var rt taint
		var rf vflow
		if s.RHS != nil {
			rhs, rt = in.expr(s.RHS)
			rf = in.nd
		} else {
			rhs = intVal(1)
		}
		v = in.binop(s.OpPos, op, old, rhs)
		t = ot.Merge(rt)
		f = in.opFlow(op, old, ot, of, rhs, rt, rf)
		in.newVar()
	} else {
		if u, ok := litmus.Unparen(s.LHS).(*litmus.UnaryExpr); ok && u.Op == "*" {
			// herd builds a store's location before its value.
			loc, at, ok := in.pointer(u.X)
			if !ok {
				return
			}
			v, t = in.expr(s.RHS)
			if in.stopped() {
				return
			}
			in.emit(event{kind: evW, rmwR: -1, loc: loc, val: v, addr: at, data: t, vf: in.nd, pos: s.Pos(), prim: "plain write"})
			return
		}
		v, t = in.expr(s.RHS)
		f = in.nd
	}
	if in.stopped() {
		return
	}
	switch l := litmus.Unparen(s.LHS).(type) {
	case *litmus.Ident:
		in.setReg(l.Name, regVal{v: v, t: t, f: f})
	case *litmus.UnaryExpr:
		if l.Op == "*" {
			loc, at, ok := in.pointer(l.X)
			if !ok {
				return
			}
			in.emit(event{kind: evW, rmwR: -1, loc: loc, val: v, addr: at, data: t, vf: f, pos: s.Pos(), prim: "plain write"})
			return
		}
		in.fail(s.Pos(), "cannot assign to this expression")
	default:
		in.fail(s.Pos(), "cannot assign to this expression")
	}
}

// pointer evaluates an expression that must yield the address of a
// location, and returns the location and the reads the address depends on.
func (in *interp) pointer(e litmus.Expr) (int, taint, bool) {
	v, t := in.expr(e)
	if in.stopped() {
		return 0, nil, false
	}
	in.needs(t, in.nd) // herd's location of the access is this value
	if !v.IsAddr() || v.N != 0 {
		// herd's executions where a pointer holds an integer (or top,
		// in the walk for the domains) fault; the
		// path is infeasible rather than an error. In a test with
		// objects the fault is a finding (fault.go).
		in.noteFault(e, v)
		return 0, nil, false
	}
	return v.Loc(), t, true
}

// lvalue evaluates the location operand of READ_ONCE(*x) and friends: *e,
// or the name of a shared location.
func (in *interp) lvalue(e litmus.Expr) (int, taint, bool) {
	switch x := litmus.Unparen(e).(type) {
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
	v, ok := in.pick(loc)
	if !ok {
		return Val{}, -1
	}
	i := in.emit(event{kind: evR, rmwR: -1, loc: loc, tags: tags, val: v, addr: addr, pos: pos, prim: prim})
	in.noteVar(i, in.newVar())
	return v, i
}

// pick chooses the value of a read of loc: one of its domain, or top
// when the walk is for the domains.
func (in *interp) pick(loc int) (Val, bool) {
	d := in.dom[loc]
	n := len(d)
	if in.partial {
		n++
	}
	c := in.choose(n)
	if c < 0 {
		return Val{}, false
	}
	if c == len(d) {
		return top, true
	}
	return d[c], true
}

// branch returns the truth of a branch condition c (as a value, 0 or 1):
// when c is top, both ways are taken, as a choice point. A condition that
// depends on reads needs them determined (herd's branch on an
// undetermined value leaves an equation it cannot solve).
func (in *interp) branch(c Val, t taint) Val {
	in.needs(t, in.nd)
	if isTop(c) {
		return boolVal(in.choose(2) == 0)
	}
	return boolVal(c.Truth())
}

// needs records that the reads of t must be determined, unless the value
// depends on none (f is 0).
func (in *interp) needs(t taint, f vflow) {
	if f != 0 && len(t) > 0 {
		in.need = in.need.Merge(t)
	}
}

// opFlow returns the vflow of x op y, with herd's simplifications on
// undetermined values (lib/symbValue.ml): x+0, 0+x, x|0 and 0|x are x;
// x^x is 0, x==x is 1 and x!=x is 0 when both are the same read's value.
// Any other operation on a read's value is an equation that needs its
// operands determined.
func (in *interp) opFlow(op string, x Val, tx taint, fx vflow, y Val, ty taint, fy vflow) vflow {
	if fx == 0 && fy == 0 {
		return 0
	}
	zero := func(v Val, f vflow) bool { return f == 0 && v == intVal(0) }
	switch op {
	case "+", "|":
		if zero(x, fx) {
			return fy
		}
		if zero(y, fy) {
			return fx
		}
	case "^", "==", "!=":
		if fx > 0 && fx == fy {
			return 0
		}
	}
	in.needs(tx, fx)
	in.needs(ty, fy)
	return vfOp
}

// flow returns the axiom.Flow of the path just run.
func (in *interp) flow() *axiom.Flow {
	f := &axiom.Flow{Copy: make([]int32, len(in.events)), Need: in.need, Fixed: in.fixed}
	for i, e := range in.events {
		f.Copy[i] = axiom.FlowConst
		if e.kind != evW {
			continue
		}
		switch {
		case e.vf > 0:
			f.Copy[i] = int32(e.vf.read())
			f.Any = true
		case e.vf == vfOp:
			f.Copy[i] = axiom.FlowOp
			if f.In == nil {
				f.In = map[int][]int{}
			}
			f.In[i] = e.data
			f.Any = true
		}
	}
	if in.varSeen {
		f.Var = make([]int32, len(in.events))
		copy(f.Var, in.varMax)
	}
	for k, r := range in.regs {
		if r.f > 0 {
			if f.Regs == nil {
				f.Regs = map[string]int{}
			}
			f.Regs[k] = r.f.read()
		}
	}
	return f
}

// expr evaluates e and returns its value and the reads it depends on;
// in.nd is then its vflow.
func (in *interp) expr(e litmus.Expr) (Val, taint) {
	v, t, f := in.expr1(e)
	in.nd = f
	return v, t
}

func (in *interp) expr1(e litmus.Expr) (Val, taint, vflow) {
	if in.stopped() {
		return Val{}, nil, 0
	}
	switch e := e.(type) {
	case *litmus.IntLit:
		return intVal(e.Value), nil, 0
	case *litmus.ParenExpr:
		return in.expr1(e.X)
	case *litmus.CastExpr:
		// Casts change no value: herd's values are integers and
		// location addresses.
		return in.expr1(e.X)
	case *litmus.Ident:
		if r, ok := in.regs[e.Name]; ok {
			in.regRead(r.f)
			return r.v, r.t, r.f
		}
		if loc, ok := in.th.params[e.Name]; ok {
			in.regRead(0)
			return addrVal(loc), nil, 0
		}
		if loc, ok := in.p.index[e.Name]; ok {
			return addrVal(loc), nil, 0
		}
		switch e.Name {
		case "NULL", "false":
			return intVal(0), nil, 0
		case "true":
			return intVal(1), nil, 0
		}
		// herd reads an undeclared register as 0.
		in.regRead(0)
		return intVal(0), nil, 0
	case *litmus.UnaryExpr:
		switch e.Op {
		case "*":
			loc, at, ok := in.pointer(e.X)
			if !ok {
				return Val{}, nil, 0
			}
			v, i := in.read(loc, 0, at, e.Pos(), "plain read")
			if i < 0 {
				return Val{}, nil, 0
			}
			return v, taint{i}, copyOf(i)
		case "&":
			if id, ok := litmus.Unparen(e.X).(*litmus.Ident); ok {
				if loc, ok := in.p.index[id.Name]; ok {
					return addrVal(loc), nil, 0
				}
			}
			if u, ok := litmus.Unparen(e.X).(*litmus.UnaryExpr); ok && u.Op == "*" {
				return in.expr1(u.X)
			}
			in.fail(e.Pos(), "unsupported address-of")
			return Val{}, nil, 0
		}
		v, t, f := in.expr1(e.X)
		if f != 0 {
			in.needs(t, f)
			f = vfOp
		}
		if in.semVar(e.X) {
			in.newVar()
		}
		return in.unop(e.OpPos, e.Op, v), t, f
	case *litmus.BinaryExpr:
		// herd evaluates both operands of every operator, && and ||
		// included (CSem's Op), so both sides' events always occur,
		// in parallel: no event of one is po-before one of the other.
		start := len(in.events)
		x, tx, fx := in.expr1(e.X)
		mid := len(in.events)
		y, ty, fy := in.expr1(e.Y)
		for j := mid; j < len(in.events); j++ {
			for k := start; k < mid; k++ {
				in.events[j].par = append(in.events[j].par, k)
			}
		}
		f := in.opFlow(e.Op, x, tx, fx, y, ty, fy)
		if in.opAllocs(e.Op, e.X, e.Y) {
			in.newVar()
		}
		switch e.Op {
		case "&&", "||":
			if isTop(x) || isTop(y) {
				return top, tx.Merge(ty), f
			}
			if e.Op == "&&" {
				return boolVal(x.Truth() && y.Truth()), tx.Merge(ty), f
			}
			return boolVal(x.Truth() || y.Truth()), tx.Merge(ty), f
		}
		return in.binop(e.OpPos, e.Op, x, y), tx.Merge(ty), f
	case *litmus.CondExpr:
		c, tc := in.expr(e.Cond)
		fc := in.nd
		if in.condAllocs(e.Cond) {
			in.newVar()
		}
		c = in.branch(c, tc)
		var v Val
		var t taint
		var f vflow
		if c.Truth() {
			v, t, f = in.expr1(e.X)
			in.nvar += in.countExpr(e.Y)
		} else {
			in.nvar += in.countExpr(e.X)
			v, t, f = in.expr1(e.Y)
		}
		if fc != 0 {
			in.needs(t, f)
			f = vfOp
		}
		return v, tc.Merge(t), f
	case *litmus.CallExpr:
		v, t := in.call(e)
		return v, t, in.nd
	case *litmus.OffsetExpr:
		// ptr_add(x, n): the location n bytes past x in x's object;
		// the address depends on the reads both come from, so an
		// access through it has an address dependency on them.
		x, tx, fx := in.expr1(e.Ptr)
		n, tn, fn := in.expr1(e.Off)
		if in.stopped() {
			return Val{}, nil, 0
		}
		f := in.opFlow("+", x, tx, fx, n, tn, fn)
		if isTop(x) || isTop(n) {
			return top, tx.Merge(tn), f
		}
		return in.p.offset(x, n), tx.Merge(tn), f
	}
	in.fail(e.Pos(), "unsupported expression")
	return Val{}, nil, 0
}

func boolVal(b bool) Val {
	if b {
		return intVal(1)
	}
	return intVal(0)
}

func (in *interp) unop(pos litmus.Pos, op string, v Val) Val {
	if isTop(v) {
		return top
	}
	if v.IsAddr() && op != "!" {
		in.dead = true // as in binop
		return Val{}
	}
	switch op {
	case "-":
		return intVal(-v.N)
	case "!":
		return boolVal(!v.Truth())
	case "~":
		return intVal(^v.N)
	}
	in.fail(pos, "unsupported operator %s", op)
	return Val{}
}

func (in *interp) binop(pos litmus.Pos, op string, x, y Val) Val {
	if isTop(x) || isTop(y) {
		return top
	}
	switch op {
	case "==":
		return boolVal(x == y)
	case "!=":
		return boolVal(x != y)
	}
	if x.IsAddr() || y.IsAddr() {
		if op == "+" || op == "-" {
			if x.IsAddr() && !y.IsAddr() && y.N == 0 {
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
