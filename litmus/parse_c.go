package litmus

import (
	"fmt"
	"strconv"
)

// isFinalStart reports whether the current token starts the final section.
func (p *parser) isFinalStart() bool {
	if p.tok == tIdent {
		switch p.lit {
		case "exists", "forall", "locations", "filter", "invariant":
			return true
		}
	}
	return p.is("~")
}

// procID returns N for a process name "PN".
func procID(name string) (int, bool) {
	if len(name) < 2 || name[0] != 'P' {
		return 0, false
	}
	for i := 1; i < len(name); i++ {
		if !isDigit(name[i]) {
			return 0, false
		}
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || n > 1<<16 {
		return 0, false
	}
	return n, true
}

// parseCProcs parses
//
//	Procs = { Proc } .
func (p *parser) parseCProcs() {
	seen := map[int]bool{}
	for p.tok != tEOF && !p.isFinalStart() {
		id, ok := procID(p.lit)
		if p.tok != tIdent || !ok {
			p.errorExpected("process PN")
			// Skip to the next process or the final section.
			for p.tok != tEOF && !p.isFinalStart() {
				if _, ok := procID(p.lit); ok && p.tok == tIdent {
					break
				}
				p.next()
			}
			continue
		}
		// herd7 refuses a test whose threads are not P0, P1, ... in
		// order ("Processes must be P0, P1, ..."): a gap would leave a
		// thread number with no code, which the models and the compiled
		// tests would read differently.
		switch want := len(p.test.Procs); {
		case seen[id]:
			p.error(p.pos, fmt.Sprintf("duplicate process P%d", id))
		case id != want:
			p.error(p.pos, fmt.Sprintf("expected process P%d, found P%d (threads are numbered P0, P1, ... in order, as herd7 requires)", want, id))
		}
		seen[id] = true
		p.test.Procs = append(p.test.Procs, p.parseCProc(id))
	}
}

// parseCProc parses
//
//	Proc = "P" Int "(" [ Param { "," Param } ] ")" Block .
//
// The current token is the process name.
func (p *parser) parseCProc(id int) *Proc {
	proc := &Proc{ProcPos: p.pos, ID: id}
	p.next()
	p.expect("(")
	if p.isIdent("void") {
		p.next()
	}
	for !p.is(")") && p.tok != tEOF && !p.is("{") {
		if prm := p.parseParam(); prm != nil {
			proc.Params = append(proc.Params, prm)
		}
		if !p.got(",") {
			break
		}
	}
	p.expect(")")
	if !p.is("{") {
		p.errorExpected("{")
		p.skipTo("{")
		if p.tok == tEOF {
			proc.EndPos = p.pos
			return proc
		}
	}
	proc.Body = p.parseBlock(true)
	proc.EndPos = proc.Body.End()
	return proc
}

// parseParam parses
//
//	Param = Type Name .
func (p *parser) parseParam() *Param {
	var toks []initTok
	for p.tok != tEOF && !p.is(",") && !p.is(")") && !p.is("{") {
		toks = append(toks, initTok{p.tok, p.pos, p.lit})
		p.next()
	}
	if len(toks) == 0 {
		p.errorExpected("parameter")
		return nil
	}
	last := toks[len(toks)-1]
	if last.kind != tIdent {
		p.error(last.pos, "expected parameter name, found '"+last.lit+"'")
		return nil
	}
	if len(toks) == 1 {
		p.error(last.pos, "expected type before parameter "+last.lit)
		return nil
	}
	typ, ok := p.typeString(toks[:len(toks)-1])
	if !ok {
		return nil
	}
	return &Param{Type: typ, Name: &Ident{NamePos: last.pos, Name: last.lit}}
}

// parseBlock parses
//
//	Block = "{" { Stmt } "}" .
//
// With body set the block is a process body: the scanner switches to C
// comments inside and back to herd's (* *) comments after it.
func (p *parser) parseBlock(body bool) *BlockStmt {
	b := &BlockStmt{Lbrace: p.pos}
	if body {
		p.sc.ocaml = false
	}
	p.expect("{")
	b.List = p.parseStmtList()
	b.Rbrace = p.pos
	if body {
		p.sc.ocaml = true
	}
	if !p.is("}") {
		p.errorExpected("}")
		return b
	}
	p.next()
	return b
}

// parseStmtList parses
//
//	StmtList = { Decl | Stmt } .
//
// up to a '}' or EOF.
func (p *parser) parseStmtList() []Stmt {
	var list []Stmt
	for !p.is("}") && p.tok != tEOF {
		start := p.pos
		if p.isTypeStart() {
			list = append(list, p.parseDecl(true)...)
		} else if s := p.parseStmt(); s != nil {
			list = append(list, s)
		}
		if p.pos == start {
			p.next() // always make progress
		}
	}
	return list
}

// typeWords are the identifiers that start a C type. Any other
// identifier ending in "_t" (atomic_t, spinlock_t, uint64_t) is a type
// too.
var typeWords = map[string]bool{
	"int": true, "char": true, "short": true, "long": true, "unsigned": true,
	"signed": true, "const": true, "volatile": true, "struct": true,
	"union": true, "void": true, "bool": true, "_Bool": true,
	"u8": true, "u16": true, "u32": true, "u64": true,
	"s8": true, "s16": true, "s32": true, "s64": true,
}

func isTypeWord(s string) bool {
	return typeWords[s] || len(s) > 2 && s[len(s)-2:] == "_t"
}

// isTypeStart reports whether the current token starts a declaration.
func (p *parser) isTypeStart() bool { return p.tok == tIdent && p.typeWord(p.lit) }

// typeWord is isTypeWord, plus in a code test the prelude's typedef
// names and enum.
func (p *parser) typeWord(s string) bool {
	if p.code != nil && (p.code.typedefs[s] != nil || s == "enum" || s == "static") {
		return true
	}
	return isTypeWord(s)
}

// parseType parses
//
//	Type = TypeWord { TypeWord | Ident-after-struct } .
//
// and returns the base type words (stars belong to the declarators).
func (p *parser) parseType() []string {
	var words []string
	for p.tok == tIdent && (p.typeWord(p.lit) || len(words) > 0 && (words[len(words)-1] == "struct" || words[len(words)-1] == "union" || words[len(words)-1] == "enum")) {
		words = append(words, p.lit)
		p.next()
	}
	return words
}

// parseDecl parses
//
//	Decl = Type Declarator { "," Declarator } ";" .
//	Declarator = { "*" } Name [ "=" Expr ] .
//
// Each declarator becomes one DeclStmt. With semi unset (a for clause)
// the ';' is left to the caller.
func (p *parser) parseDecl(semi bool) []Stmt {
	typePos := p.pos
	words := p.parseType()
	var out []Stmt
	for {
		stars := ""
		for p.is("*") {
			stars += "*"
			p.next()
		}
		if p.tok != tIdent {
			p.errorExpected("name in declaration")
			p.syncStmt()
			return out
		}
		d := &DeclStmt{TypePos: typePos, Type: joinType(words, stars), Name: &Ident{NamePos: p.pos, Name: p.lit}}
		p.next()
		d.EndPos = d.Name.End()
		if p.got("=") {
			d.Init = p.parseExpr()
			d.EndPos = d.Init.End()
		}
		out = append(out, d)
		if !p.got(",") {
			break
		}
	}
	if semi {
		if p.is(";") {
			out[len(out)-1].(*DeclStmt).EndPos = p.pos + 1
		}
		p.expectSemi()
	}
	return out
}

// expectSemi consumes a ';' or reports its absence and skips to the end
// of the statement.
func (p *parser) expectSemi() {
	if p.got(";") {
		return
	}
	if p.file.Position(Pos(p.prevEnd+1)).Line < p.file.Position(p.pos).Line {
		// The ';' is missing at the end of a line: say so there, and
		// carry on with the next line as the next statement.
		p.errorAt(p.prevEnd, "expected ; at end of line, found newline")
		return
	}
	p.errorExpected(";")
	p.syncStmt()
}

// syncStmt skips to just after the next ';', or to the next '}' or EOF.
func (p *parser) syncStmt() {
	for p.tok != tEOF && !p.is("}") {
		if p.got(";") {
			return
		}
		p.next()
	}
}

// parseStmt parses
//
//	Stmt = Block | IfStmt | WhileStmt | DoWhileStmt | ForStmt
//	     | "break" ";" | "continue" ";" | ";" | SimpleStmt ";" .
func (p *parser) parseStmt() Stmt {
	p.enter()
	defer p.leave()
	switch {
	case p.is("{"):
		return p.parseBlock(false)
	case p.is(";"):
		s := &EmptyStmt{Semi: p.pos}
		p.next()
		return s
	case p.tok == tIdent:
		switch p.lit {
		case "if":
			return p.parseIf()
		case "return":
			if p.code != nil {
				return p.parseReturn()
			}
		case "switch", "goto":
			if p.code == nil && !p.keywordIsName() {
				p.error(p.pos, p.lit+" is kernel C that herd's C does not have: a code test (a test with a prelude) may use it")
				p.syncStmt()
				return nil
			}
			if p.code != nil && !p.keywordIsName() {
				if p.lit == "switch" {
					return p.parseSwitch()
				}
				return p.parseGoto()
			}
		case "case", "default":
			if p.code != nil && !p.keywordIsName() {
				p.error(p.pos, p.lit+" label outside a switch")
				p.syncStmt()
				return nil
			}
		case "while":
			return p.parseWhile()
		case "do", "for", "break", "continue":
			if p.keywordIsName() {
				break
			}
			switch p.lit {
			case "do":
				return p.parseDoWhile()
			case "for":
				return p.parseFor()
			}
			s := &BranchStmt{TokPos: p.pos, Tok: p.lit}
			p.next()
			p.expectSemi()
			return s
		}
		if p.isTypeStart() {
			p.error(p.pos, "declaration not allowed here")
			p.syncStmt()
			return nil
		}
		if p.code != nil && p.peekOp(":") {
			// A label, the target of a goto.
			l := &LabeledStmt{Label: &Ident{NamePos: p.pos, Name: p.lit}}
			p.next()
			p.next()
			if p.is("}") {
				l.Stmt = &EmptyStmt{Semi: p.pos} // a label at the end of a block
			} else if l.Stmt = p.parseStmt(); l.Stmt == nil {
				l.Stmt = &EmptyStmt{Semi: p.pos}
			}
			return l
		}
	}
	if p.tok != tIdent && p.tok != tInt && !p.is("(") && !p.is("*") && !p.is("++") && !p.is("--") && !p.is("-") && !p.is("!") && !p.is("~") && !p.is("&") {
		p.errorExpected("statement")
		p.syncStmt()
		return nil
	}
	s := p.parseSimpleStmt()
	if s == nil {
		p.syncStmt()
		return nil
	}
	if p.is(";") {
		setEnd(s, p.pos+1)
	}
	p.expectSemi()
	return s
}

// keywordIsName reports whether the current token, one of the C keywords
// do, for, break and continue, is used as a register name, as in
// "continue = 1;": herd's C lexer reserves only if, else and while, so
// herd7 reads these words as names, and a test may assign to one. It
// looks one token ahead for an assignment operator, "++" or "--".
func (p *parser) keywordIsName() bool {
	sc := p.sc
	sc.onComment, sc.onError = nil, func(int, string) {}
	tok, _, lit := sc.scan()
	return tok == tOp && (assignOps[lit] || lit == "++" || lit == "--")
}

// setEnd records the end of a simple statement, including its ';'.
func setEnd(s Stmt, end Pos) {
	switch s := s.(type) {
	case *AssignStmt:
		s.EndPos = end
	case *ExprStmt:
		s.EndPos = end
	}
}

// assignOps are the assignment operators of AssignStmt.
var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

// parseSimpleStmt parses
//
//	SimpleStmt = Expr [ AssignOp Expr | "++" | "--" ] | ( "++" | "--" ) Expr
//	           | "(" "void" ")" Expr .
func (p *parser) parseSimpleStmt() Stmt {
	if p.is("++") || p.is("--") {
		opPos, op := p.pos, p.lit
		p.next()
		x := p.parseUnary()
		p.checkLvalue(x)
		return &AssignStmt{LHS: x, OpPos: opPos, Op: op, EndPos: x.End()}
	}
	x := p.parseExpr()
	if c, ok := x.(*CastExpr); ok && c.Type == "void" {
		return &ExprStmt{X: c.X, Void: true, EndPos: x.End()}
	}
	if p.tok == tOp && assignOps[p.lit] {
		opPos, op := p.pos, p.lit
		p.checkLvalue(x)
		p.next()
		y := p.parseExpr()
		return &AssignStmt{LHS: x, OpPos: opPos, Op: op, RHS: y, EndPos: y.End()}
	}
	if p.is("++") || p.is("--") {
		s := &AssignStmt{LHS: x, OpPos: p.pos, Op: p.lit, EndPos: p.pos + 2}
		p.checkLvalue(x)
		p.next()
		return s
	}
	return &ExprStmt{X: x, EndPos: x.End()}
}

// checkLvalue reports an assignment target that is not a name, *p or t[i].
func (p *parser) checkLvalue(x Expr) {
	switch x := x.(type) {
	case *Ident, *IndexExpr, *badExpr, *MemberExpr:
		return
	case *UnaryExpr:
		if x.Op == "*" {
			return
		}
	case *ParenExpr:
		p.checkLvalue(x.X)
		return
	}
	p.error(x.Pos(), "cannot assign to this expression")
}

// parseIf parses
//
//	IfStmt = "if" "(" Expr ")" Stmt [ "else" Stmt ] .
func (p *parser) parseIf() Stmt {
	s := &IfStmt{If: p.pos}
	p.next()
	s.Cond = p.parseParenCond()
	s.Then = p.parseBody()
	if p.isIdent("else") {
		p.next()
		s.Else = p.parseBody()
	}
	return s
}

// parseBody parses
//
//	Body = Stmt .
//
// the statement under if, else, while, do or for; a missing one becomes
// an EmptyStmt so that End always works.
func (p *parser) parseBody() Stmt {
	pos := p.pos
	if p.isTypeStart() {
		p.error(p.pos, "declaration not allowed here")
		p.syncStmt()
		return &EmptyStmt{Semi: pos}
	}
	if s := p.parseStmt(); s != nil {
		return s
	}
	return &EmptyStmt{Semi: pos}
}

// parseParenCond parses
//
//	ParenCond = "(" Expr ")" .
func (p *parser) parseParenCond() Expr {
	p.expect("(")
	x := p.parseExpr()
	p.expect(")")
	return x
}

// parseWhile parses
//
//	WhileStmt = "while" "(" Expr ")" Stmt .
func (p *parser) parseWhile() Stmt {
	s := &WhileStmt{While: p.pos}
	p.next()
	s.Cond = p.parseParenCond()
	s.Body = p.parseBody()
	return s
}

// parseDoWhile parses
//
//	DoWhileStmt = "do" Stmt "while" "(" Expr ")" ";" .
func (p *parser) parseDoWhile() Stmt {
	s := &DoWhileStmt{Do: p.pos}
	p.next()
	s.Body = p.parseBody()
	if !p.isIdent("while") {
		p.errorExpected("while")
		s.Cond = &badExpr{From: p.pos, To: p.pos}
		s.EndPos = p.pos
		p.syncStmt()
		return s
	}
	p.next()
	s.Cond = p.parseParenCond()
	s.EndPos = p.pos + 1
	p.expectSemi()
	return s
}

// parseFor parses
//
//	ForStmt = "for" "(" [ Decl | SimpleStmt ] ";" [ Expr ] ";" [ SimpleStmt ] ")" Stmt .
func (p *parser) parseFor() Stmt {
	s := &ForStmt{For: p.pos}
	p.next()
	p.expect("(")
	if !p.is(";") {
		if p.isTypeStart() {
			ds := p.parseDecl(false)
			if len(ds) > 0 {
				s.Init = ds[0]
			}
			if len(ds) > 1 {
				p.error(ds[1].Pos(), "only one declaration allowed in a for clause")
			}
		} else {
			s.Init = p.parseSimpleStmt()
		}
	}
	p.expect(";")
	if !p.is(";") {
		s.Cond = p.parseExpr()
	}
	p.expect(";")
	if !p.is(")") {
		s.Post = p.parseSimpleStmt()
	}
	p.expect(")")
	s.Body = p.parseBody()
	return s
}

// parseReturn parses
//
//	ReturnStmt = "return" [ Expr ] ";" .
//
// parseSwitch parses
//
//	Switch = "switch" "(" Expr ")" "{" { Label { Stmt } } "}" .
//	Label = "case" Expr ":" | "default" ":" .
func (p *parser) parseSwitch() Stmt {
	s := &SwitchStmt{Switch: p.pos}
	p.next()
	p.expect("(")
	s.Tag = p.parseExpr()
	p.expect(")")
	p.expect("{")
	var cur *CaseClause
	for !p.is("}") && p.tok != tEOF {
		start := p.pos
		if p.tok == tIdent && (p.lit == "case" || p.lit == "default") {
			if cur == nil || len(cur.Body) > 0 || cur.Default || p.lit == "default" {
				cur = &CaseClause{Case: p.pos}
				s.Clauses = append(s.Clauses, cur)
			}
			if p.lit == "case" {
				p.next()
				cur.Values = append(cur.Values, p.parseExpr())
			} else {
				p.next()
				cur.Default = true
			}
			p.expect(":")
			continue
		}
		if cur == nil {
			p.error(p.pos, "statement before the first case label of a switch")
			p.syncStmt()
		} else if p.isTypeStart() {
			cur.Body = append(cur.Body, p.parseDecl(true)...)
		} else if st := p.parseStmt(); st != nil {
			cur.Body = append(cur.Body, st)
		}
		if p.pos == start {
			p.next()
		}
	}
	s.Rbrace = p.pos
	p.expect("}")
	return s
}

// parseGoto parses "goto" Label ";".
func (p *parser) parseGoto() Stmt {
	s := &GotoStmt{Goto: p.pos}
	p.next()
	if p.tok != tIdent {
		p.errorExpected("label")
		p.syncStmt()
		return nil
	}
	s.Label = &Ident{NamePos: p.pos, Name: p.lit}
	p.next()
	s.EndPos = p.pos + 1
	p.expectSemi()
	return s
}

func (p *parser) parseReturn() Stmt {
	s := &ReturnStmt{Return: p.pos}
	p.next()
	if !p.is(";") {
		s.X = p.parseExpr()
	}
	s.EndPos = p.pos + 1
	p.expectSemi()
	return s
}
