package litmus

import (
	"strconv"
	"strings"
)

// parseInit parses
//
//	InitBlock = "{" [ InitItem { ";" InitItem } [ ";" ] ] "}" .
//
// The current token is the '{'.
func (p *parser) parseInit() {
	p.test.InitPos = p.pos
	p.next()
	for !p.is("}") && p.tok != tEOF {
		if p.got(";") {
			continue
		}
		start := p.pos
		if p.isIdent("object") {
			off := p.offset(p.pos)
			p.next()
			if p.tok == tIdent {
				p.test.Objects = append(p.test.Objects, p.parseObject(start))
				if !p.is("}") && !p.got(";") {
					p.errorExpected("; or }")
					p.skipTo(";", "}")
					p.got(";")
				}
				continue
			}
			p.reset(off, p.sc.ocaml)
		}
		if it := p.parseInitItem(); it != nil {
			p.test.Init = append(p.test.Init, it)
		}
		if !p.is("}") && !p.got(";") {
			p.errorExpected("; or }")
			p.skipTo(";", "}")
			p.got(";")
		}
		if p.pos == start {
			p.next() // always make progress
		}
	}
	if !p.is("}") {
		p.errorExpected("} closing the init block")
		return
	}
	p.next()
}

// skipTo advances to the next of the given operators (not consuming it),
// or to EOF.
func (p *parser) skipTo(stops ...string) {
	for p.tok != tEOF {
		if p.tok == tOp {
			for _, s := range stops {
				if p.lit == s {
					return
				}
			}
		}
		p.next()
	}
}

// initTok is one token of an init item's left-hand side.
type initTok struct {
	kind tokKind
	pos  Pos
	lit  string
}

// parseInitItem parses
//
//	InitItem = [ Type ] Location [ "=" InitValue ] .
//	Location = Name | Int ":" Name | "[" Name "]" | Name "[" Int "]" .
//	InitValue = Expr | "{" Expr { "," Expr } "}" .
//
// Types are as herd writes them: "int", "int *", "int*", "unsigned long",
// "atomic_t", "struct foo *", "uint64_t", "int64_t". "p=x" sets p to the
// address of x (herd's quirk), so an Ident value is an address.
func (p *parser) parseInitItem() *InitItem {
	var lhs []initTok
	for p.tok != tEOF && !p.is("=") && !p.is(";") && !p.is("}") {
		lhs = append(lhs, initTok{p.tok, p.pos, p.lit})
		p.next()
	}
	if len(lhs) == 0 {
		p.errorExpected("init item")
		return nil
	}
	it := &InitItem{ItemPos: lhs[0].pos, Proc: -1}
	if !p.initLocation(it, lhs) {
		p.skipTo(";", "}")
		return nil
	}
	last := lhs[len(lhs)-1]
	it.EndPos = last.pos + Pos(len(last.lit))
	if p.got("=") {
		if p.is("{") {
			it.Value = p.parseBraceList()
		} else {
			it.Value = p.parseExpr()
		}
		if it.Value != nil {
			it.EndPos = it.Value.End()
			p.checkInitValue(it.Value)
		}
	}
	return it
}

// initLocation fills in the type and location of it from the tokens
// before "=".
func (p *parser) initLocation(it *InitItem, lhs []initTok) bool {
	bad := func(t initTok, what string) bool {
		p.error(t.pos, "expected "+what+", found '"+t.lit+"'")
		return false
	}
	n := len(lhs)
	isOp := func(i int, op string) bool { return i >= 0 && i < n && lhs[i].kind == tOp && lhs[i].lit == op }
	var typ []initTok
	switch {
	case isOp(0, "["):
		// [x] or [x]=... (X86 style).
		if n != 3 || lhs[1].kind != tIdent || !isOp(2, "]") {
			return bad(lhs[0], "[location]")
		}
		it.Name, it.Bracket = lhs[1].lit, true
		return true
	case isOp(n-1, "]"):
		// t[N]
		if n < 4 || lhs[n-4].kind != tIdent || !isOp(n-3, "[") || lhs[n-2].kind != tInt {
			return bad(lhs[n-1], "array declaration name[size]")
		}
		v, ok := parseIntLit(lhs[n-2].lit)
		if !ok || v <= 0 || v > 1<<20 {
			return bad(lhs[n-2], "array size")
		}
		it.Name, it.Len = lhs[n-4].lit, int(v)
		typ = lhs[:n-4]
	case lhs[n-1].kind == tIdent:
		it.Name = lhs[n-1].lit
		typ = lhs[:n-1]
		if isOp(n-2, ":") {
			var v int
			if n >= 3 && lhs[n-3].kind == tIdent {
				// "P2:EAX = 0", herd's other spelling of "2:EAX".
				pv, ok := procName(lhs[n-3].lit)
				if !ok {
					return bad(lhs[n-3], "thread number")
				}
				v = pv
			} else {
				if n < 3 || lhs[n-3].kind != tInt {
					return bad(lhs[n-2], "thread number before :")
				}
				var err error
				v, err = strconv.Atoi(lhs[n-3].lit)
				if err != nil || v > 1<<16 {
					return bad(lhs[n-3], "thread number")
				}
			}
			it.Proc = v
			it.ItemPos = lhs[n-3].pos
			typ = lhs[:n-3]
			if len(typ) > 0 {
				it.ItemPos = typ[0].pos
			}
		}
	default:
		return bad(lhs[n-1], "location name")
	}
	if typeWords[it.Name] {
		return bad(lhs[n-1], "location name after type")
	}
	t, ok := p.typeString(typ)
	if !ok {
		return false
	}
	it.Type = t
	return true
}

// typeString normalises the tokens of a C type, e.g. "int*" or
// "struct foo *", to words separated by single spaces with the stars
// last: "int *", "struct foo *".
func (p *parser) typeString(toks []initTok) (string, bool) {
	var words []string
	stars := ""
	for _, t := range toks {
		switch {
		case t.kind == tIdent && stars == "":
			words = append(words, t.lit)
		case t.kind == tOp && t.lit == "*":
			stars += "*"
		default:
			p.error(t.pos, "expected type or location, found '"+t.lit+"'")
			return "", false
		}
	}
	if len(words) == 0 && stars != "" {
		p.error(toks[0].pos, "expected type name before *")
		return "", false
	}
	return joinType(words, stars), true
}

// joinType builds the canonical spelling of a type.
func joinType(words []string, stars string) string {
	s := strings.Join(words, " ")
	if stars != "" {
		s += " " + stars
	}
	return s
}

// parseBraceList parses
//
//	BraceList = "{" [ Expr { "," Expr } ] "}" .
func (p *parser) parseBraceList() *BraceList {
	b := &BraceList{Lbrace: p.pos}
	p.next()
	for !p.is("}") && p.tok != tEOF {
		b.Elems = append(b.Elems, p.parseExpr())
		if !p.got(",") {
			break
		}
	}
	b.Rbrace = p.expect("}")
	return b
}

// checkInitValue reports init values that are not constants, addresses or
// ATOMIC_INIT(constant).
func (p *parser) checkInitValue(e Expr) {
	switch e := e.(type) {
	case *IntLit, *Ident:
	case *UnaryExpr:
		if _, ok := e.X.(*Ident); ok && e.Op == "&" {
			return
		}
		if _, ok := e.X.(*IntLit); ok && (e.Op == "-" || e.Op == "~") {
			return
		}
		p.error(e.Pos(), "expected constant or address in init block")
	case *CallExpr:
		if e.Fun.Name != "ATOMIC_INIT" && e.Fun.Name != "ATOMIC_LONG_INIT" {
			p.error(e.Pos(), "unexpected call to "+e.Fun.Name+" in init block (only ATOMIC_INIT)")
		}
	case *BraceList:
		for _, x := range e.Elems {
			p.checkInitValue(x)
		}
	case *ParenExpr:
		p.checkInitValue(e.X)
	default:
		p.error(e.Pos(), "expected constant or address in init block")
	}
}
