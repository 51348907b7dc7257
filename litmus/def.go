package litmus

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A Table is a set of primitive rows by name: the built-in table
// (Builtin), or one a kernel tree's tools/memory-model/linux-kernel.def
// defines (ParseDef). A test parsed with a table (ParseWith) keeps it, and
// the models look its calls up there (Test.Primitive).
type Table map[string]*Primitive

// Builtin returns the built-in table. It must not be modified.
func Builtin() Table { return table }

// Primitive returns the row of the primitive name in the table the test
// was parsed with.
func (t *Test) Primitive(name string) (*Primitive, bool) {
	if t != nil && t.Prims != nil {
		p, ok := t.Prims[name]
		return p, ok
	}
	return Lookup(name)
}

// ParseDef reads herd7's macro file for C tests (the kernel's
// tools/memory-model/linux-kernel.def) and returns the table it defines,
// which replaces the built-in one as herd's -macros file does: a kernel
// tree that defines a new primitive, or gives an existing one another
// annotation, is checked as it says without a rebuild, and a primitive
// the file does not define (the bit operations and refcount_t, which
// the kernel's file lacks) is an unknown function, as it is to herd7.
//
// Each macro is one line "NAME(PARAMS) BODY", the body either an
// expression or a block "{ ...; }" of herd's C-level builtins (__load,
// __store, __fence, __xchg, __cmpxchg, __atomic_op, __atomic_op_return,
// __atomic_fetch_op, __atomic_add_unless, __lock, __unlock, __trylock,
// __islocked, __srcu) with their annotations in braces, or a call of
// another macro. An annotation must be one the models know (ONCE,
// ACQUIRE, RELEASE, MB, NORETURN, the srcu and fence annotations of
// linux-kernel.bell); a body litmus cannot represent as one row is an
// error at its position.
func ParseDef(filename string, src []byte) (Table, error) {
	f := NewFile(filename, src)
	d := &defParser{file: f, macros: map[string]*defMacro{}}
	var errs ErrorList
	for i, line := range strings.Split(string(src), "\n") {
		off := lineOffset(src, i)
		if c := strings.Index(line, "//"); c >= 0 {
			line = line[:c]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		m, err := d.parseLine(line, off)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, dup := d.macros[m.name]; dup {
			errs = append(errs, d.errAt(off, "macro %s defined twice", m.name))
			continue
		}
		d.macros[m.name] = m
		d.order = append(d.order, m.name)
	}
	out := Table{}
	for _, name := range d.order {
		p, err := d.row(name, 0)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[name] = p
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Pos.Offset < errs[j].Pos.Offset })
		return nil, errs
	}
	return out, nil
}

// lineOffset returns the byte offset of line i (0-based) of src.
func lineOffset(src []byte, i int) int {
	off := 0
	for ; i > 0; i-- {
		j := strings.IndexByte(string(src[off:]), '\n')
		if j < 0 {
			return len(src)
		}
		off += j + 1
	}
	return off
}

type defParser struct {
	file   *File
	macros map[string]*defMacro
	order  []string
	rows   map[string]*Primitive
}

// defMacro is one macro of the file.
type defMacro struct {
	name   string
	params []string
	body   []defCall // the calls of the body, in order
	cmp    string    // "== 0" or "< 0" after an expression body, else ""
	off    int       // byte offset of the line
}

// defCall is one call of a macro body: a builtin (__load{ONCE}(X)) or a
// macro (READ_ONCE(*X)).
type defCall struct {
	fun   string
	annot string
	args  []defArg
	off   int
}

// defArg is one argument: a parameter (Deref for *X), an integer, or an
// operator (+, -, &, |, ^, &~).
type defArg struct {
	param string
	deref bool
	num   *int64
	op    string
}

func (d *defParser) errAt(off int, format string, args ...any) *Error {
	return &Error{Pos: d.file.Position(Pos(off + 1)), Msg: fmt.Sprintf(format, args...)}
}

// parseLine reads "NAME(PARAMS) BODY".
func (d *defParser) parseLine(line string, off int) (*defMacro, *Error) {
	s := &defScan{src: line, base: off, d: d}
	s.space()
	m := &defMacro{off: off + s.i}
	m.name = s.ident()
	if m.name == "" {
		return nil, s.errf("expected a macro name")
	}
	if !s.eat("(") {
		return nil, s.errf("expected ( after %s", m.name)
	}
	for !s.eat(")") {
		p := s.ident()
		if p == "" {
			return nil, s.errf("expected a parameter name")
		}
		m.params = append(m.params, p)
		if !s.eat(",") && !s.peek(")") {
			return nil, s.errf("expected , or )")
		}
	}
	if s.eat("{") {
		for !s.eat("}") {
			c, err := s.call()
			if err != nil {
				return nil, err
			}
			m.body = append(m.body, c)
			if !s.eat(";") {
				return nil, s.errf("expected ; after %s", c.fun)
			}
		}
	} else {
		c, err := s.call()
		if err != nil {
			return nil, err
		}
		m.body = []defCall{c}
		switch {
		case s.eat("=="):
			m.cmp = "=="
		case s.eat("<"):
			m.cmp = "<"
		}
		if m.cmp != "" {
			if n := s.number(); n == nil || *n != 0 {
				return nil, s.errf("expected 0 after %s", m.cmp)
			}
			m.cmp += " 0"
		}
	}
	if s.space(); s.i < len(s.src) {
		return nil, s.errf("unexpected %q", s.src[s.i:])
	}
	return m, nil
}

// defScan scans one line of a .def file.
type defScan struct {
	src  string
	i    int
	base int
	d    *defParser
}

func (s *defScan) errf(format string, args ...any) *Error {
	return s.d.errAt(s.base+s.i, format, args...)
}

func (s *defScan) space() {
	for s.i < len(s.src) && (s.src[s.i] == ' ' || s.src[s.i] == '\t' || s.src[s.i] == '\r') {
		s.i++
	}
}

func (s *defScan) peek(tok string) bool {
	s.space()
	return strings.HasPrefix(s.src[s.i:], tok)
}

func (s *defScan) eat(tok string) bool {
	if s.peek(tok) {
		s.i += len(tok)
		return true
	}
	return false
}

func (s *defScan) ident() string {
	s.space()
	j := s.i
	for j < len(s.src) && (s.src[j] == '_' || s.src[j] >= 'a' && s.src[j] <= 'z' || s.src[j] >= 'A' && s.src[j] <= 'Z' || j > s.i && s.src[j] >= '0' && s.src[j] <= '9') {
		j++
	}
	id := s.src[s.i:j]
	s.i = j
	return id
}

func (s *defScan) number() *int64 {
	s.space()
	j := s.i
	if j < len(s.src) && s.src[j] == '-' {
		j++
	}
	for j < len(s.src) && s.src[j] >= '0' && s.src[j] <= '9' {
		j++
	}
	if j == s.i || (j == s.i+1 && s.src[s.i] == '-') {
		return nil
	}
	n, err := strconv.ParseInt(s.src[s.i:j], 10, 64)
	if err != nil {
		return nil
	}
	s.i = j
	return &n
}

// call reads FUN[{ANNOT}](ARGS) or FUN[{ANNOT}] (a fence has no
// arguments).
func (s *defScan) call() (defCall, *Error) {
	s.space()
	c := defCall{off: s.base + s.i}
	c.fun = s.ident()
	if c.fun == "" {
		return c, s.errf("expected a call")
	}
	if s.eat("{") {
		j := strings.IndexByte(s.src[s.i:], '}')
		if j < 0 {
			return c, s.errf("expected } after the annotation")
		}
		c.annot = strings.TrimSpace(s.src[s.i : s.i+j])
		s.i += j + 1
	}
	if !s.eat("(") {
		return c, nil
	}
	for !s.eat(")") {
		var a defArg
		switch {
		case s.eat("&~"):
			a.op = "&~"
		case s.peek("*"):
			s.i++
			a.deref = true
			a.param = s.ident()
			if a.param == "" {
				return c, s.errf("expected a parameter after *")
			}
		default:
			if n := s.number(); n != nil {
				a.num = n
				break
			}
			if id := s.ident(); id != "" {
				a.param = id
				break
			}
			for _, op := range []string{"+", "-", "&", "|", "^"} {
				if s.eat(op) {
					a.op = op
					break
				}
			}
			if a.op == "" {
				return c, s.errf("expected an argument")
			}
		}
		c.args = append(c.args, a)
		if !s.eat(",") && !s.peek(")") {
			return c, s.errf("expected , or )")
		}
	}
	return c, nil
}

// annotOrder maps the access annotations of linux-kernel.bell to orders.
var annotOrder = map[string]Order{"ONCE": OrdOnce, "ACQUIRE": OrdAcquire, "RELEASE": OrdRelease, "MB": OrdMb, "NORETURN": OrdOnce}

// fenceAnnots are the fence annotations of linux-kernel.bell, as the
// Fence field of a row names them.
var fenceAnnots = map[string]string{"MB": "mb", "rmb": "rmb", "wmb": "wmb", "before-atomic": "before-atomic",
	"after-atomic": "after-atomic", "after-spinlock": "after-spinlock", "after-unlock-lock": "after-unlock-lock",
	"after-srcu-read-unlock": "after-srcu-read-unlock", "barrier": "barrier", "rcu-lock": "rcu-lock",
	"rcu-unlock": "rcu-unlock", "sync-rcu": "sync-rcu"}

var defRMWOps = map[string]RMWOp{"+": RMWAdd, "-": RMWSub, "&": RMWAnd, "|": RMWOr, "^": RMWXor, "&~": RMWAndNot}

// row builds the row of macro name.
func (d *defParser) row(name string, depth int) (*Primitive, *Error) {
	if p, ok := d.rows[name]; ok {
		return p, nil
	}
	m := d.macros[name]
	if depth > 16 {
		return nil, d.errAt(m.off, "macro %s expands through too many macros", name)
	}
	p, err := d.build(m, depth)
	if err != nil {
		return nil, err
	}
	p.Name = name
	p.Source = fmt.Sprintf("%s:%d", d.file.Name, d.file.Position(Pos(m.off+1)).Line)
	p.Loc = -1
	for i, a := range p.Args {
		if a == ArgPtr || a == ArgLval {
			p.Loc = i
			break
		}
	}
	if d.rows == nil {
		d.rows = map[string]*Primitive{}
	}
	d.rows[name] = p
	return p, nil
}

// build gives macro m one row.
func (d *defParser) build(m *defMacro, depth int) (*Primitive, *Error) {
	calls := m.body
	if len(calls) == 2 && calls[0].fun == "__store" && calls[1].fun == "__fence" && len(calls[1].args) == 0 {
		// smp_store_mb: a store, then a fence.
		p, err := d.build(&defMacro{name: m.name, params: m.params, body: calls[:1], off: m.off}, depth)
		if err != nil {
			return nil, err
		}
		f, ok := fenceAnnots[calls[1].annot]
		if !ok {
			return nil, d.errAt(calls[1].off, "unknown fence annotation {%s}", calls[1].annot)
		}
		p.Fence = f
		return p, nil
	}
	if len(calls) != 1 {
		return nil, d.errAt(m.off, "%s: litmus represents a macro of one access or fence (or a store and a fence), not %d", m.name, len(calls))
	}
	c := calls[0]
	p := &Primitive{}
	// args assigns each parameter of m the kind its argument has in c
	// (kinds[i] for the i-th argument of c): a plain parameter takes the
	// kind, *X of a location (lvalue) argument is a pointer.
	args := func(kinds []ArgKind) *Error {
		if len(kinds) != len(c.args) {
			return d.errAt(c.off, "%s takes %d arguments, found %d", c.fun, len(kinds), len(c.args))
		}
		p.Args = nil
		if len(m.params) > 0 {
			p.Args = make([]ArgKind, len(m.params))
		}
		for i, a := range c.args {
			if a.param == "" {
				if a.num != nil && kinds[i] == ArgVal {
					p.Imm = append(p.Imm, *a.num)
					continue
				}
				return d.errAt(c.off, "%s: argument %d must be a parameter", c.fun, i+1)
			}
			j := indexOf(m.params, a.param)
			if j < 0 {
				return d.errAt(c.off, "%s: %s is not a parameter of %s", c.fun, a.param, m.name)
			}
			k := kinds[i]
			if a.deref {
				if k != ArgLval {
					return d.errAt(c.off, "%s: *%s where %s takes a value or a pointer", c.fun, a.param, c.fun)
				}
				k = ArgPtr
			}
			p.Args[j] = k
		}
		for j, k := range p.Args {
			if k == 0 {
				return d.errAt(m.off, "%s: parameter %s is not used", m.name, m.params[j])
			}
		}
		return nil
	}
	order := func() (Order, *Error) {
		o, ok := annotOrder[c.annot]
		if !ok {
			return 0, d.errAt(c.off, "%s{%s}: litmus knows the annotations ONCE, ACQUIRE, RELEASE, MB and NORETURN here", c.fun, c.annot)
		}
		return o, nil
	}
	// rmwOp reads the operator argument of an __atomic builtin and
	// drops it from c's arguments.
	rmwOp := func() *Error {
		if len(c.args) != 3 || c.args[1].op == "" {
			return d.errAt(c.off, "%s takes (X, op, V)", c.fun)
		}
		p.Op = defRMWOps[c.args[1].op]
		c.args = []defArg{c.args[0], c.args[2]}
		return nil
	}
	var err *Error
	switch c.fun {
	case "__load":
		p.Kind, p.Ret = KLoad, RetValue
		if c.annot == "srcu-lock" {
			p.Kind = KSRCULock
		} else if p.Order, err = order(); err != nil {
			return nil, err
		}
		err = args([]ArgKind{ArgLval})
	case "__store":
		p.Kind = KStore
		if c.annot == "srcu-unlock" {
			p.Kind = KSRCUUnlock
		} else if p.Order, err = order(); err != nil {
			return nil, err
		}
		err = args([]ArgKind{ArgLval, ArgVal})
	case "__fence":
		f, ok := fenceAnnots[c.annot]
		if !ok {
			return nil, d.errAt(c.off, "unknown fence annotation {%s}", c.annot)
		}
		p.Kind, p.Fence = KFence, f
		err = args(nil)
	case "__srcu":
		if c.annot != "sync-srcu" {
			return nil, d.errAt(c.off, "unknown __srcu annotation {%s}", c.annot)
		}
		p.Kind = KSyncSRCU
		err = args([]ArgKind{ArgPtr})
	case "__xchg":
		p.Kind, p.Op, p.Ret = KRMW, RMWXchg, RetOld
		if p.Order, err = order(); err != nil {
			return nil, err
		}
		err = args([]ArgKind{ArgPtr, ArgVal})
	case "__cmpxchg":
		p.Kind, p.Op, p.Ret, p.Success, p.FailOrder = KRMW, RMWCmpxchg, RetOld, SuccCmpEqual, OrdOnce
		if p.Order, err = order(); err != nil {
			return nil, err
		}
		err = args([]ArgKind{ArgPtr, ArgVal, ArgVal})
	case "__atomic_op", "__atomic_op_return", "__atomic_fetch_op":
		p.Kind = KRMW
		if err = rmwOp(); err != nil {
			return nil, err
		}
		if p.Order, err = order(); err != nil {
			return nil, err
		}
		switch c.fun {
		case "__atomic_op":
			if c.annot != "NORETURN" {
				return nil, d.errAt(c.off, "__atomic_op{%s}: a non-returning atomic is NORETURN", c.annot)
			}
		case "__atomic_op_return":
			p.Ret = RetNew
		default:
			p.Ret = RetOld
		}
		err = args([]ArgKind{ArgPtr, ArgVal})
	case "__atomic_add_unless":
		p.Kind, p.Op, p.Ret, p.Success, p.FailOrder = KRMW, RMWAddUnless, RetSuccess, SuccNotEqual, OrdOnce
		if p.Order, err = order(); err != nil {
			return nil, err
		}
		err = args([]ArgKind{ArgPtr, ArgVal, ArgVal})
	case "__lock", "__unlock", "__trylock", "__islocked":
		switch c.fun {
		case "__lock":
			p.Kind, p.Order = KLock, OrdAcquire
		case "__unlock":
			p.Kind, p.Order = KUnlock, OrdRelease
		case "__trylock":
			p.Kind, p.Ret, p.Order, p.Success = KTryLock, RetSuccess, OrdAcquire, SuccCmpEqual
		default:
			p.Kind, p.Ret = KIsLocked, RetValue
		}
		err = args([]ArgKind{ArgPtr})
	default:
		q, e := d.macroRow(c.fun, c.off, depth)
		if e != nil {
			return nil, e
		}
		*p = *q
		p.Imm = append([]int64(nil), q.Imm...)
		err = args(q.Args)
	}
	if err != nil {
		return nil, err
	}
	switch m.cmp {
	case "":
	case "== 0", "< 0":
		if p.Kind != KRMW || p.Ret != RetNew {
			return nil, d.errAt(m.off, "%s: a comparison with 0 follows an __atomic_op_return only", m.name)
		}
		p.Ret = RetNewIsZero
		if m.cmp == "< 0" {
			p.Ret = RetNewIsNeg
		}
	}
	return p, nil
}

// macroRow returns the row of a macro a body calls: one of the file, or
// a built-in primitive.
func (d *defParser) macroRow(name string, off, depth int) (*Primitive, *Error) {
	if _, ok := d.macros[name]; ok {
		return d.row(name, depth+1)
	}
	if p, ok := table[name]; ok {
		return p, nil
	}
	return nil, d.errAt(off, "unknown macro or builtin %s", name)
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
