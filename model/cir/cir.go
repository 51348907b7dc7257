// Package cir compiles the threads of a kernel C litmus test to a small
// list of operations on numbered register slots: calls of the kernel's
// primitives (which each back end expands from its model/kmap row), plain
// accesses, register arithmetic and branches. It follows model/op/compile_c.go
// construct for construct, so that the code a back end makes from it is
// the program the models explore: the same registers, the same evaluation
// order (every primitive call of an expression, left to right, before the
// expression's value), loops with the same shape.
//
// Two back ends read it: `litmus run`'s code generators
// (internal/harness), which assemble x86-64 and arm64 machine code, and
// model/kcomp, which writes AArch64, RISC-V and POWER litmus tests for the
// architecture models.
package cir

import (
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kmap"
)

// Opcode is what an operation does.
type Opcode uint8

// The operations.
const (
	Prim    Opcode = iota + 1 // Dst = Prim(Addr, Args...)
	Mov                       // Dst = X
	Unary                     // Dst = ALU X   ("-", "!", "~")
	Binary                    // Dst = X ALU Y
	BranchZ                   // if X == 0 goto Target
	Jump                      // goto Target (Back: a loop's back edge)
	Label                     // Label:
	// Spin ends the path: the thread spins forever in a loop checked as
	// an await of its exit condition (litmus.Awaits), whose one
	// iteration failed. Only CompileAwaits makes it.
	Spin
)

// OpdKind is what an operand is.
type OpdKind uint8

// The operand kinds.
const (
	Slot  OpdKind = iota + 1 // a register slot
	Const                    // an integer
	Addr                     // the address of an element of a shared variable
)

// Operand is a value operand.
type Operand struct {
	Kind OpdKind
	Slot int   // Slot
	Val  int64 // Const
	Var  int   // Addr: the variable, as Env.Location numbers it
	Elem int   // Addr: the element (0 for a scalar)
}

func (o Operand) isConst(v int64) bool { return o.Kind == Const && o.Val == v }

// Instr is one operation.
type Instr struct {
	Op   Opcode
	Prim string // Prim: the model/kmap row's name
	Dst  int    // the destination slot, or -1
	Addr Operand
	Args []Operand // {v}, {w} in the primitive table's order
	// Nr and Mask are a bitop's bit number ({nr}) and 1<<nr ({mask}).
	Nr, Mask *Operand
	X, Y     Operand
	ALU      string
	Target   int
	Label    int
	Back     bool // Jump: a loop's back edge
	Pos      litmus.Pos
	// Text is the C construct the operation comes from, for
	// explanations: the primitive call, or the statement of a plain
	// access ("*x = 1").
	Text string
	// Ptr is, for a memory access through a pointer, the pointer
	// expression (p in *p, READ_ONCE(*p)): the place a fault report
	// names, as the LKMM's does. Nil for an access by name.
	Ptr litmus.Expr
}

// Thread is a compiled C thread.
type Thread struct {
	Code   []Instr
	NSlots int            // register slots used (named registers first)
	Regs   map[string]int // named register -> slot
	Names  []string       // named register slot -> name
	Loops  bool           // the thread has a C loop
	Labels int            // labels are numbered 1..Labels
}

// Env is what the front end needs to know of the test around a thread.
type Env interface {
	// Shared reports whether name is a shared variable of the test.
	Shared(name string) bool
	// Location resolves a location name ("x", "t[1]") to its variable
	// and element.
	Location(name string) (v, elem int, ok bool)
	// Primitive returns the row of a primitive: the test's own table
	// (litmus.Test.Primitive) or the built-in one.
	Primitive(name string) (*litmus.Primitive, bool)
	// Errorf and Unsupported make positioned errors: a mistake in the
	// test, and a construct the back end cannot compile.
	Errorf(pos litmus.Pos, format string, args ...any) error
	Unsupported(pos litmus.Pos, format string, args ...any) error
}

// ObjectEnv is an Env whose back end lays out the test's objects
// (litmus.Test.Objects), so that ptr_add, compiled to an add on the
// pointer's register, reaches the object's other cells.
type ObjectEnv interface {
	Env
	Objects() bool
}

// OffsetScaler is an ObjectEnv whose back end lays each object's cells
// out at OffsetScale() times their byte offsets (a power of two; litmus
// run gives every C location a word of its own): a ptr_add's offset is
// scaled alike, so that it reaches the same cell.
type OffsetScaler interface {
	ObjectEnv
	OffsetScale() int64
}

// cfront is the state of compiling one C thread.
type cfront struct {
	env    Env
	th     *Thread
	params map[string]bool
	locals map[string]bool
	nnamed int
	ntemp  int // temporaries in use
	loops  []*cLoop
	awaits map[litmus.Stmt]*litmus.Await
	err    error
}

type cLoop struct{ brk, cont int }

// Compile compiles thread pr. The error is the first one found, as env
// makes it.
func Compile(env Env, pr *litmus.Proc) (*Thread, error) {
	return CompileAwaits(env, pr, nil)
}

// CompileAwaits is Compile with the loops of awaits (litmus.Awaits)
// compiled as one iteration whose failure ends the path (Spin), for the
// axiomatic models; real hardware runs the loops (Compile).
func CompileAwaits(env Env, pr *litmus.Proc, awaits map[litmus.Stmt]*litmus.Await) (*Thread, error) {
	f := &cfront{env: env, th: &Thread{Regs: map[string]int{}}, params: map[string]bool{}, locals: map[string]bool{}, awaits: awaits}
	for _, prm := range pr.Params {
		f.params[prm.Name.Name] = true
	}
	if pr.Body != nil {
		f.scanRegs(pr.Body)
		f.nnamed = len(f.th.Names)
		f.stmt(pr.Body)
	}
	f.th.NSlots = max(f.th.NSlots, len(f.th.Names))
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
	return !f.env.Shared(name)
}

func (f *cfront) namedSlot(name string) int {
	if s, ok := f.th.Regs[name]; ok {
		return s
	}
	s := len(f.th.Names)
	f.th.Regs[name] = s
	f.th.Names = append(f.th.Names, name)
	return s
}

// scanRegs gives every register of the body a slot, in order of first
// appearance, before any temporary.
func (f *cfront) scanRegs(s litmus.Stmt) {
	litmus.Inspect(s, func(n litmus.Node) bool {
		switch n := n.(type) {
		case *litmus.DeclStmt:
			f.locals[n.Name.Name] = true
			f.namedSlot(n.Name.Name)
		case *litmus.Ident:
			if f.isReg(n.Name) {
				f.namedSlot(n.Name)
			}
		}
		return true
	})
}

func (f *cfront) emit(in Instr) { f.th.Code = append(f.th.Code, in) }

func (f *cfront) newLabel() int {
	f.th.Labels++
	return f.th.Labels
}

func (f *cfront) label(l int) { f.emit(Instr{Op: Label, Label: l, Dst: -1}) }

// temp returns a fresh temporary slot; release frees the temporaries
// allocated since mark.
func (f *cfront) temp() int {
	s := f.nnamed + f.ntemp
	f.ntemp++
	f.th.NSlots = max(f.th.NSlots, s+1)
	return s
}

func (f *cfront) mark() int        { return f.ntemp }
func (f *cfront) release(mark int) { f.ntemp = mark }

func slotOpd(s int) Operand    { return Operand{Kind: Slot, Slot: s} }
func constOpd(v int64) Operand { return Operand{Kind: Const, Val: v} }

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
			f.assignTo(f.th.Regs[s.Name.Name], s.Init)
		}
	case *litmus.AssignStmt:
		f.assign(s)
	case *litmus.ExprStmt:
		if call, ok := litmus.Unparen(s.X).(*litmus.CallExpr); ok {
			f.call(call, -1)
			return
		}
		f.value(s.X)
	case *litmus.IfStmt:
		c := f.value(s.Cond)
		els := f.newLabel()
		f.emit(Instr{Op: BranchZ, X: c, Target: els, Dst: -1, Pos: s.Pos(), Text: "if (" + litmus.ExprString(s.Cond) + ")"})
		f.release(m)
		f.stmt(s.Then)
		if s.Else == nil {
			f.label(els)
			return
		}
		end := f.newLabel()
		f.emit(Instr{Op: Jump, Target: end, Dst: -1, Pos: s.Pos()})
		f.label(els)
		f.stmt(s.Else)
		f.label(end)
	case *litmus.WhileStmt:
		if aw := f.awaits[s]; aw != nil {
			f.await(nil, aw)
			return
		}
		f.loop(nil, s.Cond, nil, s.Body, false, s.Pos())
	case *litmus.DoWhileStmt:
		if aw := f.awaits[s]; aw != nil {
			f.await(nil, aw)
			return
		}
		f.loop(nil, s.Cond, nil, s.Body, true, s.Pos())
	case *litmus.ForStmt:
		if aw := f.awaits[s]; aw != nil {
			f.await(s.Init, aw)
			return
		}
		f.loop(s.Init, s.Cond, s.Post, s.Body, false, s.Pos())
	case *litmus.BranchStmt:
		if len(f.loops) == 0 {
			f.fail(f.env.Errorf(s.Pos(), "%s outside a loop", s.Tok))
			return
		}
		l := f.loops[len(f.loops)-1]
		t := l.brk
		if s.Tok == "continue" {
			t = l.cont
		}
		f.emit(Instr{Op: Jump, Target: t, Dst: -1, Pos: s.Pos()})
	default:
		f.fail(f.env.Unsupported(s.Pos(), "this statement"))
	}
}

// loop compiles while, do-while and for as model/op/compile_c.go does:
//
//	init; top: if !cond goto end; body; cont: post; goto top; end:
//
// with the condition at the bottom for do-while, and the back edge always
// an unconditional jump, where the run loop counts iterations.
func (f *cfront) loop(init litmus.Stmt, cond litmus.Expr, post, body litmus.Stmt, bottom bool, pos litmus.Pos) {
	f.th.Loops = true
	if init != nil {
		f.stmt(init)
	}
	top, cont, end := f.newLabel(), f.newLabel(), f.newLabel()
	f.loops = append(f.loops, &cLoop{brk: end, cont: cont})
	f.label(top)
	if cond != nil && !bottom {
		m := f.mark()
		c := f.value(cond)
		f.emit(Instr{Op: BranchZ, X: c, Target: end, Dst: -1, Pos: cond.Pos()})
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
		f.emit(Instr{Op: BranchZ, X: c, Target: end, Dst: -1, Pos: cond.Pos()})
		f.release(m)
	}
	f.emit(Instr{Op: Jump, Target: top, Back: true, Dst: -1, Pos: pos})
	f.label(end)
	f.loops = f.loops[:len(f.loops)-1]
}

// await compiles a loop checked as an await: init; if its entry test
// fails, the exit; the iteration's statements before its exit test; if the test says the iteration failed,
// Spin; as the LKMM engine runs it (model/lkmm/await.go).
func (f *cfront) await(init litmus.Stmt, aw *litmus.Await) {
	if init != nil {
		f.stmt(init)
	}
	exit := f.newLabel()
	if aw.Enter != nil {
		m := f.mark()
		c := f.value(aw.Enter)
		f.emit(Instr{Op: BranchZ, X: c, Target: exit, Dst: -1, Pos: aw.Enter.Pos(), Text: "while (" + litmus.ExprString(aw.Enter) + ")"})
		f.release(m)
	}
	for _, s := range aw.Pre {
		f.stmt(s)
	}
	m := f.mark()
	c := f.value(aw.Cont)
	f.emit(Instr{Op: BranchZ, X: c, Target: exit, Dst: -1, Pos: aw.Cont.Pos(), Text: "await " + litmus.ExprString(aw.Cont)})
	f.release(m)
	f.emit(Instr{Op: Spin, Dst: -1, Pos: aw.Loop.Pos()})
	f.label(exit)
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
	switch lhs := litmus.Unparen(s.LHS).(type) {
	case *litmus.Ident:
		if !f.isReg(lhs.Name) {
			f.fail(f.env.Errorf(lhs.Pos(), "cannot assign to %s, a pointer to a shared location (write *%s)", lhs.Name, lhs.Name))
			return
		}
		f.assignTo(f.th.Regs[lhs.Name], rhs)
	case *litmus.UnaryExpr:
		if lhs.Op != "*" {
			f.fail(f.env.Errorf(lhs.Pos(), "cannot assign to %s", litmus.ExprString(lhs)))
			return
		}
		addr := f.value(lhs.X)
		v := f.value(rhs)
		f.emit(Instr{Op: Prim, Prim: kmap.PlainStore, Dst: -1, Addr: addr, Args: []Operand{v}, Pos: s.Pos(), Text: assignText(s), Ptr: lhs.X})
	default:
		f.fail(f.env.Unsupported(s.LHS.Pos(), "assignment to %s", litmus.ExprString(s.LHS)))
	}
}

// assignTo compiles "register slot = e", loading straight into the slot
// when e is a single primitive call or dereference.
func (f *cfront) assignTo(slot int, e litmus.Expr) {
	if call, ok := litmus.Unparen(e).(*litmus.CallExpr); ok {
		f.call(call, slot)
		return
	}
	if u, ok := litmus.Unparen(e).(*litmus.UnaryExpr); ok && u.Op == "*" {
		f.emit(Instr{Op: Prim, Prim: kmap.PlainLoad, Dst: slot, Addr: f.value(u.X), Pos: e.Pos(), Text: litmus.ExprString(e), Ptr: u.X})
		return
	}
	v := f.value(e)
	f.emit(Instr{Op: Mov, Dst: slot, X: v, Pos: e.Pos()})
}

// value compiles an expression to an operand, emitting the primitive calls
// it contains into temporaries.
func (f *cfront) value(e litmus.Expr) Operand {
	switch e := e.(type) {
	case *litmus.IntLit:
		return constOpd(e.Value)
	case *litmus.Ident:
		if f.isReg(e.Name) {
			return slotOpd(f.namedSlot(e.Name))
		}
		v, i, ok := f.env.Location(e.Name)
		if !ok {
			f.fail(f.env.Errorf(e.Pos(), "unknown location %s", e.Name))
			return constOpd(0)
		}
		// A parameter or shared location name stands for its address.
		return Operand{Kind: Addr, Var: v, Elem: i}
	case *litmus.ParenExpr:
		return f.value(e.X)
	case *litmus.CastExpr:
		return f.value(e.X)
	case *litmus.UnaryExpr:
		switch e.Op {
		case "&":
			if id, ok := litmus.Unparen(e.X).(*litmus.Ident); ok {
				if v, i, ok := f.env.Location(id.Name); ok {
					return Operand{Kind: Addr, Var: v, Elem: i}
				}
			}
			if u, ok := litmus.Unparen(e.X).(*litmus.UnaryExpr); ok && u.Op == "*" {
				return f.value(u.X)
			}
			f.fail(f.env.Errorf(e.Pos(), "cannot take the address of %s", litmus.ExprString(e.X)))
			return constOpd(0)
		case "*":
			m := f.mark()
			a := f.value(e.X)
			f.release(m)
			t := f.temp() // may be a's temporarY: the load reads it first
			f.emit(Instr{Op: Prim, Prim: kmap.PlainLoad, Dst: t, Addr: a, Pos: e.Pos(), Text: litmus.ExprString(e), Ptr: e.X})
			return slotOpd(t)
		case "+":
			return f.value(e.X)
		case "-", "!", "~":
			m := f.mark()
			x := f.value(e.X)
			f.release(m)
			t := f.temp()
			f.emit(Instr{Op: Unary, Dst: t, ALU: e.Op, X: x, Pos: e.Pos()})
			return slotOpd(t)
		}
	case *litmus.BinaryExpr:
		// The result may reuse an operand's temporarY: every back end
		// reads an operation's operands before it writes the result.
		m := f.mark()
		x := f.value(e.X)
		y := f.value(e.Y)
		f.release(m)
		switch e.Op {
		case "+", "-", "*", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||":
		default:
			f.fail(f.env.Unsupported(e.OpPos, "operator %s", e.Op))
			return constOpd(0)
		}
		t := f.temp()
		f.emit(Instr{Op: Binary, Dst: t, ALU: e.Op, X: x, Y: y, Pos: e.Pos()})
		return slotOpd(t)
	case *litmus.CondExpr:
		c := f.value(e.Cond)
		x := f.value(e.X)
		y := f.value(e.Y)
		t := f.temp()
		other := f.newLabel()
		f.emit(Instr{Op: Mov, Dst: t, X: y, Pos: e.Pos()})
		f.emit(Instr{Op: BranchZ, X: c, Target: other, Dst: -1, Pos: e.Pos()})
		f.emit(Instr{Op: Mov, Dst: t, X: x, Pos: e.Pos()})
		f.label(other)
		return slotOpd(t)
	case *litmus.CallExpr:
		return slotOpd(f.call(e, newTemp))
	case *litmus.OffsetExpr:
		// ptr_add(p, n): the address is computed from p's register by
		// an add, so an access through it depends on the read p came
		// from (a real address dependency). Only a back end whose
		// test declares the objects can give it a meaning.
		if oe, ok := f.env.(ObjectEnv); !ok || !oe.Objects() {
			f.fail(f.env.Unsupported(e.Pos(), "%s (an address computed at run time within an object) for this back end", litmus.ExprString(e)))
			return constOpd(0)
		}
		m := f.mark()
		x := f.value(e.Ptr)
		y := f.offset(e.Off)
		if sc, ok := f.env.(OffsetScaler); ok && sc.OffsetScale() > 1 {
			y = f.scale(y, sc.OffsetScale(), e.Pos())
		}
		f.release(m)
		if y.isConst(0) {
			return x
		}
		t := f.temp()
		f.emit(Instr{Op: Binary, Dst: t, ALU: "+", X: x, Y: y, Pos: e.Pos()})
		return slotOpd(t)
	}
	f.fail(f.env.Unsupported(e.Pos(), "expression %s", litmus.ExprString(e)))
	return constOpd(0)
}

// scale returns offset y times k, a power of two (OffsetScaler).
func (f *cfront) scale(y Operand, k int64, pos litmus.Pos) Operand {
	if y.Kind == Const {
		return constOpd(y.Val * k)
	}
	sh := int64(0)
	for v := k; v > 1; v >>= 1 {
		sh++
	}
	t := f.temp()
	f.emit(Instr{Op: Binary, Dst: t, ALU: "<<", X: y, Y: constOpd(sh), Pos: pos})
	return slotOpd(t)
}

// offset compiles the byte offset of a ptr_add. An index scaled by a
// power of two (an element size) is shifted rather than multiplied, as a
// compiler does, so that RV64I, which has no mul, compiles it too.
func (f *cfront) offset(e litmus.Expr) Operand {
	b, ok := litmus.Unparen(e).(*litmus.BinaryExpr)
	if ok && (b.Op == "+" || b.Op == "-") {
		m := f.mark()
		x := f.offset(b.X)
		y := f.offset(b.Y)
		f.release(m)
		t := f.temp()
		f.emit(Instr{Op: Binary, Dst: t, ALU: b.Op, X: x, Y: y, Pos: b.OpPos})
		return slotOpd(t)
	}
	if !ok || b.Op != "*" {
		return f.value(e)
	}
	k, ok := litmus.Unparen(b.Y).(*litmus.IntLit)
	if !ok || k.Value <= 0 || k.Value&(k.Value-1) != 0 {
		return f.value(e)
	}
	sh := int64(0)
	for v := k.Value; v > 1; v >>= 1 {
		sh++
	}
	m := f.mark()
	x := f.value(b.X)
	f.release(m)
	if sh == 0 {
		return x
	}
	t := f.temp()
	f.emit(Instr{Op: Binary, Dst: t, ALU: "<<", X: x, Y: constOpd(sh), Pos: b.OpPos})
	return slotOpd(t)
}

// lvalAddr compiles an ArgLval argument (*p, or a shared location's name)
// to its address.
func (f *cfront) lvalAddr(e litmus.Expr) Operand {
	switch x := litmus.Unparen(e).(type) {
	case *litmus.UnaryExpr:
		if x.Op == "*" {
			return f.value(x.X)
		}
	case *litmus.Ident:
		if !f.isReg(x.Name) {
			return f.value(x)
		}
	}
	f.fail(f.env.Errorf(e.Pos(), "expected *pointer, found %s", litmus.ExprString(e)))
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
	prim, ok := f.env.Primitive(call.Fun.Name)
	if !ok {
		f.fail(f.env.Errorf(call.Pos(), "unknown primitive %s", call.Fun.Name))
		return 0
	}
	if len(call.Args) != len(prim.Args) {
		f.fail(f.env.Errorf(call.Pos(), "%s takes %d arguments, found %d", prim.Name, len(prim.Args), len(call.Args)))
		return 0
	}
	if dst != -1 && prim.Ret == litmus.RetNone {
		f.fail(f.env.Errorf(call.Pos(), "%s returns no value", prim.Name))
		return 0
	}
	in := Instr{Op: Prim, Prim: prim.Name, Dst: dst, Pos: call.Pos(), Text: litmus.ExprString(call)}
	for i, a := range prim.Args {
		arg := call.Args[i]
		switch a {
		case litmus.ArgPtr:
			o := f.value(arg)
			if i == prim.Loc {
				in.Addr, in.Ptr = o, arg
			} else {
				in.Args = append(in.Args, o)
			}
		case litmus.ArgLval:
			o := f.lvalAddr(arg)
			if i == prim.Loc {
				in.Addr = o
				if u, ok := litmus.Unparen(arg).(*litmus.UnaryExpr); ok && u.Op == "*" {
					in.Ptr = u.X
				}
			} else {
				in.Args = append(in.Args, o)
			}
		case litmus.ArgVal:
			in.Args = append(in.Args, f.value(arg))
		case litmus.ArgBit:
			nr := f.value(arg)
			mask := constOpd(0)
			if nr.Kind == Const {
				if nr.Val < 0 || nr.Val > 63 {
					f.fail(f.env.Unsupported(arg.Pos(), "bit number %d (one 64-bit word per location)", nr.Val))
					return 0
				}
				mask = constOpd(1 << nr.Val)
			} else {
				t := f.temp()
				f.emit(Instr{Op: Binary, Dst: t, ALU: "<<", X: constOpd(1), Y: nr, Pos: arg.Pos()})
				mask = slotOpd(t)
			}
			in.Nr, in.Mask = &nr, &mask
		}
	}
	for _, k := range prim.Imm {
		in.Args = append(in.Args, constOpd(k))
	}
	if prim.Name == "rcu_assign_pointer" && len(in.Args) == 1 && in.Args[0].isConst(0) {
		in.Prim = kmap.NullAssign
	}
	// A value that is an address, or a constant wider than 32 bits, goes
	// to a register first: the rows take registers or small immediates.
	for i, a := range in.Args {
		if a.Kind == Addr || a.Kind == Const && (a.Val < -1<<31 || a.Val >= 1<<31) {
			t := f.temp()
			f.emit(Instr{Op: Mov, Dst: t, X: a, Pos: call.Pos()})
			in.Args[i] = slotOpd(t)
		}
	}
	if dst == newTemp {
		f.release(m)
		dst = f.temp()
	}
	in.Dst = dst
	f.emit(in)
	return dst
}

// assignText prints an assignment as written: "*x = r0 + 1", "*y += 2".
func assignText(s *litmus.AssignStmt) string {
	t := litmus.ExprString(s.LHS) + " " + s.Op
	if s.RHS != nil {
		t += " " + litmus.ExprString(s.RHS)
	}
	return t
}
