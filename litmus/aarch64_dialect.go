package litmus

import (
	"strconv"
	"strings"
)

// The AArch64 dialect, after herd 7.58's AArch64Lexer.mll and
// AArch64Parser.mly: the general-purpose (scalar) instruction set,
// barriers, exclusives, the LSE atomics, MTE tags and the system
// instructions that herd's tests use. SIMD, SVE, SME and Morello are
// reported as unsupported.

var aarch64Dialect = &dialect{
	arch:        ArchAArch64,
	norm:        aarch64Norm,
	instrs:      aarch64Instrs(),
	unsupported: aarch64Unsupported,
	piece:       aarch64Piece,
	slot:        aarch64Slot,
	describe:    aarch64Describe,
	immPrefix:   "#",
}

// aarch64BranchAliases are herd's other spellings of the conditional
// branches (SVE condition names).
var aarch64BranchAliases = map[string]string{
	"B.NONE": "B.EQ", "B.ANY": "B.NE", "B.TCONT": "B.GE", "B.TSTOP": "B.LT",
	"B.NLAST": "B.CS", "B.LAST": "B.CC", "B.FIRST": "B.MI", "B.NFIRST": "B.PL", "B.PLAST": "B.LS",
}

// aarch64Norm upper-cases a mnemonic and folds herd's branch aliases.
func aarch64Norm(op string) string {
	m := strings.ToUpper(op)
	if a, ok := aarch64BranchAliases[m]; ok {
		return a
	}
	return m
}

// aarch64Conds are the condition codes of CSEL, CSET, CINC and B.cond.
var aarch64Conds = strings.Fields("EQ NE CS CC MI PL VS VC HI LS GE LT GT LE AL")

// aarch64Barriers are the DMB and DSB options.
var aarch64Barriers = strings.Fields("SY ST LD ISH ISHST ISHLD OSH OSHST OSHLD NSH NSHST NSHLD")

// aarch64SysRegs are the system registers herd's MRS and MSR know, in
// herd's spelling.
var aarch64SysRegs = strings.Fields("CTR_EL0 DCIZ_EL0 MDCCSR_EL0 DBGDTR_EL0 DBGDTRRX_EL0 DBGDTRTX_EL0 ELR_EL1 ESR_EL1 NZCV TFSR_ELx VNCR_EL2")

// aarch64ICOps and aarch64DCOps are the cache maintenance operations.
var (
	aarch64ICOps = strings.Fields("IALLUIS IVAUIS IALLU IVAU")
	aarch64DCOps = strings.Fields("IVAU IVAC CVAC CIVAC ZVAC ISWC CSWC CISWC ZSWC CVAU CIVAU ZVAU ISWU CSWU CISWU ZSWU")
)

// aarch64TLBIOps are the TLB invalidation operations, each also with
// the nXS suffix.
var aarch64TLBIOps = func() []string {
	base := strings.Fields(`IPAS2E1IS IPAS2LE1IS IPAS2E1 IPAS2LE1 VMALLE1IS VMALLE1
		ALLE1IS ALLE2IS ALLE3IS ALLE1 ALLE2 ALLE3 VAE1IS VAE2IS VAE3IS VAE1 VAE2 VAE3
		ASIDE1IS ASIDE1 VAAE1IS VAAE1 VALE1IS VALE2IS VALE3IS VALE1 VALE2 VALE3
		VAALE1IS VAALE1 VMALLS12E1IS VMALLS12E1`)
	out := append([]string(nil), base...)
	for _, b := range base {
		out = append(out, b+"NXS")
	}
	return out
}()

// aarch64Instrs builds the mnemonic table. Slot codes:
//
//	W, X     a W (32-bit) or X (64-bit) register; X includes SP
//	R        a W or X register; every R of one signature has the same width
//	I        an immediate #n
//	IS       an immediate, optionally shifted: #n or #n,LSL #k
//	E        an immediate (optionally LSL-shifted) or an R register,
//	         optionally shifted (LSL, LSR, ASR, ROR #k)
//	RS       an R register, optionally shifted
//	XE, WE   a W or X register (XE) or a W register (WE) with an
//	         extension UXTB..SXTX and an optional amount
//	L        a label, or .+n / .-n
//	C        a condition code; D a DMB/DSB option
//	M        [Xn], [Xn,#k], [Xn,#k]!, [Xn],#k, [Xn,Rm{,ext {#k}}]
//	MI       [Xn], [Xn,#k], [Xn,#k]!, [Xn],#k
//	MO       [Xn], [Xn,#k]
//	B        [Xn]
//	B0       [Xn] or [Xn,#0]
//	SYS, ICOP, DCOP, TLBIOP  a system register or maintenance operation
func aarch64Instrs() sigTable {
	t := sigTable{}
	// Control flow.
	t.add("", "NOP", "ERET", "ISB")
	t.add("I", "HINT", "HLT", "SVC", "UDF")
	t.add("L", "B", "BL")
	for _, c := range aarch64Conds {
		t.add("L", "B."+c)
	}
	t.add("X", "BR", "BLR")
	t.add("|X", "RET")
	t.add("R,L", "CBZ", "CBNZ")
	t.add("R,I,L", "TBZ", "TBNZ")
	// Loads and stores.
	t.add("R,M", "LDR", "STR", "LDRSB", "LDRSH")
	t.add("X,M", "LDRSW")
	t.add("W,M", "LDRB", "LDRH", "STRB", "STRH")
	t.add("R,MO", "LDUR")
	t.add("R,R,MI", "LDP", "LDNP", "STP", "STNP", "LDIAPP", "STILP")
	t.add("X,X,MI", "LDPSW")
	t.add("R,B", "LDAR", "LDAPR", "LDXR", "LDAXR", "STLR")
	t.add("W,B", "LDARB", "LDARH", "LDAPRB", "LDAPRH", "LDXRB", "LDXRH", "LDAXRB", "LDAXRH", "STLRB", "STLRH")
	t.add("W,R,B", "STXR", "STLXR")
	t.add("W,W,B", "STXRB", "STXRH", "STLXRB", "STLXRH")
	t.add("R,R,B", "LDXP", "LDAXP")
	t.add("W,R,R,B", "STXP", "STLXP")
	// Atomics: CAS, CASP, SWP, LD<op> and ST<op>, each with its
	// ordering (A acquire, L release, AL both) and size (B, H) suffixes.
	for _, o := range []string{"", "A", "L", "AL"} {
		t.add("R,R,B0", "CAS"+o, "SWP"+o)
		t.add("R,R,R,R,B0", "CASP"+o)
		t.add("W,W,B0", "CAS"+o+"B", "CAS"+o+"H", "SWP"+o+"B", "SWP"+o+"H")
		for _, op := range []string{"ADD", "CLR", "EOR", "SET", "SMAX", "SMIN", "UMAX", "UMIN"} {
			t.add("R,R,B0", "LD"+op+o)
			t.add("W,W,B0", "LD"+op+o+"B", "LD"+op+o+"H")
			if o == "" || o == "L" {
				t.add("R,B0", "ST"+op+o)
				t.add("W,B0", "ST"+op+o+"B", "ST"+op+o+"H")
			}
		}
	}
	// Memory tagging.
	t.add("X,MI", "STG", "STZG", "STZ2G")
	t.add("X,MO", "LDG")
	// Data processing.
	t.add("X,I|X,X|X,W|W,I|W,W", "MOV")
	t.add("R,IS", "MOVZ", "MOVN", "MOVK")
	t.add("X,L", "ADR")
	t.add("X,W", "SXTW")
	t.add("R,R", "MVN", "RBIT", "REV", "REV16", "ABS")
	t.add("X,X", "REV32", "REV64")
	t.add("R,R,E", "EOR", "EON", "ORR", "ORN", "AND", "ANDS", "ASR", "LSL", "LSR", "ROR")
	t.add("R,R,RS", "BIC", "BICS", "ASRV", "LSLV", "LSRV", "RORV")
	t.add("R,R,E|X,X,XE|W,W,WE", "ADD", "ADDS", "SUB", "SUBS")
	t.add("R,E|X,XE|W,WE", "CMP")
	t.add("R,E", "TST")
	t.add("R,RS", "NEG", "NEGS")
	t.add("R,R,I,I", "SBFM", "UBFM")
	t.add("R,R,R,I", "EXTR")
	t.add("R,R,R", "MUL", "MNEG")
	t.add("R,R,R,R", "MADD", "MSUB")
	t.add("X,W,W", "SMULL", "UMULL", "SMNEGL", "UMNEGL")
	t.add("X,W,W,X", "SMADDL", "SMSUBL", "UMADDL", "UMSUBL")
	t.add("R,R,R,C", "CSEL", "CSINC", "CSINV", "CSNEG")
	t.add("R,C", "CSET", "CSETM")
	t.add("R,R,C", "CINC")
	// Barriers and system instructions.
	t.add("D", "DMB", "DSB")
	t.add("ICOP|ICOP,X", "IC")
	t.add("DCOP,X", "DC")
	t.add("TLBIOP|TLBIOP,X", "TLBI")
	t.add("X,SYS", "MRS")
	t.add("SYS,X", "MSR")
	return t
}

// aarch64Unsupported says why herd's SIMD, SVE, SME and Morello
// instructions are not read.
func aarch64Unsupported(m string) (string, bool) {
	for _, w := range strings.Fields(`LD1 LD1R LDAP1 LD2 LD2R LD3 LD3R LD4 LD4R ST1 STL1 ST2 ST3 ST4
		ADDV DUP MOVI FMOV LDAPUR STLUR STUR`) {
		if m == w {
			return "SIMD instructions are not supported", true
		}
	}
	for _, w := range strings.Fields(`WHILELT WHILELE WHILELO WHILELS UADDV INDEX RDVL ADDVL PTRUE MOVPRFX
		CNTB CNTH CNTW CNTD INCB INCH INCW INCD`) {
		if m == w {
			return "SVE instructions are not supported", true
		}
	}
	if len(m) == 4 && (strings.HasPrefix(m, "LD") || strings.HasPrefix(m, "ST")) && m[2] >= '1' && m[2] <= '4' && strings.IndexByte("BHWDQ", m[3]) >= 0 {
		return "SVE instructions are not supported", true
	}
	for _, w := range strings.Fields("ADDHA ADDVA MOVA SMSTART SMSTOP") {
		if m == w {
			return "SME instructions are not supported", true
		}
	}
	for _, w := range strings.Fields(`ALIGND ALIGNU BUILD CHKEQ CHKSLD CHKTGD CLRTAG CPY CPYTYPE CPYVALUE
		CSEAL CTHI GCFLGS GCPERM GCSEAL GCTAG GCTYPE GCVALUE LDCT SCFLGS SCTAG SCVALUE SEAL STCT UNSEAL`) {
		if m == w {
			return "Morello instructions are not supported", true
		}
	}
	return "", false
}

// aarch64Reg parses a general-purpose register name, in any case: W0-W30,
// WZR, X0-X30, XZR, SP, and LR (X30).
func aarch64Reg(s string) (Register, bool) {
	u := strings.ToUpper(s)
	switch u {
	case "WZR":
		return Register{Name: "XZR", Width: 32, Text: u}, true
	case "XZR", "SP":
		return Register{Name: u, Width: 64, Text: u}, true
	case "LR":
		return Register{Name: "X30", Width: 64, Text: u}, true
	}
	if len(u) < 2 || len(u) > 3 || (u[0] != 'W' && u[0] != 'X') || !isDigit(u[1]) || len(u) == 3 && (!isDigit(u[2]) || u[1] == '0') {
		return Register{}, false
	}
	n, _ := strconv.Atoi(u[1:])
	if n > 30 {
		return Register{}, false
	}
	if u[0] == 'W' {
		return Register{Name: "X" + u[1:], Width: 32, Text: u}, true
	}
	return Register{Name: u, Width: 64, Text: u}, true
}

// aarch64ShiftWords are the shift and extension keywords.
var aarch64ShiftWords = map[string]bool{
	"LSL": true, "LSR": true, "ASR": true, "ROR": true, "MSL": true,
	"UXTB": true, "UXTH": true, "UXTW": true, "UXTX": true,
	"SXTB": true, "SXTH": true, "SXTW": true, "SXTX": true,
}

// splitWord splits s into its leading letters and the rest, trimmed:
// "LSL #2", "LSL 2" and "LSL#2" all give "LSL" and the amount.
func splitWord(s string) (string, string) {
	n := 0
	for n < len(s) && isLetter(s[n]) {
		n++
	}
	if n < len(s) && (isDigit(s[n]) || s[n] == '.') {
		return s, "" // a name such as "X2" or "L.1", not a word and an amount
	}
	return s[:n], strings.TrimSpace(s[n:])
}

// aarch64Imm reads "#n" or "n".
func aarch64Imm(s string) (int64, bool) {
	return parseImmText(strings.TrimSpace(strings.TrimPrefix(s, "#")))
}

// aarch64Piece reads one operand piece
//
//	Piece = Register | [ "#" ] Int | Memory | Shift [ [ "#" ] Int ] | "." Int | Name .
//	Memory = "[" Register [ "," ( [ "#" ] Int | Register [ "," Shift [ [ "#" ] Int ] ] ) ] "]" [ "!" ] .
func aarch64Piece(s string, off int) (piece, string) {
	pc := piece{off: off, end: off + len(s), text: s}
	switch c := s[0]; {
	case c == '[':
		return aarch64Mem(pc)
	case c == '#' || c == '-' || c == '+' || isDigit(c):
		v, ok := aarch64Imm(s)
		if !ok {
			return pc, "expected integer"
		}
		pc.kind, pc.imm = pImm, v
		return pc, ""
	case c == '.' && len(s) > 1 && !isLetter(s[1]):
		rest := strings.TrimLeft(s[1:], " \t")
		v, ok := aarch64Imm(rest)
		if !ok || rest[0] != '+' && rest[0] != '-' && rest[0] != '#' {
			return pc, "expected .+offset or .-offset"
		}
		pc.kind, pc.imm = pDot, v
		return pc, ""
	}
	word, rest := splitWord(s)
	if w := strings.ToUpper(word); aarch64ShiftWords[w] {
		pc.kind, pc.name = pShift, w
		if rest = strings.TrimSpace(rest); rest != "" {
			v, ok := aarch64Imm(rest)
			if !ok {
				return pc, "expected shift amount"
			}
			pc.imm, pc.hasAmt = v, true
		}
		return pc, ""
	}
	return regOrName(pc, s, aarch64Reg)
}

// aarch64Mem reads a bracketed memory operand.
func aarch64Mem(pc piece) (piece, string) {
	s := pc.text
	if strings.HasSuffix(s, "!") {
		pc.preIndex = true
		s = strings.TrimSpace(s[:len(s)-1])
	}
	if !strings.HasSuffix(s, "]") {
		return pc, "expected ]"
	}
	pc.kind = pMem
	parts := strings.Split(s[1:len(s)-1], ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	base, ok := aarch64Reg(parts[0])
	if !ok || base.Width != 64 {
		return pc, "expected X register or SP as base"
	}
	pc.mem.Base = base
	if len(parts) == 1 {
		if pc.preIndex {
			return pc, "expected offset before ]!"
		}
		return pc, ""
	}
	if len(parts) > 3 {
		return pc, "too many parts"
	}
	if v, ok := aarch64Imm(parts[1]); ok {
		if len(parts) > 2 {
			return pc, "unexpected text after offset"
		}
		pc.mem.Offset = v
		if pc.preIndex {
			pc.mem.Mode = AddrPreIndex
		}
		return pc, ""
	}
	idx, ok := aarch64Reg(parts[1])
	if !ok || idx.Name == "SP" {
		return pc, "expected offset or index register"
	}
	if pc.preIndex {
		return pc, "unexpected ! after register index"
	}
	pc.mem.Index = &idx
	if len(parts) == 3 {
		word, rest := splitWord(parts[2])
		switch w := strings.ToUpper(word); w {
		case "LSL", "UXTW", "SXTW", "SXTX":
			pc.mem.Extend = w
		default:
			return pc, "expected LSL, UXTW, SXTW or SXTX"
		}
		if rest = strings.TrimSpace(rest); rest != "" {
			v, ok := aarch64Imm(rest)
			if !ok || v < 0 || v > 4 {
				return pc, "expected shift amount 0 to 4"
			}
			pc.mem.Amount = v
		}
	}
	return pc, ""
}

var aarch64SlotNames = map[string]string{
	"W": "W register", "X": "X register", "R": "register", "I": "immediate",
	"IS": "immediate", "E": "register or immediate", "RS": "register",
	"XE": "extended register (W or X register with UXTB..SXTX)", "WE": "extended register (W register with UXTB..SXTX)",
	"L": "label", "C": "condition (EQ, NE, ...)", "D": "barrier option (SY, ISH, ISHLD, ...)",
	"M": "memory operand", "MI": "memory operand [Xn{,#imm}]", "MO": "memory operand [Xn{,#imm}]",
	"B": "memory operand [Xn]", "B0": "memory operand [Xn]", "SYS": "system register",
	"ICOP": "IC operation", "DCOP": "DC operation", "TLBIOP": "TLBI operation",
}

func aarch64Describe(m *matcher, code string) string {
	if m.width != 0 {
		w := map[int]string{32: "W", 64: "X"}[m.width]
		switch code {
		case "R", "RS":
			return w + " register"
		case "E":
			return w + " register or immediate"
		}
	}
	return aarch64SlotNames[code]
}

// aarch64Slot matches the slot code against the pieces at m.i.
func aarch64Slot(m *matcher, code string) bool {
	pc := m.peek(0)
	if pc == nil {
		return false
	}
	next := m.peek(1)
	shiftNext := next != nil && next.kind == pShift
	switch code {
	case "W", "X", "R":
		return m.emitReg(pc.kind == pReg && m.regWidth(code, pc.reg), pc)
	case "I":
		return m.emitImm(pc)
	case "IS", "E", "RS":
		switch {
		case pc.kind == pImm && code != "RS":
			o := &Operand{Kind: OpdImm, Imm: pc.imm}
			if !shiftNext {
				return m.emit(o, 1)
			}
			if next.name != "LSL" || !next.hasAmt {
				m.i++
				return m.complain("expected LSL #amount after immediate")
			}
			o.Shift, o.Amount = next.name, next.imm
			return m.emit(o, 2)
		case pc.kind == pReg && code != "IS":
			if !m.regWidth("R", pc.reg) {
				return false
			}
			if !shiftNext {
				return m.emit(&Operand{Kind: OpdReg, R: regPtr(pc.reg)}, 1)
			}
			switch next.name {
			case "LSL", "LSR", "ASR", "ROR":
			default:
				return false // perhaps an extended register
			}
			if !next.hasAmt {
				m.i++
				return m.complain("expected shift amount after " + next.name)
			}
			return m.emit(&Operand{Kind: OpdShiftedReg, R: regPtr(pc.reg), Shift: next.name, Amount: next.imm}, 2)
		}
		return false
	case "XE", "WE":
		if pc.kind != pReg || pc.reg.Name == "SP" || code == "WE" && pc.reg.Width != 32 || !shiftNext {
			return false
		}
		switch next.name {
		case "UXTB", "UXTH", "UXTW", "UXTX", "SXTB", "SXTH", "SXTW", "SXTX":
		default:
			return false
		}
		return m.emit(&Operand{Kind: OpdExtendedReg, R: regPtr(pc.reg), Shift: next.name, Amount: next.imm}, 2)
	case "L":
		switch pc.kind {
		case pName:
			return m.emit(&Operand{Kind: OpdLabel, Label: pc.name}, 1)
		case pDot:
			return m.emit(&Operand{Kind: OpdLabel, Label: ".", Imm: pc.imm}, 1)
		}
		return false
	case "C", "D", "SYS", "ICOP", "DCOP", "TLBIOP":
		if pc.kind != pName {
			return false
		}
		name, ok := lookupFold(aarch64NameSlots[code], pc.name)
		if !ok {
			return false
		}
		o := &Operand{}
		switch code {
		case "C":
			o.Kind, o.Cond = OpdCond, name
		case "D":
			o.Kind, o.Barrier = OpdBarrier, name
		default:
			o.Kind, o.Sys = OpdSys, name
		}
		return m.emit(o, 1)
	case "M", "MI", "MO", "B", "B0":
		if pc.kind != pMem {
			return false
		}
		mem := pc.mem
		n := 1
		if next != nil && next.kind == pImm && mem.Index == nil && mem.Offset == 0 && !pc.preIndex && (code == "M" || code == "MI") {
			mem.Offset, mem.Mode, n = next.imm, AddrPostIndex, 2
		}
		switch {
		case mem.Index != nil && code != "M":
			return m.complain("expected " + aarch64SlotNames[code] + ", found register index")
		case mem.Mode != AddrOffset && (code == "MO" || code == "B" || code == "B0"):
			return m.complain("expected " + aarch64SlotNames[code] + ", found writeback")
		case mem.Offset != 0 && code == "B":
			return m.complain("expected " + aarch64SlotNames[code] + " without offset")
		case mem.Offset != 0 && code == "B0":
			return m.complain("expected " + aarch64SlotNames[code] + " with offset 0")
		}
		return m.emit(&Operand{Kind: OpdMem, Mem: &mem}, n)
	}
	return false
}

// aarch64NameSlots are the names each name slot accepts.
var aarch64NameSlots = map[string][]string{"C": aarch64Conds, "D": aarch64Barriers, "SYS": aarch64SysRegs,
	"ICOP": aarch64ICOps, "DCOP": aarch64DCOps, "TLBIOP": aarch64TLBIOps}

// regWidth checks a register against a W, X or R slot and binds the
// width of R slots.
func (m *matcher) regWidth(code string, r Register) bool {
	switch code {
	case "W":
		return r.Width == 32
	case "X":
		return r.Width == 64
	}
	if m.width == 0 {
		m.width = r.Width
	}
	return r.Width == m.width
}

func regPtr(r Register) *Register { return &r }

// lookupFold finds s in list ignoring case and returns the list's
// spelling.
func lookupFold(list []string, s string) (string, bool) {
	for _, w := range list {
		if strings.EqualFold(w, s) {
			return w, true
		}
	}
	return "", false
}
