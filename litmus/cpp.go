package litmus

import (
	"os"
	"path/filepath"
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
	default:
		p.errorAt(off, "preprocessor directive #"+word[0]+" is not supported in a code test (only #include, #define and #undef)")
	}
	return end
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
	}()
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
		if tok == tIllegal {
			p.errorAt(at, "illegal "+lit+" in macro")
			return
		}
		m.body = append(m.body, ptok{kind: tok, lit: lit})
	}
	p.code.macros[name] = m
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
	if p.tok == tIllegal {
		p.error(p.pos, "illegal "+p.lit)
		p.rawNext()
	}
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
