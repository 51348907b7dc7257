package lkmm

import "github.com/litmus-dev/litmus/litmus"

// herd7 prints the value of a cycle of copies (see axiom.Flow) as the
// variable that represents it, S<n>: herd numbers a fresh variable for
// every read of a register (a C variable or a parameter, each time it is
// read), every read of memory, and every operation on a variable it cannot
// evaluate yet, in the order it builds the semantics of the threads, both
// ways of every branch (then before else) and every unrolled iteration of
// a loop; the cycle's variable is the largest of those its value flows
// through. This file counts them the same way: statically, for the code a
// path does not run, and as the path runs.

// isRegName reports whether name, read in an expression, is a register
// read for herd: a parameter, or any name that is not a shared location
// or NULL, true, false (an undeclared local is a register too).
func (in *interp) isRegName(name string) bool {
	if _, ok := in.regs[name]; ok {
		return true
	}
	if _, ok := in.th.params[name]; ok {
		return true
	}
	if _, ok := in.p.index[name]; ok {
		return false
	}
	switch name {
	case "NULL", "true", "false":
		return false
	}
	return true
}

// semVar reports whether e's value is a variable when herd builds the
// semantics: it reads a register or memory.
func (in *interp) semVar(e litmus.Expr) bool {
	switch e := e.(type) {
	case *litmus.IntLit:
		return false
	case *litmus.ParenExpr:
		return in.semVar(e.X)
	case *litmus.CastExpr:
		return in.semVar(e.X)
	case *litmus.Ident:
		return in.isRegName(e.Name)
	case *litmus.UnaryExpr:
		switch e.Op {
		case "*":
			return true
		case "&":
			if u, ok := litmus.Unparen(e.X).(*litmus.UnaryExpr); ok && u.Op == "*" {
				return in.semVar(u.X)
			}
			return false
		}
		return in.semVar(e.X)
	case *litmus.BinaryExpr:
		return in.semVar(e.X) || in.semVar(e.Y)
	}
	return true
}

// isZeroLit reports whether e is the literal 0.
func isZeroLit(e litmus.Expr) bool {
	l, ok := litmus.Unparen(e).(*litmus.IntLit)
	return ok && l.Value == 0
}

// opAllocs reports whether herd allocates a variable for x op y: an
// operand is a variable, and the operation is not one herd simplifies
// away (x+0, 0+x, x|0, 0|x).
func (in *interp) opAllocs(op string, x, y litmus.Expr) bool {
	if !in.semVar(x) && !in.semVar(y) {
		return false
	}
	if (op == "+" || op == "|") && (isZeroLit(x) || isZeroLit(y)) {
		return false
	}
	return true
}

// condAllocs reports whether herd's build_cond allocates a variable for
// a branch on c: it compares c with 0 unless c is a comparison.
func (in *interp) condAllocs(c litmus.Expr) bool {
	if b, ok := litmus.Unparen(c).(*litmus.BinaryExpr); ok {
		switch b.Op {
		case "<", ">", "==", "!=", "<=", ">=":
			return false
		}
	}
	return in.semVar(c)
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// countExpr is the number of variables herd allocates for e.
func (in *interp) countExpr(e litmus.Expr) int32 {
	switch e := e.(type) {
	case nil, *litmus.IntLit:
		return 0
	case *litmus.ParenExpr:
		return in.countExpr(e.X)
	case *litmus.CastExpr:
		return in.countExpr(e.X)
	case *litmus.Ident:
		return b2i(in.isRegName(e.Name))
	case *litmus.UnaryExpr:
		switch e.Op {
		case "*":
			return in.countExpr(e.X) + 1
		case "&":
			if u, ok := litmus.Unparen(e.X).(*litmus.UnaryExpr); ok && u.Op == "*" {
				return in.countExpr(u.X)
			}
			return 0
		}
		return in.countExpr(e.X) + b2i(in.semVar(e.X))
	case *litmus.BinaryExpr:
		return in.countExpr(e.X) + in.countExpr(e.Y) + b2i(in.opAllocs(e.Op, e.X, e.Y))
	case *litmus.CondExpr:
		return in.countExpr(e.Cond) + b2i(in.condAllocs(e.Cond)) + in.countExpr(e.X) + in.countExpr(e.Y)
	case *litmus.CallExpr:
		return in.countCall(e)
	}
	return 0
}

// countArg is the number of variables of a primitive's argument.
func (in *interp) countArg(kind litmus.ArgKind, e litmus.Expr) int32 {
	if kind == litmus.ArgLval {
		if u, ok := litmus.Unparen(e).(*litmus.UnaryExpr); ok && u.Op == "*" {
			return in.countExpr(u.X)
		}
		return 0
	}
	return in.countExpr(e)
}

// callExtra is the number of variables a primitive allocates besides its
// arguments' (its read, the operation of an atomic).
func callExtra(pr *litmus.Primitive) int32 {
	switch pr.Kind {
	case litmus.KLoad:
		return 1 + b2i(pr.Ret == litmus.RetBit)
	case litmus.KRMW:
		if pr.Op == litmus.RMWXchg || pr.Op == litmus.RMWCmpxchg {
			return 1
		}
		return 2
	}
	return 0
}

func (in *interp) countCall(c *litmus.CallExpr) int32 {
	pr, ok := in.p.test.Primitive(c.Fun.Name)
	if !ok || len(c.Args) != len(pr.Args) {
		return 0
	}
	var n int32
	for i, a := range pr.Args {
		n += in.countArg(a, c.Args[i])
	}
	return n + callExtra(pr)
}

// setReg sets a register, converting an integer to the register's
// declared type. A new register named like a shared location
// changes what isRegName says of that name, and so the counts memoized.
func (in *interp) setReg(name string, r regVal) {
	if _, ok := in.regs[name]; !ok {
		if _, shared := in.p.index[name]; shared {
			clear(in.counted)
		}
	}
	if k, ok := in.conv[name]; ok && r.v.Sym == 0 {
		// The kernel's widths (model/ctype): int r = INT_MAX + 1 is
		// INT_MIN under every model.
		r.v.N = k.Convert(r.v.N)
	}
	in.regs[name] = r
}

// countStmt is the number of variables herd allocates for s, every way
// through it. It is memoized: a loop nest unrolled loopBound times counts
// its body loopBound^depth times, and forty nested loops took hours.
// The count of s depends on the registers only through isRegName, which
// setReg keeps the memo true to.
func (in *interp) countStmt(s litmus.Stmt) int32 {
	if s == nil {
		return 0
	}
	if n, ok := in.counted[s]; ok {
		return n
	}
	n := in.countStmt1(s)
	if in.counted == nil {
		in.counted = map[litmus.Stmt]int32{}
	}
	in.counted[s] = n
	return n
}

func (in *interp) countStmt1(s litmus.Stmt) int32 {
	switch s := s.(type) {
	case nil:
		return 0
	case *litmus.BlockStmt:
		var n int32
		for _, x := range s.List {
			n += in.countStmt(x)
		}
		return n
	case *litmus.DeclStmt:
		return in.countExpr(s.Init)
	case *litmus.ExprStmt:
		return in.countExpr(s.X)
	case *litmus.AssignStmt:
		n := in.countExpr(s.RHS)
		if s.Op != "=" {
			n += in.countExpr(s.LHS) + 1
		}
		if u, ok := litmus.Unparen(s.LHS).(*litmus.UnaryExpr); ok && u.Op == "*" {
			n += in.countExpr(u.X)
		}
		return n
	case *litmus.IfStmt:
		return in.countExpr(s.Cond) + b2i(in.condAllocs(s.Cond)) + in.countStmt(s.Then) + in.countStmt(s.Else)
	case *litmus.WhileStmt, *litmus.DoWhileStmt, *litmus.ForStmt:
		if aw := in.p.awaits.of(s); aw != nil {
			return in.countAwait(s, aw)
		}
	}
	switch s := s.(type) {
	case *litmus.WhileStmt:
		return in.countLoop(s.Cond, s.Body, nil, 0)
	case *litmus.DoWhileStmt:
		return in.countStmt(s.Body) + in.countLoop(s.Cond, s.Body, nil, 1)
	case *litmus.ForStmt:
		return in.countStmt(s.Init) + in.countLoop(s.Cond, s.Body, s.Post, 0)
	}
	return 0
}

// countLoop is the number of variables of a loop unrolled from iteration
// iter on: herd's While(c, t, n) builds the condition, then (below the
// bound) the body and the rest of the loop.
func (in *interp) countLoop(cond litmus.Expr, body, post litmus.Stmt, iter int) int32 {
	var n int32
	for ; ; iter++ {
		if cond != nil {
			n += in.countExpr(cond) + b2i(in.condAllocs(cond))
		}
		if iter >= in.loopBound {
			return n
		}
		n += in.countStmt(body) + in.countStmt(post)
	}
}

// varBase returns the number of variables of the threads before th.
func (p *program) varBase(th *thread, loopBound int) int32 {
	var n int32
	for _, t := range p.threads {
		if t == th {
			return n
		}
		if t.proc == nil || t.proc.Body == nil {
			continue
		}
		c := &interp{p: p, th: t, loopBound: loopBound, regs: map[string]regVal{}}
		for k, v := range t.regs {
			c.regs[k] = regVal{v: v}
		}
		n += c.countStmt(t.proc.Body)
	}
	return n
}

// newVar numbers a fresh variable of herd's.
func (in *interp) newVar() int32 {
	in.nvar++
	return in.varBase + in.nvar
}

// regRead counts a read of a register holding a value of vflow f: a
// copy of a read joins that read's variables.
func (in *interp) regRead(f vflow) {
	v := in.newVar()
	if r := f.read(); r >= 0 {
		in.noteVar(r, v)
	}
}

func (in *interp) noteVar(r int, v int32) {
	for len(in.varMax) <= r {
		in.varMax = append(in.varMax, 0)
	}
	in.varMax[r] = max(in.varMax[r], v)
	in.varSeen = true
}
