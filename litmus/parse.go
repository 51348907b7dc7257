package litmus

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxErrors is how many errors Parse reports before it gives up, and
// maxMessage the longest message it writes.
const (
	maxErrors  = 10
	maxMessage = 160
)

// Parse parses one litmus test. On failure the error is an ErrorList,
// sorted by position, at most one error per line and at most ten errors;
// each prints as file:line:col: message. Parse never panics: whatever
// the input, it returns a Test or an error.
func Parse(filename string, src []byte) (t *Test, err error) {
	return ParseWith(filename, src, nil)
}

// ParseWith is Parse with the primitive table prims (nil for the built-in
// one, Builtin), as a kernel tree's linux-kernel.def defines it
// (ParseDef): C calls are checked against it, and the test keeps it.
func ParseWith(filename string, src []byte, prims Table) (t *Test, err error) {
	p := &parser{file: NewFile(filename, src), src: src, prims: prims}
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
	if t != nil {
		t.Prims = prims
	}
	return t, nil
}

// MaxSize is the size of the largest test ReadSource accepts: 8 MiB.
// Kernel litmus tests are a few kilobytes and generated ones rarely reach
// a megabyte; the bound keeps a wrong argument (/dev/zero, a core dump)
// from filling the memory before the parser sees a byte.
const MaxSize = 8 << 20

// ReadSource reads a test's source from r, refusing more than MaxSize
// bytes; name names the input in the error.
func ReadSource(name string, r io.Reader) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxSize {
		return nil, fmt.Errorf("%s: more than %d MiB; litmus reads tests up to %d MiB", name, MaxSize>>20, MaxSize>>20)
	}
	return src, nil
}

// ParseFile reads (at most MaxSize bytes) and parses the file at path.
func ParseFile(path string) (*Test, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := ReadSource(path, f)
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
	// ntok counts the tokens read: the progress a loop makes (a macro's
	// expanded tokens all sit at its call's position).
	ntok  int
	file  *File
	src   []byte
	prims Table // nil: the built-in table
	errs  ErrorList
	test  *Test

	sc      scanner
	tok     tokKind
	pos     Pos
	lit     string
	prevEnd int // byte offset just after the previous token

	lastErrLine int
	depth       int // nesting of expressions, statements and propositions

	// code is set in a code test (a C test with a prelude); then next
	// expands macros, and pend holds tokens of expansions still to come
	// (cpp.go). hide is the current token's hide set.
	code *codeState
	pend []ptok
	hide []string
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
// after maxErrors. A message is cut at maxMessage bytes, whatever input it
// quotes.
func (p *parser) error(pos Pos, msg string) {
	if len(msg) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "..."
	}
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
	case tIllegal:
		return p.lit
	case tString:
		return quoteInput(p.lit)
	}
	if len(p.lit) > maxQuoted || !printable(p.lit) {
		return quoteInput(p.lit)
	}
	return "'" + p.lit + "'"
}

// printable reports whether s is printable ASCII.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// errorExpected reports "expected what, found <current token>".
func (p *parser) errorExpected(what string) {
	p.error(p.pos, "expected "+what+", found "+p.describe())
}

// next advances to the next token.
func (p *parser) next() {
	if p.code != nil {
		for {
			p.rawNext()
			if p.tok != tIdent || hidden(p.lit, p.hide) {
				return
			}
			m := p.code.macros[p.lit]
			if m == nil || !p.expand(m, p.hide) {
				return
			}
		}
	}
	p.prevEnd = p.sc.off
	p.ntok++
	var off int
	p.tok, off, p.lit = p.sc.scan()
	p.pos = Pos(off + 1)
	if p.tok == tIllegal {
		p.error(p.pos, "illegal "+p.lit)
		p.next()
	}
}

// reset restarts the token stream at byte offset off, with (* *)
// comments recognised when ocaml is set.
func (p *parser) reset(off int, ocaml bool) {
	p.pend = nil
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
	if p.test.Arch == ArchC && off < len(p.src) && p.startsCode(off) {
		p.code = newCodeState(p.file.Name)
		off = p.parseCodePrelude(off)
	}
	if off >= len(p.src) || p.src[off] != '{' {
		if len(p.errs) == 0 {
			p.errorAt(off, "expected {, found "+p.describeAt(off))
		}
		return p.test
	}
	p.reset(off, p.code == nil)
	if p.code != nil {
		p.parseCodeInit()
	} else {
		p.parseInit()
	}
	switch p.test.Arch {
	case ArchC:
		p.parseCProcs()
	case ArchLISA:
		p.parseLISAProcs()
	default:
		p.reset(p.parseX86Procs(p.offset(p.pos)), true)
	}
	p.parseFinal()
	p.test.EndPos = Pos(len(p.src) + 1)
	if p.code != nil && len(p.errs) == 0 {
		p.lower()
	}
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
	return quoteInput(string(p.src[off:end]))
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
	case ArchC, ArchX86, ArchX8664, ArchAArch64, ArchRISCV, ArchPPC, ArchLISA:
		p.test.Arch, p.test.ArchPos = Arch(arch), Pos(off+1)
	default:
		if arch == "" {
			p.errorAt(off, "expected architecture C, X86, X86_64, AArch64, RISCV, PPC or LISA, found EOF")
		} else {
			p.errorAt(off, fmt.Sprintf("unsupported architecture %s (want C, X86, X86_64, AArch64, RISCV, PPC or LISA)", quoteInput(arch)))
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
	// herd drops a ".litmus" suffix from the name (Misc.clean_name), as
	// in "LISA rcu-B-cumulativity-failure.litmus".
	p.test.Name, p.test.NamePos = strings.TrimSuffix(string(p.src[off:end]), ".litmus"), Pos(off+1)
	if p.test.Name == "" {
		p.test.Name = string(p.src[off:end])
	}
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
		// herd's splitter skips whatever follows the name up to the
		// init block (splitter.mll, find_init), as in "LISA
		// cris-crossing read-side critical sections": keep it as a line
		// of its own, printed back.
		eol := off
		for eol < len(p.src) && p.src[eol] != '\n' {
			eol++
		}
		if rest := strings.TrimSpace(string(p.src[off:eol])); !strings.ContainsAny(rest, "{\"") && !strings.HasPrefix(rest, "(*") {
			p.test.Meta = append(p.test.Meta, &Meta{KeyPos: Pos(off + 1), Value: rest})
			return eol
		}
		p.errorAt(off, "unexpected "+p.describeAt(off)+" after test name")
		for off < len(p.src) && p.src[off] != '\n' {
			off++
		}
	}
	return off
}

// parsePrelude parses the lines between the header and the init block
//
//	{ Doc | Key "=" Value | Arch Name | Comment }
//
// and returns the offset of the init block's '{'.
func (p *parser) parsePrelude(off int) int {
	for {
		if dialectOf(p.test.Arch) != nil {
			off = p.skipPreludeBlank(off)
		} else {
			off = p.skipBlank(off, false)
		}
		if off >= len(p.src) || p.src[off] == '{' || p.test.Arch == ArchC && p.startsCode(off) {
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
		if f := strings.Fields(line); len(f) == 2 && Arch(f[0]) == p.test.Arch {
			// A repeated header line, as in "C JanStancek-rwsem" then
			// "C rwsem": herd's splitter skips the lines before the
			// init block that are not Key=Value, and the first name
			// stays the test's name.
			off = eol
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || !isMetaKey(key) {
			if !strings.Contains(line, "{") && (dialectOf(p.test.Arch) != nil || !strings.HasPrefix(strings.TrimSpace(line), "(*")) {
				// herd's splitter skips any other line before the
				// init block (splitter.mll, find_init), as in a
				// PPC test whose cycle line lost its "Cycle=", or an
				// assembly test's "(* text": it is kept and printed
				// back.
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
			if off+2 < len(p.src) && p.src[off+2] != '\n' && p.src[off+2] != '\r' && p.src[off+2] != '{' && !closesOnLine(p.src[off+2:]) {
				return off
			}
			off = p.sc.ocamlComment(off)
		default:
			return off
		}
	}
	return off
}

// closesOnLine reports whether a comment's "*)" comes before the end of
// the line: such a comment is skipped by herd either way (as a comment,
// or as a line of text), and it may carry an expectation (Result-AARCH64).
func closesOnLine(b []byte) bool {
	eol := bytes.IndexByte(b, '\n')
	if eol < 0 {
		eol = len(b)
	}
	return bytes.Contains(b[:eol], []byte("*)"))
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
