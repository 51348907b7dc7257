package litmus

import (
	"path/filepath"
	"strings"
)

// This file parses the prelude of a code test: the C between the header
// and the init block (docs/language.md, "Kernel C"). The prelude reuses
// the statement and expression parser of the processes, extended with
// members, return and calls of the prelude's functions; it is parsed
// with C comments only, as (* *) would read as the start of a function
// pointer declarator "void (*f)(void)".

// codeState is what a code test's prelude defines; included files add
// to the same state.
type codeState struct {
	root     string // the test file's absolute path
	includes []string
	macros   map[string]*macro
	typedefs map[string]*ctype
	tags     map[string]*ctype // "struct sock", "union u", "enum e"
	enums    map[string]int64
	funcs    map[string]*funcDef
	objects  []*objDecl
	objIndex map[string]*objDecl
	ifDepth  int // open #if groups whose taken branch is being read
}

func newCodeState(name string) *codeState {
	abs, _ := filepath.Abs(name)
	return &codeState{root: abs, macros: map[string]*macro{}, typedefs: map[string]*ctype{},
		tags: map[string]*ctype{}, enums: map[string]int64{}, funcs: map[string]*funcDef{},
		objIndex: map[string]*objDecl{}}
}

// funcDef is a function of the prelude.
type funcDef struct {
	name   string
	ret    *ctype
	params []*paramDef
	body   *BlockStmt // nil for a prototype
	file   *File
	pos    Pos
}

type paramDef struct {
	name string
	typ  *ctype
	pos  Pos
}

// codeStarts are the words that start a line of a code test's prelude.
var codeStarts = map[string]bool{
	"struct": true, "union": true, "enum": true, "typedef": true, "static": true,
	"inline": true, "void": true, "extern": true, "const": true, "bool": true,
	"int": true, "unsigned": true, "long": true, "char": true, "short": true,
	"u8": true, "u16": true, "u32": true, "u64": true, "s8": true, "s16": true, "s32": true, "s64": true,
	"__always_inline": true, "noinline": true,
}

// startsCode reports whether the prelude line at off is kernel C: a
// preprocessor directive or a declaration.
func (p *parser) startsCode(off int) bool {
	if p.src[off] == '#' {
		return true
	}
	end := off
	for end < len(p.src) && (isLetter(p.src[end]) || isDigit(p.src[end])) {
		end++
	}
	return codeStarts[string(p.src[off:end])]
}

// skipC skips blanks and C comments from off.
func (p *parser) skipC(off int) int {
	sc := scanner{src: p.src, off: off, onError: func(o int, msg string) { p.errorAt(o, msg) }}
	sc.skipSpace()
	return sc.off
}

// parseCodePrelude parses
//
//	Prelude = { Directive | TypeDecl | FuncDef | Prototype } .
//
// from off, and returns the offset of the init block's '{' (or the end
// of the source).
func (p *parser) parseCodePrelude(off int) int {
	for {
		off = p.skipC(off)
		if off >= len(p.src) {
			return off
		}
		if p.src[off] == '#' {
			off = p.directive(off)
			continue
		}
		p.reset(off, false)
		if p.is("{") {
			if p.code.ifDepth > 0 {
				p.errorAt(off, "unterminated #if (expected #endif before the init block)")
				p.code.ifDepth = 0
			}
			return off
		}
		start := p.ntok
		p.parseExternal()
		if p.ntok == start {
			p.next()
		}
		if p.tok == tEOF {
			return len(p.src)
		}
		expanding := len(p.pend) > 0
		if expanding {
			// A macro's expansion is under way at the end of a
			// declaration: nothing a prelude can hold.
			p.error(p.pos, "unexpected "+p.describe()+" after a declaration")
			p.pend = nil
		}
		next := p.offset(p.pos)
		if expanding || next <= off {
			// A token of a macro's expansion is placed at the macro's
			// call, before the text already read: go on after what the
			// scanner has read, so that every round makes progress.
			next = max(p.sc.off, off+1)
		}
		off = next
	}
}

// parseExternal parses one declaration of the prelude:
//
//	External = DeclSpec [ Declarator { "," Declarator } ] ( ";" | Block ) .
func (p *parser) parseExternal() {
	typedef := false
	pos := p.pos
	base, ok := p.parseDeclSpec(&typedef)
	if !ok {
		p.syncStmt()
		return
	}
	if p.got(";") {
		return // struct foo { ... };
	}
	for {
		name, namePos, t, params := p.parseDeclarator(base)
		if name == "" {
			p.errorExpected("name in declaration")
			p.syncStmt()
			return
		}
		switch {
		case typedef:
			p.code.typedefs[name] = t
		case t.kind == kFunc:
			f := &funcDef{name: name, ret: t.ret, params: params, file: p.file, pos: namePos}
			if old := p.code.funcs[name]; old != nil && old.body != nil && p.is("{") {
				p.error(namePos, "function "+name+" redefined (first at "+old.file.Position(old.pos).String()+")")
			}
			if p.is("{") {
				f.body = p.parseBlock(false)
				p.code.funcs[name] = f
				return
			}
			if p.code.funcs[name] == nil {
				p.code.funcs[name] = f
			}
		default:
			p.error(pos, "object "+name+" declared in the prelude: declare objects in the init block")
		}
		if !p.got(",") {
			break
		}
	}
	p.expectSemi()
}

// declWords are the words of declaration specifiers that do not change
// the type.
var declWords = map[string]bool{
	"static": true, "inline": true, "extern": true, "const": true, "volatile": true,
	"__always_inline": true, "noinline": true, "__maybe_unused": true, "__rcu": true,
	"register": true, "__inline": true, "__inline__": true, "notrace": true,
}

// parseDeclSpec parses
//
//	DeclSpec = { Qualifier } ( IntWords | "void" | TypedefName | StructSpec | EnumSpec ) { Qualifier } .
func (p *parser) parseDeclSpec(typedef *bool) (*ctype, bool) {
	var words []string
	var t *ctype
	pos := p.pos
	for p.tok == tIdent {
		switch {
		case p.lit == "typedef" && typedef != nil:
			*typedef = true
			p.next()
			continue
		case declWords[p.lit]:
			p.next()
			continue
		case t == nil && (p.lit == "struct" || p.lit == "union"):
			t = p.parseStructSpec()
			if t == nil {
				return nil, false
			}
			continue
		case t == nil && p.lit == "enum":
			t = p.parseEnumSpec()
			if t == nil {
				return nil, false
			}
			continue
		case t == nil && p.lit == "void" && words == nil:
			t = cVoid
			p.next()
			continue
		case t == nil && intWord[p.lit]:
			words = append(words, p.lit)
			p.next()
			continue
		case t == nil && words == nil:
			if td := p.code.typedefs[p.lit]; td != nil {
				t = td
				p.next()
				continue
			}
			if st := scalarType(p.lit); st != nil {
				t = st
				p.next()
				continue
			}
		}
		break
	}
	if words != nil {
		name := strings.Join(words, " ")
		st := scalarType(name) // words of intWord: never an opaque object's name
		if st == nil {
			p.error(pos, "unknown type "+name)
			return nil, false
		}
		return st, true
	}
	if t == nil {
		if p.tok == tIdent {
			p.error(p.pos, "unknown type "+p.lit)
		} else {
			p.errorExpected("type")
		}
		return nil, false
	}
	return t, true
}

// intWord are the words that make up a C integer type.
var intWord = map[string]bool{"int": true, "char": true, "short": true, "long": true, "unsigned": true, "signed": true, "_Bool": true, "bool": true}

// parseStructSpec parses
//
//	StructSpec = ( "struct" | "union" ) [ Tag ] [ "{" { Field } "}" ] .
//	Field = DeclSpec Declarator { "," Declarator } ";" | StructSpec ";" .
func (p *parser) parseStructSpec() *ctype {
	kw := p.lit
	p.next()
	var key string
	if p.tok == tIdent {
		key = kw + " " + p.lit
		p.next()
	}
	t := p.code.tags[key]
	if t == nil || p.is("{") && t.complete {
		t = &ctype{kind: kStruct, name: key, union: kw == "union"}
		if key == "" {
			t.name = kw + " (anonymous)"
		} else {
			if old := p.code.tags[key]; old != nil && p.is("{") {
				*old = ctype{} // redefinition: keep the first
				t = old
				t.kind, t.name, t.union = kStruct, key, kw == "union"
			}
			p.code.tags[key] = t
		}
	}
	if !p.is("{") {
		if key == "" {
			p.errorExpected("{ after " + kw)
			return nil
		}
		return t
	}
	p.next()
	seen := map[string]bool{}
	for !p.is("}") && p.tok != tEOF {
		start, startTok := p.pos, p.ntok
		ft, ok := p.parseDeclSpec(nil)
		if !ok {
			p.syncStmt()
			continue
		}
		if p.got(";") {
			if ft.kind == kStruct && strings.HasSuffix(ft.name, "(anonymous)") {
				t.fields = append(t.fields, &cfield{typ: ft, pos: p.file.Position(start)})
			}
			continue
		}
		for {
			name, namePos, typ, _ := p.parseDeclarator(ft)
			if name == "" {
				p.errorExpected("member name")
				p.syncStmt()
				break
			}
			if seen[name] {
				p.error(namePos, "duplicate member "+name)
			}
			seen[name] = true
			if typ.kind == kFunc {
				p.error(namePos, "member "+name+" is a function; write a function pointer (*"+name+")")
			} else if !typ.complete {
				p.error(namePos, "member "+name+" has incomplete type "+typ.name)
			}
			t.fields = append(t.fields, &cfield{name: name, typ: typ, pos: p.file.Position(namePos)})
			if p.is(":") {
				p.error(p.pos, "bit-fields are not supported in a code test")
			}
			if !p.got(",") {
				break
			}
		}
		if p.ntok == startTok {
			p.next()
		}
		p.expectSemi()
	}
	p.expect("}")
	t.layout()
	return t
}

// parseEnumSpec parses
//
//	EnumSpec = "enum" [ Tag ] [ "{" Name [ "=" ConstExpr ] { "," Name [ "=" ConstExpr ] } [ "," ] "}" ] .
func (p *parser) parseEnumSpec() *ctype {
	p.next()
	if p.tok == tIdent {
		p.next()
	}
	t := &ctype{kind: kInt, name: "int", size: 4, align: 4, complete: true}
	if !p.got("{") {
		return t
	}
	next := int64(0)
	for p.tok == tIdent {
		name := p.lit
		p.next()
		if p.got("=") {
			e := p.parseExpr()
			v, ok := p.constInt(e)
			if !ok {
				p.error(e.Pos(), "enum value of "+name+" is not a constant")
			}
			next = v
		}
		p.code.enums[name] = next
		next++
		if !p.got(",") {
			break
		}
	}
	p.expect("}")
	return t
}

// parseDeclarator parses
//
//	Declarator = { "*" { Qualifier } } ( Name | "(" "*" Name ")" "(" Params ")" ) { "[" ConstExpr "]" } [ "(" Params ")" ] .
//
// It returns the name (or "" when there is none), its position, the
// declared type, and for a function its parameters.
func (p *parser) parseDeclarator(base *ctype) (string, Pos, *ctype, []*paramDef) {
	t := base
	for p.is("*") {
		p.next()
		for p.tok == tIdent && declWords[p.lit] {
			p.next()
		}
		t = ptrTo(t)
	}
	if p.is("(") {
		// A function pointer: (*name)(params).
		p.next()
		if !p.got("*") {
			p.errorExpected("* of a function pointer")
			return "", p.pos, t, nil
		}
		name, pos := "", p.pos
		if p.tok == tIdent {
			name = p.lit
			p.next()
		}
		p.expect(")")
		ret := t
		params, variadic := p.parseParams()
		ft := &ctype{kind: kFunc, name: ret.name + " (*)()", ret: ret, complete: true, variadic: variadic}
		for _, pr := range params {
			ft.params = append(ft.params, pr.typ)
		}
		return name, pos, ptrTo(ft), params
	}
	name, pos := "", p.pos
	if p.tok == tIdent {
		name = p.lit
		p.next()
	}
	if p.is("(") {
		params, variadic := p.parseParams()
		ft := &ctype{kind: kFunc, name: t.name + " ()", ret: t, complete: true, variadic: variadic}
		for _, pr := range params {
			ft.params = append(ft.params, pr.typ)
		}
		return name, pos, ft, params
	}
	var dims []int
	for p.is("[") {
		p.next()
		e := p.parseExpr()
		n, ok := p.constInt(e)
		if !ok || n <= 0 || n > 1<<12 {
			p.error(e.Pos(), "array length must be a constant from 1 to 4096")
			n = 1
		}
		dims = append(dims, int(n))
		p.expect("]")
	}
	for i := len(dims) - 1; i >= 0; i-- {
		t = arrayOf(t, dims[i])
	}
	return name, pos, t, nil
}

// parseParams parses
//
//	Params = "(" [ "void" | Param { "," Param } [ "," "..." ] ] ")" .
//	Param = DeclSpec Declarator .
func (p *parser) parseParams() ([]*paramDef, bool) {
	p.expect("(")
	var out []*paramDef
	if p.isIdent("void") {
		if k, _ := p.peekTok(); k.kind == tOp && k.lit == ")" {
			p.next()
			p.next()
			return nil, false
		}
	}
	variadic := false
	for !p.is(")") && p.tok != tEOF {
		if p.is(".") {
			for p.is(".") {
				p.next()
			}
			variadic = true
			break
		}
		base, ok := p.parseDeclSpec(nil)
		if !ok {
			p.skipTo(")")
			break
		}
		name, pos, t, _ := p.parseDeclarator(base)
		out = append(out, &paramDef{name: name, typ: t, pos: pos})
		if !p.got(",") {
			break
		}
	}
	p.expect(")")
	return out, variadic
}

// constInt evaluates an integer constant expression of the prelude:
// literals, enum constants and the arithmetic of C.
func (p *parser) constInt(e Expr) (int64, bool) {
	switch e := e.(type) {
	case *IntLit:
		return e.Value, true
	case *ParenExpr:
		return p.constInt(e.X)
	case *CastExpr:
		return p.constInt(e.X)
	case *Ident:
		v, ok := p.code.enums[e.Name]
		if !ok && (e.Name == "true" || e.Name == "false") {
			return map[string]int64{"true": 1, "false": 0}[e.Name], true
		}
		return v, ok
	case *UnaryExpr:
		v, ok := p.constInt(e.X)
		switch e.Op {
		case "-":
			return -v, ok
		case "~":
			return ^v, ok
		case "!":
			return boolInt(v == 0), ok
		case "+":
			return v, ok
		}
	case *BinaryExpr:
		x, ok1 := p.constInt(e.X)
		y, ok2 := p.constInt(e.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		return constBinop(e.Op, x, y)
	case *CondExpr:
		c, ok := p.constInt(e.Cond)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return p.constInt(e.X)
		}
		return p.constInt(e.Y)
	}
	return 0, false
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// constBinop folds x op y.
func constBinop(op string, x, y int64) (int64, bool) {
	switch op {
	case "+":
		return x + y, true
	case "-":
		return x - y, true
	case "*":
		return x * y, true
	case "/", "%":
		if y == 0 {
			return 0, false
		}
		if op == "/" {
			return x / y, true
		}
		return x % y, true
	case "&":
		return x & y, true
	case "|":
		return x | y, true
	case "^":
		return x ^ y, true
	case "<<":
		return x << uint(y&63), true
	case ">>":
		return x >> uint(y&63), true
	case "==":
		return boolInt(x == y), true
	case "!=":
		return boolInt(x != y), true
	case "<":
		return boolInt(x < y), true
	case "<=":
		return boolInt(x <= y), true
	case ">":
		return boolInt(x > y), true
	case ">=":
		return boolInt(x >= y), true
	case "&&":
		return boolInt(x != 0 && y != 0), true
	case "||":
		return boolInt(x != 0 || y != 0), true
	}
	return 0, false
}
