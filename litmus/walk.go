package litmus

// Inspect traverses the C statements and expressions below n in source
// order, like go/ast.Inspect: it calls f(node) for each node; if f returns
// true, Inspect visits the node's children, then calls f(nil).
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) || !f(n) {
		return
	}
	switch n := n.(type) {
	case *BlockStmt:
		for _, s := range n.List {
			Inspect(s, f)
		}
	case *DeclStmt:
		inspectExpr(n.Init, f)
	case *AssignStmt:
		inspectExpr(n.LHS, f)
		inspectExpr(n.RHS, f)
	case *ExprStmt:
		inspectExpr(n.X, f)
	case *IfStmt:
		inspectExpr(n.Cond, f)
		Inspect(n.Then, f)
		if n.Else != nil {
			Inspect(n.Else, f)
		}
	case *WhileStmt:
		inspectExpr(n.Cond, f)
		Inspect(n.Body, f)
	case *DoWhileStmt:
		Inspect(n.Body, f)
		inspectExpr(n.Cond, f)
	case *ForStmt:
		if n.Init != nil {
			Inspect(n.Init, f)
		}
		inspectExpr(n.Cond, f)
		if n.Post != nil {
			Inspect(n.Post, f)
		}
		Inspect(n.Body, f)
	case *UnaryExpr:
		inspectExpr(n.X, f)
	case *BinaryExpr:
		inspectExpr(n.X, f)
		inspectExpr(n.Y, f)
	case *CondExpr:
		inspectExpr(n.Cond, f)
		inspectExpr(n.X, f)
		inspectExpr(n.Y, f)
	case *CallExpr:
		for _, a := range n.Args {
			inspectExpr(a, f)
		}
	case *ParenExpr:
		inspectExpr(n.X, f)
	case *OffsetExpr:
		inspectExpr(n.Ptr, f)
		inspectExpr(n.Off, f)
	case *IndexExpr:
		inspectExpr(n.X, f)
		inspectExpr(n.Index, f)
	case *CastExpr:
		inspectExpr(n.X, f)
	case *BraceList:
		for _, e := range n.Elems {
			inspectExpr(e, f)
		}
	}
	f(nil)
}

func inspectExpr(e Expr, f func(Node) bool) {
	if e != nil {
		Inspect(e, f)
	}
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
