package litmus

// Value returns the expression an assignment stores: its RHS for "=",
// "LHS op RHS" for a compound assignment ("x += e" stores x + e), and
// "LHS op 1" for "++" and "--". The engines lower assignments through it,
// so that one rewriting gives the operators their meaning.
func (s *AssignStmt) Value() Expr {
	if s.Op == "=" {
		return s.RHS
	}
	op, rhs := s.Op[:len(s.Op)-1], s.RHS
	if s.Op == "++" || s.Op == "--" {
		op = s.Op[:1]
		rhs = &IntLit{ValuePos: s.OpPos, Value: 1, Text: "1"}
	}
	return &BinaryExpr{X: s.LHS, OpPos: s.OpPos, Op: op, Y: rhs}
}

// Text prints an assignment as written, without its semicolon, for
// traces and explanations: "*x = r0 + 1", "*y += 2", "r0 ++" (a space before
// the operator, as the traces print it).
func (s *AssignStmt) Text() string {
	t := ExprString(s.LHS) + " " + s.Op
	if s.RHS != nil {
		t += " " + ExprString(s.RHS)
	}
	return t
}
