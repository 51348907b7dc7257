package litmus

// Inspect traverses the C statements and expressions below n in source
// order, like go/ast.Inspect: it calls f(node) for each node; if f returns
// true, Inspect visits the node's children, then calls f(nil).
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) || !f(n) {
		return
	}
	eachChild(n, func(c Node) { Inspect(c, f) })
	f(nil)
}

// eachChild calls f with each of n's children in source order; an absent
// one (an if without else, a declaration without initializer) is nil. It
// allocates nothing: the engines' set-up walks every test's code with it.
func eachChild(n Node, f func(Node)) {
	switch n := n.(type) {
	case *BlockStmt:
		for _, x := range n.List {
			f(x)
		}
	case *DeclStmt:
		f(n.Init)
	case *AssignStmt:
		f(n.LHS)
		f(n.RHS)
	case *ExprStmt, *UnaryExpr, *ParenExpr, *CastExpr:
		f(oneChild(n))
	case *IfStmt:
		f(n.Cond)
		f(n.Then)
		f(n.Else)
	case *WhileStmt:
		f(n.Cond)
		f(n.Body)
	case *DoWhileStmt:
		f(n.Body)
		f(n.Cond)
	case *ForStmt:
		f(n.Init)
		f(n.Cond)
		f(n.Post)
		f(n.Body)
	case *BinaryExpr:
		f(n.X)
		f(n.Y)
	case *CondExpr:
		f(n.Cond)
		f(n.X)
		f(n.Y)
	case *IndexExpr:
		f(n.X)
		f(n.Index)
	case *OffsetExpr:
		f(n.Ptr)
		f(n.Off)
	case *CallExpr:
		for _, x := range n.Args {
			f(x)
		}
	case *BraceList:
		for _, x := range n.Elems {
			f(x)
		}
	// A code test's nodes (ast_code.go), before lowering.
	case *MemberExpr:
		f(n.X)
	case *ReturnStmt:
		f(n.X)
	case *IndirectCall:
		f(n.Fun)
		for _, x := range n.Args {
			f(x)
		}
	case *LabeledStmt:
		f(n.Stmt)
	case *SwitchStmt:
		f(n.Tag)
		for _, cl := range n.Clauses {
			for _, x := range cl.Values {
				f(x)
			}
			for _, x := range cl.Body {
				f(x)
			}
		}
	}
}

// oneChild returns the operand of a node with one.
func oneChild(n Node) Expr {
	switch n := n.(type) {
	case *ExprStmt:
		return n.X
	case *UnaryExpr:
		return n.X
	case *ParenExpr:
		return n.X
	case *CastExpr:
		return n.X
	}
	return nil
}

// isNilNode reports whether n is a typed nil, such as a nil *BlockStmt
// stored in a Stmt.
func isNilNode(n Node) bool {
	switch n := n.(type) {
	case *BlockStmt:
		return n == nil
	case *CallExpr:
		return n == nil
	}
	return false
}

// EachAtom calls f for every atom of proposition p, in source order: the
// one walk of a proposition that the engines share.
func EachAtom(p Prop, f func(*AtomProp)) {
	switch p := p.(type) {
	case *AtomProp:
		f(p)
	case *NotProp:
		EachAtom(p.X, f)
	case *BinProp:
		EachAtom(p.X, f)
		EachAtom(p.Y, f)
	case *ParenProp:
		EachAtom(p.X, f)
	}
}

// FinalProps returns the propositions of t's final section, in the order
// it is written: the filter's, the condition's, then each invariant's.
func (t *Test) FinalProps() []Prop {
	var out []Prop
	if t.Filter != nil {
		out = append(out, t.Filter)
	}
	if t.Cond != nil {
		out = append(out, t.Cond.Prop)
	}
	for _, inv := range t.Invariants {
		out = append(out, inv.Prop)
	}
	return out
}
