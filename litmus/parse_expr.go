package litmus

import (
	"fmt"
	"strings"
)

// badExpr stands for an expression that failed to parse. It never
// escapes Parse, which returns no tree when there are errors.
type badExpr struct{ From, To Pos }

func (e *badExpr) Pos() Pos { return e.From }
func (e *badExpr) End() Pos { return e.To }
func (*badExpr) exprNode()  {}

// binaryPrec gives the precedence of C's binary operators (higher binds
// tighter), as in C11 6.5.
var binaryPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5,
	"==": 6, "!=": 6,
	"<": 7, "<=": 7, ">": 7, ">=": 7,
	"<<": 8, ">>": 8,
	"+": 9, "-": 9,
	"*": 10, "/": 10, "%": 10,
}

// parseExpr parses
//
//	Expr = BinaryExpr [ "?" Expr ":" Expr ] .
func (p *parser) parseExpr() Expr {
	p.enter()
	defer p.leave()
	x := p.parseBinary(1)
	if p.is("?") {
		p.next()
		y := p.parseExpr()
		p.expect(":")
		z := p.parseExpr()
		return &CondExpr{Cond: x, X: y, Y: z}
	}
	return x
}

// parseBinary parses
//
//	BinaryExpr = UnaryExpr { BinaryOp UnaryExpr } .
//
// by precedence climbing, left-associative, operators of at least prec.
func (p *parser) parseBinary(prec int) Expr {
	x := p.parseUnary()
	for {
		if p.tok != tOp {
			return x
		}
		q, ok := binaryPrec[p.lit]
		if !ok || q < prec {
			return x
		}
		opPos, op := p.pos, p.lit
		p.next()
		y := p.parseBinary(q + 1)
		x = &BinaryExpr{X: x, OpPos: opPos, Op: op, Y: y}
	}
}

// parseUnary parses
//
//	UnaryExpr = ( "-" | "+" | "!" | "~" | "*" | "&" ) UnaryExpr
//	          | "(" Type ")" UnaryExpr | PostfixExpr .
//
// A minus sign before an integer literal folds into the literal, so that
// -1 is the IntLit -1 as in the init block and the condition.
func (p *parser) parseUnary() Expr {
	p.enter()
	defer p.leave()
	if p.tok == tOp {
		switch p.lit {
		case "-", "+", "!", "~", "*", "&":
			opPos, op := p.pos, p.lit
			p.next()
			x := p.parseUnary()
			if lit, ok := x.(*IntLit); ok && op == "-" && !strings.HasPrefix(lit.Text, "-") && lit.ValuePos == opPos+1 {
				return &IntLit{ValuePos: opPos, Value: -lit.Value, Text: "-" + lit.Text}
			}
			return &UnaryExpr{OpPos: opPos, Op: op, X: x}
		case "(":
			if p.isCast() {
				return p.parseCast()
			}
		}
	}
	return p.parsePostfix()
}

// isCast reports whether the current '(' starts a cast: the token after
// it is a type word. It peeks with a copy of the scanner.
func (p *parser) isCast() bool {
	if p.code != nil {
		t, _ := p.peekTok()
		return t.kind == tIdent && p.typeWord(t.lit)
	}
	s := p.sc
	s.onComment = nil
	s.onError = func(int, string) {}
	tok, _, lit := s.scan()
	return tok == tIdent && isTypeWord(lit)
}

// parseCast parses
//
//	Cast = "(" Type { "*" } ")" UnaryExpr .
func (p *parser) parseCast() Expr {
	c := &CastExpr{Lparen: p.pos}
	p.next()
	words := p.parseType()
	stars := ""
	for p.is("*") {
		stars += "*"
		p.next()
	}
	c.Type = joinType(words, stars)
	c.Rparen = p.expect(")")
	c.X = p.parseUnary()
	return c
}

// parsePostfix parses
//
//	PostfixExpr = PrimaryExpr { "[" Expr "]" } .
//	PrimaryExpr = Ident | Int | Call | "(" Expr ")" .
func (p *parser) parsePostfix() Expr {
	x := offsetCall(p.parsePrimary())
	for {
		switch {
		case p.is("["):
			p.next()
			i := p.parseExpr()
			x = &IndexExpr{X: x, Index: i, Rbrack: p.pos}
			p.expect("]")
		case p.code != nil && (p.is(".") || p.is("->")):
			arrow := p.lit == "->"
			p.next()
			if p.tok != tIdent {
				p.errorExpected("member name")
				return x
			}
			x = &MemberExpr{X: x, Arrow: arrow, Name: &Ident{NamePos: p.pos, Name: p.lit}}
			p.next()
		case p.code != nil && p.is("("):
			c := &IndirectCall{Fun: x}
			p.next()
			for !p.is(")") && p.tok != tEOF {
				c.Args = append(c.Args, p.parseExpr())
				if !p.got(",") {
					break
				}
			}
			c.Rparen = p.expect(")")
			x = c
		default:
			return x
		}
	}
}

// parsePrimary parses
//
//	PrimaryExpr = Ident | Int | Call | "(" Expr ")" .
func (p *parser) parsePrimary() Expr {
	pos := p.pos
	switch {
	case p.tok == tIdent:
		id := &Ident{NamePos: pos, Name: p.lit}
		p.next()
		if p.is("(") {
			return p.parseCall(id)
		}
		return id
	case p.tok == tInt:
		v, ok := parseIntLit(p.lit)
		if !ok {
			p.error(pos, "invalid integer literal "+p.lit)
		}
		lit := &IntLit{ValuePos: pos, Value: v, Text: p.lit}
		p.next()
		return lit
	case p.is("("):
		p.next()
		x := p.parseExpr()
		e := &ParenExpr{Lparen: pos, X: x, Rparen: p.pos}
		p.expect(")")
		return e
	}
	p.errorExpected("expression")
	return &badExpr{From: pos, To: pos}
}

// parseCall parses
//
//	Call = Ident "(" [ Expr { "," Expr } ] ")" .
//
// and checks the name and argument count against the primitive table.
func (p *parser) parseCall(fun *Ident) Expr {
	c := &CallExpr{Fun: fun, Lparen: p.pos}
	p.next()
	for !p.is(")") && p.tok != tEOF {
		if p.code != nil && p.isTypeStart() {
			// container_of(p, struct foo, member), sizeof-like uses.
			pos := p.pos
			words := p.parseType()
			stars := ""
			for p.is("*") {
				stars += "*"
				p.next()
			}
			c.Args = append(c.Args, &TypeArg{TypePos: pos, Type: joinType(words, stars), EndPos: Pos(p.prevEnd + 1)})
		} else {
			c.Args = append(c.Args, p.parseExpr())
		}
		if !p.got(",") {
			break
		}
	}
	c.Rparen = p.pos
	if !p.is(")") {
		p.errorExpected(")")
		return c
	}
	p.next()
	if p.code == nil {
		p.checkCall(c) // a code test's calls are checked when lowered
	}
	return c
}

// initMacros are the macros of the init block, with their argument count.
var initMacros = map[string]int{"ATOMIC_INIT": 1, "ATOMIC_LONG_INIT": 1}

// checkCall reports calls of unknown functions, with a suggestion, and
// wrong argument counts.
func (p *parser) checkCall(c *CallExpr) {
	name := c.Fun.Name
	want, ok := initMacros[name]
	if name == OffsetBuiltin {
		want, ok = 2, true // parsePostfix makes it an OffsetExpr
	}
	if !ok {
		prim, found := Lookup(name)
		if p.prims != nil {
			prim, found = p.prims[name]
		}
		if msg, gone := isRetired(name); !found && gone {
			p.error(c.Fun.Pos(), msg)
			return
		}
		if _, builtin := Lookup(name); !found && builtin {
			// The macro file's table replaces the built-in one.
			p.error(c.Fun.Pos(), "unknown function "+name+": the macro file the test is parsed with (a kernel tree's linux-kernel.def) does not define it, though litmus's built-in table does")
			return
		}
		if !found && strings.Contains(name, "try_cmpxchg") {
			p.error(c.Fun.Pos(), "unknown function "+name+": herd's C has none; code tests (with a prelude) have it, or use cmpxchg")
			return
		}
		if !found {
			msg := "unknown function " + name
			if s := suggest(name); s != "" {
				msg += " (did you mean " + s + "?)"
			}
			p.error(c.Fun.Pos(), msg)
			return
		}
		want = len(prim.Args)
	}
	if len(c.Args) != want {
		p.error(c.Fun.Pos(), fmt.Sprintf("wrong number of arguments to %s: have %d, want %d", name, len(c.Args), want))
	}
}

// suggest returns the primitive name closest to name by edit distance, or
// "" when none is close.
func suggest(name string) string {
	best, bestD := "", 2+len(name)/8
	for _, prim := range Primitives() {
		if d := editDistance(name, prim.Name); d <= bestD && (best == "" || d < bestD) {
			best, bestD = prim.Name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
