package interp

import (
	"sort"

	"github.com/litmus-dev/litmus/model/cat"
)

// freeVars returns the free variables of e, sorted, computed once per
// node. Closures and lazy bindings capture exactly these.
func (m *Model) freeVars(e cat.Expr) []string {
	if fv, ok := m.fv.Load(e); ok {
		return fv.([]string)
	}
	set := map[string]bool{}
	m.collectFree(e, map[string]int{}, set)
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	m.fv.Store(e, out)
	return out
}

// collectFree adds to out the names of e not bound in bound.
func (m *Model) collectFree(e cat.Expr, bound map[string]int, out map[string]bool) {
	with := func(names []string, f func()) {
		for _, n := range names {
			if n != "" {
				bound[n]++
			}
		}
		f()
		for _, n := range names {
			if n != "" {
				bound[n]--
			}
		}
	}
	switch e := e.(type) {
	case *cat.Var:
		if bound[e.Name] == 0 {
			out[e.Name] = true
		}
	case *cat.Op1:
		m.collectFree(e.X, bound, out)
	case *cat.Op:
		for _, a := range e.Args {
			m.collectFree(a, bound, out)
		}
	case *cat.App:
		m.collectFree(e.Fun, bound, out)
		m.collectFree(e.Arg, bound, out)
	case *cat.ExplicitSet:
		for _, a := range e.Elems {
			m.collectFree(a, bound, out)
		}
	case *cat.Fun:
		with(e.Params.Names, func() { m.collectFree(e.Body, bound, out) })
	case *cat.Bind:
		var names []string
		for _, b := range e.Bindings {
			names = append(names, b.Pat.Names...)
		}
		if e.Rec {
			with(names, func() {
				for _, b := range e.Bindings {
					m.collectFree(b.X, bound, out)
				}
				m.collectFree(e.Body, bound, out)
			})
		} else {
			for _, b := range e.Bindings {
				m.collectFree(b.X, bound, out)
			}
			with(names, func() { m.collectFree(e.Body, bound, out) })
		}
	case *cat.Match:
		m.collectFree(e.X, bound, out)
		for _, c := range e.Clauses {
			m.collectFree(c.Body, bound, out)
		}
		if e.Default != nil {
			m.collectFree(e.Default, bound, out)
		}
	case *cat.MatchSet:
		m.collectFree(e.X, bound, out)
		m.collectFree(e.Empty, bound, out)
		with([]string{e.Elt, e.Rest, e.Pre}, func() { m.collectFree(e.NonEmpty, bound, out) })
	case *cat.Try:
		m.collectFree(e.X, bound, out)
		m.collectFree(e.Default, bound, out)
	case *cat.If:
		switch c := e.Cond.(type) {
		case *cat.EqCond:
			m.collectFree(c.X, bound, out)
			m.collectFree(c.Y, bound, out)
		case *cat.SubsetCond:
			m.collectFree(c.X, bound, out)
			m.collectFree(c.Y, bound, out)
		case *cat.InCond:
			m.collectFree(c.X, bound, out)
			m.collectFree(c.Y, bound, out)
		}
		m.collectFree(e.Then, bound, out)
		m.collectFree(e.Else, bound, out)
	}
}

// stmtsFree returns the free variables of a list of instructions (a
// procedure body), in order of first use, for the procedure's capture.
func (m *Model) stmtsFree(body []cat.Stmt, params []string) []string {
	set := map[string]bool{}
	bound := map[string]int{}
	for _, p := range params {
		if p != "" {
			bound[p]++
		}
	}
	var walk func([]cat.Stmt)
	walk = func(list []cat.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *cat.Let:
				if s.Rec {
					for _, b := range s.Bindings {
						for _, n := range b.Pat.Names {
							bound[n]++
						}
					}
				}
				for _, b := range s.Bindings {
					m.collectFree(b.X, bound, set)
				}
				if s.When != nil {
					m.collectFree(s.When.X, bound, set)
				}
				for _, b := range s.Bindings {
					for _, n := range b.Pat.Names {
						if !s.Rec && n != "" {
							bound[n]++
						}
					}
				}
			case *cat.Test:
				m.collectFree(s.X, bound, set)
			case *cat.Call:
				if bound[s.Name] == 0 {
					set[s.Name] = true
				}
				m.collectFree(s.Arg, bound, set)
			case *cat.Forall:
				m.collectFree(s.Set, bound, set)
				bound[s.Var]++
				walk(s.Body)
				bound[s.Var]--
			case *cat.MatchStmt:
				m.collectFree(s.X, bound, set)
				for _, c := range s.Clauses {
					walk(c.Body)
				}
				walk(s.Default)
			case *cat.IfVariant:
				walk(s.Then)
				walk(s.Else)
			case *cat.WithFrom:
				m.collectFree(s.X, bound, set)
				bound[s.Var]++
			case *cat.ShowAs, *cat.Show, *cat.Debug:
			}
		}
	}
	walk(body)
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
