package litmus

import "strings"

// value is a lowered expression: a run-time expression of the flattened
// test, a pointer fixed at lowering (addr), or a function.
type value struct {
	t    *ctype
	x    Expr
	addr *place
	fn   *funcDef
	// local is set for the address of a local: the register that holds
	// it (an out-parameter of a helper, &old of try_cmpxchg). Like addr
	// and fn, a value fixed when the code is lowered.
	local string
}

// fixed reports whether v is a pointer fixed when the code is lowered: an
// object's place, a function or a local.
func (v *value) fixed() bool { return v.addr != nil || v.fn != nil || v.local != "" }

// lval is a lowered lvalue: a register, a fixed place, or *dyn (a
// pointer value of the test; the place is doff bytes past its target,
// doff nil for 0: ptr_add(dyn, doff) in the flattened test).
type lval struct {
	t    *ctype
	reg  string
	st   *place
	dyn  Expr
	doff Expr
}

// addr is the flattened test's expression for the address of a dynamic
// lvalue: dyn, or ptr_add(dyn, doff).
func (l *lval) addr(in *inliner) Expr {
	return in.offsetAddr(l.dyn, l.doff)
}

// offsetAddr is the address off bytes past base (off nil: 0), nested
// ptr_adds merged and constants folded.
func (in *inliner) offsetAddr(base, off Expr) Expr {
	if off == nil {
		return base
	}
	if o, ok := base.(*OffsetExpr); ok {
		return in.offsetAddr(o.Ptr, addOff(o.Off, off))
	}
	if lit, ok := off.(*IntLit); ok && lit.Value == 0 {
		return base
	}
	in.lw.dynAddr = true
	p := base.Pos()
	return &OffsetExpr{NamePos: p, Ptr: base, Off: off, Rparen: p}
}

// addOff is x + y for byte offsets, folding constants (nil is 0).
func addOff(x, y Expr) Expr {
	switch {
	case x == nil:
		return y
	case y == nil:
		return x
	}
	lx, okx := x.(*IntLit)
	ly, oky := y.(*IntLit)
	if okx && oky {
		return intLit(lx.ValuePos, lx.Value+ly.Value)
	}
	if oky && ly.Value == 0 {
		return x
	}
	if okx && lx.Value == 0 {
		return y
	}
	if oky && ly.Value < 0 {
		return &BinaryExpr{X: x, OpPos: ly.ValuePos, Op: "-", Y: intLit(ly.ValuePos, -ly.Value)}
	}
	return &BinaryExpr{X: x, OpPos: y.Pos(), Op: "+", Y: y}
}

// scaled is i * size as a byte offset, folding a constant i.
func scaled(i Expr, size int) Expr {
	if lit, ok := Unparen(i).(*IntLit); ok {
		return intLit(lit.ValuePos, lit.Value*int64(size))
	}
	if size == 1 {
		return i
	}
	p := i.Pos()
	return &BinaryExpr{X: &ParenExpr{Lparen: p, X: i, Rparen: p}, OpPos: p, Op: "*", Y: intLit(p, int64(size))}
}

func (in *inliner) rv(e Expr) Expr {
	v := in.expr(e)
	if v == nil {
		return &IntLit{ValuePos: in.pos(e.Pos()), Text: "0"}
	}
	return in.conv(v)
}

// conv turns a value into an expression of the flattened test.
func (in *inliner) conv(v *value) Expr {
	switch {
	case v.x != nil:
		return v.x
	case v.addr != nil:
		s := in.lw.addrLoc(v.addr, in.site)
		if s == nil {
			return intLit(in.site, 0)
		}
		in.params[s.loc] = true
		return &Ident{NamePos: in.site, Name: s.loc}
	case v.fn != nil:
		in.errorf(in.site, "function %s used as a value (only calls through a function pointer fixed in the init block are supported)", v.fn.name)
	case v.local != "":
		in.errorf(in.site, "the address of a local used as a value: a code test passes it to a helper or a primitive, and dereferences it, only")
	}
	return intLit(in.site, 0)
}

func (in *inliner) expr(e Expr) *value { return in.exprFor(e, false) }

// exprFor lowers e; stmt reports e is a whole expression statement (a
// void call is fine there).
func (in *inliner) exprFor(e Expr, stmt bool) *value {
	p := in.pos(e.Pos())
	switch e := e.(type) {
	case *IntLit:
		return &value{t: cInt, x: &IntLit{ValuePos: p, Value: e.Value, Text: e.Text}}
	case *ParenExpr:
		v := in.expr(e.X)
		if v != nil && v.x != nil {
			v = &value{t: v.t, x: &ParenExpr{Lparen: p, X: v.x, Rparen: p}}
		}
		return v
	case *CastExpr:
		v := in.expr(e.X)
		if v == nil {
			return nil
		}
		t := in.lw.typeOfIn(in, e.Type, e.Pos())
		if t != nil && t.kind != kVoid {
			v = &value{t: t, x: v.x, addr: v.addr, fn: v.fn, local: v.local}
			if v.addr != nil && t.kind == kPtr {
				v.addr = &place{obj: v.addr.obj, off: v.addr.off, t: t.elem}
			}
		}
		return v
	case *Ident:
		switch e.Name {
		case "NULL", "false":
			return &value{t: cInt, x: intLit(p, 0)}
		case "true":
			return &value{t: cInt, x: intLit(p, 1)}
		}
		if b := in.lookup(e.Name); b != nil {
			if b.static != nil {
				return b.static
			}
			return &value{t: b.t, x: &Ident{NamePos: p, Name: b.reg}}
		}
		if v, ok := in.lw.cs.enums[e.Name]; ok {
			return &value{t: cInt, x: intLit(p, v)}
		}
		if f := in.lw.cs.funcs[e.Name]; f != nil {
			return &value{fn: f}
		}
		if o := in.lw.objs[e.Name]; o != nil {
			return in.load(&lval{t: o.d.typ, st: &place{obj: o, t: o.d.typ}}, e.Pos())
		}
		in.errorf(e.Pos(), "undefined: %s%s", e.Name, didYouMean(e.Name, in.names()))
		return nil
	case *UnaryExpr:
		switch e.Op {
		case "&":
			l := in.lvalue(e.X)
			if l == nil {
				return nil
			}
			switch {
			case l.st != nil:
				return &value{t: ptrTo(l.t), addr: l.st}
			case l.dyn != nil:
				return &value{t: ptrTo(l.t), x: l.addr(in)}
			}
			return &value{t: ptrTo(l.t), local: l.reg}
		case "*":
			l := in.lvalue(e)
			if l == nil {
				return nil
			}
			return in.load(l, e.Pos())
		}
		v := in.expr(e.X)
		if v == nil {
			return nil
		}
		if e.Op == "!" && v.fixed() {
			return &value{t: cInt, x: intLit(p, 0)} // a fixed pointer is not NULL
		}
		return &value{t: cInt, x: &UnaryExpr{OpPos: p, Op: e.Op, X: in.conv(v)}}
	case *BinaryExpr:
		return in.binary(e)
	case *CondExpr:
		c := in.rv(e.Cond)
		var x, y Expr
		xs := in.sub(func() { x = in.rv(e.X) })
		ys := in.sub(func() { y = in.rv(e.Y) })
		if len(xs) == 0 && len(ys) == 0 {
			return &value{t: cInt, x: &CondExpr{Cond: c, X: x, Y: y}}
		}
		t := in.temp(cInt)
		set := func(list []Stmt, v Expr) *BlockStmt {
			return in.block(append(list, &AssignStmt{LHS: &Ident{NamePos: p, Name: t}, OpPos: p, Op: "=", RHS: v, EndPos: p}), e.Pos())
		}
		in.emit(&IfStmt{If: p, Cond: c, Then: set(xs, x), Else: set(ys, y)})
		return &value{t: cInt, x: &Ident{NamePos: p, Name: t}}
	case *MemberExpr, *IndexExpr:
		l := in.lvalue(e)
		if l == nil {
			return nil
		}
		return in.load(l, e.Pos())
	case *CallExpr:
		return in.call(e, stmt)
	case *IndirectCall:
		fv := in.expr(e.Fun)
		if fv == nil {
			return nil
		}
		if fv.fn == nil {
			in.errorf(e.Pos(), "call through a function pointer whose value is not fixed (NULL, or written at run time)")
			return nil
		}
		return in.inline(fv.fn, e.Args, e.Pos(), stmt)
	case *TypeArg:
		in.errorf(e.Pos(), "a type is not a value here")
		return nil
	}
	in.errorf(e.Pos(), "expression not supported in a code test")
	return nil
}

// names lists the names in scope, for "did you mean".
func (in *inliner) names() []string {
	var out []string
	for _, sc := range in.scopes {
		for n := range sc {
			out = append(out, n)
		}
	}
	for n := range in.lw.cs.funcs {
		out = append(out, n)
	}
	out = append(out, in.lw.objNames()...)
	return out
}

// binary lowers x op y, keeping C's order of evaluation and its short
// circuits when y calls a function.
func (in *inliner) binary(e *BinaryExpr) *value {
	p := in.pos(e.OpPos)
	xv := in.expr(e.X)
	if xv == nil {
		return nil
	}
	x := in.conv(xv)
	if (e.Op == "&&" || e.Op == "||") && xv.fixed() {
		// A fixed pointer is true: x && y is y != 0, x || y is 1.
		if e.Op == "||" {
			return &value{t: cInt, x: intLit(p, 1)}
		}
		yv := in.expr(e.Y)
		if yv == nil {
			return nil
		}
		return &value{t: cInt, x: &BinaryExpr{X: in.conv(yv), OpPos: p, Op: "!=", Y: intLit(p, 0)}}
	}
	var yv *value
	ys := in.sub(func() { yv = in.expr(e.Y) })
	if yv == nil {
		return nil
	}
	if (e.Op == "==" || e.Op == "!=") && (xv.addr != nil || yv.addr != nil) && len(ys) == 0 {
		if eq, ok := staticEqual(xv, yv); ok {
			return &value{t: cInt, x: intLit(p, boolInt(eq == (e.Op == "==")))}
		}
	}
	y := in.conv(yv)
	t := cInt
	if (e.Op == "+" || e.Op == "-") && xv.t != nil && xv.t.kind == kPtr {
		t = xv.t
	}
	if len(ys) == 0 {
		if a, ok := Unparen(x).(*IntLit); ok && (e.Op == "/" || e.Op == "%") {
			// A division of constants, as ARRAY_SIZE() writes one, is
			// folded (the architectures' code has no divide): exact
			// for operands that are not negative.
			if b, ok := Unparen(y).(*IntLit); ok && a.Value >= 0 && b.Value > 0 {
				v := a.Value / b.Value
				if e.Op == "%" {
					v = a.Value % b.Value
				}
				return &value{t: t, x: intLit(p, v)}
			}
		}
		return &value{t: t, x: &BinaryExpr{X: x, OpPos: p, Op: e.Op, Y: y}}
	}
	if e.Op == "&&" || e.Op == "||" {
		r := in.temp(cInt)
		id := func() *Ident { return &Ident{NamePos: p, Name: r} }
		in.emit(&AssignStmt{LHS: id(), OpPos: p, Op: "=", RHS: &BinaryExpr{X: x, OpPos: p, Op: "!=", Y: intLit(p, 0)}, EndPos: p})
		var cond Expr = id()
		if e.Op == "||" {
			cond = &UnaryExpr{OpPos: p, Op: "!", X: id()}
		}
		body := append(ys, &AssignStmt{LHS: id(), OpPos: p, Op: "=", RHS: &BinaryExpr{X: y, OpPos: p, Op: "!=", Y: intLit(p, 0)}, EndPos: p})
		in.emit(&IfStmt{If: p, Cond: cond, Then: in.block(body, e.Pos())})
		return &value{t: cInt, x: id()}
	}
	if hasCall(x) {
		r := in.temp(xv.t)
		in.emit(&AssignStmt{LHS: &Ident{NamePos: p, Name: r}, OpPos: p, Op: "=", RHS: x, EndPos: p})
		x = &Ident{NamePos: p, Name: r}
	}
	for _, s := range ys {
		in.emit(s)
	}
	return &value{t: t, x: &BinaryExpr{X: x, OpPos: p, Op: e.Op, Y: y}}
}

// lvalue lowers an lvalue.
func (in *inliner) lvalue(e Expr) *lval {
	switch e := e.(type) {
	case *ParenExpr:
		return in.lvalue(e.X)
	case *Ident:
		if b := in.lookup(e.Name); b != nil {
			if b.static != nil {
				in.errorf(e.Pos(), "%s is a pointer fixed at its declaration; assigning it again is not supported", e.Name)
				return nil
			}
			return &lval{t: b.t, reg: b.reg}
		}
		if o := in.lw.objs[e.Name]; o != nil {
			return &lval{t: o.d.typ, st: &place{obj: o, t: o.d.typ}}
		}
		in.errorf(e.Pos(), "undefined: %s%s", e.Name, didYouMean(e.Name, in.names()))
		return nil
	case *UnaryExpr:
		if e.Op != "*" {
			break
		}
		return in.deref(in.expr(e.X), e.Pos())
	case *MemberExpr:
		var b *lval
		if e.Arrow {
			b = in.deref(in.expr(e.X), e.X.Pos())
		} else {
			b = in.lvalue(e.X)
		}
		if b == nil {
			return nil
		}
		if b.t.kind != kStruct {
			in.errorf(e.Name.Pos(), "%s is not a struct: no member %s", b.t.name, e.Name.Name)
			return nil
		}
		if !b.t.complete {
			in.errorf(e.Name.Pos(), "%s is not defined: no member %s", b.t.name, e.Name.Name)
			return nil
		}
		f, off, ok := b.t.field(e.Name.Name)
		if !ok {
			in.errorf(e.Name.Pos(), "%s has no member %s%s", b.t.name, e.Name.Name, didYouMean(e.Name.Name, b.t.fieldNames()))
			return nil
		}
		if b.st != nil {
			return &lval{t: f.typ, st: &place{obj: b.st.obj, off: b.st.off + off, t: f.typ}}
		}
		// A member of a struct reached through a pointer read at run
		// time: its address is computed from the pointer's value (an
		// address dependency on the read, as the LKMM defines it).
		return &lval{t: f.typ, dyn: b.dyn, doff: addOff(b.doff, intLit(e.Name.Pos(), int64(off)))}
	case *IndexExpr:
		b := in.lvalue(e.X)
		if b == nil {
			return nil
		}
		if b.t.kind == kPtr {
			b = in.deref(in.load(b, e.X.Pos()), e.X.Pos())
			if b == nil {
				return nil
			}
			b.t = arrayOf(b.t, 1<<12)
		}
		if b.t.kind != kArray {
			in.errorf(e.Pos(), "%s is not an array", b.t.name)
			return nil
		}
		iv := in.expr(e.Index)
		if iv == nil {
			return nil
		}
		if iv.x == nil || iv.t != nil && iv.t.kind == kPtr {
			in.errorf(e.Index.Pos(), "an array index must be an integer")
			return nil
		}
		lit, isConst := Unparen(iv.x).(*IntLit)
		if isConst && (lit.Value < 0 || int(lit.Value) >= b.t.n) {
			in.errorf(e.Index.Pos(), "index %d out of range (%d elements)", lit.Value, b.t.n)
			return nil
		}
		if isConst && b.st != nil {
			return &lval{t: b.t.elem, st: &place{obj: b.st.obj, off: b.st.off + int(lit.Value)*b.t.elem.size, t: b.t.elem}}
		}
		if b.st != nil {
			// An index computed at run time into a fixed array: the
			// address is the array's plus the index's bytes, an
			// address dependency on the reads the index comes from.
			s := b.st.obj.byOff[b.st.off]
			if s == nil {
				in.errorf(e.Index.Pos(), "the array %s holds no scalar at its start, so its address is no location's", b.t.name)
				return nil
			}
			in.params[s.loc] = true
			return &lval{t: b.t.elem, dyn: &Ident{NamePos: in.pos(e.Pos()), Name: s.loc}, doff: scaled(iv.x, b.t.elem.size)}
		}
		return &lval{t: b.t.elem, dyn: b.dyn, doff: addOff(b.doff, scaled(iv.x, b.t.elem.size))}
	}
	in.errorf(e.Pos(), "not an lvalue")
	return nil
}

// deref is *v.
func (in *inliner) deref(v *value, p Pos) *lval {
	if v == nil {
		return nil
	}
	if v.t == nil || v.t.kind != kPtr {
		name := "int"
		if v.t != nil {
			name = v.t.name
		}
		in.errorf(p, "dereference of %s, which is not a pointer", name)
		return nil
	}
	if v.addr != nil {
		return &lval{t: v.t.elem, st: &place{obj: v.addr.obj, off: v.addr.off, t: v.t.elem}}
	}
	if v.fn != nil {
		in.errorf(p, "dereference of a function")
		return nil
	}
	if v.local != "" {
		return &lval{t: v.t.elem, reg: v.local}
	}
	if lit, ok := Unparen(v.x).(*IntLit); ok && lit.Value == 0 {
		in.errorf(p, "NULL pointer dereference")
		return nil
	}
	return &lval{t: v.t.elem, dyn: v.x}
}

// lvalExpr is the lvalue of the flattened test for l.
func (in *inliner) lvalExpr(l *lval, p Pos) Expr {
	pp := in.pos(p)
	switch {
	case l.reg != "":
		return &Ident{NamePos: pp, Name: l.reg}
	case l.st != nil:
		if !l.t.isScalar() {
			in.errorf(p, "%s is not a scalar: a code test reads and writes one scalar at a time", l.t.name)
			return nil
		}
		s := l.st.obj.byOff[l.st.off]
		if s == nil {
			return nil
		}
		in.params[s.loc] = true
		return &UnaryExpr{OpPos: pp, Op: "*", X: &Ident{NamePos: pp, Name: s.loc}}
	case l.dyn != nil:
		if !l.t.isScalar() {
			in.errorf(p, "%s is not a scalar: a code test reads and writes one scalar at a time", l.t.name)
			return nil
		}
		return &UnaryExpr{OpPos: pp, Op: "*", X: l.addr(in)}
	}
	return nil
}

// load is the value of lvalue l read with a plain access.
func (in *inliner) load(l *lval, p Pos) *value {
	switch {
	case l.reg != "":
		return &value{t: l.t, x: &Ident{NamePos: in.pos(p), Name: l.reg}}
	case l.t.kind == kArray && l.st != nil:
		return &value{t: ptrTo(l.t.elem), addr: &place{obj: l.st.obj, off: l.st.off, t: l.t.elem}}
	case l.t.kind == kArray && l.dyn != nil:
		return &value{t: ptrTo(l.t.elem), x: l.addr(in)}
	case l.t.isFuncPtr() && l.st != nil:
		return &value{t: l.t, fn: l.st.obj.fns[l.st.off]}
	case l.t.kind == kPtr && l.st != nil:
		// A plain read of a pointer: resolved to its initial value,
		// which checkFolds confirms no thread overwrites.
		s := l.st.obj.byOff[l.st.off]
		in.lw.folds = append(in.lw.folds, fold{s: s, pos: in.file.Position(p)})
		if s.initAddr != nil {
			return &value{t: l.t, addr: &place{obj: s.initAddr.obj, off: s.initAddr.off, t: l.t.elem}}
		}
		return &value{t: l.t, x: intLit(in.pos(p), s.initN)}
	case l.t.kind == kStruct:
		in.errorf(p, "%s used as a value: a code test passes structs by pointer", l.t.name)
		return nil
	}
	x := in.lvalExpr(l, p)
	if x == nil {
		return nil
	}
	return &value{t: l.t, x: x}
}

// call lowers f(args): a builtin, a prelude function (inlined) or a
// primitive of the table.
func (in *inliner) call(c *CallExpr, stmt bool) *value {
	name := c.Fun.Name
	p := in.pos(c.Pos())
	switch name {
	case "likely", "unlikely", "READ_ONCE_NOCHECK":
		if len(c.Args) == 1 && name != "READ_ONCE_NOCHECK" {
			return in.expr(c.Args[0])
		}
	case "container_of":
		return in.containerOf(c)
	case "sizeof":
		if len(c.Args) == 1 {
			return in.sizeOf(c.Args[0])
		}
	case "ATOMIC_INIT", "REFCOUNT_INIT", "ATOMIC_LONG_INIT":
		if len(c.Args) == 1 {
			return in.expr(c.Args[0])
		}
	}
	if f := in.lw.cs.funcs[name]; f != nil && f.body != nil {
		return in.inline(f, c.Args, c.Pos(), stmt)
	}
	if (name == "BUG_ON" || name == "BUG") && in.lw.cs.funcs[name] == nil {
		in.errorf(c.Fun.Pos(), "%s: a code test states what must not happen in its final section (exists, or an invariant: docs/language.md), not with %s", name, name)
		return nil
	}
	if al, ok := kernelAlias(name, in.lw.p.test.Primitive); ok && in.lw.cs.funcs[name] == nil {
		if len(c.Args) != al.n {
			in.errorf(c.Fun.Pos(), "wrong number of arguments to %s: have %d, want %d", name, len(c.Args), al.n)
			return nil
		}
		if al.to == "" {
			return in.expr(c.Args[0])
		}
		var args []Expr
		for _, i := range al.args {
			args = append(args, c.Args[i])
		}
		return in.call(&CallExpr{Fun: &Ident{NamePos: c.Fun.NamePos, Name: al.to}, Lparen: c.Lparen, Args: args, Rparen: c.Rparen}, stmt)
	}
	if read, ok := condLoads[name]; ok && in.lw.cs.funcs[name] == nil {
		return in.condLoad(c, read)
	}
	if base, ok := strings.CutPrefix(name, "try_"); ok && in.lw.cs.funcs[name] == nil {
		if _, ok := in.lw.p.test.Primitive(base); ok {
			return in.tryCmpxchg(c, base)
		}
	}
	if i := strings.Index(name, "_try_cmpxchg"); i > 0 && in.lw.cs.funcs[name] == nil {
		base := name[:i+1] + name[i+len("_try_"):]
		if _, ok := in.lw.p.test.Primitive(base); ok {
			return in.tryCmpxchg(c, base)
		}
	}
	prim, ok := in.lw.p.test.Primitive(name)
	if !ok {
		if f := in.lw.cs.funcs[name]; f != nil {
			in.errorf(c.Fun.Pos(), "function %s is declared but not defined", name)
			return nil
		}
		var cands []string
		for n := range in.lw.cs.funcs {
			cands = append(cands, n)
		}
		for _, pr := range Primitives() {
			cands = append(cands, pr.Name)
		}
		in.errorf(c.Fun.Pos(), "undefined function %s%s", name, didYouMean(name, cands))
		return nil
	}
	if len(c.Args) != len(prim.Args) {
		in.errorf(c.Fun.Pos(), "wrong number of arguments to %s: have %d, want %d", name, len(c.Args), len(prim.Args))
		return nil
	}
	nc := &CallExpr{Fun: &Ident{NamePos: p, Name: name}, Lparen: p, Rparen: p}
	rt := cInt
	var prev []Expr
	for i, a := range c.Args {
		var x Expr
		hoisted := in.sub(func() {
			switch prim.Args[i] {
			case ArgLval:
				l := in.lvalue(a)
				if l == nil {
					return
				}
				if l.reg != "" {
					in.errorf(a.Pos(), "%s of a local: the primitive needs a shared location", name)
					return
				}
				if i == prim.Loc && l.t.kind == kPtr {
					rt = l.t
				}
				x = in.lvalExpr(l, a.Pos())
			case ArgPtr:
				v := in.expr(a)
				if v == nil {
					return
				}
				if v.t == nil || v.t.kind != kPtr {
					in.errorf(a.Pos(), "argument %d of %s must be a pointer (write &x)", i+1, name)
					return
				}
				if i == prim.Loc && v.t.elem.kind == kPtr {
					rt = v.t.elem
				}
				if v.addr != nil {
					if s := v.addr.obj.byOff[v.addr.off]; s != nil && !v.t.elem.isScalar() && v.t.elem.kind != kVoid {
						in.errorf(a.Pos(), "argument %d of %s points to %s, not to a scalar", i+1, name, v.t.elem.name)
						return
					}
				}
				x = in.conv(v)
			default:
				x = in.rv(a)
			}
		})
		if x == nil {
			return nil
		}
		if len(hoisted) > 0 {
			for j, y := range prev {
				if hasCall(y) {
					r := in.temp(cInt)
					in.emit(&AssignStmt{LHS: &Ident{NamePos: p, Name: r}, OpPos: p, Op: "=", RHS: y, EndPos: p})
					nc.Args[j] = &Ident{NamePos: p, Name: r}
				}
			}
			for _, s := range hoisted {
				in.emit(s)
			}
		}
		if i == prim.Loc && (prim.Kind == KStore || prim.Kind == KRMW || prim.Kind == KLock || prim.Kind == KUnlock || prim.Kind == KTryLock) {
			in.noteWrite(&UnaryExpr{Op: "*", X: stripStar(x)})
		}
		nc.Args = append(nc.Args, x)
		prev = append(prev, x)
	}
	if prim.Ret == RetNone && !stmt {
		in.errorf(c.Pos(), "%s returns no value", name)
	}
	return &value{t: rt, x: nc}
}

func stripStar(x Expr) Expr {
	if u, ok := x.(*UnaryExpr); ok && u.Op == "*" {
		return u.X
	}
	return x
}

// containerOf lowers container_of(ptr, type, member.path).
func (in *inliner) containerOf(c *CallExpr) *value {
	if len(c.Args) != 3 {
		in.errorf(c.Pos(), "container_of takes 3 arguments")
		return nil
	}
	ta, ok := c.Args[1].(*TypeArg)
	if !ok {
		in.errorf(c.Args[1].Pos(), "the second argument of container_of must be a type")
		return nil
	}
	t := in.lw.typeOfIn(in, ta.Type, ta.Pos())
	if t == nil {
		return nil
	}
	var path []string
	var walk func(e Expr) bool
	walk = func(e Expr) bool {
		switch e := e.(type) {
		case *Ident:
			path = append(path, e.Name)
			return true
		case *MemberExpr:
			if !walk(e.X) || e.Arrow {
				return false
			}
			path = append(path, e.Name.Name)
			return true
		}
		return false
	}
	if !walk(c.Args[2]) {
		in.errorf(c.Args[2].Pos(), "the third argument of container_of must be a member (a.b.c)")
		return nil
	}
	off, cur := 0, t
	for _, m := range path {
		if cur.kind != kStruct {
			in.errorf(c.Args[2].Pos(), "%s is not a struct", cur.name)
			return nil
		}
		f, o, ok := cur.field(m)
		if !ok {
			in.errorf(c.Args[2].Pos(), "%s has no member %s%s", cur.name, m, didYouMean(m, cur.fieldNames()))
			return nil
		}
		off += o
		cur = f.typ
	}
	v := in.expr(c.Args[0])
	if v == nil {
		return nil
	}
	if v.addr != nil {
		if v.addr.off < off {
			in.errorf(c.Pos(), "container_of: the pointer is not inside a %s", t.name)
			return nil
		}
		return &value{t: ptrTo(t), addr: &place{obj: v.addr.obj, off: v.addr.off - off, t: t}}
	}
	if v.x == nil {
		in.errorf(c.Args[0].Pos(), "the first argument of container_of must be a pointer")
		return nil
	}
	// A pointer read at run time: the container is off bytes before it,
	// computed from its value.
	return &value{t: ptrTo(t), x: in.offsetAddr(v.x, intLit(in.pos(c.Pos()), int64(-off)))}
}

// inline lowers a call of a prelude function: its body, with the
// parameters bound to the arguments, in place.
func (in *inliner) inline(f *funcDef, args []Expr, callPos Pos, stmt bool) *value {
	for _, g := range in.stack {
		if g == f {
			var names []string
			for _, h := range in.stack {
				names = append(names, h.name)
			}
			in.errorf(callPos, "recursive call of %s (%s -> %s): a code test inlines every call", f.name, strings.Join(names, " -> "), f.name)
			return nil
		}
	}
	if len(in.stack) >= maxInline {
		in.errorf(callPos, "calls nested more than %d deep", maxInline)
		return nil
	}
	if f.body == nil {
		in.errorf(callPos, "function %s is declared but not defined", f.name)
		return nil
	}
	if len(args) != len(f.params) {
		in.errorf(callPos, "wrong number of arguments to %s: have %d, want %d", f.name, len(args), len(f.params))
		return nil
	}
	site := in.pos(callPos)
	sc := map[string]*binding{}
	for i, a := range args {
		v := in.expr(a)
		if v == nil {
			return nil
		}
		pt := f.params[i].typ
		if pt.kind == kPtr && v.t != nil && v.t.kind == kInt {
			if lit, ok := Unparen(v.x).(*IntLit); !ok || lit.Value != 0 {
				in.errorf(a.Pos(), "argument %d of %s: have %s, want %s", i+1, f.name, v.t.name, pt.name)
				return nil
			}
		}
		if pt.kind == kInt && v.t != nil && v.t.kind == kPtr && !pt.opaque {
			in.errorf(a.Pos(), "argument %d of %s: have %s, want %s", i+1, f.name, v.t.name, pt.name)
			return nil
		}
		if pt.kind == kPtr && v.t != nil && v.t.kind == kPtr && pt.elem.kind == kStruct && v.t.elem.kind == kStruct && pt.elem.name != v.t.elem.name && !strings.Contains(v.t.elem.name, "anonymous") {
			in.errorf(a.Pos(), "argument %d of %s: have %s, want %s", i+1, f.name, v.t.name, pt.name)
			return nil
		}
		name := f.params[i].name
		if name == "" {
			continue
		}
		if v.fixed() {
			nv := *v
			nv.t = pt
			if nv.addr != nil && pt.kind == kPtr {
				nv.addr = &place{obj: v.addr.obj, off: v.addr.off, t: pt.elem}
			}
			sc[name] = &binding{t: pt, static: &nv}
			continue
		}
		if _, ok := v.x.(*Ident); ok && !assigned(f.body)[name] {
			// A register argument: the body reads the caller's
			// register, which it cannot change.
			sc[name] = &binding{t: pt, static: &value{t: pt, x: v.x}}
			continue
		}
		if lit, ok := Unparen(v.x).(*IntLit); ok && !assigned(f.body)[name] {
			// A constant argument stays a constant in the body, as a
			// compiler propagates it: sock_wfree(sk, 1).
			sc[name] = &binding{t: pt, static: &value{t: pt, x: lit}}
			continue
		}
		saved := in.fn
		in.fn = f
		r := in.newReg(name, pt, nil)
		in.fn = saved
		in.emit(&AssignStmt{LHS: &Ident{NamePos: site, Name: r}, OpPos: site, Op: "=", RHS: in.conv(v), EndPos: site})
		sc[name] = &binding{t: pt, reg: r}
	}
	frame := *in
	in.stack = append(in.stack, f)
	in.scopes = []map[string]*binding{sc}
	in.file, in.site, in.fn = f.file, site, f
	in.inst = map[*DeclStmt]string{}
	in.ret = &retCtx{t: f.ret}
	in.assign = assigned(f.body)
	in.labels = nil // a goto stays in its function
	in.seq(f.body.List)
	ret := in.ret
	in.stack, in.scopes, in.file, in.site, in.fn, in.inst, in.ret, in.assign, in.labels = frame.stack, frame.scopes, frame.file, frame.site, frame.fn, frame.inst, frame.ret, frame.assign, frame.labels
	if f.ret.kind == kVoid {
		if !stmt {
			in.errorf(callPos, "%s returns void, not a value", f.name)
		}
		return &value{t: cVoid}
	}
	switch {
	case ret.static != nil && ret.dynamic:
		in.errorf(callPos, "%s returns a fixed pointer on some paths and a value on others, which a code test does not support", f.name)
		return nil
	case ret.static != nil:
		v := *ret.static
		v.t = f.ret
		return &v
	case ret.reg != "":
		return &value{t: f.ret, x: &Ident{NamePos: site, Name: ret.reg}}
	}
	return &value{t: f.ret, x: intLit(site, 0)}
}

// staticEqual compares two pointers when both are fixed, or one is fixed
// and the other NULL.
func staticEqual(x, y *value) (bool, bool) {
	isNull := func(v *value) bool {
		lit, ok := Unparen(v.x).(*IntLit)
		return v.addr == nil && v.fn == nil && ok && lit.Value == 0
	}
	switch {
	case x.addr != nil && y.addr != nil:
		return x.addr.obj == y.addr.obj && x.addr.off == y.addr.off, true
	case x.addr != nil && isNull(y), y.addr != nil && isNull(x):
		return false, true
	}
	return false, false
}

// tryCmpxchg lowers try_cmpxchg(v, old, new) and the atomic_ and
// atomic_long_ forms of each ordering as the kernel's generic fallback
// defines them (include/linux/atomic/atomic-arch-fallback.h,
// raw_atomic_try_cmpxchg): o = *old; r = cmpxchg(v, o, new); if r != o,
// *old = r; the value is r == o. base names the cmpxchg of the same
// ordering; new is evaluated first, as an argument of the call.
func (in *inliner) tryCmpxchg(c *CallExpr, base string) *value {
	name := c.Fun.Name
	p := in.pos(c.Pos())
	if len(c.Args) != 3 {
		in.errorf(c.Fun.Pos(), "wrong number of arguments to %s: have %d, want 3", name, len(c.Args))
		return nil
	}
	nv := in.expr(c.Args[2])
	if nv == nil {
		return nil
	}
	ol := in.deref(in.expr(c.Args[1]), c.Args[1].Pos())
	if ol == nil {
		return nil
	}
	if !ol.t.isScalar() || ol.t.kind == kPtr {
		in.errorf(c.Args[1].Pos(), "argument 2 of %s must point to an integer (the expected old value)", name)
		return nil
	}
	ident := func(n string) *Ident { return &Ident{NamePos: p, Name: n} }
	assign := func(dst string, x Expr) {
		in.emit(&AssignStmt{LHS: ident(dst), OpPos: p, Op: "=", RHS: x, EndPos: p})
	}
	nx := in.conv(nv)
	if _, ok := nx.(*IntLit); !ok {
		n := in.temp(ol.t)
		assign(n, nx)
		nx = ident(n)
	}
	ov := in.load(ol, c.Args[1].Pos())
	if ov == nil {
		return nil
	}
	o := in.temp(ol.t)
	assign(o, in.conv(ov))
	// The call of base sees o and n through names no C identifier can
	// spell.
	in.push()
	sc := in.scopes[len(in.scopes)-1]
	sc["try_cmpxchg:old"] = &binding{t: ol.t, static: &value{t: ol.t, x: ident(o)}}
	sc["try_cmpxchg:new"] = &binding{t: ol.t, static: &value{t: ol.t, x: nx}}
	cv := in.call(&CallExpr{Fun: &Ident{NamePos: c.Fun.NamePos, Name: base}, Lparen: c.Lparen,
		Args: []Expr{c.Args[0], &Ident{NamePos: c.Args[1].Pos(), Name: "try_cmpxchg:old"}, &Ident{NamePos: c.Args[2].Pos(), Name: "try_cmpxchg:new"}}, Rparen: c.Rparen}, false)
	in.pop()
	if cv == nil {
		return nil
	}
	r := in.temp(ol.t)
	assign(r, in.conv(cv))
	lhs := in.lvalExpr(ol, c.Args[1].Pos())
	if lhs == nil {
		return nil
	}
	in.noteWrite(lhs)
	set := &AssignStmt{LHS: lhs, OpPos: p, Op: "=", RHS: ident(r), EndPos: p}
	in.emit(&IfStmt{If: p, Cond: &BinaryExpr{X: ident(r), OpPos: p, Op: "!=", Y: ident(o)}, Then: in.block([]Stmt{set}, c.Pos())})
	return &value{t: cInt, x: &BinaryExpr{X: ident(r), OpPos: p, Op: "==", Y: ident(o)}}
}

// condLoads are the kernel's conditional-load spins
// (include/asm-generic/barrier.h, include/linux/atomic.h), each with the
// read one iteration makes: smp_cond_load_acquire() is documented as
// "equivalent to using smp_load_acquire() on the condition variable".
var condLoads = map[string]string{
	"smp_cond_load_relaxed":         "READ_ONCE",
	"smp_cond_load_acquire":         "smp_load_acquire",
	"atomic_cond_read_relaxed":      "atomic_read",
	"atomic_cond_read_acquire":      "atomic_read_acquire",
	"atomic_long_cond_read_relaxed": "atomic_long_read",
	"atomic_long_cond_read_acquire": "atomic_long_read_acquire",
}

// condLoad lowers smp_cond_load_acquire(ptr, cond) and its kin as the
// kernel's generic definition writes them: the pointer evaluated once,
// then do { VAL = read(ptr); } while (!(cond)), cond naming the value
// read as VAL; the value is VAL. The loop only reads, so the axiomatic
// models check it as an await of cond (Awaits).
func (in *inliner) condLoad(c *CallExpr, read string) *value {
	name := c.Fun.Name
	p := in.pos(c.Pos())
	if len(c.Args) != 2 {
		in.errorf(c.Fun.Pos(), "wrong number of arguments to %s: have %d, want 2", name, len(c.Args))
		return nil
	}
	pv := in.expr(c.Args[0])
	if pv == nil {
		return nil
	}
	if pv.t == nil || pv.t.kind != kPtr || !pv.t.elem.isScalar() && !pv.t.elem.opaque {
		in.errorf(c.Args[0].Pos(), "argument 1 of %s must point to a scalar", name)
		return nil
	}
	ident := func(n string) *Ident { return &Ident{NamePos: p, Name: n} }
	if !pv.fixed() {
		r := in.temp(pv.t)
		in.emit(&AssignStmt{LHS: ident(r), OpPos: p, Op: "=", RHS: in.conv(pv), EndPos: p})
		pv = &value{t: pv.t, x: ident(r)}
	}
	t := pv.t.elem
	if t.opaque {
		t = cInt
		if strings.HasPrefix(name, "atomic_long") {
			t = scalarType("long")
		}
	}
	val := in.temp(t)
	in.push()
	sc := in.scopes[len(in.scopes)-1]
	sc["VAL"] = &binding{t: t, reg: val}
	sc["cond_load:ptr"] = &binding{t: pv.t, static: pv}
	var cond Expr
	body := in.sub(func() {
		var arg Expr = &Ident{NamePos: c.Args[0].Pos(), Name: "cond_load:ptr"}
		if read == "READ_ONCE" {
			arg = &UnaryExpr{OpPos: c.Args[0].Pos(), Op: "*", X: arg} // READ_ONCE(*__PTR)
		}
		rv := in.call(&CallExpr{Fun: &Ident{NamePos: c.Fun.NamePos, Name: read}, Lparen: c.Lparen, Args: []Expr{arg}, Rparen: c.Rparen}, false)
		if rv != nil {
			in.emit(&AssignStmt{LHS: ident(val), OpPos: p, Op: "=", RHS: in.conv(rv), EndPos: p})
		}
		cond = in.rv(c.Args[1])
	})
	in.pop()
	in.emit(&DoWhileStmt{Do: p, Body: in.block(body, c.Pos()), Cond: &UnaryExpr{OpPos: p, Op: "!", X: &ParenExpr{Lparen: p, X: cond, Rparen: p}}, EndPos: p})
	return &value{t: t, x: ident(val)}
}

// sizeOf is sizeof(type) or sizeof(expr), by the kernel's LP64 layout: a
// constant of type unsigned long. As in C, expr is not evaluated: the
// statements its lowering makes are dropped.
func (in *inliner) sizeOf(a Expr) *value {
	var t *ctype
	if ta, ok := a.(*TypeArg); ok {
		t = in.lw.typeOfIn(in, ta.Type, ta.Pos())
	} else {
		in.sub(func() {
			switch x := Unparen(a).(type) {
			case *Ident:
				if b := in.lookup(x.Name); b != nil {
					t = b.t
					return
				}
				if o := in.lw.objs[x.Name]; o != nil {
					t = o.d.typ
					return
				}
			case *MemberExpr, *IndexExpr:
				if l := in.lvalue(x); l != nil {
					t = l.t
				}
				return
			case *UnaryExpr:
				if x.Op == "*" {
					if l := in.lvalue(x); l != nil {
						t = l.t
					}
					return
				}
			}
			if v := in.expr(a); v != nil {
				t = v.t
			}
		})
	}
	if t == nil {
		return nil
	}
	if !t.complete || t.kind == kVoid || t.size == 0 {
		in.errorf(a.Pos(), "sizeof of %s, which has no size", t.name)
		return nil
	}
	return &value{t: scalarType("unsigned long"), x: intLit(in.pos(a.Pos()), int64(t.size))}
}

// alias is a kernel function that orders memory as a primitive of the
// table does: to is the primitive ("" for the argument itself: a plain
// access), n the function's argument count, args the ones passed on.
type alias struct {
	to   string
	n    int
	args []int
}

// kernelAliases are kernel functions whose memory ordering is a
// primitive's: the lock variants differ from spin_lock() only in what
// they do to interrupts, bottom halves or lockdep
// (include/linux/spinlock.h); the rcu_dereference() variants only in
// their lockdep checks (include/linux/rcupdate.h), rcu_dereference_protected()
// being a plain read; rcu_read_lock_bh()/_sched() mark readers of the
// one consolidated RCU; preempt and interrupt masking are compiler
// barriers to other CPUs; data_race() is its argument.
var kernelAliases = map[string]alias{
	"spin_lock_irqsave": {"spin_lock", 2, []int{0}}, "spin_unlock_irqrestore": {"spin_unlock", 2, []int{0}},
	"spin_lock_irq": {"spin_lock", 1, []int{0}}, "spin_unlock_irq": {"spin_unlock", 1, []int{0}},
	"spin_lock_bh": {"spin_lock", 1, []int{0}}, "spin_unlock_bh": {"spin_unlock", 1, []int{0}},
	"spin_trylock_bh": {"spin_trylock", 1, []int{0}}, "spin_trylock_irq": {"spin_trylock", 1, []int{0}},
	"raw_spin_lock": {"spin_lock", 1, []int{0}}, "raw_spin_unlock": {"spin_unlock", 1, []int{0}},
	"raw_spin_lock_irq": {"spin_lock", 1, []int{0}}, "raw_spin_unlock_irq": {"spin_unlock", 1, []int{0}},
	"raw_spin_lock_irqsave": {"spin_lock", 2, []int{0}}, "raw_spin_unlock_irqrestore": {"spin_unlock", 2, []int{0}},
	"raw_spin_trylock":      {"spin_trylock", 1, []int{0}},
	"rcu_dereference_check": {"rcu_dereference", 2, []int{0}}, "rcu_dereference_raw": {"rcu_dereference", 1, []int{0}},
	"rcu_dereference_bh": {"rcu_dereference", 1, []int{0}}, "rcu_dereference_sched": {"rcu_dereference", 1, []int{0}},
	"srcu_dereference": {"rcu_dereference", 2, []int{0}}, "srcu_dereference_check": {"rcu_dereference", 3, []int{0}},
	"rcu_dereference_protected": {"", 2, nil}, "rcu_access_pointer": {"READ_ONCE", 1, []int{0}},
	"RCU_INIT_POINTER": {"WRITE_ONCE", 2, []int{0, 1}},
	"rcu_read_lock_bh": {"rcu_read_lock", 0, nil}, "rcu_read_unlock_bh": {"rcu_read_unlock", 0, nil},
	"rcu_read_lock_sched": {"rcu_read_lock", 0, nil}, "rcu_read_unlock_sched": {"rcu_read_unlock", 0, nil},
	"preempt_disable": {"barrier", 0, nil}, "preempt_enable": {"barrier", 0, nil},
	"local_irq_disable": {"barrier", 0, nil}, "local_irq_enable": {"barrier", 0, nil},
	"local_bh_disable": {"barrier", 0, nil}, "local_bh_enable": {"barrier", 0, nil},
	"local_irq_save": {"barrier", 1, nil}, "local_irq_restore": {"barrier", 1, nil},
	"data_race": {"", 1, nil},
	// WARN_ON(c) is c (include/asm-generic/bug.h): the warning itself
	// is no memory access.
	"WARN_ON": {"", 1, nil}, "WARN_ON_ONCE": {"", 1, nil},
}

// kernelAlias returns name's alias: one of kernelAliases, or an
// atomic64_ operation, which is atomic_long_'s on a 64-bit kernel.
func kernelAlias(name string, prim func(string) (*Primitive, bool)) (alias, bool) {
	if al, ok := kernelAliases[name]; ok {
		return al, true
	}
	if rest, ok := strings.CutPrefix(name, "atomic64_"); ok {
		if p, ok := prim("atomic_long_" + rest); ok {
			al := alias{to: "atomic_long_" + rest, n: len(p.Args)}
			for i := range p.Args {
				al.args = append(al.args, i)
			}
			return al, true
		}
	}
	return alias{}, false
}
