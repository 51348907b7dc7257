package cat

import (
	"fmt"
	"unicode/utf8"

	"github.com/litmus-dev/litmus/litmus"
)

// token is a lexical token of the cat language.
type token uint8

const (
	tEOF token = iota
	tName
	tTag    // 'name
	tString // "text"
	tLpar
	tRpar
	tLbrace
	tRbrace
	tLbrack
	tRbrack
	tUnderscore
	tZero // 0
	tUnion
	tAlt // ||
	tInter
	tAnd // &&
	tStar
	tComp // ~
	tPlus
	tPlusPlus
	tHat
	tInv // -1
	tDiff
	tOpt
	tEqual
	tSemi
	tComma
	tArrow
	// keywords
	tLet
	tRec
	tAndKw // and
	tWhen
	tAcyclic
	tIrreflexive
	tShow
	tUnshow
	tEmpty // empty
	tSubset
	tAs
	tFun
	tIn
	tUndefinedUnless
	tFlag
	tAssert
	tInclude
	tVariant
	tBegin
	tEnd
	tProcedure
	tCall
	tEnum
	tDebug
	tMatch
	tWith
	tForall
	tFrom
	tDo
	tTry
	tIf
	tThen
	tElse
	tCatdep
	tInstructions
	tDefault
	tNot
	tIllegal
)

var keywords = map[string]token{
	"let": tLet, "rec": tRec, "and": tAndKw, "when": tWhen,
	"acyclic": tAcyclic, "irreflexive": tIrreflexive, "show": tShow, "unshow": tUnshow,
	"empty": tEmpty, "subset": tSubset, "as": tAs, "fun": tFun, "in": tIn,
	"undefined_unless": tUndefinedUnless, "flag": tFlag, "assert": tAssert,
	"include": tInclude, "variant": tVariant, "begin": tBegin, "end": tEnd,
	"procedure": tProcedure, "call": tCall, "enum": tEnum, "debug": tDebug,
	"match": tMatch, "with": tWith, "forall": tForall, "from": tFrom, "do": tDo,
	"try": tTry, "if": tIf, "then": tThen, "else": tElse, "catdep": tCatdep,
	"instructions": tInstructions, "default": tDefault, "not": tNot,
}

var tokenText = map[token]string{
	tEOF: "end of file", tName: "name", tTag: "tag", tString: "string",
	tLpar: "(", tRpar: ")", tLbrace: "{", tRbrace: "}", tLbrack: "[", tRbrack: "]",
	tUnderscore: "_", tZero: "0", tUnion: "|", tAlt: "||", tInter: "&", tAnd: "&&",
	tStar: "*", tComp: "~", tPlus: "+", tPlusPlus: "++", tHat: "^", tInv: "-1",
	tDiff: `\`, tOpt: "?", tEqual: "=", tSemi: ";", tComma: ",", tArrow: "->",
	tIllegal: "illegal character",
}

func init() {
	for k, t := range keywords {
		tokenText[t] = k
	}
}

func (t token) String() string { return tokenText[t] }

// scanner splits a cat file into tokens, as herd's model lexer does: names
// may contain '.', '-' and a final quote ("po-loc", "DMB.ISH"), comments
// are (* nested *), // and # to the end of the line.
type scanner struct {
	src  []byte
	file *litmus.File
	off  int
	errs *litmus.ErrorList
}

// next returns the next token, its position and its text.
func (s *scanner) next() (token, Pos, string) {
	for {
		s.skipSpace()
		if s.off >= len(s.src) {
			return tEOF, s.file.Pos(len(s.src)), ""
		}
		start := s.off
		c := s.src[s.off]
		switch {
		case c == '(' && s.peek(1) == '*':
			s.skipComment()
			continue
		case c == '/' && s.peek(1) == '/', c == '#':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
			continue
		}
		pos := s.file.Pos(start)
		two := func(t1 token, c2 byte, t2 token) (token, Pos, string) {
			if s.peek(1) == c2 {
				s.off += 2
				return t2, pos, string(s.src[start:s.off])
			}
			s.off++
			return t1, pos, string(c)
		}
		switch c {
		case '(':
			s.off++
			return tLpar, pos, "("
		case ')':
			s.off++
			return tRpar, pos, ")"
		case '{':
			s.off++
			return tLbrace, pos, "{"
		case '}':
			s.off++
			return tRbrace, pos, "}"
		case '[':
			s.off++
			return tLbrack, pos, "["
		case ']':
			s.off++
			return tRbrack, pos, "]"
		case '0':
			s.off++
			return tZero, pos, "0"
		case '|':
			return two(tUnion, '|', tAlt)
		case '&':
			return two(tInter, '&', tAnd)
		case '+':
			return two(tPlus, '+', tPlusPlus)
		case '-':
			if s.peek(1) == '1' {
				s.off += 2
				return tInv, pos, "-1"
			}
			if s.peek(1) == '>' {
				s.off += 2
				return tArrow, pos, "->"
			}
		case '*':
			s.off++
			return tStar, pos, "*"
		case '~':
			s.off++
			return tComp, pos, "~"
		case '^':
			s.off++
			return tHat, pos, "^"
		case '\\':
			s.off++
			return tDiff, pos, `\`
		case '?':
			s.off++
			return tOpt, pos, "?"
		case '=':
			s.off++
			return tEqual, pos, "="
		case ';':
			s.off++
			return tSemi, pos, ";"
		case ',':
			s.off++
			return tComma, pos, ","
		case '"':
			end := s.off + 1
			for end < len(s.src) && s.src[end] != '"' {
				end++
			}
			if end >= len(s.src) {
				s.errorf(start, "string not terminated")
				s.off = len(s.src)
				return tString, pos, string(s.src[start+1:])
			}
			s.off = end + 1
			return tString, pos, string(s.src[start+1 : end])
		case '\'':
			if n := nameLen(s.src[s.off+1:]); n > 0 {
				s.off += 1 + n
				return tTag, pos, string(s.src[start+1 : s.off])
			}
		case '_':
			if nameLen(s.src[s.off:]) <= 1 {
				s.off++
				return tUnderscore, pos, "_"
			}
		}
		if n := nameLen(s.src[s.off:]); n > 0 {
			s.off += n
			text := string(s.src[start:s.off])
			if t, ok := keywords[text]; ok {
				return t, pos, text
			}
			return tName, pos, text
		}
		r, size := utf8.DecodeRune(s.src[s.off:])
		s.off += size
		if r == utf8.RuneError && size <= 1 {
			s.errorf(start, "illegal byte %#02x", c)
		} else {
			s.errorf(start, "illegal character %q (U+%04X)", r, r)
		}
		return tIllegal, pos, string(s.src[start:s.off])
	}
}

func (s *scanner) peek(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

func (s *scanner) skipSpace() {
	for s.off < len(s.src) {
		switch s.src[s.off] {
		case ' ', '\t', '\r', '\n':
			s.off++
		default:
			return
		}
	}
}

// skipComment skips a (* comment *), which may nest.
func (s *scanner) skipComment() {
	start := s.off
	depth := 0
	for s.off < len(s.src) {
		switch {
		case s.src[s.off] == '(' && s.peek(1) == '*':
			depth++
			s.off += 2
		case s.src[s.off] == '*' && s.peek(1) == ')':
			depth--
			s.off += 2
			if depth == 0 {
				return
			}
		default:
			s.off++
		}
	}
	s.errorf(start, "comment not terminated")
}

func (s *scanner) errorf(off int, format string, args ...any) {
	s.errs.Add(s.file.Position(s.file.Pos(off)), fmt.Sprintf(format, args...))
}

// nameLen returns the length of the name at the start of b, or 0: herd's
// name = '_'? alpha (alpha | digit | '_' | '.' | '-')* '\”?.
func nameLen(b []byte) int {
	i := 0
	if i < len(b) && b[i] == '_' {
		i++
	}
	if i >= len(b) || !isAlpha(b[i]) {
		if i == 1 && b[0] == '_' {
			return 1
		}
		return 0
	}
	i++
	for i < len(b) && (isAlpha(b[i]) || b[i] >= '0' && b[i] <= '9' || b[i] == '_' || b[i] == '.' || b[i] == '-') {
		// "a-1" is not a name followed by... herd's lexer is greedy:
		// "r^-1" lexes as r ^ -1 only because '^' stops the name.
		i++
	}
	if i < len(b) && b[i] == '\'' {
		i++
	}
	return i
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
