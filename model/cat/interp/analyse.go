package interp

import (
	"github.com/litmus-dev/litmus/model/cat"
)

// analyse computes what the model's text says once and for all: whether
// it checks SC per location (uniproc), which lets the enumeration skip
// candidates that check would reject.
func (m *Model) analyse() {
	m.uniproc = m.checksUniproc()
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
