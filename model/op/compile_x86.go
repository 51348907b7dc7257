package op

import (
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/internal/x86asm"
)

// This file compiles herd's X86 (Intel operand order, dst first) and
// X86_64 (AT&T order, dst last) columns. Every register alias (EAX, eax,
// ax, al, %eax, RAX) is one 64-bit register, stored under its 64-bit
// lower-case name. Flags are one hidden register holding the last
// comparison's difference (or the AND of test), which is all that
// je/jne/jl/... need.

// The carry flag follows the Intel SDM (vol. 2, CMP, ADD, SUB, AND, NEG):
// CMP and SUB set it to the unsigned borrow, ADD to the unsigned carry,
// AND/OR/XOR/TEST clear it, NEG sets it for a non-zero operand, INC/DEC
// and NOT keep it; shifts keep it too (a simplification: the SDM puts the
// last bit shifted out there). herd's X86 semantics instead always write
// CF=0 ("Carry was always zero!", X86Sem.ml), so after a CMP with a <u b
// herd never moves in CMOVC and SETNB writes 1 where we do the opposite.

// asmProc is the state of compiling one assembly column.
type asmProc struct {
	*compiler
	th     *thread
	att    bool
	labels map[string]int
	fixups []asmFixup
	tmp    int
}

type asmFixup struct {
	pc    int
	label string
	pos   litmus.Pos
}

const flagsReg = "%flags"

// cfReg is the hidden carry flag, 0 or 1, read by CMOVC and SETNB.
const cfReg = "%cf"

// signBit flips unsigned order into signed order: a <u b is
// (a ^ signBit) < (b ^ signBit).
const signBit = -1 << 63

// canonReg returns the canonical name of an x86 register (x86asm.CanonReg).
func canonReg(name string) string { return x86asm.CanonReg(name) }

func (c *compiler) compileAsmProc(pr *litmus.Proc) {
	ap := &asmProc{compiler: c, th: c.thread(pr.ID), att: c.t.Arch == litmus.ArchX8664, labels: map[string]int{}}
	for _, in := range pr.Code {
		if in.Label != "" {
			ap.labels[in.Label] = len(ap.th.code)
		}
		if in.Op != "" {
			ap.instr(in)
		}
	}
	for _, f := range ap.fixups {
		t, ok := ap.labels[f.label]
		if !ok {
			c.errorf(f.pos, "undefined label %s", f.label)
			continue
		}
		ap.th.code[f.pc].target = t
	}
}

func (ap *asmProc) emit(in instr) int { return emit(ap.th, in) }

func (ap *asmProc) temp() int {
	ap.tmp++
	return ap.reg(ap.th, "%t"+strconv.Itoa(ap.tmp))
}

// mnemonic returns the lower-case operation without an AT&T size suffix.
func (ap *asmProc) mnemonic(op string) string { return x86asm.Mnemonic(op, ap.att) }

func instrText(in *litmus.Instr) string {
	s := in.Op
	if in.Prefix != "" {
		s = in.Prefix + " " + s
	}
	for i, a := range in.Args {
		if i == 0 {
			s += " "
		} else {
			s += ","
		}
		s += a.Text
	}
	return s
}

// instr compiles one instruction.
func (ap *asmProc) instr(src *litmus.Instr) {
	m := ap.mnemonic(src.Op)
	locked := strings.EqualFold(src.Prefix, "lock")
	args := src.Args
	if ap.att { // AT&T writes the destination last
		args = make([]*litmus.Operand, len(src.Args))
		for i, a := range src.Args {
			args[len(src.Args)-1-i] = a
		}
	}
	base := instr{dst: -1, pos: src.Pos(), text: instrText(src)}
	need := func(n int) bool {
		if len(args) != n {
			ap.errorf(src.Pos(), "%s takes %d operands, found %d", src.Op, n, len(args))
			return false
		}
		return true
	}
	switch m {
	case "nop", "nopl", "nopw", "endbr64", "pause", "lfence", "prefetch", "clflush", "clflushopt":
		// CLFLUSH makes an event that x86tso.cat does not order: no
		// effect on memory order, as LFENCE under TSO.
		base.op = opNop
		ap.emit(base)
	case "mfence":
		base.op, base.fence = opFence, fenceFull
		ap.emit(base)
	case "sfence":
		base.op, base.fence = opFence, fenceStore
		ap.emit(base)
	case "ret", "retq":
		base.op, base.target = opJump, 1<<30 // past the end: the thread finishes
		ap.emit(base)
	case "jmp", "jmpq", "je", "jz", "jne", "jnz", "jl", "jle", "jg", "jge", "js", "jns":
		if !need(1) {
			return
		}
		label := args[0].Label
		if label == "" {
			label = args[0].Text
		}
		if m == "jmp" || m == "jmpq" {
			base.op = opJump
		} else {
			f := regExpr(ap.reg(ap.th, flagsReg))
			cond := map[string]string{"je": "==", "jz": "==", "jne": "!=", "jnz": "!=", "jl": "<", "jle": "<=", "jg": ">", "jge": ">=", "js": "<", "jns": ">="}[m]
			base.op, base.a = opBranch, &expr{kind: exBinary, op: cond, x: f, y: constExpr(0)}
		}
		pc := ap.emit(base)
		ap.fixups = append(ap.fixups, asmFixup{pc, label, src.Pos()})
	case "cmovc":
		ap.cmovc(args, base)
	case "setnb":
		ap.setnb(args, base)
	case "movnti":
		// A non-temporal store; herd's x86tso treats it as an ordinary
		// store (X86_64Sem.ml), and so do we.
		if !need(2) || args[0].Kind != litmus.OpdMem || args[1].Kind != litmus.OpdReg {
			ap.errorf(src.Pos(), "movnti needs a memory destination and a register source")
			return
		}
		base.op, base.addr, base.a = opStore, ap.addr(args[0]), ap.operand(args[1])
		ap.emit(base)
	case "mov", "movzx", "movsx", "movabs":
		if !need(2) {
			return
		}
		dst, s := args[0], args[1]
		switch {
		case dst.Kind == litmus.OpdMem && s.Kind == litmus.OpdMem:
			ap.errorf(src.Pos(), "mov cannot move memory to memory")
		case dst.Kind == litmus.OpdMem:
			base.op, base.addr, base.a = opStore, ap.addr(dst), ap.operand(s)
			ap.emit(base)
		case dst.Kind == litmus.OpdReg && s.Kind == litmus.OpdMem:
			base.op, base.dst, base.addr = opLoad, ap.reg(ap.th, dst.Reg), ap.addr(s)
			ap.emit(base)
		case dst.Kind == litmus.OpdReg:
			base.op, base.dst, base.a = opAssign, ap.reg(ap.th, dst.Reg), ap.operand(s)
			ap.emit(base)
		default:
			ap.errorf(dst.Pos(), "cannot move into %s", dst.Text)
		}
	case "xchg", "uxch":
		// herd's UXCH (unlocked exchange) has XCHG's atomic semantics.
		if !need(2) {
			return
		}
		mem, reg := args[0], args[1]
		if reg.Kind == litmus.OpdMem {
			mem, reg = reg, mem
		}
		if reg.Kind != litmus.OpdReg {
			ap.errorf(src.Pos(), "xchg needs a register operand")
			return
		}
		r := ap.reg(ap.th, reg.Reg)
		if mem.Kind == litmus.OpdReg { // register swap
			t := ap.temp()
			o := ap.reg(ap.th, mem.Reg)
			ap.emit(instr{op: opAssign, dst: t, a: regExpr(r), pos: base.pos, text: base.text})
			ap.emit(instr{op: opAssign, dst: r, a: regExpr(o), pos: base.pos, text: base.text})
			ap.emit(instr{op: opAssign, dst: o, a: regExpr(t), pos: base.pos, text: base.text})
			return
		}
		// XCHG with memory is always locked (Intel SDM vol. 2, XCHG).
		base.op, base.rmw, base.ret, base.dst, base.addr, base.a = opRMW, litmus.RMWXchg, retValue, r, ap.addr(mem), regExpr(r)
		ap.emit(base)
	case "add", "sub", "and", "or", "xor", "inc", "dec", "neg", "not", "shl", "sal", "shr", "sar":
		ap.arith(m, args, locked, base)
	case "xadd":
		if !need(2) {
			return
		}
		if args[1].Kind != litmus.OpdReg {
			ap.errorf(src.Pos(), "xadd needs a register source")
			return
		}
		r := ap.reg(ap.th, args[1].Reg)
		if args[0].Kind != litmus.OpdMem {
			ap.errorf(src.Pos(), "xadd on registers is not supported")
			return
		}
		if !locked {
			ap.errorf(src.Pos(), "xadd without LOCK is not supported")
			return
		}
		base.op, base.rmw, base.ret, base.dst, base.addr, base.a = opRMW, litmus.RMWAdd, retValue, r, ap.addr(args[0]), regExpr(r)
		ap.emit(base)
	case "cmpxchg":
		if !need(2) || args[0].Kind != litmus.OpdMem || args[1].Kind != litmus.OpdReg {
			ap.errorf(src.Pos(), "cmpxchg needs a memory destination and a register source")
			return
		}
		if !locked {
			ap.cmpxchgUnlocked(args[0], args[1], base)
			return
		}
		// A failing CMPXCHG is still a locked instruction: it drains the
		// buffer and is atomic (Intel SDM vol. 3, 8.1.2.2).
		rax := ap.reg(ap.th, "rax")
		t := ap.temp()
		base.op, base.rmw, base.ret, base.dst, base.addr = opRMW, litmus.RMWCmpxchg, retValue, t, ap.addr(args[0])
		base.a, base.b = regExpr(rax), regExpr(ap.reg(ap.th, args[1].Reg))
		ap.emit(base)
		f := ap.reg(ap.th, flagsReg)
		ap.emit(instr{op: opAssign, dst: f, a: &expr{kind: exBinary, op: "-", x: regExpr(rax), y: regExpr(t)}, pos: base.pos, text: base.text})
		ap.setCarry(unsignedLess(regExpr(rax), regExpr(t)), base)
		ap.emit(instr{op: opAssign, dst: rax, a: regExpr(t), pos: base.pos, text: base.text})
	case "cmp", "test":
		if !need(2) {
			return
		}
		// Intel cmp a,b (AT&T cmp b,a) sets flags from a - b.
		x, y := ap.operandLoad(args[0], base), ap.operandLoad(args[1], base)
		op := "-"
		if m == "test" {
			op = "&"
		}
		base.op, base.dst, base.a = opAssign, ap.reg(ap.th, flagsReg), &expr{kind: exBinary, op: op, x: x, y: y}
		ap.emit(base)
		if m == "test" {
			ap.setCarry(constExpr(0), base)
		} else {
			ap.setCarry(unsignedLess(x, y), base)
		}
	default:
		ap.errorf(src.Pos(), "unsupported instruction %s", src.Op)
	}
}

// arith compiles the two-operand and one-operand arithmetic instructions.
func (ap *asmProc) arith(m string, args []*litmus.Operand, locked bool, base instr) {
	one := m == "inc" || m == "dec" || m == "neg" || m == "not"
	if (one && len(args) != 1) || (!one && len(args) != 2) {
		ap.errorf(base.pos, "%s: wrong number of operands", m)
		return
	}
	dst := args[0]
	var y *expr
	op := map[string]string{"add": "+", "sub": "-", "and": "&", "or": "|", "xor": "^", "inc": "+", "dec": "-", "shl": "<<", "sal": "<<", "shr": ">>", "sar": ">>"}[m]
	switch m {
	case "inc", "dec":
		y = constExpr(1)
	case "neg", "not":
	default:
		if args[1].Kind == litmus.OpdMem {
			if dst.Kind == litmus.OpdMem {
				ap.errorf(args[1].Pos(), "%s cannot take two memory operands", m)
				return
			}
			// ADD EAX,[x]: herd's grammar takes any operand as source.
			y = ap.operandLoad(args[1], base)
		} else {
			y = ap.operand(args[1])
		}
	}
	f := ap.reg(ap.th, flagsReg)
	switch dst.Kind {
	case litmus.OpdReg:
		r := ap.reg(ap.th, dst.Reg)
		if c := carryOf(m, regExpr(r), y); c != nil {
			ap.setCarry(c, base) // from the old value, so before the update
		}
		var e *expr
		switch m {
		case "neg":
			e = &expr{kind: exUnary, op: "-", x: regExpr(r)}
		case "not":
			e = &expr{kind: exUnary, op: "~", x: regExpr(r)}
		default:
			e = &expr{kind: exBinary, op: op, x: regExpr(r), y: y}
		}
		base.op, base.dst, base.a = opAssign, r, e
		ap.emit(base)
		if m != "not" {
			ap.emit(instr{op: opAssign, dst: f, a: regExpr(r), pos: base.pos, text: base.text})
		}
	case litmus.OpdMem:
		addr := ap.addr(dst)
		if locked {
			rop := map[string]litmus.RMWOp{"add": litmus.RMWAdd, "sub": litmus.RMWSub, "and": litmus.RMWAnd, "or": litmus.RMWOr, "xor": litmus.RMWXor, "inc": litmus.RMWAdd, "dec": litmus.RMWSub}[m]
			if rop == litmus.RMWNone {
				ap.errorf(base.pos, "LOCK %s is not supported", m)
				return
			}
			t := ap.temp()
			base.op, base.rmw, base.ret, base.dst, base.addr, base.a = opRMW, rop, retNew, t, addr, y
			ap.emit(base)
			ap.emit(instr{op: opAssign, dst: f, a: regExpr(t), pos: base.pos, text: base.text})
			switch m {
			case "add":
				ap.setCarry(unsignedLess(regExpr(t), y), base)
			case "sub": // the old value is t + y
				ap.setCarry(unsignedLess(&expr{kind: exBinary, op: "+", x: regExpr(t), y: y}, y), base)
			case "and", "or", "xor":
				ap.setCarry(constExpr(0), base)
			}
			return
		}
		// Without LOCK: a load, then a store; another thread may write in
		// between.
		t := ap.temp()
		ap.emit(instr{op: opLoad, dst: t, addr: addr, pos: base.pos, text: base.text + " (load)"})
		var e *expr
		switch m {
		case "neg":
			e = &expr{kind: exUnary, op: "-", x: regExpr(t)}
		case "not":
			e = &expr{kind: exUnary, op: "~", x: regExpr(t)}
		default:
			e = &expr{kind: exBinary, op: op, x: regExpr(t), y: y}
		}
		if c := carryOf(m, regExpr(t), y); c != nil {
			ap.setCarry(c, base)
		}
		n := ap.temp()
		ap.emit(instr{op: opAssign, dst: n, a: e, pos: base.pos, text: base.text})
		ap.emit(instr{op: opStore, dst: -1, addr: addr, a: regExpr(n), pos: base.pos, text: base.text + " (store)"})
		if m != "not" {
			ap.emit(instr{op: opAssign, dst: f, a: regExpr(n), pos: base.pos, text: base.text})
		}
	default:
		ap.errorf(dst.Pos(), "cannot write to %s", dst.Text)
	}
}

// operand compiles a register or immediate source operand.
func (ap *asmProc) operand(o *litmus.Operand) *expr {
	switch o.Kind {
	case litmus.OpdReg:
		return regExpr(ap.reg(ap.th, o.Reg))
	case litmus.OpdImm:
		return constExpr(o.Imm)
	case litmus.OpdLabel:
		// A bare name as a value: the address of that location.
		if i, ok := ap.p.byName[o.Label]; ok {
			return constExpr(ap.p.locs[i].addr)
		}
	}
	ap.errorf(o.Pos(), "unsupported operand %s", o.Text)
	return constExpr(0)
}

// operandLoad is operand, but a memory operand is first loaded into a
// temporary.
func (ap *asmProc) operandLoad(o *litmus.Operand, base instr) *expr {
	if o.Kind != litmus.OpdMem {
		return ap.operand(o)
	}
	t := ap.temp()
	ap.emit(instr{op: opLoad, dst: t, addr: ap.addr(o), pos: base.pos, text: base.text + " (load)"})
	return regExpr(t)
}

// addr compiles a memory operand's address: Sym + Disp + Base +
// Index*Scale. A symbol names a shared location, declared on first use.
func (ap *asmProc) addr(o *litmus.Operand) *expr {
	var e *expr
	if o.Sym != "" {
		if _, ok := ap.p.byName[o.Sym]; !ok {
			ap.addLoc(o.Sym, o.Sym, -1, 8)
		}
		e = constExpr(ap.p.locs[ap.p.byName[o.Sym]].addr + o.Disp)
	} else {
		e = constExpr(o.Disp)
	}
	add := func(x *expr) {
		if c, ok := e.static(); ok && c == 0 {
			e = x
			return
		}
		e = &expr{kind: exBinary, op: "+", x: e, y: x}
	}
	if o.Base != "" {
		add(regExpr(ap.reg(ap.th, o.Base)))
	}
	if o.Index != "" && o.Scale != 0 {
		add(&expr{kind: exBinary, op: "*", x: regExpr(ap.reg(ap.th, o.Index)), y: constExpr(int64(o.Scale))})
	}
	if o.Sym == "" && o.Base == "" && (o.Index == "" || o.Scale == 0) {
		ap.errorf(o.Pos(), "memory operand %s names no location", o.Text)
	}
	return e
}

// unsignedLess is the expression x <u y, 1 or 0.
func unsignedLess(x, y *expr) *expr {
	flip := func(e *expr) *expr { return &expr{kind: exBinary, op: "^", x: e, y: constExpr(signBit)} }
	return &expr{kind: exBinary, op: "<", x: flip(x), y: flip(y)}
}

// setCarry emits cf = e.
func (ap *asmProc) setCarry(e *expr, base instr) {
	ap.emit(instr{op: opAssign, dst: ap.reg(ap.th, cfReg), a: e, pos: base.pos, text: base.text})
}

// carryOf returns the carry flag that m sets when it computes old op y,
// or nil when m keeps the flag.
func carryOf(m string, old, y *expr) *expr {
	switch m {
	case "add":
		return unsignedLess(&expr{kind: exBinary, op: "+", x: old, y: y}, y)
	case "sub":
		return unsignedLess(old, y)
	case "and", "or", "xor":
		return constExpr(0)
	case "neg":
		return &expr{kind: exBinary, op: "!=", x: old, y: constExpr(0)}
	}
	return nil
}

// cmovc compiles CMOVC dst, src: dst = src when the carry flag is set.
// The memory source is read either way; that read changes no other
// thread's view, so only the register's value depends on the flag.
func (ap *asmProc) cmovc(args []*litmus.Operand, base instr) {
	if len(args) != 2 || args[0].Kind != litmus.OpdReg {
		ap.errorf(base.pos, "cmovc needs a register destination and a source")
		return
	}
	r := ap.reg(ap.th, args[0].Reg)
	src := ap.operandLoad(args[1], base)
	cf := regExpr(ap.reg(ap.th, cfReg))
	base.op, base.dst, base.a = opAssign, r, &expr{kind: exCond, x: cf, y: src, z: regExpr(r)}
	ap.emit(base)
}

// setnb compiles SETNB dst: dst = 1 when the carry flag is clear, else 0.
func (ap *asmProc) setnb(args []*litmus.Operand, base instr) {
	if len(args) != 1 {
		ap.errorf(base.pos, "setnb takes 1 operand, found %d", len(args))
		return
	}
	v := &expr{kind: exBinary, op: "==", x: regExpr(ap.reg(ap.th, cfReg)), y: constExpr(0)}
	switch d := args[0]; d.Kind {
	case litmus.OpdReg:
		base.op, base.dst, base.a = opAssign, ap.reg(ap.th, d.Reg), v
	case litmus.OpdMem:
		base.op, base.addr, base.a = opStore, ap.addr(d), v
	default:
		ap.errorf(d.Pos(), "cannot write to %s", d.Text)
		return
	}
	ap.emit(base)
}

// cmpxchgUnlocked compiles CMPXCHG without LOCK as herd's X86_64 does: a
// plain load of the destination, then a plain store of the source when it
// equals rax, else rax takes the value read. Another thread may write in
// between: without LOCK the instruction is not atomic (Intel SDM vol. 2,
// CMPXCHG).
func (ap *asmProc) cmpxchgUnlocked(mem, src *litmus.Operand, base instr) {
	rax := ap.reg(ap.th, "rax")
	t := ap.temp()
	addr := ap.addr(mem)
	ap.emit(instr{op: opLoad, dst: t, addr: addr, pos: base.pos, text: base.text + " (load)"})
	ap.emit(instr{op: opAssign, dst: ap.reg(ap.th, flagsReg), a: &expr{kind: exBinary, op: "-", x: regExpr(rax), y: regExpr(t)}, pos: base.pos, text: base.text})
	ap.setCarry(unsignedLess(regExpr(rax), regExpr(t)), base)
	br := ap.emit(instr{op: opBranch, dst: -1, a: &expr{kind: exBinary, op: "!=", x: regExpr(rax), y: regExpr(t)}, pos: base.pos, text: base.text})
	ap.emit(instr{op: opStore, dst: -1, addr: addr, a: regExpr(ap.reg(ap.th, src.Reg)), pos: base.pos, text: base.text + " (store)"})
	jmp := ap.emit(instr{op: opJump, dst: -1, pos: base.pos, text: base.text})
	ap.th.code[br].target = len(ap.th.code)
	ap.emit(instr{op: opAssign, dst: rax, a: regExpr(t), pos: base.pos, text: base.text})
	ap.th.code[jmp].target = len(ap.th.code)
}
