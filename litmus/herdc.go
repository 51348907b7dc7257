package litmus

import (
	"fmt"
	"sort"
	"strings"
)

// herdc.go: a C test in the C that herd7 reads.
//
// herd7's C dialect (7.58, with the kernel's linux-kernel.def) is smaller
// than the C a code test is flattened into: it has no ! ~ unary minus
// && || % << >> ?: ++ += do-while for, no empty blocks, a value-returning
// primitive cannot be a statement, a spinlock_t cannot be declared in the
// init block, its scalar types are int, long, char and atomic_t, and its
// macros are only linux-kernel.def's. HerdC rewrites a test into that
// dialect construct by construct, each rewrite exact (the same events and
// values under the LKMM), and says, with its position, what it cannot
// rewrite exactly; what it cannot say is left as written, so that herd7
// refuses it rather than answering for a different test.

// HerdNote is one thing herd7's C cannot say exactly, at its place.
type HerdNote struct {
	Pos Position
	Msg string
	// Inexact is set when herd7 would read the test and could answer
	// for something other than the test (a loop herd unrolls, a type it
	// does not narrow); unset when herd7 refuses the construct.
	Inexact bool
}

func (n HerdNote) String() string {
	if n.Pos.IsValid() {
		return n.Pos.String() + ": " + n.Msg
	}
	return n.Msg
}

// HerdC rewrites C test t, in place, into herd7's C dialect and returns
// the notes on what it could not say exactly (nil when the rewritten test
// is exact). Clone t first to keep the original.
func HerdC(t *Test) []HerdNote {
	h := &herdWriter{t: t, retyped: map[string][]string{}}
	kept := t.Init[:0]
	for _, it := range t.Init {
		if it.Proc < 0 && strings.TrimSpace(it.Type) == "spinlock_t" && it.Value == nil {
			// herd7 sizes no spinlock_t; an undeclared location is 0,
			// which is an unlocked lock.
			continue
		}
		if it.Type != "" {
			it.Type = h.typ(it.Type, it.Name)
		}
		kept = append(kept, it)
	}
	t.Init = kept
	h.eachProc(func(p *Proc) []Stmt {
		for _, pr := range p.Params {
			pr.Type = h.typ(pr.Type, pr.Name.Name)
		}
		return h.stmts(p.Body.List)
	})
	if len(t.Objects) > 0 {
		h.note(t.Objects[0].Pos(), false, "object declarations and ptr_add (addresses computed at run time): herd7's C has no address arithmetic")
	}
	for _, inv := range t.Invariants {
		h.note(inv.Pos(), true, "invariant is litmus's extension, which herd7 does not have: left out, so herd7 checks only the final condition")
	}
	t.Invariants = nil
	names := make([]string, 0, len(h.retyped))
	for ty := range h.retyped {
		names = append(names, ty)
	}
	sort.Strings(names)
	for _, ty := range names {
		h.notes = append(h.notes, HerdNote{Inexact: true, Msg: fmt.Sprintf(
			"%s is declared %s, a type herd7's C does not have: written %s, whose values herd7 does not narrow to %s's width",
			strings.Join(h.retyped[ty], ", "), ty, herdScalar(ty), ty)})
	}
	return h.notes
}

type herdWriter struct {
	t       *Test
	proc    *Proc
	temps   []string        // the temporaries the rewrite declared in proc
	used    map[string]bool // the names proc uses
	notes   []HerdNote
	retyped map[string][]string // a type herd lacks -> the names declared with it
	loops   bool                // the loop note was given
	// sc: rewrite only the && || ?: whose skipped operand accesses
	// memory (ShortCircuit), leaving the rest as written.
	sc bool
}

// eachProc replaces each thread's body with what rewrite makes of it,
// preceded by the declarations of the registers the rewrite added.
func (h *herdWriter) eachProc(rewrite func(p *Proc) []Stmt) {
	for _, p := range h.t.Procs {
		if p.Body == nil {
			continue
		}
		h.proc, h.temps, h.used = p, nil, map[string]bool{}
		Inspect(p.Body, func(n Node) bool {
			if id, ok := n.(*Ident); ok {
				h.used[id.Name] = true
			}
			return true
		})
		list := rewrite(p)
		decls := make([]Stmt, 0, len(h.temps)+len(list))
		for _, name := range h.temps {
			decls = append(decls, &DeclStmt{TypePos: p.Body.Lbrace, Type: "int", Name: &Ident{NamePos: p.Body.Lbrace, Name: name}})
		}
		p.Body.List = append(decls, list...)
	}
}

func (h *herdWriter) note(p Pos, inexact bool, format string, args ...any) {
	var pos Position
	if h.t.File != nil && p.IsValid() {
		pos = h.t.File.Position(p)
	}
	n := HerdNote{Pos: pos, Msg: fmt.Sprintf(format, args...), Inexact: inexact}
	for _, old := range h.notes {
		if old == n { // a helper inlined twice at one call site
			return
		}
	}
	h.notes = append(h.notes, n)
}

// temp declares a new int register of the current thread.
func (h *herdWriter) temp() string {
	for i := len(h.temps); ; i++ {
		name := fmt.Sprintf("herd%d", i)
		if h.sc {
			name = fmt.Sprintf("sc%d", i)
		}
		if !h.used[name] {
			h.used[name] = true
			h.temps = append(h.temps, name)
			return name
		}
	}
}

// herdScalars are the scalar types herd7's C sizes.
// herd7 7.58 reads the <stdint.h> names up to 32 bits and narrows to their
// widths (checked: a uint8_t at 0 minus 1 is 255); its 64-bit ones warn
// of a 32-bit mask, so those are written long.
var herdScalars = map[string]bool{"int": true, "long": true, "char": true, "atomic_t": true, "spinlock_t": true, "struct srcu_struct": true,
	"int8_t": true, "uint8_t": true, "int16_t": true, "uint16_t": true, "int32_t": true, "uint32_t": true}

// herdScalar is the type herd7 is given for scalar type ty.
func herdScalar(ty string) string {
	if herdScalars[ty] {
		return ty
	}
	switch ty {
	case "atomic_long_t", "refcount_t":
		return "atomic_t"
	}
	if s, ok := LookupCScalar(ty); ok && s.Size == 8 {
		return "long"
	}
	return "int"
}

// typ is the herd7 spelling of C type ty declared for name.
func (h *herdWriter) typ(ty, name string) string {
	ty = strings.TrimSpace(strings.ReplaceAll(" "+ty+" ", " const ", " "))
	stars := ""
	for strings.HasSuffix(ty, "*") {
		stars += "*"
		ty = strings.TrimSpace(strings.TrimSuffix(ty, "*"))
	}
	out := herdScalar(ty)
	if stars != "" && (ty == "void" || strings.HasPrefix(ty, "struct ") && ty != "struct srcu_struct") {
		out = "int"
	} else if out != ty && stars == "" && !herdWidens(ty) {
		h.retyped[ty] = append(h.retyped[ty], name)
	}
	if stars != "" {
		return out + " " + stars
	}
	return out
}

// herdWidens reports whether scalar type ty holds exactly the values of the
// herd7 type it is written as, so that retyping it loses nothing.
func herdWidens(ty string) bool {
	switch ty {
	case "atomic_long_t", "refcount_t", "signed int", "signed", "s32", "int32_t", "signed long", "long int", "s64", "int64_t", "long long":
		return true
	}
	return false
}

func (h *herdWriter) block(s Stmt) *BlockStmt {
	b, ok := s.(*BlockStmt)
	if !ok {
		b = &BlockStmt{Lbrace: s.Pos(), List: []Stmt{s}, Rbrace: s.End()}
	}
	b.List = h.stmts(b.List)
	if len(b.List) == 0 {
		// herd7 refuses { }; a register write is no event.
		t := h.temp()
		b.List = []Stmt{&AssignStmt{LHS: &Ident{NamePos: b.Lbrace, Name: t}, OpPos: b.Lbrace, Op: "=", RHS: herdInt(0, b.Lbrace)}}
	}
	return b
}

func (h *herdWriter) stmts(list []Stmt) []Stmt {
	var out []Stmt
	for _, s := range list {
		out = h.stmt(s, out)
	}
	return out
}

// stmt appends the herd7 form of s to out.
func (h *herdWriter) stmt(s Stmt, out []Stmt) []Stmt {
	switch s := s.(type) {
	case *BlockStmt:
		return append(out, h.block(s))
	case *EmptyStmt:
		return out
	case *DeclStmt:
		s.Type = h.typ(s.Type, s.Name.Name)
		if s.Init != nil {
			s.Init = h.expr(s.Init, &out)
		}
		return append(out, s)
	case *AssignStmt:
		if s.Op != "=" {
			op := strings.TrimSuffix(s.Op, "=")
			var rhs Expr = herdInt(1, s.OpPos)
			switch s.Op {
			case "++":
				op = "+"
			case "--":
				op = "-"
			default:
				rhs = &ParenExpr{Lparen: s.RHS.Pos(), X: s.RHS, Rparen: s.RHS.End()}
			}
			s.RHS = &BinaryExpr{X: s.LHS, OpPos: s.OpPos, Op: op, Y: rhs}
			s.Op = "="
		}
		s.RHS = h.expr(s.RHS, &out)
		return append(out, s)
	case *ExprStmt:
		if c, ok := s.X.(*CallExpr); ok {
			return h.callStmt(s, c, out)
		}
		s.X = h.expr(s.X, &out)
		return append(out, s)
	case *IfStmt:
		s.Cond = h.expr(s.Cond, &out)
		s.Then = h.block(s.Then)
		if s.Else != nil {
			if e, ok := s.Else.(*IfStmt); ok {
				// else if: the condition's own statements go in a block.
				s.Else = h.block(&BlockStmt{Lbrace: e.If, List: []Stmt{e}, Rbrace: e.End()})
			} else {
				s.Else = h.block(s.Else)
			}
		}
		return append(out, s)
	case *WhileStmt:
		h.loopNote(s.While, s.Body)
		var pre []Stmt
		s.Cond = h.expr(s.Cond, &pre)
		body := h.block(s.Body)
		body.List = append(body.List, cloneStmts(pre)...)
		s.Body = body
		out = append(out, pre...)
		return append(out, s)
	case *DoWhileStmt:
		// do B while (c);  is  B; while (c) B
		first := h.block(cloneStmt(s.Body))
		out = append(out, first.List...)
		return h.stmt(&WhileStmt{While: s.Do, Cond: s.Cond, Body: s.Body}, out)
	case *ForStmt:
		// for (i; c; p) B  is  i; while (c) { B; p }
		h.loopNote(s.For, s.Body)
		if s.Init != nil {
			out = h.stmt(s.Init, out)
		}
		var cond Expr = herdInt(1, s.For)
		if s.Cond != nil {
			cond = s.Cond
		}
		body, ok := s.Body.(*BlockStmt)
		if !ok {
			body = &BlockStmt{Lbrace: s.Body.Pos(), List: []Stmt{s.Body}, Rbrace: s.Body.End()}
		}
		if s.Post != nil {
			body.List = append(body.List, s.Post)
		}
		return h.stmt(&WhileStmt{While: s.For, Cond: cond, Body: body}, out)
	case *BranchStmt:
		h.note(s.TokPos, false, "%s: herd7's C has no %s (it drops the execution)", s.Tok, s.Tok)
		return append(out, s)
	}
	h.note(s.Pos(), false, "a statement herd7's C does not have")
	return append(out, s)
}

// loopNote says, once per test, that herd7 only bounds loops.
func (h *herdWriter) loopNote(p Pos, body Stmt) {
	if h.loops {
		return
	}
	h.loops = true
	h.note(p, true, "loop: herd7 unrolls each loop a bounded number of times (-unroll, 2 by default) and drops longer executions, so its answer is a bound where litmus's may be exact")
}

// callStmt appends the herd7 form of the primitive call statement c.
func (h *herdWriter) callStmt(s *ExprStmt, c *CallExpr, out []Stmt) []Stmt {
	p, ok := h.t.Primitive(c.Fun.Name)
	if ok && p.Kind == KNop && p.Source != srcDef {
		return out // cpu_relax(), smp_read_barrier_depends(): no event
	}
	e := h.call(c, &out, true)
	if call, ok := e.(*CallExpr); ok {
		if q, ok := h.t.Primitive(call.Fun.Name); ok && q.Ret != RetNone && q.Kind != KLock && q.Kind != KUnlock && q.Kind != KFence {
			// herd7 takes a value-returning macro only as a value.
			t := h.temp()
			return append(out, &AssignStmt{LHS: &Ident{NamePos: c.Pos(), Name: t}, OpPos: c.Pos(), Op: "=", RHS: call, EndPos: s.EndPos})
		}
	}
	if e == nil {
		return out
	}
	s.X = e
	return append(out, s)
}

func herdInt(v int64, p Pos) *IntLit { return &IntLit{ValuePos: p, Value: v, Text: fmt.Sprint(v)} }

func herdParen(e Expr) Expr {
	switch e.(type) {
	case *Ident, *IntLit, *ParenExpr, *CallExpr:
		return e
	}
	return &ParenExpr{Lparen: e.Pos(), X: e, Rparen: e.End()}
}

// herdBin is (x op y): the printer writes the tree as it is, so every
// expression the rewrite makes carries its own parentheses.
func herdBin(x Expr, op string, y Expr) Expr {
	b := &BinaryExpr{X: herdParen(x), OpPos: x.End(), Op: op, Y: herdParen(y)}
	return &ParenExpr{Lparen: b.Pos(), X: b, Rparen: b.End()}
}

// herdPure reports whether evaluating e twice, or not at all, is the same
// as evaluating it once: no memory access.
func herdPure(e Expr) bool {
	pure := true
	Inspect(e, func(n Node) bool {
		switch n := n.(type) {
		case *CallExpr, *IndirectCall:
			pure = false
		case *UnaryExpr:
			if n.Op == "*" {
				pure = false
			}
		}
		return pure
	})
	return pure
}

// hoist makes e pure: a register holding its value, written by a
// statement appended to pre.
func (h *herdWriter) hoist(e Expr, pre *[]Stmt) Expr {
	if herdPure(e) {
		return e
	}
	t := h.temp()
	*pre = append(*pre, &AssignStmt{LHS: &Ident{NamePos: e.Pos(), Name: t}, OpPos: e.Pos(), Op: "=", RHS: e})
	return &Ident{NamePos: e.Pos(), Name: t}
}

// expr returns the herd7 form of e, appending to pre the statements that
// must run before it.
func (h *herdWriter) expr(e Expr, pre *[]Stmt) Expr {
	switch e := e.(type) {
	case *ParenExpr:
		e.X = h.expr(e.X, pre)
		return e
	case *CastExpr:
		e.X = h.expr(e.X, pre)
		return e
	case *UnaryExpr:
		x := h.expr(e.X, pre)
		if h.sc {
			e.X = x
			return e
		}
		switch e.Op {
		case "!":
			return herdBin(x, "==", herdInt(0, e.OpPos))
		case "-":
			if lit, ok := x.(*IntLit); ok {
				return herdInt(-lit.Value, e.OpPos)
			}
			return herdBin(herdInt(0, e.OpPos), "-", x)
		case "~":
			return herdBin(x, "^", herdInt(-1, e.OpPos))
		}
		e.X = x
		return e
	case *BinaryExpr:
		x := h.expr(e.X, pre)
		switch e.Op {
		case "&&", "||":
			var post []Stmt
			y := h.expr(e.Y, &post)
			if len(post) == 0 && herdPure(y) {
				if h.sc {
					e.X, e.Y = x, y
					return e
				}
				op := "&"
				if e.Op == "||" {
					op = "|"
				}
				return herdBin(herdBin(x, "!=", herdInt(0, e.OpPos)), op, herdBin(y, "!=", herdInt(0, e.OpPos)))
			}
			// Y is evaluated only when X does not decide.
			t := h.temp()
			tid := func() *Ident { return &Ident{NamePos: e.OpPos, Name: t} }
			*pre = append(*pre, &AssignStmt{LHS: tid(), OpPos: e.OpPos, Op: "=", RHS: herdBin(x, "!=", herdInt(0, e.OpPos))})
			var cond Expr = tid()
			if e.Op == "||" {
				cond = herdBin(tid(), "==", herdInt(0, e.OpPos))
			}
			post = append(post, &AssignStmt{LHS: tid(), OpPos: e.OpPos, Op: "=", RHS: herdBin(y, "!=", herdInt(0, e.OpPos))})
			*pre = append(*pre, &IfStmt{If: e.OpPos, Cond: cond, Then: &BlockStmt{Lbrace: e.OpPos, List: post, Rbrace: e.End()}})
			return tid()
		}
		y := h.expr(e.Y, pre)
		if h.sc {
			e.X, e.Y = x, y
			return e
		}
		switch e.Op {
		case "%":
			x, y = h.hoist(x, pre), h.hoist(y, pre)
			return herdBin(x, "-", herdBin(herdBin(x, "/", y), "*", cloneExpr(y)))
		case "<<", ">>":
			lit, ok := Unparen(y).(*IntLit)
			if !ok || lit.Value < 0 || lit.Value > 62 {
				h.note(e.OpPos, false, "%s by an amount computed at run time: herd7's C has no shift", e.Op)
				e.X, e.Y = x, y
				return e
			}
			m := herdInt(int64(1)<<lit.Value, e.OpPos)
			if e.Op == "<<" {
				return herdBin(x, "*", m)
			}
			// x >> k is floor(x / 2^k): take the low bits off first, so
			// that herd's truncating division is exact for negative x.
			x = h.hoist(x, pre)
			return herdBin(herdBin(x, "-", herdBin(cloneExpr(x), "&", herdInt(m.Value-1, e.OpPos))), "/", m)
		}
		e.X, e.Y = x, y
		return e
	case *CondExpr:
		c := h.expr(e.Cond, pre)
		if h.sc && herdPure(e.X) && herdPure(e.Y) {
			e.Cond = c
			return e
		}
		t := h.temp()
		var then, els []Stmt
		xv := h.expr(e.X, &then)
		yv := h.expr(e.Y, &els)
		then = append(then, &AssignStmt{LHS: &Ident{NamePos: e.X.Pos(), Name: t}, OpPos: e.X.Pos(), Op: "=", RHS: xv})
		els = append(els, &AssignStmt{LHS: &Ident{NamePos: e.Y.Pos(), Name: t}, OpPos: e.Y.Pos(), Op: "=", RHS: yv})
		*pre = append(*pre, &IfStmt{If: e.Cond.Pos(), Cond: c,
			Then: &BlockStmt{Lbrace: e.X.Pos(), List: then, Rbrace: e.X.End()},
			Else: &BlockStmt{Lbrace: e.Y.Pos(), List: els, Rbrace: e.Y.End()}})
		return &Ident{NamePos: e.Cond.Pos(), Name: t}
	case *CallExpr:
		return h.call(e, pre, false)
	case *IndexExpr:
		e.X = h.expr(e.X, pre)
		e.Index = h.expr(e.Index, pre)
		if h.sc {
			return e
		}
		h.note(e.Pos(), false, "an array access: herd7's C has no arrays")
		return e
	case *IndirectCall, *MemberExpr:
		if h.sc {
			return e
		}
		h.note(e.Pos(), false, "a construct of the code test left in the flattened test")
		return e
	}
	return e
}

// call returns the herd7 form of a primitive call: the call itself when
// linux-kernel.def has the primitive, else the def's primitive with the
// same events and orderings, its operands and result adapted (a bit
// number becomes a mask); a primitive with no such equivalent is left as
// written, with a note.
func (h *herdWriter) call(c *CallExpr, pre *[]Stmt, stmt bool) Expr {
	for i, a := range c.Args {
		if _, ok := a.(*TypeArg); !ok {
			c.Args[i] = h.expr(a, pre)
		}
	}
	p, ok := h.t.Primitive(c.Fun.Name)
	if h.sc {
		return c
	}
	if !ok {
		h.note(c.Pos(), false, "%s: not a primitive of linux-kernel.def", c.Fun.Name)
		return c
	}
	if p.Source == srcDef || h.t.Prims != nil {
		return c
	}
	if p.Kind == KNop {
		if stmt {
			return nil
		}
		return herdInt(0, c.Pos())
	}
	if len(c.Args) != len(p.Args) {
		return c
	}
	// The operands as the model reads them: the location, then the values.
	var loc Expr
	var vals []Expr
	var mask int64
	for i, k := range p.Args {
		a := c.Args[i]
		switch k {
		case ArgPtr:
			loc = a
		case ArgLval:
			loc = herdAddr(a)
		case ArgVal:
			vals = append(vals, a)
		case ArgBit:
			lit, ok := Unparen(a).(*IntLit)
			if !ok || lit.Value < 0 || lit.Value > 62 {
				h.note(c.Pos(), false, "%s with a bit number computed at run time: herd7's C cannot make its mask", p.Name)
				return c
			}
			mask = int64(1) << lit.Value
			if p.Kind != KLoad { // test_bit reads the word; the mask is no operand
				vals = append(vals, herdInt(mask, a.Pos()))
			}
		}
	}
	for _, v := range p.Imm {
		vals = append(vals, herdInt(v, c.Pos()))
	}
	if len(vals) == 0 && p.Kind == KRMW && (p.Op == RMWAdd || p.Op == RMWSub) {
		vals = append(vals, herdInt(1, c.Pos())) // refcount_inc, refcount_dec: the engines' operand
	}
	if p.NonAtomic && p.Kind == KRMW && loc != nil && len(vals) == 1 {
		// __set_bit and friends: a plain load and a plain store.
		op := map[RMWOp]string{RMWOr: "|", RMWXor: "^"}[p.Op]
		var v Expr = vals[0]
		if p.Op == RMWAndNot {
			op, v = "&", herdInt(^mask, c.Pos())
		}
		if op == "" || !stmt {
			h.note(c.Pos(), false, "%s: herd7's C has no such primitive", p.Name)
			return c
		}
		lv := herdDeref(loc)
		*pre = append(*pre, &AssignStmt{LHS: lv, OpPos: c.Pos(), Op: "=", RHS: herdBin(cloneExpr(lv), op, v)})
		return nil
	}
	q := herdEquivalent(p, len(vals), stmt)
	if q == nil {
		h.note(c.Pos(), false, "%s: linux-kernel.def has no primitive with its events and orderings (%s); herd7 will refuse it", p.Name, p.Source)
		return c
	}
	args := make([]Expr, len(q.Args))
	vi := 0
	for i, k := range q.Args {
		switch k {
		case ArgPtr:
			args[i] = loc
		case ArgLval:
			args[i] = herdDeref(loc)
		default:
			args[i] = vals[vi]
			vi++
		}
	}
	call := &CallExpr{Fun: &Ident{NamePos: c.Fun.NamePos, Name: q.Name}, Lparen: c.Lparen, Args: args, Rparen: c.Rparen}
	if p.Ret == RetBit || p.Ret == RetOldBit {
		return herdBin(herdBin(call, "&", herdInt(mask, c.Pos())), "!=", herdInt(0, c.Pos()))
	}
	return call
}

// herdEquivalent is linux-kernel.def's primitive with p's events and
// orderings taking nvals values (p's written values, its bit mask and its
// implicit operands, in that order), or nil. A result p does not have is
// allowed for a statement (stmt), where it is dropped.
func herdEquivalent(p *Primitive, nvals int, stmt bool) *Primitive {
	wantRet := p.Ret
	switch p.Ret {
	case RetBit:
		wantRet = RetValue
	case RetOldBit:
		wantRet = RetOld
	}
	var best *Primitive
	for _, q := range Primitives() {
		if q.Source != srcDef || q.Kind != p.Kind || q.Op != p.Op || q.Order != p.Order || q.Fence != p.Fence || q.NonAtomic {
			continue
		}
		if q.Success != p.Success || q.FailOrder != p.FailOrder {
			// A conditional primitive matches an unconditional one only
			// when its orderings do not depend on the condition.
			if !(p.Success == SuccAlways || p.Order == p.FailOrder) || !(q.Success == SuccAlways || q.Order == q.FailOrder) || q.Order != p.Order {
				continue
			}
			if p.Op == RMWCmpxchg || p.Op == RMWAddUnless || q.Op == RMWCmpxchg || q.Op == RMWAddUnless {
				continue
			}
		}
		n := len(q.Imm)
		for _, a := range q.Args {
			if a == ArgVal {
				n++
			}
		}
		if n != nvals || len(q.Imm) != 0 && len(q.Imm) != len(p.Imm) {
			continue
		}
		if !equalImm(q.Imm, p.Imm) {
			continue
		}
		switch {
		case q.Ret == wantRet:
		case p.Ret == RetNone && stmt:
		default:
			continue
		}
		if best == nil || q.Ret == wantRet && best.Ret != wantRet {
			best = q
		}
	}
	return best
}

func equalImm(q, p []int64) bool {
	if len(q) == 0 {
		return true
	}
	for i := range q {
		if q[i] != p[i] {
			return false
		}
	}
	return true
}

// herdAddr is the pointer to lvalue e: x for *x, &e otherwise.
func herdAddr(e Expr) Expr {
	if u, ok := Unparen(e).(*UnaryExpr); ok && u.Op == "*" {
		return u.X
	}
	return &UnaryExpr{OpPos: e.Pos(), Op: "&", X: e}
}

// herdDeref is the lvalue pointer e points to: y for &y, *e otherwise.
func herdDeref(e Expr) Expr {
	if u, ok := Unparen(e).(*UnaryExpr); ok && u.Op == "&" {
		return u.X
	}
	return &UnaryExpr{OpPos: e.Pos(), Op: "*", X: e}
}

func cloneExpr(e Expr) Expr { return cloneNode(e) }
func cloneStmt(s Stmt) Stmt { return cloneNode(s) }

func cloneStmts(list []Stmt) []Stmt {
	out := make([]Stmt, len(list))
	for i, s := range list {
		out[i] = cloneStmt(s)
	}
	return out
}
