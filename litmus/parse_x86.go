package litmus

import (
	"strconv"
	"strings"
)

// The X86 code table is read from the source text directly, not through
// the token scanner: its rows end with ';', its columns are separated by
// '|', and an operand such as "%cs:0(%rax,%eax,0)" is simplest to split
// by hand.

// finalKeywords start the final section; the code table ends before the
// first row that starts with one.
var finalKeywords = []string{"exists", "forall", "final", "locations", "filter", "invariant"}

// atFinal reports whether the text at off starts the final section.
func (p *parser) atFinal(off int) bool {
	if off < len(p.src) && p.src[off] == '~' {
		return true
	}
	end := off
	for end < len(p.src) && (isLetter(p.src[end]) || isDigit(p.src[end])) {
		end++
	}
	w := string(p.src[off:end])
	for _, k := range finalKeywords {
		if w == k {
			return true
		}
	}
	return false
}

// cell is one '|'-separated cell of a code row, trimmed.
type cell struct {
	off  int
	text string
}

// parseX86Procs parses the code table of every assembly dialect (X86,
// X86_64, AArch64, RISCV, PPC)
//
//	Code = [ ";" ] Row { Row } .
//	Row  = Cell { "|" Cell } ";" .
//
// whose first row names the processes ("P0 | P1 ;"). It starts at byte
// offset off and returns the offset where the final section starts.
func (p *parser) parseX86Procs(off int) int {
	first, skippedSemi := true, false
	// text is src with the comments inside rows blanked out, so that
	// offsets stay those of src.
	text := append([]byte(nil), p.src...)
	for {
		off = p.skipBlank(off, false)
		if off >= len(p.src) || p.atFinal(off) {
			return off
		}
		end := off
		for end < len(p.src) && p.src[end] != '\n' {
			if p.src[end] == ';' {
				if dialectOf(p.test.Arch) != nil || !lockBefore(p.src, off, end) {
					break
				}
				// "LOCK; INC [x]": herd's grammar reads "LOCK semi_opt
				// instr", so this ';' belongs to the instruction.
				end++
				continue
			}
			if p.src[end] == '(' && end+1 < len(p.src) && p.src[end+1] == '*' {
				stop := p.sc.ocamlComment(end)
				for i := end; i < stop; i++ {
					if text[i] != '\n' {
						text[i] = ' '
					}
				}
				end = stop
				continue
			}
			end++
		}
		if first && !skippedSemi && end == off && end < len(p.src) && p.src[end] == ';' {
			// herd's X86 grammar starts "semi_opt proc_list": the old
			// tests close the init block with "};".
			skippedSemi = true
			off = end + 1
			continue
		}
		if end >= len(p.src) || p.src[end] != ';' {
			p.errorAt(end, "expected ; at the end of the code row, found "+p.describeAt(end))
		}
		cells := splitCells(text, off, end)
		if first {
			p.x86Header(cells)
			first = false
		} else {
			p.x86Row(cells)
		}
		off = end + 1
	}
}

// splitCells splits src[off:end] at '|' and trims each cell.
func splitCells(src []byte, off, end int) []cell {
	var cells []cell
	start := off
	for i := off; i <= end; i++ {
		if i == end || src[i] == '|' {
			s, e := start, i
			for s < e && isSpace(src[s]) {
				s++
			}
			for e > s && isSpace(src[e-1]) {
				e--
			}
			cells = append(cells, cell{s, string(src[s:e])})
			start = i + 1
		}
	}
	return cells
}

// x86Header parses the first row
//
//	Header = "P" Int { "|" "P" Int } ";" .
func (p *parser) x86Header(cells []cell) {
	for i, c := range cells {
		id, ok := procID(c.text)
		if !ok {
			p.errorAt(c.off, "expected process P"+strconv.Itoa(i)+", found "+quoteCell(c.text))
			id = i
		} else if id != i {
			p.errorAt(c.off, "expected process P"+strconv.Itoa(i)+", found "+c.text)
		}
		p.test.Procs = append(p.test.Procs, &Proc{ProcPos: Pos(c.off + 1), ID: id, EndPos: Pos(c.off + len(c.text) + 1)})
	}
}

func quoteCell(s string) string {
	if s == "" {
		return "empty column"
	}
	if len(s) > maxQuoted || !printable(s) {
		return quoteInput(s)
	}
	return "'" + s + "'"
}

// x86Row parses one row of instructions, one cell per process
//
//	Row = Cell { "|" Cell } ";" .
func (p *parser) x86Row(cells []cell) {
	for i, c := range cells {
		if c.text == "" {
			continue
		}
		if i >= len(p.test.Procs) {
			p.errorAt(c.off, "more columns than processes")
			return
		}
		proc := p.test.Procs[i]
		var code []*Instr
		if d := dialectOf(p.test.Arch); d != nil {
			code = p.parseArchCell(d, c)
		} else {
			code = p.parseInstrs(c)
		}
		for _, in := range code {
			proc.Code = append(proc.Code, in)
			proc.EndPos = in.EndPos
		}
	}
}

// parseInstrs parses one cell
//
//	Cell  = [ Label ":" ] [ Instr ] .
//	Instr = [ "LOCK" [ ";" ] ] Mnemonic [ Operand { "," Operand } ] .
func (p *parser) parseInstrs(c cell) []*Instr {
	var out []*Instr
	text, off := c.text, c.off
	// A label: an identifier followed by ':'.
	if n := identLen(text); n > 0 && n < len(text) && text[n] == ':' {
		var label *Instr
		label, text, off = cutLabel(text, off, n)
		out = append(out, label)
		if text == "" {
			return out
		}
	}
	in := &Instr{InstrPos: Pos(off + 1), EndPos: Pos(off + len(text) + 1)}
	n := identLen(text)
	if n == 0 {
		p.errorAt(off, "expected instruction, found "+quoteCell(text))
		return out
	}
	in.Op = text[:n]
	rest := text[n:]
	if strings.EqualFold(in.Op, "lock") {
		in.Prefix = "LOCK"
		trimmed := strings.TrimLeft(rest, " \t")
		if strings.HasPrefix(trimmed, ";") {
			trimmed = strings.TrimLeft(trimmed[1:], " \t")
		}
		off += n + len(rest) - len(trimmed)
		text = trimmed
		if n = identLen(text); n == 0 {
			p.errorAt(off, "expected instruction after LOCK, found "+quoteCell(text))
			return out
		}
		in.Op, rest = text[:n], text[n:]
	}
	off += n
	if strings.TrimSpace(rest) != "" {
		if !isSpace(rest[0]) {
			p.errorAt(off, "expected space after "+in.Op)
			return out
		}
		for _, a := range splitOperands(rest, off) {
			if opd := p.parseOperand(a); opd != nil {
				in.Args = append(in.Args, opd)
			}
		}
	}
	return append(out, in)
}

// lockBefore reports whether the ';' at src[end] follows the word LOCK
// alone in its cell (the row starts at off) and precedes an instruction
// on the same line.
func lockBefore(src []byte, off, end int) bool {
	start := end
	for start > off && src[start-1] != '|' {
		start--
	}
	if !strings.EqualFold(strings.TrimSpace(string(src[start:end])), "lock") {
		return false
	}
	next := end + 1
	for next < len(src) && (src[next] == ' ' || src[next] == '\t') {
		next++
	}
	return next < len(src) && isLetter(src[next])
}

// identLen returns the length of the identifier (letters, digits, '_',
// '.') at the start of s.
func identLen(s string) int {
	if s == "" || !isLetter(s[0]) {
		return 0
	}
	n := 1
	for n < len(s) && (isLetter(s[n]) || isDigit(s[n]) || s[n] == '.') {
		n++
	}
	return n
}

// splitOperands splits s (at byte offset off) at commas outside
// parentheses and brackets.
func splitOperands(s string, off int) []cell {
	var out []cell
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '(', '[':
				depth++
				continue
			case ')', ']':
				depth--
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		a, b := start, i
		for a < b && isSpace(s[a]) {
			a++
		}
		for b > a && isSpace(s[b-1]) {
			b--
		}
		out = append(out, cell{off + a, s[a:b]})
		start = i + 1
	}
	return out
}

// x86Regs are the register names of herd's X86 dialects, lower case.
var x86Regs = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range strings.Fields(`eax ebx ecx edx esi edi ebp esp
		rax rbx rcx rdx rsi rdi rbp rsp rip
		ax bx cx dx si di bp sp al bl cl dl ah bh ch dh
		r8 r9 r10 r11 r12 r13 r14 r15 r8d r9d r10d r11d r12d r13d r14d r15d
		cs ds es fs gs ss`) {
		m[r] = true
	}
	return m
}()

// isReg reports whether name is an X86 register.
func isReg(name string) bool { return x86Regs[strings.ToLower(name)] }
