package litmus

// This file declares the nodes that only a code test has: a test whose C
// prelude (between the header and the init block) defines macros, types
// and functions (docs/language.md, "Kernel C"). The parser builds them;
// lowering (lower.go) replaces them by the plain nodes of ast.go before
// Parse returns, so no engine ever sees one.

type (
	// MemberExpr is X.Name or X->Name.
	MemberExpr struct {
		X     Expr
		Arrow bool
		Name  *Ident
	}
	// ReturnStmt is return [X];
	ReturnStmt struct {
		Return Pos
		X      Expr // nil for a bare return
		EndPos Pos
	}
	// TypeArg is a type written as a call's argument, as in
	// container_of(p, struct tcp_sock, inet_conn.icsk_inet.sk).
	TypeArg struct {
		TypePos Pos
		Type    string
		EndPos  Pos
	}
	// IndirectCall is a call through an expression, as in
	// sk->sk_write_space(sk).
	IndirectCall struct {
		Fun    Expr
		Args   []Expr
		Rparen Pos
	}
	// SwitchStmt is switch (Tag) { Clauses }.
	SwitchStmt struct {
		Switch  Pos
		Tag     Expr
		Clauses []*CaseClause
		Rbrace  Pos
	}
	// CaseClause is "case V:" (Values, one per label of consecutive
	// labels with no statement between them) or "default:" (Default),
	// and the statements up to the next label.
	CaseClause struct {
		Case    Pos
		Values  []Expr
		Default bool
		Body    []Stmt
	}
	// GotoStmt is goto Label;
	GotoStmt struct {
		Goto   Pos
		Label  *Ident
		EndPos Pos
	}
	// LabeledStmt is Label: Stmt.
	LabeledStmt struct {
		Label *Ident
		Stmt  Stmt
	}
)

func (e *MemberExpr) Pos() Pos   { return e.X.Pos() }
func (e *MemberExpr) End() Pos   { return e.Name.End() }
func (s *ReturnStmt) Pos() Pos   { return s.Return }
func (s *ReturnStmt) End() Pos   { return s.EndPos }
func (e *TypeArg) Pos() Pos      { return e.TypePos }
func (e *TypeArg) End() Pos      { return e.EndPos }
func (e *IndirectCall) Pos() Pos { return e.Fun.Pos() }
func (e *IndirectCall) End() Pos { return e.Rparen + 1 }

func (s *SwitchStmt) Pos() Pos  { return s.Switch }
func (s *SwitchStmt) End() Pos  { return s.Rbrace + 1 }
func (s *GotoStmt) Pos() Pos    { return s.Goto }
func (s *GotoStmt) End() Pos    { return s.EndPos }
func (s *LabeledStmt) Pos() Pos { return s.Label.Pos() }
func (s *LabeledStmt) End() Pos { return s.Stmt.End() }

func (*SwitchStmt) stmtNode()   {}
func (*GotoStmt) stmtNode()     {}
func (*LabeledStmt) stmtNode()  {}
func (*MemberExpr) exprNode()   {}
func (*ReturnStmt) stmtNode()   {}
func (*TypeArg) exprNode()      {}
func (*IndirectCall) exprNode() {}

// Code describes the kernel C of a code test after lowering: the objects
// of the init block with the scalar locations each was flattened into,
// and notes on what the flattened test could not say in herd's dialect.
// Test.Code is nil for a plain test.
type Code struct {
	Objects []*CodeObject
	// Paths maps each scalar's path as conditions write it
	// ("tp.inet_conn.icsk_inet.sk.sk_wakeups", "rg.slots[1].val") to
	// its flattened location name.
	Paths map[string]string
	// Names maps a flattened location name back to its path.
	Names map[string]string
	// Notes says, with a position, what herd's C cannot express in the
	// flattened test; empty when the flattened test is exact.
	Notes []string
}

// CodeObject is one object of a code test's init block.
type CodeObject struct {
	Name string
	Type string // "struct tcp_sock", "int"
	Size int    // in bytes, by the kernel's LP64 layout
	// Scalars are its scalar locations by offset.
	Scalars []CodeScalar
}

// CodeScalar is one scalar of an object: a location at object+Offset.
type CodeScalar struct {
	Path   string // "tp.inet_conn.icsk_inet.sk.sk_wakeups"
	Loc    string // the flattened location name
	Offset int
	Type   string
}
