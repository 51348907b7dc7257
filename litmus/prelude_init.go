package litmus

import (
	"strconv"
	"strings"
)

// objDecl is one object of a code test's init block.
type objDecl struct {
	name string
	typ  *ctype
	init *initNode // nil: all zero
	pos  Pos
}

// initNode is an initializer: an expression, or a brace list whose
// elements may carry designators.
type initNode struct {
	pos   Pos
	expr  Expr
	list  []*initElem
	brace bool
}

type initElem struct {
	desig []desigStep
	val   *initNode
}

type desigStep struct {
	pos   Pos
	field string // .field, or "" for [index]
	index int
}

// parseCodeInit parses a code test's init block
//
//	InitBlock = "{" { InitDecl ";" } "}" .
//	InitDecl = DeclSpec Declarator [ "=" Initializer ] | Name [ "=" Initializer ] | Int ":" Name "=" Expr .
//
// The current token is the '{'.
func (p *parser) parseCodeInit() {
	p.test.InitPos = p.pos
	p.next()
	for !p.is("}") && p.tok != tEOF {
		if p.got(";") {
			continue
		}
		start := p.ntok
		p.parseCodeInitDecl()
		if !p.is("}") && !p.got(";") {
			p.errorExpected("; or }")
			p.skipTo(";", "}")
			p.got(";")
		}
		if p.ntok == start {
			p.next()
		}
	}
	if !p.is("}") {
		p.errorExpected("} closing the init block")
		return
	}
	p.sc.ocaml = true
	p.next()
}

func (p *parser) parseCodeInitDecl() {
	pos := p.pos
	if p.tok == tInt {
		// A register's initial value, as in a plain test.
		var lhs []initTok
		for p.tok != tEOF && !p.is("=") && !p.is(";") && !p.is("}") {
			lhs = append(lhs, initTok{p.tok, p.pos, p.lit})
			p.next()
		}
		it := &InitItem{ItemPos: pos, Proc: -1}
		if !p.initLocation(it, lhs) {
			return
		}
		it.EndPos = Pos(p.prevEnd + 1)
		if p.got("=") {
			it.Value = p.parseExpr()
			it.EndPos = it.Value.End()
		}
		p.test.Init = append(p.test.Init, it)
		return
	}
	var t *ctype
	var name string
	namePos := p.pos
	if p.tok == tIdent && !p.typeWord(p.lit) && p.code.typedefs[p.lit] == nil && !declWords[p.lit] {
		if scalarType(p.lit) == nil {
			name, t = p.lit, cInt // herd's "x = 1;"
			p.next()
		}
	}
	if t == nil {
		base, ok := p.parseDeclSpec(nil)
		if !ok {
			p.skipTo(";", "}")
			return
		}
		namePos = p.pos
		name, _, t, _ = p.parseDeclarator(base)
		if name == "" {
			p.errorExpected("object name")
			p.skipTo(";", "}")
			return
		}
	}
	if t.kind == kFunc || t.kind == kVoid || !t.complete {
		p.error(namePos, "object "+name+" has type "+t.name+", which is not an object type")
	}
	if old := p.code.objIndex[name]; old != nil {
		p.error(namePos, "object "+name+" declared twice")
		return
	}
	o := &objDecl{name: name, typ: t, pos: namePos}
	if p.got("=") {
		o.init = p.parseInitializer()
	}
	p.code.objects = append(p.code.objects, o)
	p.code.objIndex[name] = o
}

// parseInitializer parses
//
//	Initializer = Expr | "{" [ InitElem { "," InitElem } [ "," ] ] "}" .
//	InitElem = [ Designator { Designator } "=" ] Initializer .
//	Designator = "." Name | "[" ConstExpr "]" .
func (p *parser) parseInitializer() *initNode {
	n := &initNode{pos: p.pos}
	if !p.is("{") {
		n.expr = p.parseExpr()
		return n
	}
	n.brace = true
	p.next()
	for !p.is("}") && p.tok != tEOF {
		el := &initElem{}
		for p.is(".") || p.is("[") {
			st := desigStep{pos: p.pos}
			if p.got(".") {
				if p.tok != tIdent {
					p.errorExpected("member name")
					p.skipTo("}")
					break
				}
				st.pos, st.field = p.pos, p.lit
				p.next()
			} else {
				p.next()
				e := p.parseExpr()
				v, ok := p.constInt(e)
				if !ok || v < 0 {
					p.error(e.Pos(), "array designator must be a constant index")
				}
				st.index = int(v)
				p.expect("]")
			}
			el.desig = append(el.desig, st)
		}
		if len(el.desig) > 0 {
			p.expect("=")
		}
		el.val = p.parseInitializer()
		n.list = append(n.list, el)
		if !p.got(",") {
			break
		}
	}
	p.expect("}")
	return n
}

// parsePathRest continues a location's name into a code test's path:
// { "." Name | "[" Int "]" }.
func (p *parser) parsePathRest(l *LocRef) {
	var b strings.Builder
	b.WriteString(l.Name)
	for {
		switch {
		case p.is("."):
			p.next()
			if p.tok != tIdent {
				p.errorExpected("member name")
				return
			}
			b.WriteString("." + p.lit)
			l.EndPos = p.pos + Pos(len(p.lit))
			p.next()
		case p.is("["):
			p.next()
			v, ok := parseIntLit(p.lit)
			if p.tok != tInt || !ok || v < 0 {
				p.errorExpected("array index")
				return
			}
			b.WriteString("[" + strconv.FormatInt(v, 10) + "]")
			p.next()
			l.EndPos = p.pos + 1
			p.expect("]")
		default:
			l.Name = b.String()
			return
		}
	}
}
