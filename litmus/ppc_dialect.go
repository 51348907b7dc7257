package litmus

import (
	"strconv"
	"strings"
)

// The PPC (POWER) dialect, after herd 7.58's PPCLexer.mll and
// PPCParser.mly, plus ldarx, stdcx., cmpd and cmpdi, which herd's PPC
// front end lacks but 64-bit kernel code uses.

var ppcDialect = &dialect{
	arch:        ArchPPC,
	norm:        ppcNorm,
	instrs:      ppcInstrs(),
	unsupported: noUnsupported,
	piece:       ppcPiece,
	slot:        ppcSlot,
	describe:    ppcDescribe,
}

// ppcAliases are herd's other names of the same instruction.
var ppcAliases = map[string]string{"hwsync": "sync", "bnl": "bge", "bng": "ble"}

// ppcNorm lower-cases a mnemonic and folds herd's aliases.
func ppcNorm(op string) string {
	m := strings.ToLower(op)
	if a, ok := ppcAliases[m]; ok {
		return a
	}
	return m
}

// ppcInstrs builds the mnemonic table. Slot codes:
//
//	r   a general register r0..r31
//	i   an immediate
//	c   a condition register field cr0..cr7
//	m   a memory operand d(rA), or herd's "d,rA"
//	md  a memory operand d(rA)
//	x   an indexed memory operand rA,rB
//	l   a label
func ppcInstrs() sigTable {
	t := sigTable{}
	t.add("", "nop", "sync", "lwsync", "eieio", "isync", "blr")
	t.add("r,r,r", "add", "add.", "sub", "sub.", "subf", "subf.", "xor", "xor.", "or", "or.",
		"and", "and.", "mullw", "mullw.", "divw", "divw.", "nor", "nor.", "slw", "sraw")
	t.add("r,r,i", "addi", "addis", "subi", "xori", "ori", "andi.", "mulli", "srawi", "clrldi")
	t.add("r,r,i,i,i", "rlwinm", "rlwimi")
	t.add("r,r", "mr", "extsw", "neg", "neg.")
	t.add("r,i", "li", "lis", "cmplwi")
	t.add("r,i|c,r,i", "cmpwi", "cmpdi")
	t.add("r,r|c,r,r", "cmpw", "cmpd")
	t.add("r,m", "lbz", "lhz", "lwz", "ld", "lwzu", "stb", "sth", "stw", "std", "stwu")
	t.add("r,md", "lwa", "lmw", "stmw")
	t.add("r,x", "lbzx", "lhzx", "lwzx", "ldx", "lwax", "stbx", "sthx", "stwx", "stdx",
		"lwarx", "ldarx", "stwcx.", "stdcx.")
	t.add("x", "dcbf")
	t.add("l", "b", "beq", "bne", "blt", "bge", "bgt", "ble", "bl")
	t.add("r", "mtlr", "mflr", "mfcr")
	return t
}

// ppcReg parses a general register r0..r31 (in any case), lr, or a
// symbolic register %name.
func ppcReg(s string) (Register, bool) {
	if r, ok := symbolicReg(s); ok {
		return r, true
	}
	l := strings.ToLower(s)
	if l == "lr" {
		return Register{Name: l, Width: 64, Text: l}, true
	}
	if len(l) < 2 || len(l) > 3 || l[0] != 'r' || !isDigit(l[1]) || len(l) == 3 && (!isDigit(l[2]) || l[1] == '0') {
		return Register{}, false
	}
	if n, _ := strconv.Atoi(l[1:]); n > 31 {
		return Register{}, false
	}
	return Register{Name: l, Width: 64, Text: l}, true
}

// ppcCR parses a condition register field cr0..cr7.
func ppcCR(s string) (Register, bool) {
	l := strings.ToLower(s)
	if len(l) != 3 || !strings.HasPrefix(l, "cr") || l[2] < '0' || l[2] > '7' {
		return Register{}, false
	}
	return Register{Name: l, Width: 4, Text: l}, true
}

// ppcPiece reads one operand piece
//
//	Piece = Register | Int | Int "(" Register ")" | Name .
func ppcPiece(s string, off int) (piece, string) {
	if pc, msg, ok := parenMem(s, off, ppcReg); ok {
		if msg == "" && strings.HasPrefix(strings.TrimSpace(s), "(") {
			return pc, "expected offset before ("
		}
		return pc, msg
	}
	return plainPiece(s, off, func(s string) (Register, bool) {
		if r, ok := ppcReg(s); ok {
			return r, true
		}
		return ppcCR(s)
	})
}

var ppcSlotNames = map[string]string{
	"r": "register", "i": "immediate", "c": "condition register field (cr0..cr7)",
	"m": "memory operand d(rA)", "md": "memory operand d(rA)", "x": "registers rA,rB", "l": "label",
}

func ppcDescribe(_ *matcher, code string) string { return ppcSlotNames[code] }

// ppcSlot matches the slot code against the pieces at m.i.
func ppcSlot(m *matcher, code string) bool {
	pc, next := m.peek(0), m.peek(1)
	if pc == nil {
		return false
	}
	isGPR := func(p *piece) bool { return p != nil && p.kind == pReg && p.reg.Width == 64 }
	switch code {
	case "r":
		return m.emitReg(isGPR(pc), pc)
	case "c":
		return m.emitReg(pc.kind == pReg && pc.reg.Width == 4, pc)
	case "i":
		return m.emitImm(pc)
	case "m", "md":
		if pc.kind == pMem {
			mem := pc.mem
			return m.emit(&Operand{Kind: OpdMem, Mem: &mem}, 1)
		}
		if code == "m" && pc.kind == pImm && isGPR(next) {
			return m.emit(&Operand{Kind: OpdMem, Mem: &MemRef{Base: next.reg, Offset: pc.imm}}, 2)
		}
		return false
	case "x":
		if !isGPR(pc) || !isGPR(next) {
			return false
		}
		idx := next.reg
		return m.emit(&Operand{Kind: OpdMem, Mem: &MemRef{Base: pc.reg, Index: &idx}}, 2)
	case "l":
		if pc.kind != pName {
			return false
		}
		return m.emit(&Operand{Kind: OpdLabel, Label: pc.name}, 1)
	}
	return false
}

// symbolicReg parses herd's symbolic register "%name" (lib/symbReg.ml),
// which stands for a register of the thread that herd picks among those
// the thread does not name; nothing can observe which.
func symbolicReg(s string) (Register, bool) {
	if len(s) < 2 || s[0] != '%' || !isLetter(s[1]) {
		return Register{}, false
	}
	for i := 2; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return Register{}, false
		}
	}
	return Register{Name: s, Width: 64, Text: s}, true
}
