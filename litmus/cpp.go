package litmus

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// This file is the preprocessor of code tests: #include "file", object-
// and function-like #define, #undef, and the expansion of macros in the
// token stream. It is the part of C's preprocessor that kernel helpers
// copied into a test use; #if, # and ## are refused with their position.

// maxIncludeDepth bounds nested #include.
const maxIncludeDepth = 8

// macro is one #define.
type macro struct {
	name   string
	fn     bool     // function-like: NAME(params) body
	params []string // of a function-like macro
	body   []ptok
}

// ptok is a token waiting in the parser's queue: one from a macro's
// expansion, at the position of the macro's use.
type ptok struct {
	kind tokKind
	pos  Pos
	lit  string
	hide []string // the macros this token came from, not expanded again
}

// directive handles the preprocessor line starting at byte offset off
// (a '#') and returns the offset after it.
func (p *parser) directive(off int) int {
	end := off
	for end < len(p.src) && p.src[end] != '\n' {
		if p.src[end] == '\\' && end+1 < len(p.src) && p.src[end+1] == '\n' {
			end += 2
			continue
		}
		end++
	}
	line := strings.ReplaceAll(string(p.src[off+1:end]), "\\\n", " ")
	word := strings.Fields(line)
	if len(word) == 0 {
		return end
	}
	wordOff := off + 1 + strings.Index(line, word[0])
	switch word[0] {
	case "include":
		p.include(wordOff, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "include")))
	case "define":
		p.define(wordOff+len("define"), end)
	case "undef":
		if len(word) > 1 {
			delete(p.code.macros, word[1])
		}
	case "pragma":
	case "if", "ifdef", "ifndef":
		if p.condTrue(wordOff+len(word[0]), end, word[0]) {
			p.code.ifDepth++
			return end
		}
		return p.skipGroup(end, true)
	case "elif", "else":
		// The group being read was taken: the rest up to #endif is not.
		if p.code.ifDepth == 0 {
			p.errorAt(wordOff, "#"+word[0]+" without #if")
			return end
		}
		p.code.ifDepth--
		return p.skipGroup(end, false)
	case "endif":
		if p.code.ifDepth == 0 {
			p.errorAt(wordOff, "#endif without #if")
			return end
		}
		p.code.ifDepth--
	case "error":
		p.errorAt(wordOff, "#error"+strings.TrimPrefix(strings.TrimSpace(line), "error"))
	default:
		p.errorAt(off, "preprocessor directive #"+word[0]+" is not supported in a code test (only #include, #define, #undef, #if, #ifdef, #ifndef, #elif, #else, #endif)")
	}
	return end
}

// skipGroup skips the lines of a conditional group not taken, from off
// (the end of its directive) and returns the offset after the directive
// that ends the skipping: the matching #endif, or, when elseOK (no branch
// of the #if was taken yet), a matching #else or a true #elif, whose group
// is then read.
func (p *parser) skipGroup(off int, elseOK bool) int {
	depth := 0
	for off < len(p.src) {
		// off is at a newline or the end of a directive: go to the next line.
		for off < len(p.src) && p.src[off] != '\n' {
			off++
		}
		if off >= len(p.src) {
			break
		}
		off++
		i := off
		for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t') {
			i++
		}
		if i >= len(p.src) || p.src[i] != '#' {
			continue
		}
		end := i
		for end < len(p.src) && p.src[end] != '\n' {
			if p.src[end] == '\\' && end+1 < len(p.src) && p.src[end+1] == '\n' {
				end += 2
				continue
			}
			end++
		}
		line := strings.ReplaceAll(string(p.src[i+1:end]), "\\\n", " ")
		word := strings.Fields(line)
		off = end
		if len(word) == 0 {
			continue
		}
		wordOff := i + 1 + strings.Index(line, word[0])
		switch word[0] {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			if depth == 0 {
				return end
			}
			depth--
		case "else":
			if depth == 0 && elseOK {
				p.code.ifDepth++
				return end
			}
		case "elif":
			if depth == 0 && elseOK && p.condTrue(wordOff+len("elif"), end, "elif") {
				p.code.ifDepth++
				return end
			}
		}
	}
	p.errorAt(off, "unterminated #if (expected #endif)")
	return len(p.src)
}

// condTrue evaluates the condition of #if, #elif (a constant expression
// of integers, defined(NAME), object-like macros; an undefined name is 0,
// as C's preprocessor has it), #ifdef or #ifndef, whose text runs from off
// to end.
func (p *parser) condTrue(off, end int, kind string) bool {
	sc := scanner{src: p.src[:end], off: off, onError: func(o int, msg string) { p.errorAt(o, msg) }}
	var toks []ptok
	for {
		tok, at, lit := sc.scan()
		if tok == tEOF {
			break
		}
		toks = append(toks, ptok{kind: tok, pos: Pos(at + 1), lit: lit})
	}
	if kind == "ifdef" || kind == "ifndef" {
		if len(toks) == 0 || toks[0].kind != tIdent {
			p.errorAt(off, "expected a macro name after #"+kind)
			return false
		}
		_, def := p.code.macros[toks[0].lit]
		return def == (kind == "ifdef")
	}
	e := &ppEval{p: p, toks: p.ppExpand(toks, nil, 0), at: off}
	v := e.cond()
	if e.err == "" && e.i < len(e.toks) {
		e.fail(e.toks[e.i], "unexpected "+quoteInput(e.toks[e.i].lit)+" in #"+kind)
	}
	if e.err != "" {
		p.errorAt(e.at, e.err)
		return false
	}
	return v != 0
}

// ppExpand replaces defined(NAME) and defined NAME by 1 or 0 and expands
// object-like macros in the tokens of an #if.
func (p *parser) ppExpand(toks []ptok, hide []string, depth int) []ptok {
	var out []ptok
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tIdent {
			out = append(out, t)
			continue
		}
		if t.lit == "defined" {
			j := i + 1
			paren := j < len(toks) && toks[j].kind == tOp && toks[j].lit == "("
			if paren {
				j++
			}
			if j < len(toks) && toks[j].kind == tIdent {
				_, def := p.code.macros[toks[j].lit]
				v := "0"
				if def {
					v = "1"
				}
				if paren && j+1 < len(toks) && toks[j+1].kind == tOp && toks[j+1].lit == ")" {
					j++
				}
				out = append(out, ptok{kind: tInt, pos: t.pos, lit: v})
				i = j
				continue
			}
		}
		if m := p.code.macros[t.lit]; m != nil && !m.fn && !hidden(t.lit, hide) && depth < 64 {
			body := make([]ptok, len(m.body))
			for k, b := range m.body {
				body[k] = ptok{kind: b.kind, pos: t.pos, lit: b.lit}
			}
			out = append(out, p.ppExpand(body, append(hide, t.lit), depth+1)...)
			continue
		}
		// An undefined name (or a function-like macro) is 0 in #if.
		out = append(out, ptok{kind: tInt, pos: t.pos, lit: "0"})
	}
	return out
}

// ppEval evaluates an #if expression by precedence climbing.
type ppEval struct {
	p    *parser
	toks []ptok
	i    int
	err  string
	at   int
}

func (e *ppEval) fail(t ptok, msg string) {
	if e.err == "" {
		e.err, e.at = msg, int(t.pos)-1
	}
}

func (e *ppEval) peek() string {
	if e.i < len(e.toks) && e.toks[e.i].kind == tOp {
		return e.toks[e.i].lit
	}
	return ""
}

// ppPrec is the binary operators' precedence in #if.
var ppPrec = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

func (e *ppEval) cond() int64 {
	c := e.binary(1)
	if e.peek() == "?" {
		e.i++
		x := e.cond()
		if e.peek() != ":" {
			e.failHere("expected : in #if")
			return 0
		}
		e.i++
		y := e.cond()
		if c != 0 {
			return x
		}
		return y
	}
	return c
}

func (e *ppEval) failHere(msg string) {
	if e.i < len(e.toks) {
		e.fail(e.toks[e.i], msg)
	} else if e.err == "" {
		e.err = msg
	}
}

func (e *ppEval) binary(min int) int64 {
	x := e.unary()
	for {
		op := e.peek()
		prec, ok := ppPrec[op]
		if !ok || prec < min {
			return x
		}
		t := e.toks[e.i]
		e.i++
		y := e.binary(prec + 1)
		switch op {
		case "&&":
			x = boolInt(x != 0 && y != 0)
		case "||":
			x = boolInt(x != 0 || y != 0)
		default:
			v, ok := constBinop(op, x, y)
			if !ok {
				e.fail(t, "division by zero in #if")
			}
			x = v
		}
	}
}

func (e *ppEval) unary() int64 {
	if e.i >= len(e.toks) {
		e.failHere("expected an expression in #if")
		return 0
	}
	t := e.toks[e.i]
	e.i++
	switch {
	case t.kind == tInt:
		v, ok := parseIntLit(t.lit)
		if !ok {
			e.fail(t, "bad integer "+quoteInput(t.lit)+" in #if")
		}
		return v
	case t.kind == tOp && t.lit == "(":
		v := e.cond()
		if e.peek() != ")" {
			e.failHere("expected ) in #if")
			return 0
		}
		e.i++
		return v
	case t.kind == tOp && t.lit == "!":
		return boolInt(e.unary() == 0)
	case t.kind == tOp && t.lit == "-":
		return -e.unary()
	case t.kind == tOp && t.lit == "+":
		return e.unary()
	case t.kind == tOp && t.lit == "~":
		return ^e.unary()
	}
	e.fail(t, "unexpected "+quoteInput(t.lit)+" in #if")
	return 0
}

// include reads the file named by arg ("file.h", relative to the test's
// directory) as more prelude.
func (p *parser) include(off int, arg string) {
	if len(arg) < 2 || arg[0] != '"' || arg[len(arg)-1] != '"' {
		p.errorAt(off, "expected #include \"file\" (a file beside the test), found "+quoteInput(arg))
		return
	}
	name := arg[1 : len(arg)-1]
	path := filepath.Join(filepath.Dir(p.file.Name), name)
	if len(p.code.includes) >= maxIncludeDepth {
		p.errorAt(off, "#include nested more than 8 deep")
		return
	}
	abs, _ := filepath.Abs(path)
	for _, f := range p.code.includes {
		if f == abs {
			p.errorAt(off, "#include cycle: "+name+" includes itself")
			return
		}
	}
	if abs == p.code.root {
		p.errorAt(off, "#include cycle: "+name+" is the test itself")
		return
	}
	src, err := readInclude(path)
	if err != nil {
		p.errorAt(off, "#include: "+strings.TrimPrefix(err.Error(), "open "))
		return
	}
	q := &parser{file: NewFile(path, src), src: src, prims: p.prims, code: p.code, test: p.test}
	q.sc = scanner{src: src, onError: func(o int, msg string) { q.errorAt(o, msg) }}
	p.code.includes = append(p.code.includes, abs)
	depth := p.code.ifDepth
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		if o := q.parseCodePrelude(0); o < len(src) {
			q.errorAt(o, "unexpected '{' in an included file (the init block belongs to the test)")
		}
		if q.code.ifDepth > depth {
			q.errorAt(len(src), "unterminated #if (expected #endif in the same file)")
		}
	}()
	p.code.ifDepth = depth
	p.code.includes = p.code.includes[:len(p.code.includes)-1]
	for _, e := range q.errs {
		p.errs = append(p.errs, e)
	}
	if len(p.errs) >= maxErrors {
		panic(bailout{})
	}
}

// define records "#define NAME body" or "#define NAME(a, b) body"; the
// directive's text runs from off to end.
func (p *parser) define(off, end int) {
	sc := scanner{src: p.src[:end], off: off, onError: func(o int, msg string) { p.errorAt(o, msg) }}
	tok, at, name := sc.scan()
	if tok != tIdent {
		p.errorAt(at, "expected macro name after #define")
		return
	}
	m := &macro{name: name}
	if sc.off < end && p.src[sc.off] == '(' {
		m.fn = true
		sc.scan()
		for {
			tok, at, lit := sc.scan()
			if tok == tOp && lit == ")" {
				break
			}
			if tok != tIdent {
				p.errorAt(at, "expected macro parameter name, found "+quoteInput(lit))
				return
			}
			m.params = append(m.params, lit)
			tok, at, lit = sc.scan()
			if tok == tOp && lit == ")" {
				break
			}
			if tok != tOp || lit != "," {
				p.errorAt(at, "expected , or ) in macro parameters")
				return
			}
		}
	}
	for {
		sc.skipSpace()
		if sc.off < end && (p.src[sc.off] == '#') {
			p.errorAt(sc.off, "# and ## are not supported in a code test's macros")
			return
		}
		tok, at, lit := sc.scan()
		if tok == tEOF {
			break
		}
		if tok == tIllegal && p.src[at] == '\'' {
			if v, n, ok := charLit(p.src[at:end]); ok {
				sc.off = at + n
				tok, lit = tInt, strconv.Itoa(int(v))
			}
		}
		if tok == tIllegal {
			p.errorAt(at, "illegal "+lit+" in macro")
			return
		}
		m.body = append(m.body, ptok{kind: tok, lit: lit})
	}
	if builtinMacros[name] {
		// The kernel's own definition, pasted with the code, is in
		// terms the lowering has no use for (type-punned pointer
		// arithmetic, compiletime_assert, __builtin_expect): the
		// built-in with the same meaning is kept.
		return
	}
	p.code.macros[name] = m
}

// builtinMacros are kernel macros that code tests implement themselves
// (docs/language.md): a #define of one is ignored.
var builtinMacros = map[string]bool{
	"container_of": true, "container_of_const": true, "offsetof": true,
	"likely": true, "unlikely": true, "READ_ONCE": true, "WRITE_ONCE": true,
	"barrier": true, "smp_mb": true, "smp_rmb": true, "smp_wmb": true,
	"smp_load_acquire": true, "smp_store_release": true, "data_race": true,
}

// expand replaces the macro use at the current token by its expansion
// and reports whether it did: a function-like macro not followed by '('
// is a plain name.
func (p *parser) expand(m *macro, hide []string) bool {
	pos := p.pos
	var args [][]ptok
	if m.fn {
		if k, _ := p.peekTok(); k.kind != tOp || k.lit != "(" {
			return false
		}
		p.rawNext() // the name
		depth := 0
		var cur []ptok
		for {
			p.rawNext()
			if p.tok == tEOF {
				p.error(pos, "unterminated call of macro "+m.name)
				return true
			}
			t := ptok{kind: p.tok, pos: p.pos, lit: p.lit, hide: p.hide}
			if p.tok == tOp {
				switch {
				case (p.lit == ")") && depth == 0:
					args = append(args, cur)
					goto done
				case p.lit == "," && depth == 0:
					args = append(args, cur)
					cur = nil
					continue
				case p.lit == "(":
					depth++
				case p.lit == ")":
					depth--
				}
			}
			cur = append(cur, t)
		}
	done:
		if len(m.params) == 0 && len(args) == 1 && len(args[0]) == 0 {
			args = nil
		}
		if len(args) != len(m.params) {
			p.error(pos, "macro "+m.name+" takes "+plural(len(m.params), "argument")+", have "+itoa(len(args)))
			return true
		}
	}
	nh := append(append([]string(nil), hide...), m.name)
	var out []ptok
	for _, t := range m.body {
		if m.fn && t.kind == tIdent {
			if i := indexOf(m.params, t.lit); i >= 0 {
				for _, a := range args[i] {
					a.pos = pos
					out = append(out, a)
				}
				continue
			}
		}
		out = append(out, ptok{kind: t.kind, pos: pos, lit: t.lit, hide: nh})
	}
	p.pend = append(out, p.pend...)
	return true
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// rawNext advances to the next token without expanding macros.
func (p *parser) rawNext() {
	p.ntok++
	if len(p.pend) > 0 {
		t := p.pend[0]
		p.pend = p.pend[1:]
		p.tok, p.pos, p.lit, p.hide = t.kind, t.pos, t.lit, t.hide
		return
	}
	p.prevEnd = p.sc.off
	var off int
	p.tok, off, p.lit = p.sc.scan()
	p.pos, p.hide = Pos(off+1), nil
	if p.tok == tIllegal && p.src[off] == '#' && lineStart(p.src, off) {
		// A directive between declarations or inside a function body:
		// the scanner read its '#' as the token after the last one.
		p.sc.off = p.directive(off)
		p.rawNext()
		return
	}
	if p.tok == tIllegal && p.src[off] == '\'' {
		if v, n, ok := charLit(p.src[off:]); ok {
			p.sc.off = off + n
			p.tok, p.lit = tInt, strconv.Itoa(int(v))
			return
		}
	}
	if p.tok == tIllegal {
		p.error(p.pos, "illegal "+p.lit)
		p.rawNext()
	}
}

// lineStart reports whether only blanks precede off on its line.
func lineStart(src []byte, off int) bool {
	for i := off - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i] != ' ' && src[i] != '\t' {
			return false
		}
	}
	return true
}

// charLit reads a C character constant at the start of src ('a', '\n',
// '\0', '\x41', '\”): its value (an int, as C has it; a plain char is
// signed in the kernel's x86 and arm64 ABIs only for values below 128,
// so only 7-bit characters and escapes are accepted), its length, and
// whether it is one.
func charLit(src []byte) (int64, int, bool) {
	if len(src) < 3 || src[0] != '\'' {
		return 0, 0, false
	}
	if src[1] != '\\' {
		if src[2] == '\'' && src[1] != '\'' && src[1] >= ' ' && src[1] < 0x7f {
			return int64(src[1]), 3, true
		}
		return 0, 0, false
	}
	esc := map[byte]int64{'n': '\n', 't': '\t', 'r': '\r', '0': 0, '\\': '\\', '\'': '\'', '"': '"', 'a': 7, 'b': 8, 'f': 12, 'v': 11}
	if len(src) >= 4 && src[3] == '\'' {
		if v, ok := esc[src[2]]; ok {
			return v, 4, true
		}
	}
	if src[2] == 'x' {
		end := 3
		for end < len(src) && end < 5 && strings.IndexByte("0123456789abcdefABCDEF", src[end]) >= 0 {
			end++
		}
		if end > 3 && end < len(src) && src[end] == '\'' {
			v, err := strconv.ParseInt(string(src[3:end]), 16, 64)
			if err == nil && v < 0x80 {
				return v, end + 1, true
			}
		}
	}
	return 0, 0, false
}

// peekTok returns the token after the current one, unexpanded.
func (p *parser) peekTok() (ptok, bool) {
	if len(p.pend) > 0 {
		return p.pend[0], true
	}
	s := p.sc
	s.onComment, s.onError = nil, func(int, string) {}
	k, off, lit := s.scan()
	return ptok{kind: k, pos: Pos(off + 1), lit: lit}, false
}

// hidden reports whether name is in hide.
func hidden(name string, hide []string) bool { return indexOf(hide, name) >= 0 }

// readInclude reads an included file as a test is read (ReadSource): at
// most MaxSize bytes, so that #include "../../dev/zero" is an error, not
// a process that fills the memory.
func readInclude(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadSource(path, f)
}
