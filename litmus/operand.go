package litmus

import (
	"strconv"
	"strings"
)

// parseOperand parses one operand, in AT&T syntax for X86_64 and Intel
// syntax for X86:
//
//	Operand = "$" Int | Register | Memory | Int | Label .
//	Memory  = (AT&T)  [ "%" Seg ":" ] [ Disp ] "(" [ Base | Sym ] [ "," Index [ "," Scale ] ] ")"
//	        | (AT&T)  [ Disp ] "[" ( Base | Sym ) "]"
//	        | (Intel) ( "[" Terms "]" | "(" Terms ")" ) .
//	Terms   = Term { ( "+" | "-" ) Term } .
//
// A bare integer is an immediate, as herd accepts in "shl 2,%eax"; a bare
// name that is not a register is a branch target.
func (p *parser) parseOperand(c cell) *Operand {
	o := &Operand{OpdPos: Pos(c.off + 1), Text: c.text}
	s := c.text
	bad := func(msg string) *Operand {
		p.errorAt(c.off, msg+" in operand "+quoteCell(s))
		return nil
	}
	att := p.test.Arch == ArchX8664
	switch {
	case s == "":
		return bad("expected operand")
	case s[0] == '$' || (isDigit(s[0]) || s[0] == '-') && !strings.ContainsAny(s, "(["):
		v, ok := parseIntLit(strings.TrimPrefix(s, "$"))
		if !ok {
			return bad("expected integer")
		}
		if msg := x86ImmRange(s, v); msg != "" {
			return bad(msg)
		}
		o.Kind, o.Imm = OpdImm, v
		return o
	case att && s[0] == '%' && !strings.ContainsAny(s, ":("):
		if !isReg(s[1:]) {
			return bad("unknown register")
		}
		o.Kind, o.Reg = OpdReg, s[1:]
		return o
	case att:
		return p.attMem(o, bad)
	case s[0] == '[' || s[0] == '(':
		// herd's X86 grammar takes "(EAX)" as well as "[EAX]".
		return p.intelMem(o, bad)
	case identLen(s) == len(s):
		if isReg(s) {
			o.Kind, o.Reg = OpdReg, s
		} else {
			o.Kind, o.Label = OpdLabel, s
		}
		return o
	}
	return bad("unexpected text")
}

// attMem parses an AT&T memory operand or a label.
func (p *parser) attMem(o *Operand, bad func(string) *Operand) *Operand {
	s := o.Text
	if identLen(s) == len(s) {
		o.Kind, o.Label = OpdLabel, s
		return o
	}
	o.Kind = OpdMem
	if s[0] == '%' {
		seg, rest, ok := strings.Cut(s[1:], ":")
		if !ok || !isReg(seg) {
			return bad("expected segment register")
		}
		o.Seg, s = seg, rest
	}
	if lb := strings.IndexByte(s, '['); lb >= 0 && strings.HasSuffix(s, "]") {
		// herd's X86_64 grammar also takes "[x]", "[%rax]" and
		// "8[%rax]" for "(x)", "(%rax)" and "8(%rax)".
		s = s[:lb] + "(" + s[lb+1:len(s)-1] + ")"
	}
	lp := strings.IndexByte(s, '(')
	if lp < 0 || !strings.HasSuffix(s, ")") {
		return bad("expected (")
	}
	if disp := strings.TrimSpace(s[:lp]); disp != "" {
		if v, ok := parseIntLit(disp); ok {
			o.Disp = v
		} else if identLen(disp) == len(disp) {
			o.Sym = disp
		} else {
			return bad("expected displacement")
		}
	}
	parts := strings.Split(s[lp+1:len(s)-1], ",")
	if len(parts) > 3 {
		return bad("too many parts")
	}
	for i, part := range parts {
		part = strings.TrimSpace(part)
		switch i {
		case 0:
			switch {
			case part == "":
			case part[0] == '%' && isReg(part[1:]):
				o.Base = part[1:]
			case identLen(part) == len(part) && o.Sym == "":
				o.Sym = part
			default:
				return bad("expected base register or location")
			}
		case 1:
			if part == "" || part[0] != '%' || !isReg(part[1:]) {
				return bad("expected index register")
			}
			o.Index = part[1:]
			o.Scale = 1
		case 2:
			v, ok := parseIntLit(part)
			if !ok || v < 0 || v > 8 {
				return bad("expected scale")
			}
			o.Scale = int(v)
		}
	}
	return o
}

// intelMem parses an Intel memory operand [x], [EAX], [x+EAX*4+8].
func (p *parser) intelMem(o *Operand, bad func(string) *Operand) *Operand {
	s := o.Text
	if closing := map[byte]string{'[': "]", '(': ")"}[s[0]]; !strings.HasSuffix(s, closing) || len(s) < 2 {
		return bad("expected " + closing)
	}
	o.Kind = OpdMem
	inner := s[1 : len(s)-1]
	sign := int64(1)
	for _, term := range splitTerms(inner) {
		t := strings.TrimSpace(term)
		if t == "+" || t == "-" {
			if t == "-" {
				sign = -1
			} else {
				sign = 1
			}
			continue
		}
		switch {
		case t == "":
			return bad("expected address")
		case isDigit(t[0]):
			v, ok := parseIntLit(t)
			if !ok {
				return bad("expected integer")
			}
			o.Disp += sign * v
		case strings.Contains(t, "*"):
			r, sc, _ := strings.Cut(t, "*")
			r, sc = strings.TrimSpace(r), strings.TrimSpace(sc)
			v, ok := parseIntLit(sc)
			if !isReg(r) || !ok || sign < 0 || o.Index != "" {
				return bad("expected register*scale")
			}
			o.Index, o.Scale = r, int(v)
		case identLen(t) == len(t) && isReg(t):
			if sign < 0 {
				return bad("unexpected - before register")
			}
			if o.Base == "" {
				o.Base = t
			} else if o.Index == "" {
				o.Index, o.Scale = t, 1
			} else {
				return bad("too many registers")
			}
		case identLen(t) == len(t):
			if o.Sym != "" || sign < 0 {
				return bad("unexpected second location")
			}
			o.Sym = t
		default:
			return bad("unexpected text")
		}
		sign = 1
	}
	return o
}

// splitTerms splits s into terms and the '+'/'-' signs between them.
func splitTerms(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '+' || s[i] == '-' {
			out = append(out, s[start:i], s[i:i+1])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// x86ImmRange says why immediate s (read as v) is not one herd7's X86
// parsers read, or "": they read it with OCaml's int_of_string
// (Misc.string_as_int), 63 bits, as the other assembly dialects.
func x86ImmRange(s string, v int64) string {
	if big := overflowingInt(s); big != "" {
		return "integer " + big + " out of range (beyond 64 bits)"
	}
	if v < herdIntMin || v > herdIntMax {
		return "integer " + strconv.FormatInt(v, 10) + " out of range (herd7 reads X86 integers as 63-bit, -2^62 to 2^62-1)"
	}
	return ""
}
