package op

import (
	"fmt"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/ctype"
)

// cproc is the state of compiling one C process.
type cproc struct {
	*compiler
	th     *thread
	params map[string]bool
	locals map[string]bool
	tmp    int
	loops  []*loopCtx
}

// loopCtx collects the break and continue jumps of one loop, patched when
// the loop's end and continue point are known.
type loopCtx struct {
	breaks, continues []int
}

func (c *compiler) compileCProc(pr *litmus.Proc) {
	cp := &cproc{compiler: c, th: c.thread(pr.ID), params: map[string]bool{}, locals: map[string]bool{}}
	for _, prm := range pr.Params {
		cp.params[prm.Name.Name] = true
	}
	if pr.Body != nil {
		cp.stmt(pr.Body)
	}
}

// emit appends an instruction and returns its index.
func (cp *cproc) emit(in instr) int { return emit(cp.th, in) }

func (cp *cproc) here() int { return len(cp.th.code) }

func (cp *cproc) newTemp() int {
	cp.tmp++
	return cp.reg(cp.th, fmt.Sprintf("%%t%d", cp.tmp))
}

// isReg reports whether name is a register of this process: declared, or
// not a parameter nor a shared location.
func (cp *cproc) isReg(name string) bool {
	if cp.locals[name] {
		return true
	}
	if cp.params[name] {
		return false
	}
	_, shared := cp.p.byName[name]
	return !shared
}

// stmt compiles one statement.
func (cp *cproc) stmt(s litmus.Stmt) {
	switch s := s.(type) {
	case *litmus.BlockStmt:
		for _, x := range s.List {
			cp.stmt(x)
		}
	case *litmus.EmptyStmt:
	case *litmus.DeclStmt:
		cp.locals[s.Name.Name] = true
		r := cp.reg(cp.th, s.Name.Name)
		if k := ctype.Of(s.Type); k.Narrow() {
			// The kernel's widths (model/ctype): int r = INT_MAX + 1
			// is INT_MIN under every model.
			for len(cp.th.conv) <= r {
				cp.th.conv = append(cp.th.conv, ctype.Kind{})
			}
			cp.th.conv[r] = k
		}
		if s.Init != nil {
			cp.assignTo(r, s.Init, s.Pos(), s.Name.Name+" = "+exprString(s.Init))
		}
	case *litmus.AssignStmt:
		cp.assign(s)
	case *litmus.ExprStmt:
		if call, ok := litmus.Unparen(s.X).(*litmus.CallExpr); ok {
			cp.call(call, -1)
			return
		}
		cp.value(s.X) // for its side effects
	case *litmus.IfStmt:
		cond := cp.value(s.Cond)
		br := cp.emit(instr{op: opBranch, dst: -1, a: &expr{kind: exUnary, op: "!", x: cond}, pos: s.Pos(), text: "if (" + exprString(s.Cond) + ")"})
		cp.stmt(s.Then)
		if s.Else == nil {
			cp.th.code[br].target = cp.here()
			return
		}
		j := cp.emit(instr{op: opJump, dst: -1, pos: s.Pos(), text: "else"})
		cp.th.code[br].target = cp.here()
		cp.stmt(s.Else)
		cp.th.code[j].target = cp.here()
	case *litmus.WhileStmt:
		cp.loop(nil, s.Cond, nil, s.Body, false, s.Pos())
	case *litmus.DoWhileStmt:
		cp.loop(nil, s.Cond, nil, s.Body, true, s.Pos())
	case *litmus.ForStmt:
		cp.loop(s.Init, s.Cond, s.Post, s.Body, false, s.Pos())
	case *litmus.BranchStmt:
		if len(cp.loops) == 0 {
			cp.errorf(s.Pos(), "%s outside a loop", s.Tok)
			return
		}
		l := cp.loops[len(cp.loops)-1]
		j := cp.emit(instr{op: opJump, dst: -1, pos: s.Pos(), text: s.Tok})
		if s.Tok == "break" {
			l.breaks = append(l.breaks, j)
		} else {
			l.continues = append(l.continues, j)
		}
	default:
		cp.errorf(s.Pos(), "unsupported statement")
	}
}

// loop compiles while, do-while and for loops:
//
//	init; top: if !cond goto end; body; cont: post; goto top; end:
//
// (do-while checks the condition at the bottom).
func (cp *cproc) loop(init litmus.Stmt, cond litmus.Expr, post litmus.Stmt, body litmus.Stmt, bottom bool, pos litmus.Pos) {
	if init != nil {
		cp.stmt(init)
	}
	l := &loopCtx{}
	cp.loops = append(cp.loops, l)
	top := cp.here()
	var exit []int
	if cond != nil && !bottom {
		cv := cp.value(cond)
		exit = append(exit, cp.emit(instr{op: opBranch, dst: -1, a: &expr{kind: exUnary, op: "!", x: cv}, pos: cond.Pos(), text: "while (" + exprString(cond) + ")"}))
	}
	cp.stmt(body)
	cont := cp.here()
	if post != nil {
		cp.stmt(post)
	}
	if bottom && cond != nil {
		cv := cp.value(cond)
		cp.emit(instr{op: opBranch, dst: -1, a: cv, target: top, pos: cond.Pos(), text: "while (" + exprString(cond) + ")"})
	} else {
		cp.emit(instr{op: opJump, dst: -1, target: top, pos: pos, text: "loop"})
	}
	end := cp.here()
	for _, j := range exit {
		cp.th.code[j].target = end
	}
	for _, j := range l.breaks {
		cp.th.code[j].target = end
	}
	for _, j := range l.continues {
		cp.th.code[j].target = cont
	}
	cp.loops = cp.loops[:len(cp.loops)-1]
}

// assign compiles "LHS op RHS".
func (cp *cproc) assign(s *litmus.AssignStmt) {
	text, rhs := s.Text(), s.Value()
	switch lhs := litmus.Unparen(s.LHS).(type) {
	case *litmus.Ident:
		if !cp.isReg(lhs.Name) {
			cp.errorf(lhs.Pos(), "cannot assign to %s, a pointer to a shared location (write *%s)", lhs.Name, lhs.Name)
			return
		}
		cp.assignTo(cp.reg(cp.th, lhs.Name), rhs, s.Pos(), text)
	case *litmus.UnaryExpr:
		if lhs.Op != "*" {
			cp.errorf(lhs.Pos(), "cannot assign to %s", exprString(lhs))
			return
		}
		addr := cp.value(lhs.X)
		v := cp.value(rhs)
		cp.emit(instr{op: opStore, dst: -1, addr: addr, a: v, pos: s.Pos(), text: text})
	default:
		cp.errorf(s.LHS.Pos(), "cannot assign to %s", exprString(s.LHS))
	}
}

// assignTo compiles "register r = e", loading straight into r when e is a
// single primitive call.
func (cp *cproc) assignTo(r int, e litmus.Expr, pos litmus.Pos, text string) {
	if call, ok := litmus.Unparen(e).(*litmus.CallExpr); ok {
		cp.call(call, r)
		return
	}
	if u, ok := litmus.Unparen(e).(*litmus.UnaryExpr); ok && u.Op == "*" {
		cp.emit(instr{op: opLoad, dst: r, addr: cp.value(u.X), pos: pos, text: text})
		return
	}
	v := cp.value(e)
	cp.emit(instr{op: opAssign, dst: r, a: v, pos: pos, text: text})
}

// value compiles an expression to a register expression, emitting the
// primitive calls it contains (in evaluation order) into temporaries.
func (cp *cproc) value(e litmus.Expr) *expr {
	switch e := e.(type) {
	case *litmus.IntLit:
		return &expr{kind: exConst, v: e.Value, pos: e.Pos()}
	case *litmus.Ident:
		if cp.isReg(e.Name) {
			return &expr{kind: exReg, reg: cp.reg(cp.th, e.Name), pos: e.Pos()}
		}
		// A parameter or shared location name stands for its address.
		return &expr{kind: exConst, v: cp.p.locs[cp.p.byName[e.Name]].addr, pos: e.Pos()}
	case *litmus.ParenExpr:
		return cp.value(e.X)
	case *litmus.CastExpr:
		return cp.value(e.X)
	case *litmus.UnaryExpr:
		switch e.Op {
		case "&":
			if id, ok := litmus.Unparen(e.X).(*litmus.Ident); ok {
				if i, ok := cp.p.byName[id.Name]; ok {
					return &expr{kind: exConst, v: cp.p.locs[i].addr, pos: e.Pos()}
				}
			}
			if u, ok := litmus.Unparen(e.X).(*litmus.UnaryExpr); ok && u.Op == "*" {
				return cp.value(u.X)
			}
			cp.errorf(e.Pos(), "cannot take the address of %s", exprString(e.X))
			return constExpr(0)
		case "*":
			r := cp.newTemp()
			cp.emit(instr{op: opLoad, dst: r, addr: cp.value(e.X), pos: e.Pos(), text: exprString(e)})
			return regExpr(r)
		case "+":
			return cp.value(e.X)
		}
		return &expr{kind: exUnary, op: e.Op, x: cp.value(e.X), pos: e.Pos()}
	case *litmus.BinaryExpr:
		return &expr{kind: exBinary, op: e.Op, x: cp.value(e.X), y: cp.value(e.Y), pos: e.Pos()}
	case *litmus.CondExpr:
		return &expr{kind: exCond, x: cp.value(e.Cond), y: cp.value(e.X), z: cp.value(e.Y), pos: e.Pos()}
	case *litmus.OffsetExpr:
		return &expr{kind: exOffset, x: cp.value(e.Ptr), y: cp.value(e.Off), pos: e.Pos(), objs: cp.objects()}
	case *litmus.CallExpr:
		r := cp.newTemp()
		cp.call(e, r)
		return regExpr(r)
	}
	cp.errorf(e.Pos(), "unsupported expression %s", exprString(e))
	return constExpr(0)
}

// lvalAddr compiles an ArgLval argument (*p, or x[i]) to its address.
func (cp *cproc) lvalAddr(e litmus.Expr) *expr {
	switch x := litmus.Unparen(e).(type) {
	case *litmus.UnaryExpr:
		if x.Op == "*" {
			return cp.value(x.X)
		}
	case *litmus.Ident:
		if !cp.isReg(x.Name) {
			// READ_ONCE(x) with x a shared location: herd reads x.
			return cp.value(x)
		}
	}
	cp.errorf(e.Pos(), "expected *pointer, found %s", exprString(e))
	return constExpr(0)
}

// call compiles a primitive call; dst is the register receiving its
// value, or -1.
func (cp *cproc) call(call *litmus.CallExpr, dst int) {
	text := exprString(call)
	if dst >= 0 && cp.th.regs[dst][0] != '%' {
		text = cp.th.regs[dst] + " = " + text
	}
	prim, ok := cp.t.Primitive(call.Fun.Name)
	if !ok {
		cp.errorf(call.Pos(), "unknown primitive %s", call.Fun.Name)
		return
	}
	if len(call.Args) != len(prim.Args) {
		cp.errorf(call.Pos(), "%s takes %d arguments, found %d", prim.Name, len(prim.Args), len(call.Args))
		return
	}
	if dst >= 0 && prim.Ret == litmus.RetNone && prim.Kind != litmus.KSRCULock {
		cp.errorf(call.Pos(), "%s returns no value", prim.Name)
		return
	}
	// Operands, in the table's argument order.
	var addr *expr
	var vals []*expr
	for i, a := range prim.Args {
		arg := call.Args[i]
		switch a {
		case litmus.ArgPtr:
			e := cp.value(arg)
			if i == prim.Loc {
				addr = e
			} else {
				vals = append(vals, e)
			}
		case litmus.ArgLval:
			e := cp.lvalAddr(arg)
			if i == prim.Loc {
				addr = e
			} else {
				vals = append(vals, e)
			}
		case litmus.ArgVal:
			vals = append(vals, cp.value(arg))
		case litmus.ArgBit:
			vals = append(vals, &expr{kind: exBinary, op: "<<", x: constExpr(1), y: cp.value(arg)})
		}
	}
	for _, k := range prim.Imm {
		vals = append(vals, constExpr(k))
	}
	in := instr{dst: dst, addr: addr, pos: call.Pos(), text: text}
	if len(vals) > 0 {
		in.a = vals[0]
	}
	if len(vals) > 1 {
		in.b = vals[1]
	}
	cp.lower(prim, in, call)
}

// lower emits the IR of one primitive: this is where the table's rows get
// their meaning in the operational models (docs/semantics.md).
func (cp *cproc) lower(prim *litmus.Primitive, in instr, call *litmus.CallExpr) {
	switch prim.Kind {
	case litmus.KLoad:
		in.op = opLoad
		if prim.Ret == litmus.RetBit {
			in.ret = retBit
			in.a = in.a.y // the bit number, not 1<<nr
		}
		cp.emit(in)
	case litmus.KStore:
		in.op = opStore
		in.rel = prim.Order&litmus.OrdRelease != 0
		cp.emit(in)
		if prim.Fence == "mb" { // smp_store_mb: the store, then a full fence
			cp.emit(instr{op: opFence, dst: -1, fence: fenceFull, pos: in.pos, text: in.text + " (its full fence)"})
		}
	case litmus.KRMW:
		if in.a == nil { // inc, dec
			in.a = constExpr(1)
		}
		in.rmw = prim.Op
		in.ret = rmwRet(prim.Ret)
		if prim.Ret == litmus.RetNone {
			in.dst = -1
		}
		if prim.NonAtomic {
			cp.nonAtomicRMW(in)
			return
		}
		in.op = opRMW
		cp.emit(in)
	case litmus.KFence:
		switch prim.Fence {
		case "mb":
			in.op, in.fence = opFence, fenceFull
		case "wmb":
			in.op, in.fence = opFence, fenceStore
		case "rcu-lock":
			in.op = opRCULock
		case "rcu-unlock":
			in.op = opRCUUnlock
		case "sync-rcu":
			cp.gracePeriod(in, 0)
			return
		default: // rmb, before/after-atomic, after-spinlock, barrier, ...
			in.op, in.fence = opFence, fenceNone
		}
		cp.emit(in)
	case litmus.KLock:
		in.op = opLock
		cp.emit(in)
	case litmus.KUnlock:
		in.op, in.rel = opUnlock, true
		cp.emit(in)
	case litmus.KTryLock:
		in.op = opTryLock
		cp.emit(in)
	case litmus.KIsLocked:
		in.op, in.ret = opLoad, retNonZero
		cp.emit(in)
	case litmus.KSRCULock:
		dst := in.dst
		in.op, in.dst, in.dom = opRCULock, -1, cp.domainOf(call.Pos(), in.addr)
		in.addr = nil
		cp.emit(in)
		if dst >= 0 { // the index: always 0, as in LKMM (srcu.go)
			cp.emit(instr{op: opAssign, dst: dst, a: constExpr(0), pos: in.pos, text: in.text})
		}
	case litmus.KSRCUUnlock:
		in.op, in.dom = opRCUUnlock, cp.domainOf(call.Pos(), in.addr)
		in.addr = nil // in.a is the index (srcu.go)
		cp.emit(in)
	case litmus.KSyncSRCU:
		cp.gracePeriod(in, cp.domainOf(call.Pos(), in.addr))
	case litmus.KNop:
		in.op = opNop
		cp.emit(in)
	default:
		cp.errorf(call.Pos(), "primitive %s has no meaning in the operational models", prim.Name)
	}
}

// gracePeriod emits synchronize_rcu/synchronize_srcu: a full fence, then
// record the readers in a critical section, then wait until each of them
// has left it, then a full fence (the thread has stored nothing since the
// first one, so its buffer is still empty and the second costs nothing).
func (cp *cproc) gracePeriod(in instr, dom int) {
	in.addr, in.a, in.b, in.dst, in.dom = nil, nil, nil, -1, dom
	in.op = opGPStart
	cp.emit(in)
	in.op = opGPWait
	cp.emit(in)
}

// nonAtomicRMW emits __set_bit and friends: a plain load, then a plain
// store of the new value.
func (cp *cproc) nonAtomicRMW(in instr) {
	t := cp.newTemp()
	cp.emit(instr{op: opLoad, dst: t, addr: in.addr, pos: in.pos, text: in.text + " (load)"})
	var op string
	switch in.rmw {
	case litmus.RMWOr:
		op = "|"
	case litmus.RMWXor:
		op = "^"
	case litmus.RMWAndNot:
		cp.emit(instr{op: opStore, dst: -1, addr: in.addr, a: &expr{kind: exBinary, op: "&", x: regExpr(t), y: &expr{kind: exUnary, op: "~", x: in.a}}, pos: in.pos, text: in.text + " (store)"})
		return
	default:
		cp.errorf(in.pos, "unsupported non-atomic operation")
		return
	}
	cp.emit(instr{op: opStore, dst: -1, addr: in.addr, a: &expr{kind: exBinary, op: op, x: regExpr(t), y: in.a}, pos: in.pos, text: in.text + " (store)"})
}

func rmwRet(r litmus.Ret) retKind {
	switch r {
	case litmus.RetNew:
		return retNew
	case litmus.RetNewIsZero:
		return retNewIsZero
	case litmus.RetNewIsNeg:
		return retNewIsNeg
	case litmus.RetOldBit:
		return retOldBit
	case litmus.RetSuccess:
		return retSuccess
	}
	return retValue
}

// exprString prints a C expression for traces and messages.
func exprString(e litmus.Expr) string {
	if e == nil {
		return ""
	}
	return litmus.ExprString(e)
}
