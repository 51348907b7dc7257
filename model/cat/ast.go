// Package cat is herd's cat language: the syntax of memory models written
// as files (linux-kernel.cat, aarch64.cat, ...). It holds the scanner, the
// parser and the syntax tree, nothing else: the evaluation of a model over
// candidate executions lives in package model/cat/interp, and the
// candidates in model/axiom (the layering of herd, which keeps the model
// language, its evaluation and the program semantics apart).
//
// The grammar follows herd7's (lib/modelParser.mly, lib/modelLexer.mll of
// herdtools7 7.58); each parse method quotes the production it parses.
package cat

import "github.com/litmus-dev/litmus/litmus"

// Pos is a position in a cat file, as in package litmus.
type Pos = litmus.Pos

// Model is one parsed cat file.
type Model struct {
	File *litmus.File
	// Arch and Name are the optional identity at the top of the file:
	// "AArch64 \"name\"", a lone name, or a lone string.
	Arch, Name string
	Catdep     bool // the "catdep" option: the model computes dependencies
	Stmts      []Stmt
}

// Node is implemented by every syntax tree node.
type Node interface {
	Pos() Pos
}

// ---------------------------------------------------------------------------
// Expressions.

// Expr is a cat expression.
type Expr interface {
	Node
	exprNode()
}

// Op1Kind is a unary operator.
type Op1Kind uint8

// The unary operators.
const (
	OpPlus Op1Kind = iota + 1 // r+
	OpStar                    // r*
	OpOpt                     // r?
	OpComp                    // ~e
	OpInv                     // r^-1
	OpToID                    // [S]
)

var op1Text = [...]string{"", "+", "*", "?", "~", "^-1", "[]"}

func (o Op1Kind) String() string { return op1Text[o] }

// OpKind is an n-ary operator.
type OpKind uint8

// The n-ary operators. Union and Seq are flattened: a | b | c is one Op
// with three arguments.
const (
	OpUnion     OpKind = iota + 1 // |
	OpInter                       // &
	OpDiff                        // \
	OpSeq                         // ;
	OpCartesian                   // S * T
	OpAdd                         // e ++ S
	OpTuple                       // (a, b)
)

var opText = [...]string{"", "|", "&", "\\", ";", "*", "++", ","}

func (o OpKind) String() string { return opText[o] }

type (
	// Empty is 0, the empty set or relation.
	Empty struct{ At Pos }
	// Universe is _, every event.
	Universe struct{ At Pos }
	// Tag is 'name, a tag value.
	Tag struct {
		At   Pos
		Name string
	}
	// Var is a name.
	Var struct {
		At   Pos
		Name string
	}
	// Op1 is a unary operation.
	Op1 struct {
		At Pos
		Op Op1Kind
		X  Expr
	}
	// Op is an n-ary operation.
	Op struct {
		At   Pos
		Op   OpKind
		Args []Expr
	}
	// App is the application of a function: f x, f(x, y).
	App struct {
		At  Pos
		Fun Expr
		Arg Expr
	}
	// Bind is let [rec] bindings in Body.
	Bind struct {
		At       Pos
		Rec      bool
		Bindings []*Binding
		Body     Expr
	}
	// Fun is fun pat -> Body, or the function a binding "let f(x) = e"
	// defines (Name is then f).
	Fun struct {
		At     Pos
		Params Pat
		Body   Expr
		Name   string
	}
	// ExplicitSet is {e1, e2, ...}.
	ExplicitSet struct {
		At    Pos
		Elems []Expr
	}
	// Match is match X with 'tag -> e || ... || _ -> Default end.
	Match struct {
		At      Pos
		X       Expr
		Clauses []Clause
		Default Expr // nil when absent
	}
	// MatchSet is match X with {} -> Empty || e ++ S -> NonEmpty end
	// (or the three-way split Pre | e ++ Post).
	MatchSet struct {
		At    Pos
		X     Expr
		Empty Expr
		// Elt, Rest and Pre name the parts of a non-empty set ("" for
		// _); Pre is set only in the form Pre | Elt ++ Rest.
		Elt, Rest, Pre string
		PreForm        bool
		NonEmpty       Expr
	}
	// Try is try X with Default: Default when X fails (an unbound name).
	Try struct {
		At      Pos
		X       Expr
		Default Expr
	}
	// If is if Cond then Then else Else.
	If struct {
		At         Pos
		Cond       Cond
		Then, Else Expr
	}
)

// Clause is one 'tag -> e clause of a match.
type Clause struct {
	Tag  string
	Body Expr
}

// Pat is the parameter pattern of a function or binding: one name or a
// tuple of names; "" stands for _.
type Pat struct {
	Names []string
	Tuple bool // written (a, b), or () with no name
}

func (e *Empty) Pos() Pos       { return e.At }
func (e *Universe) Pos() Pos    { return e.At }
func (e *Tag) Pos() Pos         { return e.At }
func (e *Var) Pos() Pos         { return e.At }
func (e *Op1) Pos() Pos         { return e.At }
func (e *Op) Pos() Pos          { return e.At }
func (e *App) Pos() Pos         { return e.At }
func (e *Bind) Pos() Pos        { return e.At }
func (e *Fun) Pos() Pos         { return e.At }
func (e *ExplicitSet) Pos() Pos { return e.At }
func (e *Match) Pos() Pos       { return e.At }
func (e *MatchSet) Pos() Pos    { return e.At }
func (e *Try) Pos() Pos         { return e.At }
func (e *If) Pos() Pos          { return e.At }

func (*Empty) exprNode()       {}
func (*Universe) exprNode()    {}
func (*Tag) exprNode()         {}
func (*Var) exprNode()         {}
func (*Op1) exprNode()         {}
func (*Op) exprNode()          {}
func (*App) exprNode()         {}
func (*Bind) exprNode()        {}
func (*Fun) exprNode()         {}
func (*ExplicitSet) exprNode() {}
func (*Match) exprNode()       {}
func (*MatchSet) exprNode()    {}
func (*Try) exprNode()         {}
func (*If) exprNode()          {}

// Binding is one "pat = e" of a let.
type Binding struct {
	At  Pos
	Pat Pat
	X   Expr
}

// Cond is the condition of an if expression.
type Cond interface {
	Node
	condNode()
}

type (
	// EqCond is e1 = e2.
	EqCond struct{ X, Y Expr }
	// SubsetCond is e1 subset e2 (herd's "subset").
	SubsetCond struct{ X, Y Expr }
	// InCond is e1 in e2.
	InCond struct{ X, Y Expr }
	// VariantCond tests variants: "name", not v, v && v, v || v.
	VariantCond struct {
		At Pos
		V  Variant
	}
)

func (c *EqCond) Pos() Pos      { return c.X.Pos() }
func (c *SubsetCond) Pos() Pos  { return c.X.Pos() }
func (c *InCond) Pos() Pos      { return c.X.Pos() }
func (c *VariantCond) Pos() Pos { return c.At }

func (*EqCond) condNode()      {}
func (*SubsetCond) condNode()  {}
func (*InCond) condNode()      {}
func (*VariantCond) condNode() {}

// Variant is a condition on the variants herd runs with ("-variant X").
type Variant struct {
	Name string    // a variant name, when Op is ""
	Op   string    // "", "not", "&&", "||"
	Args []Variant // the operands of Op
}

// ---------------------------------------------------------------------------
// Instructions.

// Stmt is a top-level or procedure instruction.
type Stmt interface {
	Node
	stmtNode()
}

// TestKind is what a failed check does.
type TestKind uint8

// The kinds of check.
const (
	Check           TestKind = iota // the execution is rejected
	Flagged                         // a flag is raised (flag ...)
	UndefinedUnless                 // undefined_unless ...
	Assert                          // assert ...
)

// TestOp is the property a check tests.
type TestOp uint8

// The properties.
const (
	Acyclic TestOp = iota + 1
	Irreflexive
	IsEmpty
)

var testOpText = [...]string{"", "acyclic", "irreflexive", "empty"}

func (o TestOp) String() string { return testOpText[o] }

// AppTest is "[~] acyclic|irreflexive|empty e [as name]".
type AppTest struct {
	At   Pos
	Not  bool // written ~acyclic ...
	Op   TestOp
	X    Expr
	Name string // the "as" name, or ""
}

type (
	// Let is let bindings (and, with Rec, let rec ... [when test]).
	Let struct {
		At       Pos
		Rec      bool
		Bindings []*Binding
		When     *AppTest // let rec ... when test; nil otherwise
	}
	// MatchStmt is match e with 'tag -> instructions || ... end.
	MatchStmt struct {
		At      Pos
		X       Expr
		Clauses []StmtClause
		Default []Stmt // nil when absent
		HasDef  bool
	}
	// Test is a check, a flag, undefined_unless or assert.
	Test struct {
		Kind TestKind
		AppTest
	}
	// Show is show a, b / unshow a, b: display only.
	Show struct {
		At     Pos
		Unshow bool
		Names  []string
	}
	// ShowAs is show e as name: display only.
	ShowAs struct {
		At   Pos
		X    Expr
		Name string
	}
	// Include is include "file".
	Include struct {
		At   Pos
		File string
	}
	// Procedure is procedure [rec] name(params) = body end.
	Procedure struct {
		At     Pos
		Name   string
		Params Pat
		Body   []Stmt
		Rec    bool
	}
	// Call is call name arg [as name].
	Call struct {
		At   Pos
		Name string
		Arg  Expr
		As   string
	}
	// Enum is enum Name = 'a || 'b.
	Enum struct {
		At   Pos
		Name string
		Tags []string
	}
	// Forall is forall x in e do body end.
	Forall struct {
		At   Pos
		Var  string
		Set  Expr
		Body []Stmt
	}
	// Debug is debug e.
	Debug struct {
		At Pos
		X  Expr
	}
	// WithFrom is with x from e: the rest of the model is evaluated once
	// for each member of the set e, with x bound to it.
	WithFrom struct {
		At  Pos
		Var string
		X   Expr
	}
	// Events is a bell declaration "instructions R[Accesses]" (Default
	// for "default R[...]").
	Events struct {
		At      Pos
		Name    string
		Args    []Expr
		Default bool
	}
	// IfVariant is if variant-condition instructions [else instructions] end.
	IfVariant struct {
		At   Pos
		Cond Variant
		Then []Stmt
		Else []Stmt
	}
)

// StmtClause is one 'tag -> instructions clause of a match instruction.
type StmtClause struct {
	Tag  string
	Body []Stmt
}

func (s *Let) Pos() Pos       { return s.At }
func (s *MatchStmt) Pos() Pos { return s.At }
func (s *Test) Pos() Pos      { return s.At }
func (s *Show) Pos() Pos      { return s.At }
func (s *ShowAs) Pos() Pos    { return s.At }
func (s *Include) Pos() Pos   { return s.At }
func (s *Procedure) Pos() Pos { return s.At }
func (s *Call) Pos() Pos      { return s.At }
func (s *Enum) Pos() Pos      { return s.At }
func (s *Forall) Pos() Pos    { return s.At }
func (s *Debug) Pos() Pos     { return s.At }
func (s *WithFrom) Pos() Pos  { return s.At }
func (s *Events) Pos() Pos    { return s.At }
func (s *IfVariant) Pos() Pos { return s.At }

func (*Let) stmtNode()       {}
func (*MatchStmt) stmtNode() {}
func (*Test) stmtNode()      {}
func (*Show) stmtNode()      {}
func (*ShowAs) stmtNode()    {}
func (*Include) stmtNode()   {}
func (*Procedure) stmtNode() {}
func (*Call) stmtNode()      {}
func (*Enum) stmtNode()      {}
func (*Forall) stmtNode()    {}
func (*Debug) stmtNode()     {}
func (*WithFrom) stmtNode()  {}
func (*Events) stmtNode()    {}
func (*IfVariant) stmtNode() {}
