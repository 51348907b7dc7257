package litmus

// Inspect traverses the C statements and expressions below n in source
// order, like go/ast.Inspect: it calls f(node) for each node; if f returns
// true, Inspect visits the node's children, then calls f(nil).
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) || !f(n) {
		return
	}
	for _, c := range children(n) {
		Inspect(c, f)
	}
	f(nil)
}

// children returns n's children in source order; an absent one (an
// if without else, a declaration without initializer) is nil.
func children(n Node) []Node {
	switch n := n.(type) {
	case *BlockStmt:
		return nodes(n.List)
	case *DeclStmt:
		return []Node{n.Init}
	case *AssignStmt:
		return []Node{n.LHS, n.RHS}
	case *ExprStmt, *UnaryExpr, *ParenExpr, *CastExpr:
		return []Node{oneChild(n)}
	case *IfStmt:
		return []Node{n.Cond, n.Then, n.Else}
	case *WhileStmt:
		return []Node{n.Cond, n.Body}
	case *DoWhileStmt:
		return []Node{n.Body, n.Cond}
	case *ForStmt:
		return []Node{n.Init, n.Cond, n.Post, n.Body}
	case *BinaryExpr:
		return []Node{n.X, n.Y}
	case *CondExpr:
		return []Node{n.Cond, n.X, n.Y}
	case *IndexExpr:
		return []Node{n.X, n.Index}
	case *OffsetExpr:
		return []Node{n.Ptr, n.Off}
	case *CallExpr:
		return nodes(n.Args)
	case *BraceList:
		return nodes(n.Elems)
	// A code test's nodes (ast_code.go), before lowering.
	case *MemberExpr:
		return []Node{n.X}
	case *ReturnStmt:
		return []Node{n.X}
	case *IndirectCall:
		return append([]Node{n.Fun}, nodes(n.Args)...)
	case *LabeledStmt:
		return []Node{n.Stmt}
	case *SwitchStmt:
		out := []Node{n.Tag}
		for _, cl := range n.Clauses {
			out = append(append(out, nodes(cl.Values)...), nodes(cl.Body)...)
		}
		return out
	}
	return nil
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

// nodes returns a list of statements or expressions as nodes.
func nodes[T Node](list []T) []Node {
	out := make([]Node, len(list))
	for i, x := range list {
		out[i] = x
	}
	return out
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
