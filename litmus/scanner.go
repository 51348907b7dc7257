package litmus

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind classifies a token of the C-like token stream that the init
// block, the C processes and the final section share.
type tokKind int

const (
	tEOF    tokKind = iota
	tIdent          // r0, READ_ONCE, exists, P1_r0
	tInt            // 1, 0x10, 1UL
	tString         // "doc"
	tOp             // punctuation and operators; the literal says which
	tIllegal
)

// ops lists the multi-byte operators, longest first within each prefix.
// "/\" and "\/" are the condition language's conjunction and disjunction;
// they cannot occur in C, so one scanner serves both.
var ops = []string{
	"<<=", ">>=",
	"/\\", "\\/", "=>", "<>",
	"==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->",
}

// scanner splits source text into tokens. Whitespace and comments are
// skipped: "//" and "/* */" always, "(* *)" only when ocaml is set (outside
// C code, where herd's comments live; inside C code "(*p)" is an
// expression). Each "(* *)" comment is passed to onComment.
type scanner struct {
	src   []byte
	off   int
	ocaml bool
	// symbolic lets '%' start a name: herd's symbolic registers (%x0),
	// which assembly tests of its power-tests campaign use.
	symbolic  bool
	onComment func(c *Comment)
	onError   func(off int, msg string)
}

func isLetter(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skipSpace skips whitespace and comments.
func (s *scanner) skipSpace() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case isSpace(c):
			s.off++
		case c == '/' && s.peek(1) == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
		case c == '/' && s.peek(1) == '*':
			start := s.off
			end := bytes.Index(s.src[s.off+2:], []byte("*/"))
			if end < 0 {
				s.onError(start, "comment not terminated")
				s.off = len(s.src)
				return
			}
			s.off += 2 + end + 2
		case c == '(' && s.peek(1) == '*' && s.ocaml:
			s.off = s.ocamlComment(s.off)
		default:
			return
		}
	}
}

// ocamlComment scans the (* *) comment starting at off and returns the
// offset after it. Nested comments are tolerated.
func (s *scanner) ocamlComment(off int) int {
	start := off
	depth := 0
	for off < len(s.src) {
		switch {
		case s.src[off] == '(' && off+1 < len(s.src) && s.src[off+1] == '*':
			depth++
			off += 2
		case s.src[off] == '*' && off+1 < len(s.src) && s.src[off+1] == ')':
			depth--
			off += 2
			if depth == 0 {
				if s.onComment != nil {
					s.onComment(&Comment{Start: Pos(start + 1), Stop: Pos(off + 1), Text: string(s.src[start+2 : off-2])})
				}
				return off
			}
		default:
			off++
		}
	}
	s.onError(start, "comment not terminated")
	return len(s.src)
}

func (s *scanner) peek(n int) byte {
	if s.off+n < len(s.src) {
		return s.src[s.off+n]
	}
	return 0
}

// scan returns the next token: its kind, offset and literal text.
func (s *scanner) scan() (tokKind, int, string) {
	s.skipSpace()
	if s.off >= len(s.src) {
		return tEOF, len(s.src), ""
	}
	start := s.off
	c := s.src[s.off]
	switch {
	case isLetter(c) || c == '%' && s.symbolic && s.off+1 < len(s.src) && isLetter(s.src[s.off+1]):
		s.off++
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		return tIdent, start, string(s.src[start:s.off])
	case isDigit(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		return tInt, start, string(s.src[start:s.off])
	case c == '"':
		s.off++
		for s.off < len(s.src) && s.src[s.off] != '"' && s.src[s.off] != '\n' {
			s.off++
		}
		if s.off >= len(s.src) || s.src[s.off] != '"' {
			s.onError(start, "string literal not terminated")
			return tString, start, string(s.src[start:s.off])
		}
		s.off++
		return tString, start, string(s.src[start:s.off])
	}
	for _, op := range ops {
		if bytes.HasPrefix(s.src[s.off:], []byte(op)) {
			s.off += len(op)
			return tOp, start, op
		}
	}
	if strings.IndexByte("+-*/%&|^~!<>=?:;,.()[]{}", c) >= 0 {
		s.off++
		return tOp, start, string(c)
	}
	r, size := utf8.DecodeRune(s.src[s.off:])
	s.off += size
	return tIllegal, start, describeRune(r, c)
}

// describeRune names an illegal character for messages: the character as
// Go quotes it (escaped when it is invisible) and its code point, or the
// byte when the input is not UTF-8 there.
func describeRune(r rune, b byte) string {
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02X (not UTF-8)", b)
	}
	return fmt.Sprintf("character %q (U+%04X)", r, r)
}

// maxQuoted is how many bytes of the input a message quotes.
const maxQuoted = 32

// quoteInput quotes a piece of the input for a message, as Go quotes
// strings (invisible and invalid bytes escaped), cut to maxQuoted bytes.
func quoteInput(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}
