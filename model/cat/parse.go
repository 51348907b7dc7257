package cat

import (
	"fmt"

	"github.com/litmus-dev/litmus/litmus"
)

// maxErrors is how many errors a parse reports before it stops.
const maxErrors = 10

// Parse parses the cat file src, named filename. On a syntax error it
// returns the model parsed so far and a litmus.ErrorList with every error
// found (file:line:col), at most ten.
func Parse(filename string, src []byte) (*Model, error) {
	f := litmus.NewFile(filename, src)
	p := &parser{}
	p.sc = scanner{src: src, file: f, errs: &p.errs}
	p.file = f
	p.advance()
	m := p.parseModel()
	p.errs.Sort()
	return m, p.errs.Err()
}

type tok struct {
	t   token
	pos Pos
	lit string
}

type parser struct {
	sc   scanner
	file *litmus.File
	errs litmus.ErrorList

	tok
	ahead []tok // tokens read past the current one
}

// bailout stops a parse that has reported too many errors.
type bailout struct{}

func (p *parser) advance() {
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	t, pos, lit := p.sc.next()
	for t == tIllegal {
		t, pos, lit = p.sc.next()
	}
	p.tok = tok{t, pos, lit}
}

// peek returns the k-th token after the current one (k >= 1).
func (p *parser) peek(k int) token {
	for len(p.ahead) < k {
		t, pos, lit := p.sc.next()
		for t == tIllegal {
			t, pos, lit = p.sc.next()
		}
		p.ahead = append(p.ahead, tok{t, pos, lit})
	}
	return p.ahead[k-1].t
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	if len(p.errs) > 0 && p.errs[len(p.errs)-1].Pos == p.file.Position(pos) {
		return // one error per position
	}
	p.errs.Add(p.file.Position(pos), fmt.Sprintf(format, args...))
	if len(p.errs) >= maxErrors {
		panic(bailout{})
	}
}

func (p *parser) found() string {
	switch p.t {
	case tName:
		return "name " + p.lit
	case tTag:
		return "tag '" + p.lit
	case tString:
		return fmt.Sprintf("string %q", p.lit)
	case tEOF:
		return "end of file"
	}
	return fmt.Sprintf("%q", p.t.String())
}

// expect consumes a token of kind t, or reports "expected X, found Y".
func (p *parser) expect(t token, what string) Pos {
	pos := p.pos
	if p.t != t {
		if what == "" {
			what = fmt.Sprintf("%q", t.String())
		}
		p.errorf(p.pos, "expected %s, found %s", what, p.found())
		return pos
	}
	p.advance()
	return pos
}

func (p *parser) got(t token) bool {
	if p.t == t {
		p.advance()
		return true
	}
	return false
}

func (p *parser) name(what string) string {
	if p.t != tName {
		p.errorf(p.pos, "expected %s, found %s", what, p.found())
		return "_"
	}
	s := p.lit
	p.advance()
	return s
}

// parseModel parses
//
//	main     = identity [ "catdep" ] { topins } EOF .
//	identity = name name | name string | name | string | .
func (p *parser) parseModel() (m *Model) {
	m = &Model{File: p.file}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
	}()
	switch p.t {
	case tName:
		m.Arch, m.Name = p.lit, p.lit
		p.advance()
		if p.t == tName || p.t == tString {
			m.Name = p.lit
			p.advance()
		}
	case tString:
		m.Arch, m.Name = p.lit, p.lit
		p.advance()
	}
	if p.got(tCatdep) {
		m.Catdep = true
	}
	for p.t != tEOF {
		s := p.parseStmt(true)
		if s == nil {
			p.sync()
			continue
		}
		m.Stmts = append(m.Stmts, s)
	}
	return m
}

// sync skips to a token that can start an instruction.
func (p *parser) sync() {
	p.advance()
	for p.t != tEOF && !startsStmt(p.t) {
		p.advance()
	}
}

func startsStmt(t token) bool {
	switch t {
	case tLet, tMatch, tAcyclic, tIrreflexive, tEmpty, tFlag, tUndefinedUnless, tAssert,
		tShow, tUnshow, tInclude, tProcedure, tCall, tDebug, tForall, tWith, tIf,
		tInstructions, tDefault, tEnum:
		return true
	}
	return false
}

// parseStmts parses instructions up to (not including) one of the
// tokens stop.
func (p *parser) parseStmts(stop ...token) []Stmt {
	var out []Stmt
	for {
		for _, t := range stop {
			if p.t == t {
				return out
			}
		}
		if p.t == tEOF {
			p.errorf(p.pos, "expected %q, found end of file", stop[0].String())
			return out
		}
		s := p.parseStmt(false)
		if s == nil {
			p.sync()
			continue
		}
		out = append(out, s)
	}
}

// parseStmt parses one instruction; top is set at the top level, where
// enum is allowed. It returns nil after reporting an error.
func (p *parser) parseStmt(top bool) Stmt {
	pos := p.pos
	switch p.t {
	case tEnum:
		// topins = "enum" name "=" [ "||" ] tag { "||" tag } .
		if !top {
			p.errorf(pos, "enum is allowed only at the top level")
		}
		p.advance()
		s := &Enum{At: pos, Name: p.name("enum name")}
		p.expect(tEqual, "")
		p.got(tAlt)
		for {
			if p.t != tTag {
				p.errorf(p.pos, "expected tag, found %s", p.found())
				return nil
			}
			s.Tags = append(s.Tags, p.lit)
			p.advance()
			if !p.got(tAlt) {
				return s
			}
		}
	case tLet:
		// ins = "let" pat_bind_list [ "in" ]
		//     | "let" "rec" pat_bind_list [ "when" app_test ] [ "in" ] .
		p.advance()
		s := &Let{At: pos, Rec: p.got(tRec)}
		s.Bindings = p.parseBindings()
		if s.Rec && p.got(tWhen) {
			s.When = p.parseAppTest()
		}
		p.got(tIn)
		return s
	case tMatch:
		// ins = "match" exp "with" [ "||" ] ins_clause { "||" ins_clause } "end" .
		p.advance()
		s := &MatchStmt{At: pos, X: p.parseExp()}
		p.expect(tWith, "")
		p.got(tAlt)
		for {
			switch p.t {
			case tTag:
				tag := p.lit
				p.advance()
				p.expect(tArrow, "")
				s.Clauses = append(s.Clauses, StmtClause{Tag: tag, Body: p.parseStmts(tAlt, tEnd)})
			case tUnderscore:
				p.advance()
				p.expect(tArrow, "")
				s.Default, s.HasDef = p.parseStmts(tAlt, tEnd), true
			default:
				p.errorf(p.pos, "expected tag or _, found %s", p.found())
				return nil
			}
			if !p.got(tAlt) {
				break
			}
		}
		p.expect(tEnd, "")
		return s
	case tAcyclic, tIrreflexive, tEmpty, tComp:
		return &Test{Kind: Check, AppTest: *p.parseAppTest()}
	case tFlag, tUndefinedUnless, tAssert:
		kind := map[token]TestKind{tFlag: Flagged, tUndefinedUnless: UndefinedUnless, tAssert: Assert}[p.t]
		p.advance()
		return &Test{Kind: kind, AppTest: *p.parseAppTest()}
	case tShow, tUnshow:
		// ins = "show" base "as" name | "show" var_list | "unshow" var_list .
		unshow := p.t == tUnshow
		p.advance()
		s := &Show{At: pos, Unshow: unshow}
		if !unshow {
			x := p.parseBase(0)
			if p.got(tAs) {
				return &ShowAs{At: pos, X: x, Name: p.name("name")}
			}
			v, ok := x.(*Var)
			if !ok {
				p.errorf(p.pos, "expected \"as\", found %s", p.found())
				return nil
			}
			s.Names = append(s.Names, v.Name)
			if !p.got(tComma) {
				return s
			}
		}
		for {
			s.Names = append(s.Names, p.name("name"))
			if !p.got(tComma) {
				return s
			}
		}
	case tInclude:
		p.advance()
		if p.t != tString {
			p.errorf(p.pos, "expected file name string, found %s", p.found())
			return nil
		}
		s := &Include{At: pos, File: p.lit}
		p.advance()
		return s
	case tProcedure:
		// ins = "procedure" [ "rec" ] name ( "(" formals ")" | pat0 ) "=" ins_list "end" .
		p.advance()
		s := &Procedure{At: pos, Rec: p.got(tRec)}
		s.Name = p.name("procedure name")
		if p.got(tLpar) {
			s.Params = p.parseFormals(tRpar)
			p.expect(tRpar, "")
		} else {
			s.Params = Pat{Names: []string{p.pat0()}}
		}
		p.expect(tEqual, "")
		s.Body = p.parseStmts(tEnd)
		p.expect(tEnd, "")
		return s
	case tCall:
		// ins = "call" name simple [ "as" name ] .
		p.advance()
		s := &Call{At: pos, Name: p.name("procedure name")}
		s.Arg = p.parseSimple()
		if p.got(tAs) {
			s.As = p.name("name")
		}
		return s
	case tDebug:
		p.advance()
		return &Debug{At: pos, X: p.parseExp()}
	case tForall:
		// ins = "forall" name "in" exp "do" ins_list "end" .
		p.advance()
		s := &Forall{At: pos, Var: p.name("name")}
		p.expect(tIn, "")
		s.Set = p.parseExp()
		p.expect(tDo, "")
		s.Body = p.parseStmts(tEnd)
		p.expect(tEnd, "")
		return s
	case tWith:
		// ins = "with" name "from" exp .
		p.advance()
		s := &WithFrom{At: pos, Var: p.name("name")}
		p.expect(tFrom, "")
		s.X = p.parseExp()
		return s
	case tIf:
		// ins = "if" variant ins_list [ "else" ins_list ] "end" .
		p.advance()
		s := &IfVariant{At: pos, Cond: p.parseVariant()}
		s.Then = p.parseStmts(tElse, tEnd)
		if p.got(tElse) {
			s.Else = p.parseStmts(tEnd)
		}
		p.expect(tEnd, "")
		return s
	case tInstructions, tDefault:
		// ins = ( "instructions" | "default" ) name "[" args "]" .
		def := p.t == tDefault
		p.advance()
		s := &Events{At: pos, Name: p.name("event class"), Default: def}
		p.expect(tLbrack, "")
		s.Args = p.parseArgs(tRbrack)
		p.expect(tRbrack, "")
		return s
	}
	p.errorf(pos, "expected instruction, found %s", p.found())
	return nil
}

// parseAppTest parses
//
//	app_test = [ "~" ] ( "acyclic" | "irreflexive" | "empty" ) exp [ "as" name ] .
func (p *parser) parseAppTest() *AppTest {
	t := &AppTest{At: p.pos}
	t.Not = p.got(tComp)
	switch p.t {
	case tAcyclic:
		t.Op = Acyclic
	case tIrreflexive:
		t.Op = Irreflexive
	case tEmpty:
		t.Op = IsEmpty
	default:
		p.errorf(p.pos, "expected acyclic, irreflexive or empty, found %s", p.found())
		t.X = &Empty{At: p.pos}
		return t
	}
	p.advance()
	t.X = p.parseExp()
	if p.got(tAs) {
		t.Name = p.name("name")
	}
	return t
}

// parseBindings parses
//
//	pat_bind_list = pat_bind { "and" pat_bind } .
//	pat_bind      = "(" formals ")" "=" exp | formalsN "=" exp
//	              | name pat0 "=" exp | name "(" formals ")" "=" exp .
func (p *parser) parseBindings() []*Binding {
	var out []*Binding
	for {
		b := &Binding{At: p.pos}
		switch {
		case p.t == tLpar:
			p.advance()
			b.Pat = p.parseFormals(tRpar)
			b.Pat.Tuple = true
			p.expect(tRpar, "")
			p.expect(tEqual, "")
			b.X = p.parseExp()
		case p.t == tName && p.peek(1) == tLpar:
			name, fpos := p.lit, p.pos
			p.advance()
			p.advance()
			params := p.parseFormals(tRpar)
			params.Tuple = len(params.Names) != 1
			p.expect(tRpar, "")
			p.expect(tEqual, "")
			b.Pat = Pat{Names: []string{name}}
			b.X = &Fun{At: fpos, Params: params, Body: p.parseExp(), Name: name}
		case p.t == tName && (p.peek(1) == tName || p.peek(1) == tUnderscore):
			name, fpos := p.lit, p.pos
			p.advance()
			param := p.pat0()
			p.expect(tEqual, "")
			b.Pat = Pat{Names: []string{name}}
			b.X = &Fun{At: fpos, Params: Pat{Names: []string{param}}, Body: p.parseExp(), Name: name}
		default:
			if p.t == tEqual {
				p.errorf(p.pos, "expected name or _, found %s", p.found())
			}
			b.Pat = p.parseFormals(tEqual)
			b.Pat.Tuple = len(b.Pat.Names) > 1
			p.expect(tEqual, "")
			b.X = p.parseExp()
		}
		out = append(out, b)
		if !p.got(tAndKw) {
			return out
		}
	}
}

// pat0 parses pat0 = "_" | name, returning "" for _.
func (p *parser) pat0() string {
	if p.got(tUnderscore) {
		return ""
	}
	return p.name("name or _")
}

// parseFormals parses formals = [ pat0 { "," pat0 } ], stopping before
// the token end.
func (p *parser) parseFormals(end token) Pat {
	var pat Pat
	if p.t == end {
		pat.Tuple = true
		return pat
	}
	for {
		pat.Names = append(pat.Names, p.pat0())
		if !p.got(tComma) {
			return pat
		}
	}
}

// parseArgs parses args = [ base { "," base } ] before the token end.
func (p *parser) parseArgs(end token) []Expr {
	var out []Expr
	if p.t == end {
		return out
	}
	for {
		out = append(out, p.parseBase(0))
		if !p.got(tComma) {
			return out
		}
	}
}

// parseExp parses
//
//	exp = "let" [ "rec" ] pat_bind_list "in" exp
//	    | "fun" ( pat0 | "(" formals ")" ) "->" exp
//	    | "try" exp "with" exp
//	    | "if" cond "then" exp "else" exp
//	    | "match" exp "with" [ "||" ] ( clause_list | set_clauses ) "end"
//	    | base { "," base } .
func (p *parser) parseExp() Expr {
	pos := p.pos
	switch p.t {
	case tLet:
		p.advance()
		e := &Bind{At: pos, Rec: p.got(tRec)}
		e.Bindings = p.parseBindings()
		p.expect(tIn, "")
		e.Body = p.parseExp()
		return e
	case tFun:
		p.advance()
		f := &Fun{At: pos, Name: "*fun*"}
		if p.got(tLpar) {
			f.Params = p.parseFormals(tRpar)
			f.Params.Tuple = len(f.Params.Names) != 1
			p.expect(tRpar, "")
		} else {
			f.Params = Pat{Names: []string{p.pat0()}}
		}
		p.expect(tArrow, "")
		f.Body = p.parseExp()
		return f
	case tTry:
		p.advance()
		e := &Try{At: pos, X: p.parseExp()}
		p.expect(tWith, "")
		e.Default = p.parseExp()
		return e
	case tIf:
		p.advance()
		e := &If{At: pos, Cond: p.parseCond()}
		p.expect(tThen, "")
		e.Then = p.parseExp()
		p.expect(tElse, "")
		e.Else = p.parseExp()
		return e
	case tMatch:
		return p.parseMatch()
	}
	x := p.parseBase(0)
	if p.t != tComma {
		return x
	}
	tuple := &Op{At: pos, Op: OpTuple, Args: []Expr{x}}
	for p.got(tComma) {
		tuple.Args = append(tuple.Args, p.parseBase(0))
	}
	return tuple
}

// parseMatch parses a match expression.
func (p *parser) parseMatch() Expr {
	pos := p.pos
	p.advance()
	x := p.parseExp()
	p.expect(tWith, "")
	p.got(tAlt)
	isSet := p.t == tLbrace ||
		(p.t == tName || p.t == tUnderscore) && (p.peek(1) == tPlusPlus || p.peek(1) == tUnion)
	if isSet {
		// set_clauses = empty_clause "||" element_clause
		//             | element_clause "||" empty_clause .
		e := &MatchSet{At: pos, X: x}
		for i := 0; i < 2; i++ {
			if i == 1 {
				p.expect(tAlt, "")
			}
			if p.got(tLbrace) {
				p.expect(tRbrace, "")
				p.expect(tArrow, "")
				e.Empty = p.parseExp()
				continue
			}
			a := p.pat0()
			if p.got(tUnion) {
				e.PreForm, e.Pre = true, a
				a = p.pat0()
			}
			p.expect(tPlusPlus, "")
			e.Elt, e.Rest = a, p.pat0()
			p.expect(tArrow, "")
			e.NonEmpty = p.parseExp()
		}
		if e.Empty == nil || e.NonEmpty == nil {
			p.errorf(pos, "a set match needs one {} clause and one e ++ s clause")
		}
		p.expect(tEnd, "")
		return e
	}
	e := &Match{At: pos, X: x}
	for {
		switch p.t {
		case tTag:
			tag := p.lit
			p.advance()
			p.expect(tArrow, "")
			e.Clauses = append(e.Clauses, Clause{Tag: tag, Body: p.parseExp()})
		case tUnderscore:
			p.advance()
			p.expect(tArrow, "")
			e.Default = p.parseExp()
		default:
			p.errorf(p.pos, "expected tag or _, found %s", p.found())
			return e
		}
		if !p.got(tAlt) {
			break
		}
	}
	p.expect(tEnd, "")
	return e
}

// parseCond parses
//
//	cond = exp "=" exp | exp "subset" exp | exp "in" exp | variant .
func (p *parser) parseCond() Cond {
	pos := p.pos
	if p.isVariantStart() {
		return &VariantCond{At: pos, V: p.parseVariant()}
	}
	x := p.parseExp()
	switch p.t {
	case tEqual:
		p.advance()
		return &EqCond{X: x, Y: p.parseExp()}
	case tSubset:
		p.advance()
		return &SubsetCond{X: x, Y: p.parseExp()}
	case tIn:
		p.advance()
		return &InCond{X: x, Y: p.parseExp()}
	}
	p.errorf(p.pos, "expected =, subset or in, found %s", p.found())
	return &EqCond{X: x, Y: x}
}

func (p *parser) isVariantStart() bool {
	k := 0
	t := p.t
	for t == tLpar {
		k++
		t = p.peek(k)
	}
	return t == tString || t == tVariant || t == tNot
}

// parseVariant parses
//
//	variant = "variant" string | string | "not" variant
//	        | variant "&&" variant | variant "||" variant | "(" variant ")" .
//
// with && binding tighter than ||, as in herd (%left ALT, %left LAND).
func (p *parser) parseVariant() Variant {
	v := p.parseVariantAnd()
	for p.t == tAlt && p.isVariantAfter() {
		p.advance()
		v = Variant{Op: "||", Args: []Variant{v, p.parseVariantAnd()}}
	}
	return v
}

// isVariantAfter reports whether the token after the current || starts a
// variant (a "||" may also end the clause of an enclosing match).
func (p *parser) isVariantAfter() bool {
	t := p.peek(1)
	return t == tString || t == tVariant || t == tNot || t == tLpar
}

func (p *parser) parseVariantAnd() Variant {
	v := p.parseVariantAtom()
	for p.got(tAnd) {
		v = Variant{Op: "&&", Args: []Variant{v, p.parseVariantAtom()}}
	}
	return v
}

func (p *parser) parseVariantAtom() Variant {
	switch p.t {
	case tVariant:
		p.advance()
		return p.parseVariantAtom()
	case tString:
		v := Variant{Name: p.lit}
		p.advance()
		return v
	case tNot:
		p.advance()
		return Variant{Op: "not", Args: []Variant{p.parseVariantAtom()}}
	case tLpar:
		p.advance()
		v := p.parseVariant()
		p.expect(tRpar, "")
		return v
	}
	p.errorf(p.pos, "expected variant string, found %s", p.found())
	return Variant{Name: "?"}
}

// Operator precedences of base, lowest first, as in herd's grammar:
// %right | ; %right ++ ; %right ; ; %left \ ; %right & ;
// %nonassoc * + ? ~ ; %nonassoc ^.
const (
	precUnion = 1 + iota
	precAdd
	precSeq
	precDiff
	precInter
	precPostfix
)

// parseBase parses a base expression whose operators bind at least as
// tightly as min:
//
//	base = simple | exp0 | base "*" base | base ( "*" | "+" | "?" | "^-1" )
//	     | base ( "|" | "++" | ";" | "\" | "&" ) base | "~" base .
func (p *parser) parseBase(min int) Expr {
	x := p.parseUnary()
	for {
		pos := p.pos
		switch p.t {
		case tStar:
			if min > precPostfix {
				return x
			}
			p.advance()
			if startsOperand(p.t) {
				y := p.parseBase(precPostfix + 1)
				x = &Op{At: pos, Op: OpCartesian, Args: []Expr{x, y}}
			} else {
				x = &Op1{At: pos, Op: OpStar, X: x}
			}
		case tPlus, tOpt:
			if min > precPostfix {
				return x
			}
			op := OpPlus
			if p.t == tOpt {
				op = OpOpt
			}
			p.advance()
			x = &Op1{At: pos, Op: op, X: x}
		case tHat:
			p.advance()
			p.expect(tInv, `"-1"`)
			x = &Op1{At: pos, Op: OpInv, X: x}
		case tUnion, tPlusPlus, tSemi, tDiff, tInter:
			prec, op, right := binOp(p.t)
			if prec < min {
				return x
			}
			p.advance()
			next := prec + 1
			if right {
				next = prec
			}
			y := p.parseBase(next)
			if op == OpUnion || op == OpSeq {
				// Flatten: a | b | c is one Op, as herd's do_op.
				args := flatten(op, x)
				args = append(args, flatten(op, y)...)
				x = &Op{At: x.Pos(), Op: op, Args: args}
			} else {
				x = &Op{At: pos, Op: op, Args: []Expr{x, y}}
			}
		default:
			return x
		}
	}
}

func flatten(op OpKind, e Expr) []Expr {
	if o, ok := e.(*Op); ok && o.Op == op {
		return o.Args
	}
	return []Expr{e}
}

func binOp(t token) (prec int, op OpKind, right bool) {
	switch t {
	case tUnion:
		return precUnion, OpUnion, true
	case tPlusPlus:
		return precAdd, OpAdd, true
	case tSemi:
		return precSeq, OpSeq, true
	case tDiff:
		return precDiff, OpDiff, false
	case tInter:
		return precInter, OpInter, true
	}
	return 0, 0, false
}

// startsOperand reports whether t can start a base expression.
func startsOperand(t token) bool {
	switch t {
	case tName, tTag, tLbrace, tUnderscore, tLpar, tBegin, tLbrack, tZero, tComp:
		return true
	}
	return false
}

// startsArg reports whether t can start a function argument.
func startsArg(t token) bool { return t != tComp && startsOperand(t) }

func (p *parser) parseUnary() Expr {
	if p.t == tComp {
		pos := p.pos
		p.advance()
		return &Op1{At: pos, Op: OpComp, X: p.parseBase(precPostfix)}
	}
	if p.t == tName {
		// exp0 = name | exp0 arg ; arg = name | simple .
		var x Expr = &Var{At: p.pos, Name: p.lit}
		p.advance()
		for startsArg(p.t) {
			pos := p.pos
			var arg Expr
			if p.t == tName {
				arg = &Var{At: p.pos, Name: p.lit}
				p.advance()
			} else {
				arg = p.parseSimple()
			}
			x = &App{At: pos, Fun: x, Arg: arg}
		}
		return x
	}
	return p.parseSimple()
}

// parseSimple parses
//
//	simple = "0" | tag | "{" args "}" | "_" | "(" ")" | "(" exp ")"
//	       | "begin" exp "end" | "[" exp "]" .
func (p *parser) parseSimple() Expr {
	pos := p.pos
	switch p.t {
	case tZero:
		p.advance()
		return &Empty{At: pos}
	case tTag:
		e := &Tag{At: pos, Name: p.lit}
		p.advance()
		return e
	case tName:
		e := &Var{At: pos, Name: p.lit}
		p.advance()
		return e
	case tLbrace:
		p.advance()
		e := &ExplicitSet{At: pos, Elems: p.parseArgs(tRbrace)}
		p.expect(tRbrace, "")
		return e
	case tUnderscore:
		p.advance()
		return &Universe{At: pos}
	case tLpar:
		p.advance()
		if p.got(tRpar) {
			return &Op{At: pos, Op: OpTuple}
		}
		e := p.parseExp()
		p.expect(tRpar, "")
		return e
	case tBegin:
		p.advance()
		e := p.parseExp()
		p.expect(tEnd, "")
		return e
	case tLbrack:
		p.advance()
		e := &Op1{At: pos, Op: OpToID, X: p.parseExp()}
		p.expect(tRbrack, "")
		return e
	}
	p.errorf(pos, "expected expression, found %s", p.found())
	p.advance()
	return &Empty{At: pos}
}
