package litmus

import "strconv"

// parseFinal parses
//
//	FinalSection = { Locations | Filter | Invariant } [ Cond ] { Invariant } .
//
// Locations, filter and invariants are accepted in any order around the
// condition; herd itself wants locations and filter first, which is how
// the printer writes them.
func (p *parser) parseFinal() {
	t := p.test
	for p.tok != tEOF {
		start := p.ntok
		switch {
		case p.isIdent("locations"):
			if t.Locations != nil {
				p.error(p.pos, "more than one locations section")
			}
			p.next()
			t.Locations = p.parseLocations()
		case p.isIdent("filter"):
			if t.Filter != nil {
				p.error(p.pos, "more than one filter")
			}
			p.next()
			t.Filter = p.parseProp()
		case p.isIdent("invariant"):
			inv := &Invariant{InvPos: p.pos}
			p.next()
			inv.Prop = p.parseProp()
			t.Invariants = append(t.Invariants, inv)
		case p.isIdent("exists") || p.isIdent("forall") || p.is("~") ||
			t.Arch != ArchC && (p.isIdent("final") || p.is("(")):
			c := p.parseCond()
			if t.Cond != nil {
				p.error(c.Pos(), "more than one final condition")
			}
			t.Cond = c
		case t.Arch != ArchC && p.isIdent("with") && t.Cond != nil:
			p.skipKinds()
		case t.Arch != ArchC && p.is("<<"):
			// herd's splitter ends the condition at "<<": what follows
			// in the old X86 tests is input for other tools.
			return
		case p.is(";"):
			// A stray ';' after the condition, as in "exists (...);",
			// which herd accepts and some kernel tests have.
			p.next()
		default:
			p.errorExpected("exists, ~exists, forall, locations, filter or invariant")
			p.next()
		}
		if p.ntok == start {
			p.next()
		}
	}
}

// parseCond parses
//
//	Cond = ( "exists" | "~" "exists" | "forall" | "final" ) Prop | "(" Prop ")" .
//
// "final P" and a bare "(P)" are herd's old spellings of "exists P"
// (stateParser.mly), found in the old X86 tests.
func (p *parser) parseCond() *Cond {
	c := &Cond{QuantPos: p.pos}
	switch {
	case p.is("("):
		c.Quant = Exists
		c.Prop = p.parseProp()
		return c
	case p.isIdent("final"):
		c.Quant = Exists
	case p.is("~"):
		p.next()
		if !p.isIdent("exists") {
			p.errorExpected("exists after ~")
		}
		c.Quant = NotExists
	case p.isIdent("exists"):
		c.Quant = Exists
	default:
		c.Quant = Forall
	}
	p.next()
	c.Prop = p.parseProp()
	return c
}

// skipKinds skips the old per-model expectations after a condition
//
//	Kinds = "with" Kind { ";" Kind } [ ";" ] .
//	Kind  = Name ":" ( "exists" | "~" "exists" | "forall" ) .
//
// as in "final (P0:EAX = 1); with tso: ~exists; cc: exists;". herd parses
// and ignores them for its verdict, and so do we.
func (p *parser) skipKinds() {
	p.next()
	if p.tok != tIdent {
		p.errorExpected("model name after with")
		return
	}
	for p.tok == tIdent && !p.isIdent("locations") && !p.isIdent("filter") && !p.isIdent("invariant") {
		p.next()
		p.expect(":")
		if p.got("~") && !p.isIdent("exists") {
			p.errorExpected("exists after ~")
			return
		}
		if !p.isIdent("exists") && !p.isIdent("forall") {
			p.errorExpected("exists, ~exists or forall")
			return
		}
		p.next()
		if !p.got(";") {
			return
		}
	}
}

// parseLocations parses
//
//	Locations = "locations" "[" [ LocType { ";" LocType } [ ";" ] ] "]" .
//	LocType   = LocRef [ TypeName ] [ "*" ] .
//
// The keyword is already consumed. The result is non-nil even when empty.
func (p *parser) parseLocations() []*LocRef {
	locs := []*LocRef{}
	p.expect("[")
	for !p.is("]") && p.tok != tEOF {
		start := p.ntok
		if l := p.parseLocRef(); l != nil {
			// herd's locations may give a location the type its value
			// prints with: "x int64_t", "0:r5*" (a pointer).
			if p.tok == tIdent {
				l.Type, l.EndPos = p.lit, p.pos+Pos(len(p.lit))
				p.next()
			}
			if p.is("*") {
				l.Type += "*"
				l.EndPos = p.pos + 1
				p.next()
			}
			locs = append(locs, l)
		}
		if !p.got(";") {
			break
		}
		if p.ntok == start {
			break
		}
	}
	p.expect("]")
	return locs
}

// parseProp parses
//
//	Prop = OrProp [ "=>" Prop ] .
func (p *parser) parseProp() Prop {
	p.enter()
	defer p.leave()
	x := p.parseOrProp()
	if p.is("=>") {
		p.next()
		y := p.parseProp()
		return &BinProp{X: x, Op: "=>", Y: y}
	}
	return x
}

// parseOrProp parses
//
//	OrProp = AndProp { ( "\/" | "or" ) AndProp } .
func (p *parser) parseOrProp() Prop {
	x := p.parseAndProp()
	for p.is("\\/") || p.isIdent("or") {
		p.next()
		x = &BinProp{X: x, Op: "\\/", Y: p.parseAndProp()}
	}
	return x
}

// parseAndProp parses
//
//	AndProp = NotProp { ( "/\" | "and" ) NotProp } .
func (p *parser) parseAndProp() Prop {
	x := p.parseNotProp()
	for p.is("/\\") || p.isIdent("and") {
		p.next()
		x = &BinProp{X: x, Op: "/\\", Y: p.parseNotProp()}
	}
	return x
}

// parseNotProp parses
//
//	NotProp = ( "~" | "not" ) NotProp | "(" Prop ")" | "true" | "false" | Atom .
func (p *parser) parseNotProp() Prop {
	p.enter()
	defer p.leave()
	pos := p.pos
	switch {
	case p.is("~") || p.isIdent("not"):
		p.next()
		return &NotProp{Tilde: pos, X: p.parseNotProp()}
	case p.is("("):
		p.next()
		x := p.parseProp()
		e := &ParenProp{Lparen: pos, X: x, Rparen: p.pos}
		p.expect(")")
		return e
	case p.isIdent("true") || p.isIdent("false"):
		b := &BoolProp{ValuePos: pos, Value: p.lit == "true"}
		p.next()
		return b
	}
	return p.parseAtom()
}

// parseAtom parses
//
//	Atom = LocRef ( "=" | "==" | "!=" | "<>" ) Value .
func (p *parser) parseAtom() Prop {
	pos := p.pos
	loc := p.parseLocRef()
	if loc == nil {
		return &BoolProp{ValuePos: pos, Value: false}
	}
	a := &AtomProp{Loc: loc, Op: "="}
	switch {
	case p.is("=") || p.is("=="):
	case p.is("!=") || p.is("<>"):
		// "<>" is herd's other spelling of "!=" (stateLexer.mll).
		a.Op = "!="
	default:
		p.errorExpected("= or !=")
		a.Val = &Value{ValPos: p.pos, EndPos: p.pos}
		return a
	}
	p.next()
	a.Val = p.parseValue()
	return a
}

// parseLocRef parses
//
//	LocRef = [ "P" ] Int ":" Name | "[" Name "]" | Name [ "[" Int "]" ] .
func (p *parser) parseLocRef() *LocRef {
	l := &LocRef{LocPos: p.pos, Proc: -1, Index: -1}
	switch {
	case p.tok == tInt:
		n, err := strconv.Atoi(p.lit)
		if err != nil || n > 1<<16 {
			p.error(p.pos, "invalid thread number "+p.lit)
		}
		l.Proc = n
		p.next()
		p.expect(":")
		if p.tok != tIdent {
			p.errorExpected("register name")
			return nil
		}
		l.Name, l.EndPos = p.lit, p.pos+Pos(len(p.lit))
		p.next()
		return l
	case p.is("["):
		p.next()
		if p.tok != tIdent {
			p.errorExpected("location name")
			return nil
		}
		l.Name, l.Bracket = p.lit, true
		p.next()
		l.EndPos = p.pos + 1
		p.expect("]")
		return l
	case p.tok == tIdent:
		l.Name, l.EndPos = p.lit, p.pos+Pos(len(p.lit))
		p.next()
		if n, ok := procName(l.Name); ok && p.is(":") {
			// "P1:EAX", herd's other spelling of "1:EAX".
			p.next()
			if p.tok != tIdent {
				p.errorExpected("register name")
				return nil
			}
			l.Proc, l.Name, l.EndPos = n, p.lit, p.pos+Pos(len(p.lit))
			p.next()
			return l
		}
		if p.code != nil {
			p.parsePathRest(l)
			return l
		}
		if p.is("[") {
			p.next()
			v, ok := parseIntLit(p.lit)
			if p.tok != tInt || !ok || v < 0 || v > 1<<20 {
				p.errorExpected("array index")
				return nil
			}
			l.Index = int(v)
			p.next()
			l.EndPos = p.pos + 1
			p.expect("]")
		}
		return l
	}
	p.errorExpected("location")
	return nil
}

// parseValue parses
//
//	Value = [ "-" ] Int | Name | Int ":" Name | "[" Name "]" .
func (p *parser) parseValue() *Value {
	v := &Value{ValPos: p.pos}
	switch {
	case p.is("-") || p.tok == tInt:
		neg := p.is("-")
		if neg {
			p.next()
		}
		if p.tok != tInt {
			p.errorExpected("integer")
			v.EndPos = p.pos
			return v
		}
		lit := p.lit
		n, ok := parseIntLit(lit)
		if !ok {
			p.error(p.pos, "invalid integer literal "+lit)
		}
		end := p.pos + Pos(len(lit))
		p.next()
		if !neg && p.is(":") {
			// A register on the right: 0:r1=1:r2.
			l := &LocRef{LocPos: v.ValPos, Proc: int(n), Index: -1}
			p.next()
			if p.tok != tIdent {
				p.errorExpected("register name")
				v.EndPos = p.pos
				return v
			}
			l.Name, l.EndPos = p.lit, p.pos+Pos(len(p.lit))
			p.next()
			v.Loc, v.EndPos = l, l.EndPos
			return v
		}
		if neg {
			n = -n
		}
		v.IsInt, v.Int, v.EndPos = true, n, end
		if _, err := strconv.ParseInt(lit, 10, 64); err != nil && dialectOf(p.test.Arch) != nil {
			// Keep the hexadecimal values of the mixed-size tests
			// as written: x=0x101010102020202.
			v.Text = lit
			if neg {
				v.Text = "-" + lit
			}
		}
	case p.is("["):
		v.Loc = p.parseLocRef()
		if v.Loc != nil {
			v.EndPos = v.Loc.End()
		}
	case p.tok == tIdent:
		v.Sym, v.EndPos = p.lit, p.pos+Pos(len(p.lit))
		p.next()
	default:
		p.errorExpected("value")
		v.EndPos = p.pos
	}
	return v
}

// procName reports whether name is "P" followed by a thread number, as
// herd's state lexer reads it, and returns the number.
func procName(name string) (int, bool) {
	if len(name) < 2 || name[0] != 'P' {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || name[1] == '-' || name[1] == '+' || n > 1<<16 {
		return 0, false
	}
	return n, true
}
