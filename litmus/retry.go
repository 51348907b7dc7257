package litmus

import "fmt"

// This file recognises the kernel's most common retry loop,
//
//	old = atomic_read(v);
//	do {
//		new = old + 1;
//	} while (!atomic_try_cmpxchg(v, &old, new));
//
// as a code test lowers it (try_cmpxchg as the kernel's generic
// fallback, lower_expr.go):
//
//	old = atomic_read(v);
//	do {
//		new = old + 1;
//		n = new; o = old;
//		r = atomic_cmpxchg(v, o, n);
//		if (r != o) old = r;
//	} while (!(r == o));
//
// An iteration reads old, which the previous one assigned, so it is not
// an await by the rule of await.go; but it is one by this argument. A
// failed iteration is a failed cmpxchg, a read of v, and old then holds
// its value. Take an execution with k failed iterations: R0 (the read
// before the loop), C1..Ck (the failed cmpxchgs), then the successful
// iteration, which starts from old = Ck's value. When nothing but the
// failed iterations lies between R0 and the successful iteration (the
// iteration's statements before its cmpxchg have no event, and only
// declarations lie between R0 and the loop), drop R0 and C1..Ck-1 and
// let Ck take R0's place: it has R0's place in po with respect to every
// event that is left, the same location, the same write to read from and
// the value the successful iteration starts from. R0 is a relaxed read
// (READ_ONCE, atomic_read), no stronger than Ck (a failed cmpxchg is a
// marked read, of an RMW instruction, with its failure's ordering), so
// the models' constraints on it are a subset of those on Ck, and
// dropping reads keeps an allowed execution allowed (await.go). The
// result is an execution of the loop run ONCE, with old from R0, that
// succeeds: the await's reduction, with the same final state. The other
// way, such an execution is the real loop succeeding at once.
//
// A thread spins forever in such a loop only when its failed iteration
// reads the last write of v and old holds the last value too (else the
// next iteration starts afresh from a later value): the spin check of
// the axiomatic models counts R0 among the iteration's reads (Carried).

// retryLoop decides whether loop s is a try_cmpxchg retry loop checked as
// an await; isRetry reports whether it has the loop's shape at all (then
// why, when not empty, says why it is still unrolled).
func (a *awaitAnalysis) retryLoop(params map[string]bool, s Stmt) (aw *Await, why string, isRetry bool) {
	var body []Stmt
	var cond Expr
	prior := a.prior[s]
	peeled := false
	switch l := s.(type) {
	case *DoWhileStmt:
		body, cond = stmts(l.Body), l.Cond
	case *WhileStmt:
		// A do-while in herd7's form (HerdC, a flattened code test):
		// its body once, then "while (C) body".
		body, cond = stmts(l.Body), l.Cond
		if len(prior) < len(body) {
			return nil, "", false
		}
		for i, x := range body {
			if !sameStmt(prior[len(prior)-len(body)+i], x) {
				return nil, "", false
			}
		}
		prior, peeled = prior[:len(prior)-len(body)], true
	default:
		return nil, "", false
	}
	dw := &DoWhileStmt{Body: &BlockStmt{List: body}, Cond: cond}
	k, r, o, ptr := -1, "", "", Expr(nil)
	for i, x := range body {
		as, ok := x.(*AssignStmt)
		if !ok || as.Op != "=" {
			continue
		}
		lhs, ok := Unparen(as.LHS).(*Ident)
		call, ok2 := Unparen(as.RHS).(*CallExpr)
		if !ok || !ok2 {
			continue
		}
		p, ok := a.t.Primitive(call.Fun.Name)
		if !ok || p.Kind != KRMW || p.Op != RMWCmpxchg || len(call.Args) != 3 || p.Loc != 0 {
			continue
		}
		oid, ok := Unparen(call.Args[1]).(*Ident)
		if !ok {
			continue
		}
		k, r, o, ptr = i, lhs.Name, oid.Name, call.Args[0]
		break
	}
	if k < 0 || !failTest(dw.Cond, r, o) {
		return nil, "", false
	}
	// After the cmpxchg: "if (r != o) X = r;", nothing else.
	carried := ""
	for _, x := range body[k+1:] {
		is, ok := x.(*IfStmt)
		if !ok || is.Else != nil || !isNeq(is.Cond, r, o) {
			return nil, "", false
		}
		th := stmts(is.Then)
		if len(th) != 1 {
			return nil, "", false
		}
		as, ok := th[0].(*AssignStmt)
		if !ok || as.Op != "=" {
			return nil, "", false
		}
		l, ok1 := Unparen(as.LHS).(*Ident)
		v, ok2 := Unparen(as.RHS).(*Ident)
		if !ok1 || !ok2 || v.Name != r || carried != "" {
			return nil, "", false
		}
		carried = l.Name
	}
	if carried == "" || carried == r || carried == o {
		return nil, "", false
	}
	// The shape is the retry loop's; now the conditions of the argument.
	pre := body[:k]
	c := &effects{a: a, params: params, assigned: map[string]bool{}}
	for _, x := range pre {
		c.stmt(x)
	}
	c.exitTest(Unparen(body[k].(*AssignStmt).RHS).(*CallExpr).Args[2])
	if c.why != "" {
		return nil, "a try_cmpxchg retry loop, but " + c.why, true
	}
	if a.hasEvents(append(pre[:len(pre):len(pre)], &ExprStmt{X: Unparen(body[k].(*AssignStmt).RHS).(*CallExpr).Args[2]})) {
		return nil, "a try_cmpxchg retry loop, but an iteration has events before its cmpxchg, which a failed iteration would leave behind", true
	}
	if c.assigned[carried] {
		return nil, fmt.Sprintf("a try_cmpxchg retry loop, but an iteration assigns %s before its cmpxchg", carried), true
	}
	pname := ExprString(Unparen(ptr))
	if !pure(ptr) && !isAddrOf(ptr) {
		return nil, "a try_cmpxchg retry loop on " + pname + ", an address the analysis cannot follow", true
	}
	// Every other register the loop assigns starts afresh.
	assigned := map[string]bool{r: true}
	for k := range c.assigned {
		assigned[k] = true
	}
	if why := defined(assigned, body[:k+1], dw.Cond); why != "" {
		return nil, "a try_cmpxchg retry loop, but " + why, true
	}
	// Just before the loop: "X = READ_ONCE(*p)" or "X = atomic_read(p)"
	// of the cmpxchg's location.
	var prev *AssignStmt
	ok := false
	if len(prior) > 0 {
		prev, ok = prior[len(prior)-1].(*AssignStmt)
	}
	why = fmt.Sprintf("a try_cmpxchg retry loop, but %s is not read from %s with a relaxed read just before it, so the first iteration's %s is not the value a failed cmpxchg would give", carried, pname, carried)
	if !ok || prev.Op != "=" {
		return nil, why, true
	}
	if l, ok := Unparen(prev.LHS).(*Ident); !ok || l.Name != carried {
		return nil, why, true
	}
	call, ok := Unparen(prev.RHS).(*CallExpr)
	if !ok {
		return nil, why, true
	}
	p, ok := a.t.Primitive(call.Fun.Name)
	if !ok || p.Kind != KLoad || p.Order != OrdOnce || p.Loc < 0 || p.Loc >= len(call.Args) {
		return nil, why, true
	}
	arg := call.Args[p.Loc]
	if p.Args[p.Loc] == ArgLval {
		// READ_ONCE(*p): the pointer is p.
		u, ok := Unparen(arg).(*UnaryExpr)
		if !ok || u.Op != "*" {
			if id, ok := Unparen(arg).(*Ident); ok && isAddrOf(ptr) && ExprString(Unparen(Unparen(ptr).(*UnaryExpr).X)) == id.Name {
				return retryAwait(s, body, cond, carried, peeled), "", true
			}
			return nil, why, true
		}
		arg = u.X
	}
	if ExprString(Unparen(arg)) != pname {
		return nil, why, true
	}
	return retryAwait(s, body, cond, carried, peeled), "", true
}

// retryAwait is the reduction of a retry loop: its iteration once, which
// must succeed; the peeled form (herd7's) tests on entry whether the
// explicit first attempt failed.
func retryAwait(s Stmt, body []Stmt, cond Expr, carried string, peeled bool) *Await {
	aw := &Await{Loop: s, Pre: body, Cont: cond, Carried: carried}
	if peeled {
		aw.Enter = cond
	}
	return aw
}

// sameStmt reports whether x and y are the same statement, as a retry
// loop's iteration holds them (assignments, ifs, blocks, expressions).
func sameStmt(x, y Stmt) bool {
	switch x := x.(type) {
	case *AssignStmt:
		y, ok := y.(*AssignStmt)
		return ok && x.Op == y.Op && exprEq(x.LHS, y.LHS) && exprEq(x.RHS, y.RHS)
	case *ExprStmt:
		y, ok := y.(*ExprStmt)
		return ok && exprEq(x.X, y.X)
	case *BlockStmt:
		y, ok := y.(*BlockStmt)
		if !ok || len(x.List) != len(y.List) {
			return false
		}
		for i := range x.List {
			if !sameStmt(x.List[i], y.List[i]) {
				return false
			}
		}
		return true
	case *IfStmt:
		y, ok := y.(*IfStmt)
		if !ok || !exprEq(x.Cond, y.Cond) || !sameStmt(x.Then, y.Then) || (x.Else == nil) != (y.Else == nil) {
			return false
		}
		return x.Else == nil || sameStmt(x.Else, y.Else)
	case *EmptyStmt:
		_, ok := y.(*EmptyStmt)
		return ok
	}
	return false
}

func exprEq(x, y Expr) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	return ExprString(x) == ExprString(y)
}

// isAddrOf reports whether e is &name.
func isAddrOf(e Expr) bool {
	u, ok := Unparen(e).(*UnaryExpr)
	if !ok || u.Op != "&" {
		return false
	}
	_, ok = Unparen(u.X).(*Ident)
	return ok
}

// isNeq reports whether e is "r != o" or "o != r".
func isNeq(e Expr, r, o string) bool {
	b, ok := Unparen(e).(*BinaryExpr)
	return ok && b.Op == "!=" && sameRegs(b, r, o)
}

// isEq reports whether e is "r == o" or "o == r".
func isEq(e Expr, r, o string) bool {
	b, ok := Unparen(e).(*BinaryExpr)
	return ok && b.Op == "==" && sameRegs(b, r, o)
}

func sameRegs(b *BinaryExpr, r, o string) bool {
	x, ok1 := Unparen(b.X).(*Ident)
	y, ok2 := Unparen(b.Y).(*Ident)
	return ok1 && ok2 && (x.Name == r && y.Name == o || x.Name == o && y.Name == r)
}

// failTest reports whether the loop condition e holds exactly when the
// cmpxchg r = cmpxchg(p, o, n) failed: "r != o", "!(r == o)",
// "(r == o) == 0", "(r != o) != 0".
func failTest(e Expr, r, o string) bool {
	e = Unparen(e)
	if isNeq(e, r, o) {
		return true
	}
	if u, ok := e.(*UnaryExpr); ok && u.Op == "!" {
		return isEq(u.X, r, o)
	}
	if b, ok := e.(*BinaryExpr); ok {
		if z, ok := Unparen(b.Y).(*IntLit); ok && z.Value == 0 {
			return b.Op == "==" && isEq(b.X, r, o) || b.Op == "!=" && isNeq(b.X, r, o)
		}
	}
	return false
}

// befores fills a.prior: for each loop, the statements before it in its
// block, declarations without a value skipped.
func (a *awaitAnalysis) befores() {
	for _, pr := range a.t.Procs {
		if pr.Body == nil {
			continue
		}
		Inspect(pr.Body, func(n Node) bool {
			b, ok := n.(*BlockStmt)
			if !ok {
				return true
			}
			var prev []Stmt
			for _, x := range b.List {
				if d, ok := x.(*DeclStmt); ok && d.Init == nil {
					continue
				}
				if _, ok := x.(*EmptyStmt); ok {
					continue
				}
				if isLoop(x) {
					a.prior[x] = prev[:len(prev):len(prev)]
				}
				prev = append(prev, x)
			}
			return true
		})
	}
}
