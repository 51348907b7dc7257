package interp

import "github.com/litmus-dev/litmus/model/cat"

// globalVar is a name of a top-level expression that refers to a
// top-level binding: which one is known from the program text (see
// assignSlots), so that evaluating it reads a slot instead of searching
// the scopes by name. It embeds the cat.Var it replaces, whose position
// and name it keeps.
type globalVar struct {
	cat.Var
	slot int
	base bool // slot is a base slot
}

// resolveGlobals replaces, in the expressions of the top-level lets,
// checks and withs, each name that no local binding hides by its
// globalVar. Function bodies are left alone: a closure reads the values
// it captured when it was made.
func (m *Model) resolveGlobals() {
	for i := range m.prog {
		fs := &m.prog[i]
		r := &resolver{m: m, at: i}
		switch s := fs.s.(type) {
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
			for k, b := range s.Bindings {
				nb := *b
				nb.X = r.expr(b.X, local)
				out.Bindings[k] = &nb
			}
			if s.When != nil {
				w := *s.When
				w.X = r.expr(s.When.X, local)
				out.When = &w
			}
			fs.s = &out
		case *cat.Test:
			out := *s
			out.X = r.expr(s.X, map[string]int{})
			fs.s = &out
		case *cat.WithFrom:
			out := *s
			out.X = r.expr(s.X, map[string]int{})
			fs.s = &out
		}
	}
}

// resolver rewrites the expressions of top-level instruction at.
type resolver struct {
	m  *Model
	at int
}

func (r *resolver) expr(e cat.Expr, local map[string]int) cat.Expr {
	switch e := e.(type) {
	case *cat.Var:
		if local[e.Name] > 0 {
			return e
		}
		info := r.m.names[e.Name]
		if info == nil {
			return e
		}
		for k := len(info.defs) - 1; k >= 0; k-- {
			if info.defs[k].at < r.at {
				return &globalVar{Var: *e, slot: info.defs[k].slot}
			}
		}
		return &globalVar{Var: *e, slot: info.base, base: true}
	case *cat.Op1:
		out := *e
		out.X = r.expr(e.X, local)
		return &out
	case *cat.Op:
		out := *e
		out.Args = make([]cat.Expr, len(e.Args))
		for k, a := range e.Args {
			out.Args[k] = r.expr(a, local)
		}
		return &out
	case *cat.App:
		out := *e
		out.Fun = r.expr(e.Fun, local)
		out.Arg = r.expr(e.Arg, local)
		return &out
	case *cat.Bind:
		return rewriteBind(e, local, r.expr)
	case *cat.Try:
		return rewriteTry(e, local, r.expr)
	case *cat.ExplicitSet:
		out := *e
		out.Elems = make([]cat.Expr, len(e.Elems))
		for k, a := range e.Elems {
			out.Elems[k] = r.expr(a, local)
		}
		return &out
	}
	// Functions keep their names (see resolveGlobals); matches and
	// conditionals, rare in the per-candidate part, are left as they
	// are.
	return e
}

// rewriteBind returns a copy of "let ... in body" with each bound
// expression and the body rewritten by f, which sees the names the let
// binds as local where they are in scope: in the body, and in the bound
// expressions too for a let rec. (The rewriters of this package, which
// resolve names and hoist fixed parts, share it.)
func rewriteBind(e *cat.Bind, local map[string]int, f func(cat.Expr, map[string]int) cat.Expr) *cat.Bind {
	out := *e
	inner := copyLocal(local)
	for _, b := range e.Bindings {
		for _, n := range b.Pat.Names {
			inner[n]++
		}
	}
	bindLocal := local
	if e.Rec {
		bindLocal = inner
	}
	out.Bindings = make([]*cat.Binding, len(e.Bindings))
	for k, b := range e.Bindings {
		nb := *b
		nb.X = f(b.X, bindLocal)
		out.Bindings[k] = &nb
	}
	out.Body = f(e.Body, inner)
	return &out
}

// rewriteTry returns a copy of "try X with Default" rewritten by f.
func rewriteTry(e *cat.Try, local map[string]int, f func(cat.Expr, map[string]int) cat.Expr) *cat.Try {
	out := *e
	out.X = f(e.X, local)
	out.Default = f(e.Default, local)
	return &out
}
