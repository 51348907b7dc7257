package harness

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/litmus-dev/litmus/model/cir"
	"github.com/litmus-dev/litmus/model/kmap"
)

// C threads on x86-64: each cir slot lives in a register of its own for
// the whole thread, primitives expand from their model/kmap rows, and
// register arithmetic goes through %rax (and %rcx).

// x86SlotRegs hold the C registers, in slot order; the run loop takes its
// own registers from the end of the list. The rows' scratch registers,
// %rax and %rcx, are not among them; a discarded {ret} goes to %rax, which
// a row writes last.
var x86SlotRegs = []xreg{rBX, rSI, rDI, r8, r9, r10, r11, rDX, r12, r13, r15}

const x86Discard = rAX

// genX86C generates a C thread.
func (p *program) genX86C(o Options, nthreads, me int, ct *cir.Thread, inits map[int]value, obs []int) ([]byte, error) {
	loops := ct.Loops || spins(ct, kmap.X86_64)
	// The run loop needs two registers, and one for the loop budget
	// unless that must live in memory.
	if ct.NSlots > len(x86SlotRegs)-2 {
		return nil, fmt.Errorf("not supported by run: the thread needs %d registers, x86-64 has %d left for it", ct.NSlots, len(x86SlotRegs)-2)
	}
	spec := x86Spec{used: map[xreg]bool{}, loops: loops, budgetInMemory: ct.NSlots > len(x86SlotRegs)-3}
	for s := 0; s < ct.NSlots; s++ {
		spec.used[x86SlotRegs[s]] = true
	}
	for s := 0; s < len(ct.Names); s++ {
		spec.inits = append(spec.inits, x86Init{reg: x86SlotRegs[s], val: inits[s]})
	}
	for _, s := range obs {
		spec.obs = append(spec.obs, x86SlotRegs[s])
	}
	return p.genX86(o, nthreads, me, spec, func(t *x86Thread) error {
		g := &x86C{p: p, t: t, a: t.a, labels: map[int]int{}}
		for _, in := range ct.Code {
			if err := g.instr(in); err != nil {
				return err
			}
		}
		return nil
	})
}

type x86C struct {
	p      *program
	t      *x86Thread
	a      *x86asm
	labels map[int]int // cir label -> asm label
}

func (g *x86C) label(l int) int { return asmLabel(g.labels, g.a, l) }

func slotReg(s int) xop { return xR(x86SlotRegs[s], 8) }

// operand returns o as an x86 operand: a register, or an immediate when it
// fits 32 bits and imm allows it; anything else is put in scratch first
// (the front end leaves no such operand to a row, whose scratch is noReg).
func (g *x86C) operand(o cir.Operand, imm bool, scratch xreg) xop {
	if scratch == noReg && (o.Kind == cir.Addr || o.Kind == cir.Const && !imm) {
		g.a.fail("internal error: an operand needs a register")
		return xI(0)
	}
	switch o.Kind {
	case cir.Slot:
		return slotReg(o.Slot)
	case cir.Const:
		if imm && o.Val >= -1<<31 && o.Val < 1<<31 {
			return xI(o.Val)
		}
		g.a.mov(8, xR(scratch, 8), xI(o.Val))
	case cir.Addr:
		g.a.lea(8, xR(scratch, 8), g.t.addrOf(g.p.varOf(o), o.Elem, 0))
	}
	return xR(scratch, 8)
}

func (g *x86C) instr(in cir.Instr) error {
	a := g.a
	rax := xR(rAX, 8)
	switch in.Op {
	case cir.Label:
		a.bind(g.label(in.Label))
	case cir.Jump:
		if in.Back {
			g.t.loopCheck(false)
		}
		a.jmp(g.label(in.Target))
	case cir.BranchZ:
		switch in.X.Kind {
		case cir.Const:
			if in.X.Val == 0 {
				a.jmp(g.label(in.Target))
			}
		case cir.Addr: // an address is never 0
		case cir.Slot:
			r := slotReg(in.X.Slot)
			a.test(8, r, r)
			a.jcc("e", g.label(in.Target))
		}
	case cir.Mov:
		switch in.X.Kind {
		case cir.Slot:
			if in.X.Slot != in.Dst {
				a.mov(8, slotReg(in.Dst), slotReg(in.X.Slot))
			}
		default:
			g.operandTo(x86SlotRegs[in.Dst], in.X)
		}
	case cir.Unary:
		g.operandTo(rAX, in.X)
		switch in.ALU {
		case "-":
			a.unary("neg", 8, rax)
		case "~":
			a.unary("not", 8, rax)
		case "!":
			a.test(8, rax, rax)
			a.setcc("e", xR(rAX, 1))
			a.movx(false, 8, rax, 1, xR(rAX, 1))
		}
		a.mov(8, slotReg(in.Dst), rax)
	case cir.Binary:
		g.binary(in)
	case cir.Prim:
		return g.prim(in)
	}
	return a.err
}

// operandTo loads o into register r.
func (g *x86C) operandTo(r xreg, o cir.Operand) {
	switch o.Kind {
	case cir.Slot:
		g.a.mov(8, xR(r, 8), slotReg(o.Slot))
	case cir.Const:
		if o.Val == 0 {
			g.a.alu("xor", 4, xR(r, 4), xR(r, 4))
		} else {
			g.a.mov(8, xR(r, 8), xI(o.Val))
		}
	case cir.Addr:
		g.a.lea(8, xR(r, 8), g.t.addrOf(g.p.varOf(o), o.Elem, 0))
	}
}

var x86CmpCC = map[string]string{"==": "e", "!=": "ne", "<": "l", "<=": "le", ">": "g", ">=": "ge"}

// binary compiles dst = x op y through %rax, with the model's meaning of
// each operator on 64-bit integers (>> is arithmetic, comparisons signed,
// && and || evaluate both sides, as the model's expressions do).
func (g *x86C) binary(in cir.Instr) {
	a := g.a
	rax, rcx := xR(rAX, 8), xR(rCX, 8)
	g.operandTo(rAX, in.X)
	switch in.ALU {
	case "+", "-", "&", "|", "^":
		name := map[string]string{"+": "add", "-": "sub", "&": "and", "|": "or", "^": "xor"}[in.ALU]
		a.alu(name, 8, rax, g.operand(in.Y, true, rCX))
	case "*":
		a.imul(8, rax, g.operand(in.Y, false, rCX))
	case "<<", ">>":
		g.operandTo(rCX, in.Y)
		name := "shl"
		if in.ALU == ">>" {
			name = "sar"
		}
		a.shift(name, 8, rax, xR(rCX, 1))
	case "&&", "||":
		a.test(8, rax, rax)
		a.setcc("ne", xR(rAX, 1))
		g.operandTo(rCX, in.Y)
		a.test(8, rcx, rcx)
		a.setcc("ne", xR(rCX, 1))
		name := "and"
		if in.ALU == "||" {
			name = "or"
		}
		a.alu(name, 1, xR(rAX, 1), xR(rCX, 1))
		a.movx(false, 8, rax, 1, xR(rAX, 1))
	default:
		a.alu("cmp", 8, rax, g.operand(in.Y, true, rCX))
		a.setcc(x86CmpCC[in.ALU], xR(rAX, 1))
		a.movx(false, 8, rax, 1, xR(rAX, 1))
	}
	a.mov(8, slotReg(in.Dst), rax)
}

// rowCache holds parsed kmap rows.
var rowCache sync.Map // string -> []kmap.Insn

func parsedRow(arch kmap.Arch, prim string) ([]kmap.Insn, error) {
	key := string(arch) + "\x00" + prim
	if v, ok := rowCache.Load(key); ok {
		return v.([]kmap.Insn), nil
	}
	row, why, ok := kmap.Lookup(arch, prim)
	if !ok {
		return nil, fmt.Errorf("%s", why)
	}
	insns, err := kmap.Parse(row.Code)
	if err != nil {
		return nil, fmt.Errorf("kmap %s %s: %v", arch, prim, err)
	}
	rowCache.Store(key, insns)
	return insns, nil
}

// prim expands a primitive from its x86-64 row.
func (g *x86C) prim(in cir.Instr) error {
	insns, err := parsedRow(kmap.X86_64, in.Prim)
	if err != nil {
		return g.p.unsupported(in.Pos, "%s", err)
	}
	b := map[string]xop{}
	switch in.Addr.Kind {
	case cir.Addr:
		b["{addr}"] = g.t.addrOf(g.p.varOf(in.Addr), in.Addr.Elem, 0)
	case cir.Slot:
		if kmap.Uses(insns, "{addr}") {
			g.t.checkReg(x86SlotRegs[in.Addr.Slot])
		}
		b["{addr}"] = xM(x86SlotRegs[in.Addr.Slot], 0)
	default:
		if in.Prim != "" && kmap.Uses(insns, "{addr}") {
			return g.p.unsupported(in.Pos, "%s on the constant address %d", in.Prim, in.Addr.Val)
		}
	}
	if len(in.Args) > 0 {
		b["{v}"] = g.operand(in.Args[0], true, noReg)
	}
	if len(in.Args) > 1 {
		b["{w}"] = g.operand(in.Args[1], true, noReg)
	}
	if in.Nr != nil {
		nr := g.operand(*in.Nr, true, noReg)
		if nr.kind == xoImm && (nr.imm < 0 || nr.imm > 63) {
			return g.p.unsupported(in.Pos, "bit number %d", nr.imm)
		}
		b["{nr}"] = nr
	}
	if in.Dst >= 0 {
		b["{ret}"] = slotReg(in.Dst)
	} else {
		b["{ret}"] = xR(x86Discard, 8)
	}
	if err := expandX86Row(g.a, insns, b, g.t); err != nil {
		return g.p.unsupported(in.Pos, "%s: %v", in.Prim, err)
	}
	return nil
}

// spins reports whether a row of one of ct's primitives loops back with an
// unconditional jump (spin_lock), which counts toward the loop budget.
func spins(ct *cir.Thread, arch kmap.Arch) bool {
	for _, in := range ct.Code {
		if in.Op != cir.Prim {
			continue
		}
		insns, err := parsedRow(arch, in.Prim)
		if err != nil {
			continue
		}
		for _, x := range insns {
			if (x.Op == "jmp" || x.Op == "b") && len(x.Args) == 1 && strings.HasSuffix(x.Args[0], "b") && kmap.IsLabelRef(x.Args[0]) {
				return true
			}
		}
	}
	return false
}

// expandX86Row assembles a row with its placeholders bound. t, when not
// nil, counts the row's unconditional backward jumps (spin loops) against
// the loop budget.
func expandX86Row(a *x86asm, insns []kmap.Insn, bind map[string]xop, t *x86Thread) error {
	parse := func(arg string) (xop, error) { return parseX86TemplateOperand(arg, bind) }
	return expandRow(a, insns, parse, func(in kmap.Insn, ops []xop, target int, back bool) error {
		// AT&T order to Intel order.
		for l, r := 0, len(ops)-1; l < r; l, r = l+1, r-1 {
			ops[l], ops[r] = ops[r], ops[l]
		}
		if back && t != nil && (in.Op == "jmp") {
			t.loopCheck(false)
		}
		if err := x86insn(a, in.Prefix == "lock", in.Op, 0, 8, ops, target); err != nil {
			return fmt.Errorf("%s: %v", in, err)
		}
		return nil
	})
}

// x86RegByName maps AT&T register names (without %) to register and size.
var x86RegByName = func() map[string]xop {
	m := map[string]xop{}
	for r := xreg(0); r < 16; r++ {
		for _, size := range []int{1, 2, 4, 8} {
			m[xregName(r, size)] = xR(r, size)
		}
	}
	return m
}()

// parseX86TemplateOperand parses one AT&T operand of a row: a placeholder,
// %reg, $imm, or disp(%base).
func parseX86TemplateOperand(s string, bind map[string]xop) (xop, error) {
	if strings.HasPrefix(s, "{") {
		o, ok := bind[s]
		if !ok {
			return xop{}, fmt.Errorf("placeholder %s has no value here", s)
		}
		return o, nil
	}
	if strings.HasPrefix(s, "%") {
		o, ok := x86RegByName[s[1:]]
		if !ok {
			return xop{}, fmt.Errorf("unknown register %s", s)
		}
		return o, nil
	}
	if strings.HasPrefix(s, "$") {
		v, err := strconv.ParseInt(s[1:], 0, 64)
		if err != nil {
			return xop{}, fmt.Errorf("bad immediate %s", s)
		}
		return xI(v), nil
	}
	if lp := strings.IndexByte(s, '('); lp >= 0 && strings.HasSuffix(s, ")") {
		disp := int64(0)
		if lp > 0 {
			v, err := strconv.ParseInt(s[:lp], 0, 64)
			if err != nil {
				return xop{}, fmt.Errorf("bad displacement in %s", s)
			}
			disp = v
		}
		r, ok := x86RegByName[strings.TrimPrefix(s[lp+1:len(s)-1], "%")]
		if !ok || r.size != 8 {
			return xop{}, fmt.Errorf("bad base register in %s", s)
		}
		return xM(r.reg, disp), nil
	}
	return xop{}, fmt.Errorf("cannot parse operand %s", s)
}
