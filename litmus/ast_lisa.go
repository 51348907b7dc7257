package litmus

// This file declares the syntax of herd's LISA dialect ("Litmus
// Instruction Set Architecture", herd's BellBase): a generic assembly
// whose instructions carry annotations in brackets that name the events'
// sets in a bell file, as in
//
//	r[once] r1 x     w[release] y r2     f[mb]     rmw[mb] r3 (add r3 1) z
//	mov r4 (xor r1 r1)     b[] r4 SKIP     SKIP:     call[sync]
//
// The tree keeps the annotations as written: what they mean is the
// model's business (model/lkmm maps them to the LKMM's tags).

// ArchLISA is herd's LISA dialect.
const ArchLISA Arch = "LISA"

// LISAInstr is one LISA instruction, or a label line (Label != "" and
// Op == "").
type LISAInstr struct {
	InstrPos Pos
	Label    string
	// Op is the mnemonic: "r", "w", "f", "rmw", "b", "mov" or "call".
	Op string
	// Annots are the annotations in brackets, as written, for r, w, f,
	// rmw and b; for call, the one name in brackets.
	Annots []string
	// Reg is the register r, rmw and mov write, or the register a
	// conditional b tests ("" for an unconditional branch).
	Reg string
	// Addr is the location r, w and rmw access.
	Addr *LISAAddr
	// Val is the value w stores: a register or an integer.
	Val *LISAArg
	// Expr is the operation mov and rmw compute.
	Expr *LISAExpr
	// Target is the label b jumps to.
	Target string
	// FenceSets reports whether f has herd's two label sets,
	// "f[ann] {L1,L2} {L3}", kept in From and To.
	FenceSets bool
	From, To  []string
	EndPos    Pos
}

// Pos and End implement Node.
func (i *LISAInstr) Pos() Pos { return i.InstrPos }
func (i *LISAInstr) End() Pos { return i.EndPos }

// LISAArgKind says what a LISAArg is.
type LISAArgKind int

// LISAArg kinds.
const (
	LISAReg  LISAArgKind = iota // r1
	LISAName                    // x: the address of location x
	LISAInt                     // 1, -1, 0x10
)

// LISAArg is an operand: a register, a location name or an integer.
type LISAArg struct {
	ArgPos Pos
	Kind   LISAArgKind
	Name   string // the register or the location, as written
	Int    int64  // LISAInt
	Text   string // as written
}

// Pos and End implement Node.
func (a *LISAArg) Pos() Pos { return a.ArgPos }
func (a *LISAArg) End() Pos { return a.ArgPos + Pos(len(a.Text)) }

// LISAAddr is a location operand: Base, a register holding an address or
// a location name, plus an optional offset (a register or an integer), as
// in "x", "r1" and "x+r2".
type LISAAddr struct {
	Base *LISAArg
	Off  *LISAArg // nil when absent
}

// Pos and End implement Node.
func (a *LISAAddr) Pos() Pos { return a.Base.Pos() }
func (a *LISAAddr) End() Pos {
	if a.Off != nil {
		return a.Off.End()
	}
	return a.Base.End()
}

// LISAExpr is the operation of mov and rmw: an operand alone (Op == "")
// or "(Op X Y)" with Op one of add, xor, and, eq and neq (herd's "ne" is
// read as neq).
type LISAExpr struct {
	Lparen Pos // NoPos for an operand alone
	Op     string
	X, Y   *LISAArg
	Rparen Pos
}

// Pos and End implement Node.
func (e *LISAExpr) Pos() Pos {
	if e.Op == "" {
		return e.X.Pos()
	}
	return e.Lparen
}
func (e *LISAExpr) End() Pos {
	if e.Op == "" {
		return e.X.End()
	}
	return e.Rparen + 1
}

// lisaOps are the operators of LISAExpr, as herd's LISA lexer spells
// them, with the spelling the tree keeps.
var lisaOps = map[string]string{"add": "add", "xor": "xor", "and": "and", "eq": "eq", "ne": "neq", "neq": "neq"}
