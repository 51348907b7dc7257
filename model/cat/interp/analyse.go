package interp

import (
	"github.com/litmus-dev/litmus/model/cat"
)

// analyse computes what the model's text says once and for all: whether
// it checks SC per location (uniproc), which lets the enumeration skip
// candidates that check would reject.
func (m *Model) analyse() {
	m.uniproc = m.checksUniproc()
	m.markFixed()
}

// candidateNames are the names whose value differs between the
// candidates of one execution; everything else a model starts from is
// fixed by the execution's events.
var candidateNames = []string{"rf", "FW",
	// Its value depends on the values events read and write, which
	// differ between executions of the same structure.
	"different-values"}

// markFixed marks the top-level lets and checks whose value depends on no
// candidate choice (rf, the final writes, a "with" choice), directly or
// through the names they use: those are computed once per execution.
func (m *Model) markFixed() {
	dyn := map[string]bool{}
	for _, n := range candidateNames {
		dyn[n] = true
	}
	anyDyn := func(names []string) bool {
		for _, n := range names {
			if dyn[n] {
				return true
			}
		}
		return false
	}
	for i := range m.prog {
		fs := &m.prog[i]
		switch s := fs.s.(type) {
		case *cat.Let:
			var fv []string
			bound := map[string]bool{}
			for _, b := range s.Bindings {
				fv = append(fv, m.freeVars(b.X)...)
				for _, n := range b.Pat.Names {
					bound[n] = true
				}
			}
			if s.When != nil {
				fv = append(fv, m.freeVars(s.When.X)...)
			}
			d := false
			for _, n := range fv {
				if dyn[n] && !(s.Rec && bound[n]) {
					d = true
				}
			}
			fs.fixed = !d && s.When == nil
			for n := range bound {
				dyn[n] = d
			}
		case *cat.Test:
			fs.fixed = !anyDyn(m.freeVars(s.X))
		case *cat.WithFrom:
			dyn[s.Var] = true
		case *cat.Procedure:
			dyn[s.Name] = anyDyn(m.procFree(s))
		case *cat.MatchStmt:
			// Its clauses may bind anything: take all as candidate-dependent.
			for _, c := range s.Clauses {
				markBound(c.Body, dyn)
			}
			markBound(s.Default, dyn)
		}
	}
}

// markBound marks as candidate-dependent every name a list of
// instructions binds.
func markBound(list []cat.Stmt, dyn map[string]bool) {
	for _, st := range list {
		switch st := st.(type) {
		case *cat.Let:
			for _, b := range st.Bindings {
				for _, n := range b.Pat.Names {
					dyn[n] = true
				}
			}
		case *cat.Procedure:
			dyn[st.Name] = true
		case *cat.MatchStmt:
			for _, c := range st.Clauses {
				markBound(c.Body, dyn)
			}
			markBound(st.Default, dyn)
		}
	}
}

// checksUniproc reports whether the model rejects every execution whose
// po-loc | rf | co | fr has a cycle: some unconditional check "acyclic E"
// whose union members, expanding names defined as unions, include po-loc
// (or po), rf, co and fr. herd's own co generation (cos-opt.cat) makes
// the same assumption of every model it is used with.
func (m *Model) checksUniproc() bool {
	defs := map[string]cat.Expr{}
	for _, fs := range m.prog {
		switch s := fs.s.(type) {
		case *cat.Let:
			for _, b := range s.Bindings {
				if len(b.Pat.Names) == 1 && !s.Rec {
					defs[b.Pat.Names[0]] = b.X
				}
			}
		case *cat.Test:
			if s.Kind != cat.Check || s.Not || s.Op != cat.Acyclic {
				continue
			}
			leaves := map[string]bool{}
			unionLeaves(s.X, defs, leaves, 0)
			if (leaves["po-loc"] || leaves["po"]) && leaves["rf"] && leaves["co"] && leaves["fr"] {
				return true
			}
		}
	}
	return false
}

// unionLeaves collects the names e is a union of, expanding names whose
// definition (at that point of the model) is itself a union or a name.
func unionLeaves(e cat.Expr, defs map[string]cat.Expr, out map[string]bool, depth int) {
	if depth > 50 {
		return
	}
	switch e := e.(type) {
	case *cat.Op:
		if e.Op == cat.OpUnion {
			for _, a := range e.Args {
				unionLeaves(a, defs, out, depth+1)
			}
		}
	case *cat.Var:
		out[e.Name] = true
		if d, ok := defs[e.Name]; ok {
			switch d := d.(type) {
			case *cat.Op:
				if d.Op == cat.OpUnion {
					unionLeaves(d, defs, out, depth+1)
				}
			case *cat.Var:
				if d.Name != e.Name {
					unionLeaves(d, defs, out, depth+1)
				}
			}
		}
	}
}
