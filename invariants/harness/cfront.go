package harness

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kmap"
)

// This file compiles a C litmus thread to cir, a small list of operations
// on numbered register slots: primitive calls (which each back end expands
// from its model/kmap rows), register arithmetic and branches. It follows
// model/op/compile_c.go construct for construct, so that the code that runs is
// the program the model explores: the same registers, the same evaluation
// order (every primitive call of an expression, left to right, before the
// expression's value), loops with the same shape.

type cOpcode uint8

const (
	cPrim    cOpcode = iota + 1 // dst = prim(addr, args...)
	cMov                        // dst = x
	cUnary                      // dst = alu x   ("-", "!", "~")
	cBinary                     // dst = x alu y
	cBranchZ                    // if x == 0 goto target
	cJump                       // goto target (back: a loop's back edge)
	cLabel                      // label
)

type cOpdKind uint8

const (
	cSlot  cOpdKind = iota + 1 // a register slot
	cConst                     // an integer
	cAddr                      // the address of a variable's element in this instance
)

// cOperand is a value operand.
type cOperand struct {
	kind cOpdKind
	slot int
	val  int64
	v    *variable
	elem int
}

func (o cOperand) isConst(v int64) bool { return o.kind == cConst && o.val == v }

// cInstr is one cir operation.
type cInstr struct {
	op     cOpcode
	prim   string // kmap row name
	dst    int    // slot, or -1
	addr   cOperand
	args   []cOperand // {v}, {w} in the primitive table's order
	nr     *cOperand  // bitops: the bit number ({nr}); mask is 1<<nr ({mask})
	mask   *cOperand
	x, y   cOperand
	alu    string
	target int
	label  int
	back   bool // cJump: a loop's back edge (counts toward --loop-bound)
	pos    litmus.Pos
	text   string
}

// cThread is a compiled C thread.
type cThread struct {
	code   []cInstr
	nslots int            // register slots used (named registers first)
	regs   map[string]int // named register -> slot
	names  []string       // named register slot -> name
	loops  bool
	labels int
}

// cfront is the state of compiling one C thread.
type cfront struct {
	p      *program
	th     *cThread
	params map[string]bool
	locals map[string]bool
	nnamed int
	ntemp  int // temporaries in use
	loops  []*cLoop
	err    error
}

type cLoop struct{ brk, cont int }

// compileC compiles thread pr.
func (p *program) compileC(pr *litmus.Proc) (*cThread, error) {
	f := &cfront{p: p, th: &cThread{regs: map[string]int{}}, params: map[string]bool{}, locals: map[string]bool{}}
	for _, prm := range pr.Params {
		f.params[prm.Name.Name] = true
	}
	if pr.Body != nil {
		f.scanRegs(pr.Body)
		f.nnamed = len(f.th.names)
		f.stmt(pr.Body)
	}
	f.th.nslots = max(f.th.nslots, len(f.th.names))
	return f.th, f.err
}

func (f *cfront) fail(err error) {
	if f.err == nil {
		f.err = err
	}
}

// isReg reports whether name is a register of this thread, as
// model/op/compile_c.go decides: declared, or neither a parameter nor a
// shared location.
func (f *cfront) isReg(name string) bool {
	if f.locals[name] {
		return true
	}
	if f.params[name] {
		return false
	}
	_, shared := f.p.byName[name]
	return !shared
}

func (f *cfront) namedSlot(name string) int {
	if s, ok := f.th.regs[name]; ok {
		return s
	}
	s := len(f.th.names)
	f.th.regs[name] = s
	f.th.names = append(f.th.names, name)
	return s
}

// scanRegs gives every register of the body a slot, in order of first
// appearance, before any temporary.
func (f *cfront) scanRegs(s litmus.Stmt) {
	var expr func(e litmus.Expr)
	expr = func(e litmus.Expr) {
		switch e := e.(type) {
		case *litmus.Ident:
			if f.isReg(e.Name) {
				f.namedSlot(e.Name)
			}
		case *litmus.UnaryExpr:
			expr(e.X)
		case *litmus.BinaryExpr:
			expr(e.X)
			expr(e.Y)
		case *litmus.CondExpr:
			expr(e.Cond)
			expr(e.X)
			expr(e.Y)
		case *litmus.CallExpr:
			for _, a := range e.Args {
				expr(a)
			}
		case *litmus.ParenExpr:
			expr(e.X)
		case *litmus.IndexExpr:
			expr(e.X)
			expr(e.Index)
		case *litmus.CastExpr:
			expr(e.X)
		}
	}
	var stmt func(s litmus.Stmt)
	stmt = func(s litmus.Stmt) {
		switch s := s.(type) {
		case *litmus.BlockStmt:
			for _, x := range s.List {
				stmt(x)
			}
		case *litmus.DeclStmt:
			f.locals[s.Name.Name] = true
			f.namedSlot(s.Name.Name)
			if s.Init != nil {
				expr(s.Init)
			}
		case *litmus.AssignStmt:
			expr(s.LHS)
			if s.RHS != nil {
				expr(s.RHS)
			}
		case *litmus.ExprStmt:
			expr(s.X)
		case *litmus.IfStmt:
			expr(s.Cond)
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *litmus.WhileStmt:
			expr(s.Cond)
			stmt(s.Body)
		case *litmus.DoWhileStmt:
			stmt(s.Body)
			expr(s.Cond)
		case *litmus.ForStmt:
			if s.Init != nil {
				stmt(s.Init)
			}
			if s.Cond != nil {
				expr(s.Cond)
			}
			if s.Post != nil {
				stmt(s.Post)
			}
			stmt(s.Body)
		}
	}
	stmt(s)
}

func (f *cfront) emit(in cInstr) { f.th.code = append(f.th.code, in) }

func (f *cfront) newLabel() int {
	f.th.labels++
	return f.th.labels
}

func (f *cfront) label(l int) { f.emit(cInstr{op: cLabel, label: l, dst: -1}) }

// temp returns a fresh temporary slot; release frees the temporaries
// allocated since mark.
func (f *cfront) temp() int {
	s := f.nnamed + f.ntemp
	f.ntemp++
	f.th.nslots = max(f.th.nslots, s+1)
	return s
}

func (f *cfront) mark() int        { return f.ntemp }
func (f *cfront) release(mark int) { f.ntemp = mark }

func slotOpd(s int) cOperand    { return cOperand{kind: cSlot, slot: s} }
func constOpd(v int64) cOperand { return cOperand{kind: cConst, val: v} }

// stmt compiles one statement.
func (f *cfront) stmt(s litmus.Stmt) {
	m := f.mark()
	defer f.release(m)
	switch s := s.(type) {
	case *litmus.BlockStmt:
		for _, x := range s.List {
			f.stmt(x)
		}
	case *litmus.EmptyStmt:
	case *litmus.DeclStmt:
		if s.Init != nil {
			f.assignTo(f.th.regs[s.Name.Name], s.Init)
		}
	case *litmus.AssignStmt:
		f.assign(s)
	case *litmus.ExprStmt:
		if call, ok := unparen(s.X).(*litmus.CallExpr); ok {
			f.call(call, -1)
			return
		}
		f.value(s.X)
	case *litmus.IfStmt:
		c := f.value(s.Cond)
		els := f.newLabel()
		f.emit(cInstr{op: cBranchZ, x: c, target: els, dst: -1, pos: s.Pos()})
		f.release(m)
		f.stmt(s.Then)
		if s.Else == nil {
			f.label(els)
			return
		}
		end := f.newLabel()
		f.emit(cInstr{op: cJump, target: end, dst: -1, pos: s.Pos()})
		f.label(els)
		f.stmt(s.Else)
		f.label(end)
	case *litmus.WhileStmt:
		f.loop(nil, s.Cond, nil, s.Body, false, s.Pos())
	case *litmus.DoWhileStmt:
		f.loop(nil, s.Cond, nil, s.Body, true, s.Pos())
	case *litmus.ForStmt:
		f.loop(s.Init, s.Cond, s.Post, s.Body, false, s.Pos())
	case *litmus.BranchStmt:
		if len(f.loops) == 0 {
			f.fail(f.p.errorf(s.Pos(), "%s outside a loop", s.Tok))
			return
		}
		l := f.loops[len(f.loops)-1]
		t := l.brk
		if s.Tok == "continue" {
			t = l.cont
		}
		f.emit(cInstr{op: cJump, target: t, dst: -1, pos: s.Pos()})
	default:
		f.fail(f.p.unsupported(s.Pos(), "this statement"))
	}
}

// loop compiles while, do-while and for as model/op/compile_c.go does:
//
//	init; top: if !cond goto end; body; cont: post; goto top; end:
//
// with the condition at the bottom for do-while, and the back edge always
// an unconditional jump, where the run loop counts iterations.
func (f *cfront) loop(init litmus.Stmt, cond litmus.Expr, post, body litmus.Stmt, bottom bool, pos litmus.Pos) {
	f.th.loops = true
	if init != nil {
		f.stmt(init)
	}
	top, cont, end := f.newLabel(), f.newLabel(), f.newLabel()
	f.loops = append(f.loops, &cLoop{brk: end, cont: cont})
	f.label(top)
	if cond != nil && !bottom {
		m := f.mark()
		c := f.value(cond)
		f.emit(cInstr{op: cBranchZ, x: c, target: end, dst: -1, pos: cond.Pos()})
		f.release(m)
	}
	f.stmt(body)
	f.label(cont)
	if post != nil {
		f.stmt(post)
	}
	if bottom && cond != nil {
		m := f.mark()
		c := f.value(cond)
		f.emit(cInstr{op: cBranchZ, x: c, target: end, dst: -1, pos: cond.Pos()})
		f.release(m)
	}
	f.emit(cInstr{op: cJump, target: top, back: true, dst: -1, pos: pos})
	f.label(end)
	f.loops = f.loops[:len(f.loops)-1]
}

// assign compiles "LHS op RHS".
func (f *cfront) assign(s *litmus.AssignStmt) {
	rhs := s.RHS
	if s.Op != "=" {
		op := s.Op[:len(s.Op)-1]
		if s.Op == "++" || s.Op == "--" {
			op = s.Op[:1]
			rhs = &litmus.IntLit{ValuePos: s.OpPos, Value: 1, Text: "1"}
		}
		rhs = &litmus.BinaryExpr{X: s.LHS, OpPos: s.OpPos, Op: op, Y: rhs}
	}
	switch lhs := unparen(s.LHS).(type) {
	case *litmus.Ident:
		if !f.isReg(lhs.Name) {
			f.fail(f.p.errorf(lhs.Pos(), "cannot assign to %s, a pointer to a shared location (write *%s)", lhs.Name, lhs.Name))
			return
		}
		f.assignTo(f.th.regs[lhs.Name], rhs)
	case *litmus.UnaryExpr:
		if lhs.Op != "*" {
			f.fail(f.p.errorf(lhs.Pos(), "cannot assign to %s", litmus.ExprString(lhs)))
			return
		}
		addr := f.value(lhs.X)
		v := f.value(rhs)
		f.emit(cInstr{op: cPrim, prim: kmap.PlainStore, dst: -1, addr: addr, args: []cOperand{v}, pos: s.Pos()})
	default:
		f.fail(f.p.unsupported(s.LHS.Pos(), "assignment to %s", litmus.ExprString(s.LHS)))
	}
}

// assignTo compiles "register slot = e", loading straight into the slot
// when e is a single primitive call or dereference.
func (f *cfront) assignTo(slot int, e litmus.Expr) {
	if call, ok := unparen(e).(*litmus.CallExpr); ok {
		f.call(call, slot)
		return
	}
	if u, ok := unparen(e).(*litmus.UnaryExpr); ok && u.Op == "*" {
		f.emit(cInstr{op: cPrim, prim: kmap.PlainLoad, dst: slot, addr: f.value(u.X), pos: e.Pos()})
		return
	}
	v := f.value(e)
	f.emit(cInstr{op: cMov, dst: slot, x: v, pos: e.Pos()})
}

// value compiles an expression to an operand, emitting the primitive calls
// it contains into temporaries.
func (f *cfront) value(e litmus.Expr) cOperand {
	switch e := e.(type) {
	case *litmus.IntLit:
		return constOpd(e.Value)
	case *litmus.Ident:
		if f.isReg(e.Name) {
			return slotOpd(f.namedSlot(e.Name))
		}
		v, i, _ := f.p.elemOf(e.Name)
		if v == nil {
			f.fail(f.p.errorf(e.Pos(), "unknown location %s", e.Name))
			return constOpd(0)
		}
		// A parameter or shared location name stands for its address.
		return cOperand{kind: cAddr, v: v, elem: i}
	case *litmus.ParenExpr:
		return f.value(e.X)
	case *litmus.CastExpr:
		return f.value(e.X)
	case *litmus.UnaryExpr:
		switch e.Op {
		case "&":
			if id, ok := unparen(e.X).(*litmus.Ident); ok {
				if v, i, ok := f.p.elemOf(id.Name); ok {
					return cOperand{kind: cAddr, v: v, elem: i}
				}
			}
			if u, ok := unparen(e.X).(*litmus.UnaryExpr); ok && u.Op == "*" {
				return f.value(u.X)
			}
			f.fail(f.p.errorf(e.Pos(), "cannot take the address of %s", litmus.ExprString(e.X)))
			return constOpd(0)
		case "*":
			m := f.mark()
			a := f.value(e.X)
			f.release(m)
			t := f.temp() // may be a's temporary: the load reads it first
			f.emit(cInstr{op: cPrim, prim: kmap.PlainLoad, dst: t, addr: a, pos: e.Pos()})
			return slotOpd(t)
		case "+":
			return f.value(e.X)
		case "-", "!", "~":
			m := f.mark()
			x := f.value(e.X)
			f.release(m)
			t := f.temp()
			f.emit(cInstr{op: cUnary, dst: t, alu: e.Op, x: x, pos: e.Pos()})
			return slotOpd(t)
		}
	case *litmus.BinaryExpr:
		// The result may reuse an operand's temporary: every back end
		// reads an operation's operands before it writes the result.
		m := f.mark()
		x := f.value(e.X)
		y := f.value(e.Y)
		f.release(m)
		switch e.Op {
		case "+", "-", "*", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||":
		default:
			f.fail(f.p.unsupported(e.OpPos, "operator %s", e.Op))
			return constOpd(0)
		}
		t := f.temp()
		f.emit(cInstr{op: cBinary, dst: t, alu: e.Op, x: x, y: y, pos: e.Pos()})
		return slotOpd(t)
	case *litmus.CondExpr:
		c := f.value(e.Cond)
		x := f.value(e.X)
		y := f.value(e.Y)
		t := f.temp()
		other := f.newLabel()
		f.emit(cInstr{op: cMov, dst: t, x: y, pos: e.Pos()})
		f.emit(cInstr{op: cBranchZ, x: c, target: other, dst: -1, pos: e.Pos()})
		f.emit(cInstr{op: cMov, dst: t, x: x, pos: e.Pos()})
		f.label(other)
		return slotOpd(t)
	case *litmus.CallExpr:
		return slotOpd(f.call(e, newTemp))
	}
	f.fail(f.p.unsupported(e.Pos(), "expression %s", litmus.ExprString(e)))
	return constOpd(0)
}

// lvalAddr compiles an ArgLval argument (*p, or a shared location's name)
// to its address.
func (f *cfront) lvalAddr(e litmus.Expr) cOperand {
	switch x := unparen(e).(type) {
	case *litmus.UnaryExpr:
		if x.Op == "*" {
			return f.value(x.X)
		}
	case *litmus.Ident:
		if !f.isReg(x.Name) {
			return f.value(x)
		}
	}
	f.fail(f.p.errorf(e.Pos(), "expected *pointer, found %s", litmus.ExprString(e)))
	return constOpd(0)
}

// newTemp asks call for a fresh temporary as the destination.
const newTemp = -2

// call compiles a primitive call into dst (or -1, or newTemp for a
// temporary allocated once the arguments are evaluated, which may reuse
// theirs: the rows read every operand before they write {ret}). It
// returns the destination slot.
func (f *cfront) call(call *litmus.CallExpr, dst int) int {
	m := f.mark()
	prim, ok := litmus.Lookup(call.Fun.Name)
	if !ok {
		f.fail(f.p.errorf(call.Pos(), "unknown primitive %s", call.Fun.Name))
		return 0
	}
	if len(call.Args) != len(prim.Args) {
		f.fail(f.p.errorf(call.Pos(), "%s takes %d arguments, found %d", prim.Name, len(prim.Args), len(call.Args)))
		return 0
	}
	if dst != -1 && prim.Ret == litmus.RetNone {
		f.fail(f.p.errorf(call.Pos(), "%s returns no value", prim.Name))
		return 0
	}
	in := cInstr{op: cPrim, prim: prim.Name, dst: dst, pos: call.Pos(), text: litmus.ExprString(call)}
	for i, a := range prim.Args {
		arg := call.Args[i]
		switch a {
		case litmus.ArgPtr:
			o := f.value(arg)
			if i == prim.Loc {
				in.addr = o
			} else {
				in.args = append(in.args, o)
			}
		case litmus.ArgLval:
			o := f.lvalAddr(arg)
			if i == prim.Loc {
				in.addr = o
			} else {
				in.args = append(in.args, o)
			}
		case litmus.ArgVal:
			in.args = append(in.args, f.value(arg))
		case litmus.ArgBit:
			nr := f.value(arg)
			mask := constOpd(0)
			if nr.kind == cConst {
				if nr.val < 0 || nr.val > 63 {
					f.fail(f.p.unsupported(arg.Pos(), "bit number %d (one 64-bit word per location)", nr.val))
					return 0
				}
				mask = constOpd(1 << nr.val)
			} else {
				t := f.temp()
				f.emit(cInstr{op: cBinary, dst: t, alu: "<<", x: constOpd(1), y: nr, pos: arg.Pos()})
				mask = slotOpd(t)
			}
			in.nr, in.mask = &nr, &mask
		}
	}
	for _, k := range prim.Imm {
		in.args = append(in.args, constOpd(k))
	}
	if prim.Name == "rcu_assign_pointer" && len(in.args) == 1 && in.args[0].isConst(0) {
		in.prim = kmap.NullAssign
	}
	// A value that is an address, or a constant wider than 32 bits, goes
	// to a register first: the rows take registers or small immediates.
	for i, a := range in.args {
		if a.kind == cAddr || a.kind == cConst && (a.val < -1<<31 || a.val >= 1<<31) {
			t := f.temp()
			f.emit(cInstr{op: cMov, dst: t, x: a, pos: call.Pos()})
			in.args[i] = slotOpd(t)
		}
	}
	if dst == newTemp {
		f.release(m)
		dst = f.temp()
	}
	in.dst = dst
	f.emit(in)
	return dst
}

// unparen strips parentheses and casts, as the model does.
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
