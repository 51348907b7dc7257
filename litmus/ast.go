package litmus

// This file declares the syntax tree of a litmus test. Node names follow
// herd7's grammar: a test is a header, an init block, the processes (C code
// or assembly columns) and the final section (locations, filter, condition).
// The tree is syntax only: no node knows what a primitive means; the
// primitive table (primitives.go) is data that the model layer reads.

// Node is implemented by every syntax tree node.
type Node interface {
	Pos() Pos // first byte of the node
	End() Pos // first byte after the node
}

// Arch names a litmus dialect, as written in the header.
type Arch string

// The dialects this package reads.
const (
	ArchC       Arch = "C"
	ArchX86     Arch = "X86"    // herd's Intel syntax
	ArchX8664   Arch = "X86_64" // herd's AT&T syntax
	ArchAArch64 Arch = "AArch64"
	ArchRISCV   Arch = "RISCV"
	ArchPPC     Arch = "PPC" // POWER
)

// Test is one parsed litmus file.
type Test struct {
	File *File
	// Prims is the primitive table the test was parsed with (ParseWith),
	// nil for the built-in one; Test.Primitive looks calls up there.
	Prims    Table
	Arch     Arch
	ArchPos  Pos
	Name     string
	NamePos  Pos
	Doc      string     // the optional quoted string after the header, unquoted
	Meta     []*Meta    // header lines key=value (X86 "Cycle=...", "Variant=...")
	Comments []*Comment // every (* *) comment outside the code, in source order
	Init     []*InitItem
	// Objects group init locations at byte offsets (object.go); a
	// location in none is an object of its own.
	Objects []*Object
	InitPos Pos // the '{' of the init block
	Procs   []*Proc
	// Final section. Each part is optional; Cond is nil when the test has
	// no final condition.
	Locations  []*LocRef
	Filter     Prop
	Cond       *Cond
	Invariants []*Invariant // our extension: invariant (P)
	EndPos     Pos
	// Code is set for a code test (a C prelude of kernel code): the
	// objects and paths the test was flattened with; Init, Procs and
	// the final section are then the flattened test (lower.go).
	Code *Code
}

// Pos and End implement Node.
func (t *Test) Pos() Pos { return t.ArchPos }
func (t *Test) End() Pos { return t.EndPos }

// Meta is a header line "Key=Value" (X86 tests) kept for printing. In
// AArch64, RISCV and PPC tests, a line between the header and the init
// block that is not "Key=Value" is kept whole in Value with an empty
// Key: herd's splitter skips such lines.
type Meta struct {
	KeyPos Pos
	Key    string
	Value  string
}

// Comment is a (* ... *) comment; Text excludes the delimiters.
type Comment struct {
	Start, Stop Pos
	Text        string
}

// InitItem is one entry of the init block, for instance
//
//	x=1;  int x = 1;  int *p = &x;  atomic_t a = ATOMIC_INIT(1);
//	0:r1=2;  p=x (herd: the address of x);  int64_t t[2]={1,-1};
//	uint64_t x;  [x]=1 (X86);  0:EAX=1;  0:rax=t;  int 0:r1;
type InitItem struct {
	ItemPos Pos
	Type    string // C type as written ("int", "int *", "atomic_t"), or ""
	Proc    int    // thread of a register ("0:r1"), or -1 for a shared location
	Name    string
	Bracket bool // written [x]
	Len     int  // array length for t[N], else 0
	Value   Expr // nil when absent; IntLit, Ident (address), UnaryExpr &x, CallExpr ATOMIC_INIT(v), BraceList
	EndPos  Pos
}

// Pos and End implement Node.
func (i *InitItem) Pos() Pos { return i.ItemPos }
func (i *InitItem) End() Pos { return i.EndPos }

// Proc is one thread: a C function P0(...) { ... } or one column of
// assembly code.
type Proc struct {
	ProcPos Pos
	ID      int      // the N of PN
	Params  []*Param // C only
	Body    *BlockStmt
	Code    []*Instr     // assembly dialects only, in program order
	LISA    []*LISAInstr // LISA only, in program order
	EndPos  Pos
}

// Pos and End implement Node.
func (p *Proc) Pos() Pos { return p.ProcPos }
func (p *Proc) End() Pos { return p.EndPos }

// Param is a C process parameter, e.g. "int *x", "spinlock_t *l",
// "struct srcu_struct *s", "atomic_t *a".
type Param struct {
	Type string // as written, normalised to single spaces: "int *", "struct srcu_struct *"
	Name *Ident
}

// Pos and End implement Node.
func (p *Param) Pos() Pos { return p.Name.Pos() }
func (p *Param) End() Pos { return p.Name.End() }

// ---------------------------------------------------------------------------
// C statements.

// Stmt is a C statement.
type Stmt interface {
	Node
	stmtNode()
}

type (
	// BlockStmt is { List }.
	BlockStmt struct {
		Lbrace Pos
		List   []Stmt
		Rbrace Pos
	}
	// DeclStmt is a local declaration "Type Name [= Init];". A declaration
	// of several names is split into several DeclStmts.
	DeclStmt struct {
		TypePos Pos
		Type    string // "int", "int *", "unsigned long"
		Name    *Ident
		Init    Expr // or nil
		EndPos  Pos
	}
	// AssignStmt is "LHS Op RHS;" with Op one of = += -= &= |= ^= <<= >>=,
	// or "LHS++;" / "LHS--;" with Op "++"/"--" and RHS nil.
	AssignStmt struct {
		LHS    Expr
		OpPos  Pos
		Op     string
		RHS    Expr
		EndPos Pos
	}
	// ExprStmt is an expression used as a statement, e.g. smp_mb();
	// Void reports that it was written with a discarding cast,
	// "(void)atomic_add_unless(v, 1, 0);", which the printer keeps and
	// the model may ignore.
	ExprStmt struct {
		X      Expr
		Void   bool
		EndPos Pos
	}
	// IfStmt is if (Cond) Then [else Else].
	IfStmt struct {
		If   Pos
		Cond Expr
		Then Stmt
		Else Stmt // nil, *IfStmt, *BlockStmt or another Stmt
	}
	// WhileStmt is while (Cond) Body.
	WhileStmt struct {
		While Pos
		Cond  Expr
		Body  Stmt
	}
	// DoWhileStmt is do Body while (Cond);
	DoWhileStmt struct {
		Do     Pos
		Body   Stmt
		Cond   Expr
		EndPos Pos
	}
	// ForStmt is for (Init; Cond; Post) Body; each part may be nil.
	ForStmt struct {
		For  Pos
		Init Stmt
		Cond Expr
		Post Stmt
		Body Stmt
	}
	// BranchStmt is break; or continue;
	BranchStmt struct {
		TokPos Pos
		Tok    string // "break" or "continue"
	}
	// EmptyStmt is a lone ;
	EmptyStmt struct {
		Semi Pos
	}
)

func (s *BlockStmt) Pos() Pos   { return s.Lbrace }
func (s *BlockStmt) End() Pos   { return s.Rbrace + 1 }
func (s *DeclStmt) Pos() Pos    { return s.TypePos }
func (s *DeclStmt) End() Pos    { return s.EndPos }
func (s *AssignStmt) Pos() Pos  { return s.LHS.Pos() }
func (s *AssignStmt) End() Pos  { return s.EndPos }
func (s *ExprStmt) Pos() Pos    { return s.X.Pos() }
func (s *ExprStmt) End() Pos    { return s.EndPos }
func (s *IfStmt) Pos() Pos      { return s.If }
func (s *WhileStmt) Pos() Pos   { return s.While }
func (s *DoWhileStmt) Pos() Pos { return s.Do }
func (s *DoWhileStmt) End() Pos { return s.EndPos }
func (s *ForStmt) Pos() Pos     { return s.For }
func (s *ForStmt) End() Pos     { return s.Body.End() }
func (s *BranchStmt) Pos() Pos  { return s.TokPos }
func (s *BranchStmt) End() Pos  { return s.TokPos + Pos(len(s.Tok)) + 1 }
func (s *EmptyStmt) Pos() Pos   { return s.Semi }
func (s *EmptyStmt) End() Pos   { return s.Semi + 1 }
func (s *WhileStmt) End() Pos   { return s.Body.End() }
func (s *IfStmt) End() Pos {
	if s.Else != nil {
		return s.Else.End()
	}
	return s.Then.End()
}

func (*BlockStmt) stmtNode()   {}
func (*DeclStmt) stmtNode()    {}
func (*AssignStmt) stmtNode()  {}
func (*ExprStmt) stmtNode()    {}
func (*IfStmt) stmtNode()      {}
func (*WhileStmt) stmtNode()   {}
func (*DoWhileStmt) stmtNode() {}
func (*ForStmt) stmtNode()     {}
func (*BranchStmt) stmtNode()  {}
func (*EmptyStmt) stmtNode()   {}

// ---------------------------------------------------------------------------
// C expressions.

// Expr is a C expression.
type Expr interface {
	Node
	exprNode()
}

type (
	// Ident is a name: a register, a parameter, a shared location.
	Ident struct {
		NamePos Pos
		Name    string
	}
	// IntLit is an integer literal; Text is as written (decimal or 0x..).
	IntLit struct {
		ValuePos Pos
		Value    int64
		Text     string
	}
	// UnaryExpr is Op X with Op one of - ! ~ * &.
	UnaryExpr struct {
		OpPos Pos
		Op    string
		X     Expr
	}
	// BinaryExpr is X Op Y with Op one of
	// + - * / % & | ^ << >> == != < <= > >= && ||.
	BinaryExpr struct {
		X     Expr
		OpPos Pos
		Op    string
		Y     Expr
	}
	// CondExpr is Cond ? X : Y.
	CondExpr struct {
		Cond, X, Y Expr
	}
	// CallExpr is Fun(Args): a kernel primitive such as READ_ONCE(*x).
	CallExpr struct {
		Fun    *Ident
		Lparen Pos
		Args   []Expr
		Rparen Pos
	}
	// ParenExpr is (X).
	ParenExpr struct {
		Lparen Pos
		X      Expr
		Rparen Pos
	}
	// IndexExpr is X[Index].
	IndexExpr struct {
		X      Expr
		Index  Expr
		Rbrack Pos
	}
	// CastExpr is (Type)X, e.g. (int *)r1 or (uintptr_t)p. A (void)
	// cast of a whole expression statement is ExprStmt.Void instead.
	CastExpr struct {
		Lparen Pos
		Type   string // normalised like Param.Type: "int *", "unsigned long"
		Rparen Pos
		X      Expr
	}
	// BraceList is {Elems} in an init block.
	BraceList struct {
		Lbrace Pos
		Elems  []Expr
		Rbrace Pos
	}
)

func (e *Ident) Pos() Pos      { return e.NamePos }
func (e *Ident) End() Pos      { return e.NamePos + Pos(len(e.Name)) }
func (e *IntLit) Pos() Pos     { return e.ValuePos }
func (e *IntLit) End() Pos     { return e.ValuePos + Pos(len(e.Text)) }
func (e *UnaryExpr) Pos() Pos  { return e.OpPos }
func (e *UnaryExpr) End() Pos  { return e.X.End() }
func (e *BinaryExpr) Pos() Pos { return e.X.Pos() }
func (e *BinaryExpr) End() Pos { return e.Y.End() }
func (e *CondExpr) Pos() Pos   { return e.Cond.Pos() }
func (e *CondExpr) End() Pos   { return e.Y.End() }
func (e *CallExpr) Pos() Pos   { return e.Fun.Pos() }
func (e *CallExpr) End() Pos   { return e.Rparen + 1 }
func (e *ParenExpr) Pos() Pos  { return e.Lparen }
func (e *ParenExpr) End() Pos  { return e.Rparen + 1 }
func (e *IndexExpr) Pos() Pos  { return e.X.Pos() }
func (e *IndexExpr) End() Pos  { return e.Rbrack + 1 }
func (e *CastExpr) Pos() Pos   { return e.Lparen }
func (e *CastExpr) End() Pos   { return e.X.End() }
func (e *BraceList) Pos() Pos  { return e.Lbrace }
func (e *BraceList) End() Pos  { return e.Rbrace + 1 }

func (*Ident) exprNode()      {}
func (*IntLit) exprNode()     {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
func (*CondExpr) exprNode()   {}
func (*CallExpr) exprNode()   {}
func (*ParenExpr) exprNode()  {}
func (*IndexExpr) exprNode()  {}
func (*CastExpr) exprNode()   {}
func (*BraceList) exprNode()  {}

// ---------------------------------------------------------------------------
// Assembly (X86, X86_64, AArch64, RISCV and PPC).

// Instr is one assembly instruction, or a label line (Label != "" and
// Op == "").
//
// For X86 and X86_64, Op is the mnemonic as written and each operand
// keeps the text it was written with; Mnemonic is empty.
//
// For AArch64, RISCV and PPC, Op is still the mnemonic as written (the
// printer writes it back unchanged) and Mnemonic is its normalised
// spelling: upper case for AArch64 ("LDADDAL", "B.EQ"), lower case for
// RISCV ("amoswap.w.aq.rl", "lw.aq", "fence.tso") and PPC ("stwcx.",
// "lwsync"). Pure aliases that herd reads as the same instruction are
// folded: AArch64 B.NONE, B.ANY, ... become B.EQ, B.NE, ...; RISC-V
// ".aqrl" becomes ".aq.rl"; PPC hwsync becomes sync, bnl bge and bng
// ble. Args are typed operands in the order written, one per operand of
// the instruction: "ADD X0,X1,X2,LSL #2" has three, the last an
// OpdShiftedReg. Operand shapes are checked against the instruction
// (docs/language.md lists them), so the semantics can index Args
// directly.
type Instr struct {
	InstrPos Pos
	Label    string     // "L0x31" for a line "L0x31:"
	Prefix   string     // "LOCK" when written with a lock prefix, upper-case (X86 only)
	Op       string     // mnemonic as written, e.g. "MOV", "movl", "xchgl", "ldr", "amoor.w.aqrl"
	Mnemonic string     // AArch64, RISCV, PPC: the normalised mnemonic; "" for X86
	Args     []*Operand // in the order written (Intel: dst,src; AT&T: src,dst)
	EndPos   Pos
}

// Pos and End implement Node.
func (i *Instr) Pos() Pos { return i.InstrPos }
func (i *Instr) End() Pos { return i.EndPos }

// OperandKind says what an Operand is.
type OperandKind int

// Operand kinds. The first four serve every dialect; the others occur
// only in AArch64, RISCV and PPC code.
const (
	OpdReg   OperandKind = iota // EAX, %eax; W1, X2, SP; x5, a0; r3, cr0
	OpdImm                      // $1 (Intel and AT&T), #1 (AArch64), 1 (RISCV, PPC), or a bare number where herd allows it
	OpdMem                      // [x], (x), 0(%rax,%rbx,8), [x+EAX]; [X1,#8], [X1],#8; 8(x5); 0(r2), r2,r3
	OpdLabel                    // a branch target; AArch64 also ".+4" (Label "." and Imm the offset)

	OpdShiftedReg  // AArch64 register with a shift: "X2,LSL #2" (R, Shift, Amount)
	OpdExtendedReg // AArch64 register with an extension: "W2,SXTW #2" (R, Shift, Amount)
	OpdCond        // AArch64 condition code: Cond "EQ", "NE", ...
	OpdBarrier     // AArch64 DMB/DSB option: Barrier "SY", "ISH", "ISHLD", "LD", ...
	OpdFenceSet    // RISCV fence predecessor or successor set: Fence "r", "w", "rw", "ir", "ow", "iorw"
	OpdSys         // AArch64 system operand: Sys "ELR_EL1" (MRS, MSR), "CVAU" (DC), "IVAU" (IC), "VMALLE1IS" (TLBI)
	OpdSym         // RISCV "la" operand: Sym names a shared location
)

// Operand is one instruction operand.
type Operand struct {
	OpdPos Pos
	Kind   OperandKind
	Reg    string // OpdReg: X86 register as written without '%'; AArch64, RISCV, PPC: R.Text
	Imm    int64  // OpdImm; OpdLabel ".+N": N
	Label  string // OpdLabel
	// X86 OpdMem: address = Sym + Disp + Base + Index*Scale; Seg is an
	// optional segment override ("cs"), kept for printing. OpdSym: Sym.
	Sym   string
	Disp  int64
	Base  string
	Index string
	Scale int
	Seg   string
	// Text is the operand as written for X86 and X86_64. For AArch64,
	// RISCV and PPC it is the canonical spelling, a function of the
	// fields below: "#1", "X2,LSL #2", "[X1,W2,SXTW]", "0(x5)", "r2,r3";
	// the printer writes it in lower case after a lower-case mnemonic.
	Text string

	// The fields below are set for AArch64, RISCV and PPC only.

	// R is the register of OpdReg, OpdShiftedReg and OpdExtendedReg.
	R *Register
	// Mem is the address of OpdMem.
	Mem *MemRef
	// Shift is the shift of OpdShiftedReg ("LSL", "LSR", "ASR",
	// "ROR") or of a shifted OpdImm ("LSL", as in "MOVZ X0,#1,LSL #16"
	// or "ADD X0,X1,#1,LSL #12"); the extension of
	// OpdExtendedReg ("UXTB", "UXTH", "UXTW", "UXTX", "SXTB", "SXTH",
	// "SXTW", "SXTX"). Amount is its amount, 0 when not written.
	Shift  string
	Amount int64
	// Cond, Barrier, Fence and Sys name the operand of those kinds, in
	// canonical case (upper case for AArch64, lower case for RISCV).
	Cond    string
	Barrier string
	Fence   string
	Sys     string
	// EndPos is the first byte after the operand as written; for X86
	// it is not set and End uses the length of Text.
	EndPos Pos
}

// Pos and End implement Node.
func (o *Operand) Pos() Pos { return o.OpdPos }
func (o *Operand) End() Pos {
	if o.EndPos.IsValid() {
		return o.EndPos
	}
	return o.OpdPos + Pos(len(o.Text))
}

// Register is a machine register of AArch64, RISCV or PPC code, as an
// operand or inside a memory operand.
type Register struct {
	// Name is the canonical name of the whole register: AArch64 "X0"
	// to "X30", "XZR" (the zero register, also for WZR) and "SP";
	// RISCV "x0" to "x31" (ABI names map to these: a0 is x10); PPC
	// "r0" to "r31", "cr0" to "cr7" (condition register fields), "lr".
	Name string
	// Width is the number of bits the operand reads or writes: 32 for
	// AArch64 W registers and WZR, 64 for X registers, XZR, SP, RISCV
	// and PPC general registers; 4 for a PPC condition register field.
	Width int
	// Text is the register's canonical spelling: AArch64 in upper case
	// ("W1", "WZR", "LR"), RISCV and PPC in lower case, RISCV ABI names
	// kept ("a0", "x10", "r1").
	Text string
}

// AddrMode is how an AArch64 memory operand updates its base register.
type AddrMode int

// Addressing modes.
const (
	AddrOffset    AddrMode = iota // [X1], [X1,#8], [X1,X2]: the base is not written
	AddrPreIndex                  // [X1,#8]!: address X1+8, then X1 += 8
	AddrPostIndex                 // [X1],#8: address X1, then X1 += 8
)

// MemRef is the address of an AArch64, RISCV or PPC memory operand:
// Base + Offset, or Base + extend(Index) << Amount.
//
//	AArch64 [X1]           Base X1
//	        [X1,#8]        Base X1, Offset 8
//	        [X1,#8]!       Base X1, Offset 8, Mode AddrPreIndex
//	        [X1],#8        Base X1, Offset 8, Mode AddrPostIndex
//	        [X1,X2]        Base X1, Index X2
//	        [X1,W2,SXTW]   Base X1, Index W2, Extend "SXTW"
//	        [X1,X2,LSL #3] Base X1, Index X2, Extend "LSL", Amount 3
//	RISCV   8(x5), (x5)    Base x5, Offset 8 or 0
//	PPC     8(r2), 8,r2    Base r2, Offset 8
//	        r2,r3          Base r2, Index r3 (the indexed forms lwzx,
//	                       stwx, lwarx, stwcx., dcbf, ...)
//
// In PPC, a Base of r0 reads as the value 0, not as the register (the
// architecture's "(RA|0)"); the parser keeps what is written.
type MemRef struct {
	Base   Register
	Offset int64
	Index  *Register
	Extend string // AArch64 index modifier: "", "LSL", "UXTW", "SXTW", "SXTX"
	Amount int64  // AArch64 index shift amount, 0 when not written
	Mode   AddrMode
}

// ---------------------------------------------------------------------------
// Final section: locations, filter, condition, invariants.

// Quant is the quantifier of a final condition.
type Quant string

// The quantifiers.
const (
	Exists    Quant = "exists"
	NotExists Quant = "~exists"
	Forall    Quant = "forall"
)

// Cond is the final condition "Quant Prop".
type Cond struct {
	QuantPos Pos
	Quant    Quant
	Prop     Prop
}

// Pos and End implement Node.
func (c *Cond) Pos() Pos { return c.QuantPos }
func (c *Cond) End() Pos { return c.Prop.End() }

// Invariant is our extension "invariant (Prop)": Prop must hold in every
// reachable state, not only the final ones.
type Invariant struct {
	InvPos Pos
	Prop   Prop
}

// Pos and End implement Node.
func (i *Invariant) Pos() Pos { return i.InvPos }
func (i *Invariant) End() Pos { return i.Prop.End() }

// Prop is a proposition of the condition language.
type Prop interface {
	Node
	propNode()
}

type (
	// AtomProp is "Loc = Val" or "Loc != Val".
	AtomProp struct {
		Loc *LocRef
		Op  string // "=" or "!="
		Val *Value
	}
	// NotProp is ~X (also "not X").
	NotProp struct {
		Tilde Pos
		X     Prop
	}
	// BinProp is X Op Y with Op one of /\ \/ =>.
	BinProp struct {
		X  Prop
		Op string
		Y  Prop
	}
	// BoolProp is true or false.
	BoolProp struct {
		ValuePos Pos
		Value    bool
	}
	// ParenProp is (X).
	ParenProp struct {
		Lparen Pos
		X      Prop
		Rparen Pos
	}
)

func (p *AtomProp) Pos() Pos { return p.Loc.Pos() }
func (p *AtomProp) End() Pos { return p.Val.End() }
func (p *NotProp) Pos() Pos  { return p.Tilde }
func (p *NotProp) End() Pos  { return p.X.End() }
func (p *BinProp) Pos() Pos  { return p.X.Pos() }
func (p *BinProp) End() Pos  { return p.Y.End() }
func (p *BoolProp) Pos() Pos { return p.ValuePos }
func (p *BoolProp) End() Pos {
	if p.Value {
		return p.ValuePos + 4 // true
	}
	return p.ValuePos + 5 // false
}
func (p *ParenProp) Pos() Pos { return p.Lparen }
func (p *ParenProp) End() Pos { return p.Rparen + 1 }

func (*AtomProp) propNode()  {}
func (*NotProp) propNode()   {}
func (*BinProp) propNode()   {}
func (*BoolProp) propNode()  {}
func (*ParenProp) propNode() {}

// LocRef names a register "0:r0", a shared location "x" or "[x]", or an
// array element "t[1]" in the final section.
type LocRef struct {
	LocPos  Pos
	Proc    int // thread of a register, or -1
	Name    string
	Bracket bool // written [x]
	Index   int  // element index for t[1], or -1
	// Type is the type a locations section gives the location for
	// printing, herd's "1:r1*", "x int" or "x int*": "*", "int",
	// "int*"; "" when none.
	Type   string
	EndPos Pos
}

// Pos and End implement Node.
func (l *LocRef) Pos() Pos { return l.LocPos }
func (l *LocRef) End() Pos { return l.EndPos }

// Value is the right-hand side of an AtomProp: an integer, or a name (the
// address of a shared location, as in "0:r1=x", or in herd's location
// equality "x=y" the value of location y when Loc is set).
type Value struct {
	ValPos Pos
	IsInt  bool
	Int    int64
	Text   string  // AArch64, RISCV, PPC: the integer as written when not plain decimal ("0x10"), else ""
	Sym    string  // the name, when !IsInt
	Loc    *LocRef // set for a register or bracketed name on the right, e.g. "0:r1=1:r2"
	EndPos Pos
}

// Pos and End implement Node.
func (v *Value) Pos() Pos { return v.ValPos }
func (v *Value) End() Pos { return v.EndPos }
