package litmus

// shortcircuit.go: && || and ?: evaluate an operand only when C says so.

// NeedsShortCircuit reports whether a C test has an &&, || or ?: whose
// operand that C may skip accesses memory (a read or an RMW).
func NeedsShortCircuit(t *Test) bool {
	for _, p := range t.Procs {
		if p.Body != nil && scNeeded(p.Body) {
			return true
		}
	}
	return false
}

// scNeeded reports whether n has an && || ?: that ShortCircuit rewrites.
func scNeeded(n Node) bool {
	found := false
	Inspect(n, func(n Node) bool {
		switch e := n.(type) {
		case *BinaryExpr:
			if (e.Op == "&&" || e.Op == "||") && !herdPure(e.Y) {
				found = true
			}
		case *CondExpr:
			if !herdPure(e.X) || !herdPure(e.Y) {
				found = true
			}
		}
		return !found
	})
	return found
}

// ShortCircuit rewrites, in place, each &&, || and ?: of C test t whose
// skipped operand accesses memory into ifs on a new register, as the code
// tests' lowering writes them, so that every engine makes the operand's
// events only on the paths that evaluate it: "r = a && READ_ONCE(*x)"
// reads x only when a is not 0. The rest of the code is left as written.
// A do-while whose condition needs it and whose body has a continue is
// left as written too (there is nowhere to put the condition's
// statements), as is a for step that needs it; it returns where each
// such condition or step is.
func ShortCircuit(t *Test) (left []Pos) {
	h := &herdWriter{t: t, sc: true, retyped: map[string][]string{}}
	h.eachProc(func(p *Proc) []Stmt { return h.scStmts(p.Body.List, &left) })
	return left
}

func (h *herdWriter) scStmts(list []Stmt, left *[]Pos) []Stmt {
	var out []Stmt
	for _, s := range list {
		out = h.scStmt(s, out, left)
	}
	return out
}

func (h *herdWriter) scBlock(s Stmt, left *[]Pos) Stmt {
	if b, ok := s.(*BlockStmt); ok {
		b.List = h.scStmts(b.List, left)
		return b
	}
	list := h.scStmt(s, nil, left)
	if len(list) == 1 {
		return list[0]
	}
	return &BlockStmt{Lbrace: s.Pos(), List: list, Rbrace: s.End()}
}

// breakUnless is "if (c == 0) break;" after the statements pre.
func breakUnless(pre []Stmt, c Expr, p Pos) []Stmt {
	return append(pre, &IfStmt{If: p, Cond: herdBin(c, "==", herdInt(0, p)),
		Then: &BlockStmt{Lbrace: p, List: []Stmt{&BranchStmt{TokPos: p, Tok: "break"}}, Rbrace: p}})
}

func (h *herdWriter) scStmt(s Stmt, out []Stmt, left *[]Pos) []Stmt {
	switch s := s.(type) {
	case *BlockStmt:
		s.List = h.scStmts(s.List, left)
	case *DeclStmt:
		if s.Init != nil {
			s.Init = h.expr(s.Init, &out)
		}
	case *AssignStmt:
		if s.RHS != nil {
			s.RHS = h.expr(s.RHS, &out)
		}
	case *ExprStmt:
		s.X = h.expr(s.X, &out)
	case *IfStmt:
		s.Cond = h.expr(s.Cond, &out)
		s.Then = h.scBlock(s.Then, left)
		if s.Else != nil {
			s.Else = h.scBlock(s.Else, left)
		}
	case *WhileStmt:
		var pre []Stmt
		c := h.expr(s.Cond, &pre)
		s.Body = h.scBlock(s.Body, left)
		if len(pre) == 0 {
			s.Cond = c
			break
		}
		// while (c) B  is  while (1) { c's statements; if (!c) break; B }
		s.Cond = herdInt(1, s.While)
		s.Body = &BlockStmt{Lbrace: s.While, List: append(breakUnless(pre, c, s.While), s.Body), Rbrace: s.Body.End()}
	case *DoWhileStmt:
		var pre []Stmt
		c := h.expr(s.Cond, &pre)
		s.Body = h.scBlock(s.Body, left)
		if len(pre) == 0 {
			s.Cond = c
			break
		}
		hasContinue := false
		Inspect(s.Body, func(n Node) bool {
			if b, ok := n.(*BranchStmt); ok && b.Tok == "continue" {
				hasContinue = true
			}
			switch n.(type) {
			case *WhileStmt, *DoWhileStmt, *ForStmt:
				return n == Node(s.Body) // a nested loop's continue is its own
			}
			return true
		})
		if hasContinue {
			*left = append(*left, s.Cond.Pos())
			break
		}
		// do B while (c)  is  while (1) { B; c's statements; if (!c) break; }
		body := []Stmt{s.Body}
		out = append(out, &WhileStmt{While: s.Do, Cond: herdInt(1, s.Do),
			Body: &BlockStmt{Lbrace: s.Do, List: append(body, breakUnless(pre, c, s.EndPos)...), Rbrace: s.EndPos}})
		return out
	case *ForStmt:
		if s.Init != nil {
			init := h.scStmt(s.Init, nil, left)
			if len(init) != 1 {
				out = append(out, init[:len(init)-1]...)
			}
			s.Init = init[len(init)-1]
		}
		var pre []Stmt
		var c Expr
		if s.Cond != nil {
			c = h.expr(s.Cond, &pre)
		}
		if s.Post != nil && scNeeded(s.Post) {
			*left = append(*left, s.Post.Pos()) // a for step has nowhere to put statements
		}
		s.Body = h.scBlock(s.Body, left)
		if len(pre) == 0 {
			s.Cond = c
			break
		}
		s.Cond = nil
		s.Body = &BlockStmt{Lbrace: s.For, List: append(breakUnless(pre, c, s.For), s.Body), Rbrace: s.Body.End()}
	}
	return append(out, s)
}
