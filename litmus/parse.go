package litmus

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// maxErrors is how many errors Parse reports before it gives up.
const maxErrors = 10

// Parse parses one litmus test. On failure the error is an ErrorList,
// sorted by position, at most one error per line and at most ten errors;
// each prints as file:line:col: message. Parse never panics: whatever
// the input, it returns a Test or an error.
func Parse(filename string, src []byte) (t *Test, err error) {
	p := &parser{file: NewFile(filename, src), src: src}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				// A parser bug: report it as an error at the current
				// token rather than crash the caller.
				p.errs.Add(p.file.Position(p.pos), fmt.Sprintf("internal error: %v", r))
			}
		}
		p.errs.Sort()
		if len(p.errs) > 0 {
			t, err = nil, p.errs
		}
	}()
	t = p.parseTest()
	return t, nil
}

// ParseFile reads and parses the file at path.
func ParseFile(path string) (*Test, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// bailout is the panic value that stops a parse after maxErrors errors.
type bailout struct{}

// parser holds the state of one parse. The token fields describe the
// current token of the shared C-like scanner; the X86 code table is read
// directly from src (parse_x86.go).
type parser struct {
	file *File
	src  []byte
	errs ErrorList
	test *Test

	sc      scanner
	tok     tokKind
	pos     Pos
	lit     string
	prevEnd int // byte offset just after the previous token

	lastErrLine int
	depth       int // nesting of expressions, statements and propositions
}

// maxDepth bounds nesting, so that "((((..." cannot exhaust the stack.
const maxDepth = 500

// enter records one more level of nesting; leave undoes it.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.error(p.pos, "nesting too deep")
		panic(bailout{})
	}
}

func (p *parser) leave() { p.depth-- }

// errorAt records an error at byte offset off.
func (p *parser) errorAt(off int, msg string) { p.error(Pos(off+1), msg) }

// error records an error at pos: at most one per line, and a bailout
// after maxErrors.
func (p *parser) error(pos Pos, msg string) {
	position := p.file.Position(pos)
	if len(p.errs) > 0 && position.Line == p.lastErrLine {
		return
	}
	p.lastErrLine = position.Line
	p.errs.Add(position, msg)
	if len(p.errs) >= maxErrors {
		panic(bailout{})
	}
}

// describe names the current token for "found X" in messages.
func (p *parser) describe() string {
	switch p.tok {
	case tEOF:
		return "EOF"
	case tString, tIllegal:
		return p.lit
	}
	return "'" + p.lit + "'"
}

// errorExpected reports "expected what, found <current token>".
func (p *parser) errorExpected(what string) {
	p.error(p.pos, "expected "+what+", found "+p.describe())
}

// next advances to the next token.
func (p *parser) next() {
	p.prevEnd = p.sc.off
	var off int
	p.tok, off, p.lit = p.sc.scan()
	p.pos = Pos(off + 1)
	if p.tok == tIllegal {
		p.error(p.pos, "illegal character "+p.lit)
		p.next()
	}
}

// reset restarts the token stream at byte offset off, with (* *)
// comments recognised when ocaml is set.
func (p *parser) reset(off int, ocaml bool) {
	p.sc.off = off
	p.sc.ocaml = ocaml
	p.next()
}

// offset returns the byte offset of pos.
func (p *parser) offset(pos Pos) int { return int(pos) - 1 }

// is reports whether the current token is the operator op.
func (p *parser) is(op string) bool { return p.tok == tOp && p.lit == op }

// isIdent reports whether the current token is the identifier name.
func (p *parser) isIdent(name string) bool { return p.tok == tIdent && p.lit == name }

// got consumes the operator op if it is the current token.
func (p *parser) got(op string) bool {
	if p.is(op) {
		p.next()
		return true
	}
	return false
}

// expect consumes the operator op, or reports an error; it returns the
// position where op was expected.
func (p *parser) expect(op string) Pos {
	pos := p.pos
	if !p.got(op) {
		p.errorExpected(op)
	}
	return pos
}

// addComment records a (* *) comment outside the code.
func (p *parser) addComment(c *Comment) { p.test.Comments = append(p.test.Comments, c) }

// parseTest parses
//
//	Test = Header { Doc | Meta } InitBlock Procs FinalSection .
func (p *parser) parseTest() *Test {
	p.test = &Test{File: p.file}
	p.sc = scanner{src: p.src, onComment: p.addComment, onError: func(off int, msg string) { p.errorAt(off, msg) }}
	off := p.parseHeader()
	if p.test.Arch == "" {
		return p.test
	}
	p.sc.symbolic = dialectOf(p.test.Arch) != nil
	off = p.parsePrelude(off)
	if off >= len(p.src) || p.src[off] != '{' {
		if len(p.errs) == 0 {
			p.errorAt(off, "expected {, found "+p.describeAt(off))
		}
		return p.test
	}
	p.reset(off, true)
	p.parseInit()
	switch p.test.Arch {
	case ArchC:
		p.parseCProcs()
	default:
		p.reset(p.parseX86Procs(p.offset(p.pos)), true)
	}
	p.parseFinal()
	p.test.EndPos = Pos(len(p.src) + 1)
	return p.test
}

// describeAt names the text at byte offset off for messages.
func (p *parser) describeAt(off int) string {
	if off >= len(p.src) {
		return "EOF"
	}
	end := off
	for end < len(p.src) && !isSpace(p.src[end]) && end-off < 20 {
		end++
	}
	if end == off {
		end = off + 1
	}
	return strconv.Quote(string(p.src[off:end]))
}

// skipBlank skips whitespace and (* *) comments from off, recording the
// comments, and returns the new offset. With inLine set it stops at a
// newline.
func (p *parser) skipBlank(off int, inLine bool) int {
	for off < len(p.src) {
		c := p.src[off]
		switch {
		case c == '\n' && inLine:
			return off
		case isSpace(c):
			off++
		case c == '(' && off+1 < len(p.src) && p.src[off+1] == '*':
			off = p.sc.ocamlComment(off)
		case c == '/' && off+1 < len(p.src) && p.src[off+1] == '/':
			for off < len(p.src) && p.src[off] != '\n' {
				off++
			}
		default:
			return off
		}
	}
	return off
}

// word returns the end of the run of non-space bytes at off.
func (p *parser) word(off int) int {
	for off < len(p.src) && !isSpace(p.src[off]) {
		off++
	}
	return off
}

// parseHeader parses
//
//	Header = Arch Name [ "(" TexName ")" ] [ ";" ] .
//
// and returns the offset after it. Names are herd's: any run of
// non-space bytes, e.g. "MP+pooncerelease+poacquireonce" or "2+2W".
func (p *parser) parseHeader() int {
	start := 0
	if strings.HasPrefix(string(p.src[:min(3, len(p.src))]), "\xef\xbb\xbf") {
		start = 3 // a UTF-8 byte order mark
	}
	off := p.skipBlank(start, false)
	end := p.word(off)
	arch := string(p.src[off:end])
	switch Arch(arch) {
	case ArchC, ArchX86, ArchX8664, ArchAArch64, ArchRISCV, ArchPPC:
		p.test.Arch, p.test.ArchPos = Arch(arch), Pos(off+1)
	default:
		if arch == "" {
			p.errorAt(off, "expected architecture C, X86, X86_64, AArch64, RISCV or PPC, found EOF")
		} else {
			p.errorAt(off, fmt.Sprintf("unsupported architecture %q (want C, X86, X86_64, AArch64, RISCV or PPC)", arch))
		}
		return end
	}
	off = end
	for off < len(p.src) && (p.src[off] == ' ' || p.src[off] == '\t') {
		off++
	}
	end = p.word(off)
	if end == off {
		p.errorAt(off, "expected test name after "+arch)
		return off
	}
	p.test.Name, p.test.NamePos = string(p.src[off:end]), Pos(off+1)
	off = p.skipBlank(end, true)
	// herd's splitter accepts a TeX name in parentheses after the test
	// name, as in "X86 amd3 (amdThree)", and a ';' ending the line; the
	// old X86 tests have both. Neither means anything to a checker.
	if p.test.Arch != ArchC && off < len(p.src) && p.src[off] == '(' && (off+1 >= len(p.src) || p.src[off+1] != '*') {
		close := off + 1
		for close < len(p.src) && (isLetter(p.src[close]) || isDigit(p.src[close]) || strings.IndexByte("_/.-", p.src[close]) >= 0) {
			close++
		}
		if close < len(p.src) && p.src[close] == ')' && close > off+1 {
			off = p.skipBlank(close+1, true)
		}
	}
	if off < len(p.src) && p.src[off] == '"' {
		return off // the doc string may share the header line
	}
	if p.test.Arch != ArchC && off < len(p.src) && p.src[off] == ';' {
		off = p.skipBlank(off+1, true)
	}
	if off < len(p.src) && p.src[off] != '\n' && dialectOf(p.test.Arch) != nil {
		// herd's splitter reads what else the header line holds as text
		// of the prelude (find_init), as "(PPCMElevenLwsync )", whose
		// blank does not fit a TeX name.
		eol := off
		for eol < len(p.src) && p.src[eol] != '\n' && p.src[eol] != '{' {
			eol++
		}
		p.test.Meta = append(p.test.Meta, &Meta{KeyPos: Pos(off + 1), Value: strings.TrimSpace(string(p.src[off:eol]))})
		return eol
	}
	if off < len(p.src) && p.src[off] != '\n' {
		p.errorAt(off, "unexpected "+p.describeAt(off)+" after test name")
		for off < len(p.src) && p.src[off] != '\n' {
			off++
		}
	}
	return off
}

// parsePrelude parses the lines between the header and the init block
//
//	{ Doc | Key "=" Value | Comment }
//
// and returns the offset of the init block's '{'.
func (p *parser) parsePrelude(off int) int {
	for {
		if dialectOf(p.test.Arch) != nil {
			off = p.skipPreludeBlank(off)
		} else {
			off = p.skipBlank(off, false)
		}
		if off >= len(p.src) || p.src[off] == '{' {
			return off
		}
		if p.src[off] == '"' && (dialectOf(p.test.Arch) == nil || bytes.IndexByte(p.src[off+1:], '"') >= 0) {
			// (In an assembly test, a '"' that no other closes starts a
			// line of text, as herd's splitter reads it.)
			end := off + 1
			for end < len(p.src) && p.src[end] != '"' {
				end++
			}
			if end >= len(p.src) {
				p.errorAt(off, "doc string not terminated")
				return end
			}
			if p.test.Doc != "" {
				p.errorAt(off, "more than one doc string")
			}
			p.test.Doc = string(p.src[off+1 : end])
			off = end + 1
			if p.test.Arch != ArchC {
				// herd's splitter allows a ';' after the doc string.
				if next := p.skipBlank(off, true); next < len(p.src) && p.src[next] == ';' {
					off = next + 1
				}
			}
			continue
		}
		eol := off
		for eol < len(p.src) && p.src[eol] != '\n' {
			eol++
		}
		line := string(p.src[off:eol])
		key, value, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || !isMetaKey(key) {
			if dialectOf(p.test.Arch) != nil && !strings.Contains(line, "{") {
				// herd's splitter skips any other line before the
				// init block (splitter.mll, find_init), as in a
				// PPC test whose cycle line lost its "Cycle=".
				p.test.Meta = append(p.test.Meta, &Meta{KeyPos: Pos(off + 1), Value: strings.TrimSpace(line)})
				off = eol
				continue
			}
			p.errorAt(off, "expected {, found "+p.describeAt(off))
			return len(p.src)
		}
		p.test.Meta = append(p.test.Meta, &Meta{KeyPos: Pos(off + 1), Key: key, Value: strings.TrimSpace(value)})
		off = eol
	}
}

// skipPreludeBlank skips the blanks and comments before a prelude line of
// an assembly test as herd's splitter does (splitter.mll, find_init):
// there a line's text is one token, which wins over a comment's "(*" by
// being longer, so "(*" opens a comment only when a newline, '{' or the
// end of the file follows it; "(* text" is a line of text like any other,
// even when no "*)" closes it.
func (p *parser) skipPreludeBlank(off int) int {
	for off < len(p.src) {
		switch c := p.src[off]; {
		case isSpace(c):
			off++
		case c == '(' && off+1 < len(p.src) && p.src[off+1] == '*':
			if off+2 < len(p.src) && p.src[off+2] != '\n' && p.src[off+2] != '\r' && p.src[off+2] != '{' {
				return off
			}
			off = p.sc.ocamlComment(off)
		default:
			return off
		}
	}
	return off
}

// isMetaKey reports whether s can be the key of a header line: herd's
// splitter takes a letter, then letters, digits, '_', '/', '.' and '-'.
func isMetaKey(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) && strings.IndexByte("-._/", s[i]) < 0 {
			return false
		}
	}
	return true
}

// parseIntLit converts an integer literal (decimal, 0x hex, 0 octal, with
// optional u/l suffixes) to its value.
func parseIntLit(text string) (int64, bool) {
	s := strings.TrimRight(text, "uUlL")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	u, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, false
	}
	v := int64(u)
	if neg {
		v = -v
	}
	return v, true
}
