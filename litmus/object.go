package litmus

import (
	"strconv"
	"strings"
)

// This file declares the plain C dialect's objects and its one address
// computation, the form a code test is flattened into when a pointer read
// at run time reaches a member at a non-zero offset, an array element at
// an index computed at run time, or its container (docs/language.md,
// "Objects and addresses"):
//
//	object f { 0: f__a; 4: f__b; };     (* in the init block *)
//	r2 = READ_ONCE(*ptr_add(p, 4));     (* in a thread *)
//
// An object groups locations of the init block at byte offsets of one
// layout (the kernel's LP64 one in a flattened code test). ptr_add(p, n)
// is the address n bytes past the address p within p's object: the
// location at that offset. A location in no object is an object of its
// own, with itself at offset 0. An address that falls outside p's object
// or between its cells, or a p that is not an address (NULL), designates
// no location: an access there faults.

// Object is one object of the init block: locations at byte offsets.
type Object struct {
	ObjPos Pos
	Name   string
	Cells  []ObjectCell // in the order written, offsets increasing
	EndPos Pos
}

// ObjectCell is one location of an object.
type ObjectCell struct {
	Off int
	Loc string
}

// Pos and End implement Node.
func (o *Object) Pos() Pos { return o.ObjPos }
func (o *Object) End() Pos { return o.EndPos }

// OffsetExpr is ptr_add(Ptr, Off): the address Off bytes past Ptr within
// Ptr's object.
type OffsetExpr struct {
	NamePos Pos
	Ptr     Expr
	Off     Expr
	Rparen  Pos
}

func (e *OffsetExpr) Pos() Pos { return e.NamePos }
func (e *OffsetExpr) End() Pos { return e.Rparen + 1 }
func (*OffsetExpr) exprNode()  {}

// OffsetBuiltin is the name the plain dialect spells OffsetExpr with.
const OffsetBuiltin = "ptr_add"

// offsetCall turns a parsed call of ptr_add into an OffsetExpr.
func offsetCall(x Expr) Expr {
	c, ok := x.(*CallExpr)
	if !ok || c.Fun.Name != OffsetBuiltin || len(c.Args) != 2 {
		return x
	}
	return &OffsetExpr{NamePos: c.Fun.NamePos, Ptr: c.Args[0], Off: c.Args[1], Rparen: c.Rparen}
}

// parseObject parses
//
//	Object = "object" Name "{" [ Cell { ";" Cell } [ ";" ] ] "}" .
//	Cell   = Int ":" Name .
//
// The current token is the name after "object".
func (p *parser) parseObject(start Pos) *Object {
	o := &Object{ObjPos: start, Name: p.lit}
	p.next()
	p.expect("{")
	last := -1
	for !p.is("}") && p.tok != tEOF {
		if p.got(";") {
			continue
		}
		if p.tok != tInt {
			p.errorExpected("offset of a cell (n: location)")
			p.skipTo("}")
			break
		}
		off, err := strconv.Atoi(p.lit)
		pos := p.pos
		p.next()
		p.expect(":")
		if p.tok != tIdent {
			p.errorExpected("location name")
			p.skipTo("}")
			break
		}
		switch {
		case err != nil || off < 0:
			p.error(pos, "bad offset "+strconv.Itoa(off))
		case off <= last:
			p.error(pos, "cells of object "+o.Name+" must have increasing offsets")
		}
		last = off
		o.Cells = append(o.Cells, ObjectCell{Off: off, Loc: p.lit})
		p.next()
	}
	o.EndPos = p.pos
	p.expect("}")
	return o
}

// objectString prints o as parseObject reads it.
func objectString(o *Object) string {
	var b strings.Builder
	b.WriteString("object " + o.Name + " {")
	for _, c := range o.Cells {
		b.WriteString(" " + strconv.Itoa(c.Off) + ": " + c.Loc + ";")
	}
	b.WriteString(" }")
	return b.String()
}

// ObjectOf returns the object that location loc belongs to and loc's
// offset in it; nil when loc is in no object.
func (t *Test) ObjectOf(loc string) (*Object, int) {
	for _, o := range t.Objects {
		for _, c := range o.Cells {
			if c.Loc == loc {
				return o, c.Off
			}
		}
	}
	return nil, 0
}
