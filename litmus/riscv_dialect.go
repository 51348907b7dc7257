package litmus

import (
	"strconv"
	"strings"
)

// The RISCV dialect, after herd 7.58's RISCVLexer.mll and RISCVParser.mly:
// RV64I with the A extension (LR/SC and AMOs), the ordering annotations
// herd allows on plain loads and stores, and the fences.

var riscvDialect = &dialect{
	arch:        ArchRISCV,
	norm:        riscvNorm,
	instrs:      riscvInstrs(),
	unsupported: noUnsupported,
	piece:       riscvPiece,
	slot:        riscvSlot,
	describe:    riscvDescribe,
}

// riscvNorm lower-cases a mnemonic and writes the acquire-release
// annotation ".aqrl" as ".aq.rl", herd's other spelling of it.
func riscvNorm(op string) string {
	m := strings.ToLower(op)
	if strings.HasSuffix(m, ".aqrl") {
		m = strings.TrimSuffix(m, ".aqrl") + ".aq.rl"
	}
	return m
}

// riscvInstrs builds the mnemonic table. Slot codes:
//
//	r   a register
//	i   an immediate
//	a   a memory operand off(reg) or (reg)
//	a0  a memory operand with offset 0: 0(reg) or (reg)
//	l   a label
//	s   a shared location's name (la)
//	f   a fence set: r, w, rw, ir, ow or iorw
//
// herd reads lr.w.rl as lr.w and sc.w.aq as sc.w (RISCVLexer.mll); the
// table keeps the annotation as written and leaves that to the model.
func riscvInstrs() sigTable {
	t := sigTable{}
	t.add("", "nop", "ret", "fence.i", "fence.tso")
	t.add("|f,f", "fence")
	t.add("r,r", "mv", "sext.w")
	t.add("r,i", "li", "lui", "auipc")
	t.add("r,s", "la")
	t.add("r,r,i", "addi", "slti", "sltiu", "andi", "ori", "xori", "slli", "srli", "srai",
		"addiw", "slliw", "srliw", "sraiw")
	t.add("r,r,r", "add", "slt", "sltu", "and", "or", "xor", "sll", "srl", "sub", "sra",
		"addw", "sllw", "srlw", "subw", "sraw")
	t.add("l", "j")
	t.add("r,r,l", "beq", "bne", "blt", "bltu", "bge", "bgeu")
	for _, w := range []string{"b", "h", "w", "d"} {
		for _, u := range []string{"", "u"} {
			if w == "d" && u == "u" {
				continue
			}
			for _, mo := range []string{"", ".aq", ".aq.rl"} {
				t.add("r,a", "l"+w+u+mo)
			}
		}
		for _, mo := range []string{"", ".rl", ".aq.rl"} {
			t.add("r,a", "s"+w+mo)
		}
	}
	for _, w := range []string{".w", ".d"} {
		for _, mo := range []string{"", ".aq", ".rl", ".aq.rl"} {
			t.add("r,a0", "lr"+w+mo)
			t.add("r,r,a0", "sc"+w+mo)
			for _, op := range []string{"swap", "add", "and", "or", "xor", "max", "min", "maxu", "minu"} {
				t.add("r,r,a0", "amo"+op+w+mo)
			}
		}
	}
	return t
}

// riscvRegs maps register names, x0..x31 and the ABI names, to x0..x31.
var riscvRegs = func() map[string]string {
	m := map[string]string{}
	abi := strings.Fields(`zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7
		s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 t3 t4 t5 t6`)
	for i, a := range abi {
		x := "x" + strconv.Itoa(i)
		m[x], m[a] = x, x
	}
	m["fp"] = "x8"
	return m
}()

// riscvReg parses a register name: x0 to x31 or an ABI name (a0, t0,
// zero, ...), in any case.
func riscvReg(s string) (Register, bool) {
	if r, ok := symbolicReg(s); ok {
		return r, true
	}
	l := strings.ToLower(s)
	if n, ok := riscvRegs[l]; ok {
		return Register{Name: n, Width: 64, Text: l}, true
	}
	return Register{}, false
}

// riscvFenceSets are the fence sets herd accepts.
var riscvFenceSets = strings.Fields("r w rw ir ow iorw")

// riscvPiece reads one operand piece
//
//	Piece = Register | Int | [ Int ] "(" Register ")" | Name .
func riscvPiece(s string, off int) (piece, string) {
	if pc, msg, ok := parenMem(s, off, riscvReg); ok {
		return pc, msg
	}
	return plainPiece(s, off, riscvReg)
}

// noUnsupported is the unsupported function of a dialect that names no
// instruction herd knows and litmus does not.
func noUnsupported(string) (string, bool) { return "", false }

// plainPiece reads a register, an integer or a name.
func plainPiece(s string, off int, reg func(string) (Register, bool)) (piece, string) {
	pc := piece{off: off, end: off + len(s), text: s}
	if c := s[0]; c == '-' || c == '+' || isDigit(c) {
		v, ok := parseImmText(s)
		if !ok {
			return pc, "expected integer"
		}
		pc.kind, pc.imm = pImm, v
		return pc, ""
	}
	return regOrName(pc, s, reg)
}

// regOrName reads s, the whole of pc's text, as a register or a name:
// the end of every dialect's reading of an operand.
func regOrName(pc piece, s string, reg func(string) (Register, bool)) (piece, string) {
	if r, ok := reg(s); ok {
		pc.kind, pc.reg = pReg, r
		return pc, ""
	}
	if labelLen(s) == len(s) {
		pc.kind, pc.name = pName, s
		return pc, ""
	}
	return pc, "unexpected text"
}

var riscvSlotNames = map[string]string{
	"r": "register", "i": "immediate", "a": "memory operand off(reg)", "a0": "memory operand 0(reg)",
	"l": "label", "s": "location name", "f": "fence set (r, w, rw, ir, ow, iorw)",
}

func riscvDescribe(_ *matcher, code string) string { return riscvSlotNames[code] }

// riscvSlot matches the slot code against the piece at m.i.
func riscvSlot(m *matcher, code string) bool {
	pc := m.peek(0)
	if pc == nil {
		return false
	}
	switch code {
	case "r":
		return m.emitReg(pc.kind == pReg, pc)
	case "i":
		return m.emitImm(pc)
	case "a", "a0":
		if pc.kind != pMem {
			return false
		}
		if code == "a0" && pc.mem.Offset != 0 {
			return m.complain("expected offset 0 in " + pc.text)
		}
		mem := pc.mem
		return m.emit(&Operand{Kind: OpdMem, Mem: &mem}, 1)
	case "l", "s":
		if pc.kind != pName {
			return false
		}
		if code == "s" {
			return m.emit(&Operand{Kind: OpdSym, Sym: pc.name}, 1)
		}
		return m.emit(&Operand{Kind: OpdLabel, Label: pc.name}, 1)
	case "f":
		if pc.kind != pName {
			return false
		}
		set, ok := lookupFold(riscvFenceSets, pc.name)
		if !ok {
			return false
		}
		return m.emit(&Operand{Kind: OpdFenceSet, Fence: set}, 1)
	}
	return false
}
