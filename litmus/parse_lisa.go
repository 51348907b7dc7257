package litmus

import (
	"fmt"
	"strings"
)

// The LISA code table is read through the token scanner, as herd's LISA
// lexer reads it (herd's lib/LISAParser.mly): rows end with ';', columns
// are separated by '|', (* *) comments may appear anywhere, and line
// breaks mean nothing. A name of herd's LISA lexer (annotations such as
// rcu-lock, labels, locations) is a letter followed by letters, digits,
// '_', '-' and '/'; the scanner splits it at '-' and '/', so lisaName
// glues the adjacent pieces back together.

// lisaMnemonics are the instructions of LISA.
var lisaMnemonics = map[string]bool{"r": true, "w": true, "f": true, "rmw": true, "b": true, "mov": true, "call": true}

// isLISAReg reports whether name is a LISA register: r followed by digits.
func isLISAReg(name string) bool {
	if len(name) < 2 || name[0] != 'r' {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !isDigit(name[i]) {
			return false
		}
	}
	return true
}

// parseLISAProcs parses the code table
//
//	Code   = [ ";" ] Header { Row } .
//	Header = Proc { "|" Proc } ";" .
//	Row    = Cell { "|" Cell } ";" .
//
// up to the final section.
func (p *parser) parseLISAProcs() {
	p.got(";")
	p.lisaHeader()
	for p.tok != tEOF && !p.isFinalStart() && !p.isIdent("final") {
		start := p.pos
		if p.tok == tIdent && (p.lit == "scopes" || p.lit == "levels" || p.lit == "regions") && p.peekOp(":") {
			p.error(p.pos, "LISA "+p.lit+" declarations (GPU scope trees and memory regions) are not supported")
			for p.tok != tEOF && !p.isFinalStart() {
				p.next()
			}
			return
		}
		p.lisaRow()
		if p.pos == start {
			p.next()
		}
	}
}

// peekOp reports whether the token after the current one is the operator
// op.
func (p *parser) peekOp(op string) bool {
	sc := p.sc
	sc.onComment, sc.onError = nil, func(int, string) {}
	tok, _, lit := sc.scan()
	return tok == tOp && lit == op
}

// adjacent reports whether the current token starts right where the
// previous one ended.
func (p *parser) adjacent() bool { return p.offset(p.pos) == p.prevEnd }

// line returns the line of pos.
func (p *parser) line(pos Pos) int { return p.file.Position(pos).Line }

// lisaHeader parses
//
//	Header = Proc { "|" Proc } ";" .
//	Proc   = "P" Int .
func (p *parser) lisaHeader() {
	for i := 0; ; i++ {
		id, ok := procID(p.lit)
		if p.tok != tIdent || !ok {
			p.errorExpected(fmt.Sprintf("process P%d", i))
			p.skipTo(";")
			p.got(";")
			return
		}
		if id != i {
			p.error(p.pos, fmt.Sprintf("expected process P%d, found %s", i, p.lit))
		}
		p.test.Procs = append(p.test.Procs, &Proc{ProcPos: p.pos, ID: id, EndPos: p.pos + Pos(len(p.lit))})
		p.next()
		switch {
		case p.got("|"):
		case p.got(";"):
			return
		default:
			p.errorExpected("| or ; after " + fmt.Sprintf("P%d", id))
			p.skipTo(";")
			p.got(";")
			return
		}
	}
}

// atCellEnd reports whether the current token ends a cell.
func (p *parser) atCellEnd() bool {
	return p.is("|") || p.is("||") || p.is(";") || p.tok == tEOF
}

// lisaRow parses one row of instructions, one cell per process
//
//	Row = Cell { "|" Cell } ";" .
func (p *parser) lisaRow() {
	col := 0
	for {
		if !p.atCellEnd() {
			if col >= len(p.test.Procs) {
				p.error(p.pos, "more columns than processes")
				p.skipTo(";")
				p.got(";")
				return
			}
			p.lisaCell(p.test.Procs[col])
		}
		switch {
		case p.got("|"):
			col++
		case p.got("||"):
			col += 2 // an empty column written without spaces
		case p.got(";"):
			return
		case p.tok == tEOF || p.isFinalStart() || p.line(p.pos) > p.line(Pos(p.prevEnd)):
			// The row ran into the next line: its ';' is missing.
			p.errorAt(p.prevEnd, "expected ; at the end of the code row, found "+p.lineEndDescr())
			return
		default:
			p.errorExpected("| or ;")
			for !p.atCellEnd() && !p.isFinalStart() {
				p.next()
			}
		}
	}
}

// lineEndDescr names what follows a row that lacks its ';'.
func (p *parser) lineEndDescr() string {
	if p.tok == tEOF {
		return "EOF"
	}
	return "newline"
}

// lisaCell parses one cell
//
//	Cell = { Label ":" } [ Instr ] .
func (p *parser) lisaCell(pr *Proc) {
	for p.tok == tIdent && !lisaMnemonics[p.lit] {
		pos := p.pos
		name, ok := p.lisaName("instruction")
		if !ok {
			return
		}
		if !p.is(":") {
			p.error(pos, fmt.Sprintf("unknown LISA instruction %s (want r, w, f, rmw, b, mov or call, or a label followed by ':')", name))
			p.skipCell()
			return
		}
		p.next()
		pr.LISA = append(pr.LISA, &LISAInstr{InstrPos: pos, Label: name, EndPos: Pos(p.prevEnd + 1)})
		pr.EndPos = Pos(p.prevEnd + 1)
	}
	if p.atCellEnd() {
		return
	}
	if in := p.lisaInstr(); in != nil {
		pr.LISA = append(pr.LISA, in)
		pr.EndPos = in.EndPos
	} else {
		p.skipCell()
	}
}

// skipCell skips to the end of the current cell.
func (p *parser) skipCell() {
	for !p.atCellEnd() && !p.isFinalStart() {
		p.next()
	}
}

// lisaInstr parses
//
//	Instr = "r" Annots Reg Addr | "w" Annots Addr Value
//	      | "f" Annots [ LabelSet LabelSet ] | "call" "[" Name "]"
//	      | "rmw" Annots Reg Expr Addr | "b" Annots [ Reg ] Label
//	      | "mov" Reg Expr .
//
// It returns nil after an error.
func (p *parser) lisaInstr() *LISAInstr {
	if p.tok != tIdent {
		p.errorExpected("instruction")
		return nil
	}
	in := &LISAInstr{InstrPos: p.pos, Op: p.lit}
	p.next()
	ok := true
	switch in.Op {
	case "r":
		in.Annots, ok = p.lisaAnnots()
		ok = ok && p.lisaRegInto(&in.Reg)
		ok = ok && p.lisaAddrInto(&in.Addr)
	case "w":
		in.Annots, ok = p.lisaAnnots()
		ok = ok && p.lisaAddrInto(&in.Addr)
		if ok {
			in.Val = p.lisaArg("register or integer", LISAReg, LISAInt)
			ok = in.Val != nil
		}
	case "f":
		in.Annots, ok = p.lisaAnnots()
		if ok && p.is("{") {
			in.FenceSets = true
			in.From, ok = p.lisaLabelSet()
			if ok {
				in.To, ok = p.lisaLabelSet()
			}
		}
	case "call":
		if !p.is("[") {
			p.errorExpected("[ after call")
			return nil
		}
		p.next()
		name, nok := p.lisaName("name")
		ok = nok
		if ok {
			in.Annots = []string{name}
			if !p.got("]") {
				p.errorExpected("]")
				ok = false
			}
		}
	case "rmw":
		in.Annots, ok = p.lisaAnnots()
		ok = ok && p.lisaRegInto(&in.Reg)
		if ok {
			in.Expr = p.lisaExpr()
			ok = in.Expr != nil
		}
		ok = ok && p.lisaAddrInto(&in.Addr)
	case "b":
		in.Annots, ok = p.lisaAnnots()
		if ok && p.tok == tIdent && isLISAReg(p.lit) {
			in.Reg = p.lit
			p.next()
		}
		if ok {
			in.Target, ok = p.lisaName("label")
		}
	case "mov":
		ok = p.lisaRegInto(&in.Reg)
		if ok {
			in.Expr = p.lisaExpr()
			ok = in.Expr != nil
		}
	default:
		p.error(in.InstrPos, fmt.Sprintf("unknown LISA instruction %s (want r, w, f, rmw, b, mov or call)", in.Op))
		return nil
	}
	if !ok {
		return nil
	}
	in.EndPos = Pos(p.prevEnd + 1)
	if !p.atCellEnd() && !p.isFinalStart() && p.line(p.pos) == p.line(in.EndPos-1) {
		p.errorExpected("| or ; after " + in.Op + " instruction")
		return nil
	}
	return in
}

// lisaName parses a name of herd's LISA lexer
//
//	Name = Letter { Letter | Digit | "_" | "-" | "/" } .
//
// what names the expected thing in the message when there is none.
func (p *parser) lisaName(what string) (string, bool) {
	if p.tok != tIdent {
		p.errorExpected(what)
		return "", false
	}
	var b strings.Builder
	b.WriteString(p.lit)
	p.next()
	for (p.is("-") || p.is("/")) && p.adjacent() {
		sep := p.lit
		save := *p
		p.next()
		if (p.tok != tIdent && p.tok != tInt) || !p.adjacent() {
			*p = save // a '-' that does not continue the name
			break
		}
		b.WriteString(sep + p.lit)
		p.next()
	}
	return b.String(), true
}

// lisaAnnots parses
//
//	Annots = [ "[" [ Name { "," Name } ] "]" ] .
//
// Herd's printer always writes the brackets; an absent list and an empty
// one are the same (nil).
func (p *parser) lisaAnnots() ([]string, bool) {
	if !p.got("[") {
		return nil, true
	}
	var out []string
	if p.got("]") {
		return nil, true
	}
	for {
		name, ok := p.lisaName("annotation")
		if !ok {
			return nil, false
		}
		out = append(out, name)
		if p.got(",") {
			continue
		}
		if !p.got("]") {
			p.errorExpected(", or ] in annotations")
			return nil, false
		}
		return out, true
	}
}

// lisaLabelSet parses
//
//	LabelSet = "{" [ Name { "," Name } ] "}" .
func (p *parser) lisaLabelSet() ([]string, bool) {
	if !p.got("{") {
		p.errorExpected("{")
		return nil, false
	}
	var out []string
	if p.got("}") {
		return out, true
	}
	for {
		name, ok := p.lisaName("label")
		if !ok {
			return nil, false
		}
		out = append(out, name)
		if p.got(",") {
			continue
		}
		if !p.got("}") {
			p.errorExpected(", or }")
			return nil, false
		}
		return out, true
	}
}

// lisaRegInto parses a register into *dst.
func (p *parser) lisaRegInto(dst *string) bool {
	if p.tok != tIdent || !isLISAReg(p.lit) {
		p.errorExpected("register")
		return false
	}
	*dst = p.lit
	p.next()
	return true
}

// lisaArg parses an operand of one of the given kinds
//
//	Arg = Reg | Name | [ "-" ] Int .
func (p *parser) lisaArg(what string, kinds ...LISAArgKind) *LISAArg {
	a := &LISAArg{ArgPos: p.pos}
	switch {
	case p.tok == tIdent && isLISAReg(p.lit):
		a.Kind, a.Name, a.Text = LISAReg, p.lit, p.lit
		p.next()
	case p.tok == tIdent:
		name, _ := p.lisaName(what)
		a.Kind, a.Name, a.Text = LISAName, name, name
	case p.tok == tInt || p.is("-"):
		text := ""
		if p.is("-") {
			p.next()
			if p.tok != tInt || !p.adjacent() {
				p.errorExpected(what)
				return nil
			}
			text = "-"
		}
		text += p.lit
		v, ok := parseIntLit(text)
		if !ok {
			p.error(a.ArgPos, "bad integer "+text)
			return nil
		}
		a.Kind, a.Int, a.Text = LISAInt, v, text
		p.next()
	default:
		p.errorExpected(what)
		return nil
	}
	for _, k := range kinds {
		if a.Kind == k {
			return a
		}
	}
	p.error(a.ArgPos, "expected "+what+", found '"+a.Text+"'")
	return nil
}

// lisaAddrInto parses
//
//	Addr = ( Reg | Name ) [ "+" ( Reg | Int ) ] .
func (p *parser) lisaAddrInto(dst **LISAAddr) bool {
	base := p.lisaArg("location or register", LISAReg, LISAName)
	if base == nil {
		return false
	}
	a := &LISAAddr{Base: base}
	if p.got("+") {
		if a.Off = p.lisaArg("register or integer offset", LISAReg, LISAInt); a.Off == nil {
			return false
		}
	}
	*dst = a
	return true
}

// lisaExpr parses
//
//	Expr = Arg | "(" Op Arg Arg ")" .
//	Op   = "add" | "xor" | "and" | "eq" | "ne" | "neq" .
func (p *parser) lisaExpr() *LISAExpr {
	if !p.is("(") {
		x := p.lisaArg("operand", LISAReg, LISAName, LISAInt)
		if x == nil {
			return nil
		}
		return &LISAExpr{X: x}
	}
	e := &LISAExpr{Lparen: p.pos}
	p.next()
	op, ok := lisaOps[p.lit]
	if p.tok != tIdent || !ok {
		p.errorExpected("operator add, xor, and, eq or neq")
		return nil
	}
	e.Op = op
	p.next()
	if e.X = p.lisaArg("operand", LISAReg, LISAName, LISAInt); e.X == nil {
		return nil
	}
	if e.Y = p.lisaArg("operand", LISAReg, LISAName, LISAInt); e.Y == nil {
		return nil
	}
	e.Rparen = p.pos
	if !p.got(")") {
		p.errorExpected(")")
		return nil
	}
	return e
}
