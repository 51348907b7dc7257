package interp

import (
	"fmt"

	"github.com/litmus-dev/litmus/model/cat"
)

// This file lifts the fixed parts out of the definitions and checks that
// depend on a candidate. In linux-kernel.cat, mb is a union of eight
// terms of which only one (through po-unlock-lock-po) depends on rf; the
// other seven, five of them calls of fencerel, are the same for every
// candidate of an execution. The native LKMM computes such terms once per
// execution (model/lkmm/fixed.go); here each maximal fixed sub-expression
// of a candidate-dependent let or check becomes a let of its own, placed
// just before, that markFixed then marks fixed, so that the prepass
// computes it once per execution and every candidate reads the value.
//
// The value is the same wherever it is computed: evaluation has no side
// effect, and a failure is kept in the binding and raised where the name
// is used, as for any let.

// hoister rewrites the instructions of a model.
type hoister struct {
	m   *Model
	dyn map[string]bool // the candidate-dependent names at this point
	// lets are the lets of the fixed sub-expressions found in the
	// instruction being rewritten, to be placed before it.
	lets []*cat.Let
	n    int
}

// hoistedName names the k-th lifted sub-expression. A space cannot occur
// in a cat name, so that it never clashes with the model's names.
func hoistedName(k int) string { return fmt.Sprintf("fixed %d", k) }

// stmt returns s with the maximal fixed sub-expressions of its
// expressions replaced by names, and the lets that bind those names.
// Only lets and checks that depend on a candidate are rewritten.
func (h *hoister) stmt(s cat.Stmt) (cat.Stmt, []*cat.Let) {
	h.lets = nil
	switch s := s.(type) {
	case *cat.Let:
		local := map[string]int{}
		if s.Rec {
			for _, b := range s.Bindings {
				for _, n := range b.Pat.Names {
					local[n]++
				}
			}
		}
		out := *s
		out.Bindings = make([]*cat.Binding, len(s.Bindings))
		for i, b := range s.Bindings {
			nb := *b
			nb.X = h.expr(b.X, local)
			out.Bindings[i] = &nb
		}
		return &out, h.lets
	case *cat.Test:
		out := *s
		out.X = h.expr(s.X, map[string]int{})
		return &out, h.lets
	}
	return s, nil
}

// fixed reports whether e depends on no candidate choice and on no local
// name.
func (h *hoister) fixed(e cat.Expr, local map[string]int) bool {
	for _, n := range h.m.freeVars(e) {
		if h.dyn[n] || local[n] > 0 {
			return false
		}
	}
	return true
}

// expr returns e with its maximal fixed sub-expressions lifted.
func (h *hoister) expr(e cat.Expr, local map[string]int) cat.Expr {
	switch e.(type) {
	case *cat.Var, *cat.Empty, *cat.Universe, *cat.Tag, *cat.Fun:
		// Nothing to compute, or a closure (whose body runs with its
		// arguments).
		return e
	}
	if h.fixed(e, local) {
		return h.lift(e)
	}
	return h.inner(e, local)
}

// lift binds the fixed expression e to a new name and returns the name.
func (h *hoister) lift(e cat.Expr) cat.Expr {
	h.n++
	name := hoistedName(h.n)
	h.lets = append(h.lets, &cat.Let{At: e.Pos(), Bindings: []*cat.Binding{{At: e.Pos(), Pat: cat.Pat{Names: []string{name}}, X: e}}})
	return &cat.Var{At: e.Pos(), Name: name}
}

// inner lifts the fixed sub-expressions of e, which is not fixed itself.
func (h *hoister) inner(e cat.Expr, local map[string]int) cat.Expr {
	switch e := e.(type) {
	case *cat.Op1:
		out := *e
		out.X = h.expr(e.X, local)
		return &out
	case *cat.Op:
		out := *e
		out.Args = nil
		args := e.Args
		switch e.Op {
		case cat.OpSeq:
			// A fixed prefix of a sequence is one value; only a prefix:
			// a sequence stops at its first empty prefix, so a later run
			// of fixed operands is not always evaluated.
			k := 0
			for k < len(args) && h.fixed(args[k], local) {
				k++
			}
			if k >= 2 {
				out.Args = append(out.Args, h.lift(&cat.Op{At: e.At, Op: e.Op, Args: args[:k]}))
				args = args[k:]
			}
		case cat.OpUnion:
			// Each run of fixed operands of a union is one value.
			for k := 0; k < len(args); {
				j := k
				for j < len(args) && h.fixed(args[j], local) {
					j++
				}
				switch {
				case j-k >= 2:
					out.Args = append(out.Args, h.lift(&cat.Op{At: args[k].Pos(), Op: e.Op, Args: args[k:j]}))
					k = j
				default:
					out.Args = append(out.Args, h.operand(e, args[k], local))
					k++
				}
			}
			return &out
		}
		for _, a := range args {
			out.Args = append(out.Args, h.operand(e, a, local))
		}
		return &out
	case *cat.App:
		out := *e
		out.Fun = h.expr(e.Fun, local)
		out.Arg = h.expr(e.Arg, local)
		return &out
	case *cat.Bind:
		return rewriteBind(e, local, h.expr)
	case *cat.Try:
		return rewriteTry(e, local, h.expr)
	}
	// Matches, conditionals and explicit sets are left as they are.
	return e
}

// operand lifts the fixed parts of an operand a of the operation e. The
// filters [S] of a sequence and the complement in r & ~s are evaluated
// specially (as herd does): they keep their form, and only what they
// apply to is lifted.
func (h *hoister) operand(e *cat.Op, a cat.Expr, local map[string]int) cat.Expr {
	if u, ok := a.(*cat.Op1); ok {
		if (e.Op == cat.OpSeq && u.Op == cat.OpToID) || (e.Op == cat.OpInter && u.Op == cat.OpComp) {
			out := *u
			out.X = h.expr(u.X, local)
			return &out
		}
	}
	return h.expr(a, local)
}

func copyLocal(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
