package litmus

import "fmt"

// This file resolves the names a C thread uses as locations, the way
// go/parser resolves identifiers: syntax alone says whether a name is
// declared where it is used.
//
// herd7 reads an undeclared name as a register holding 0, so a misspelt
// location ("*flga" for "*flag") makes every execution dereference 0:
// they are all dropped, no final state is reachable and an "exists" test
// reads Never. That is a pass that checked nothing; a misspelling must be
// an error instead.

// ResolveNames reports each name that a C thread uses as a location (it
// dereferences it, indexes it, takes its address, or passes it to a
// primitive where a pointer or an lvalue goes) when the name is none of:
// a parameter of the thread, a shared location of the init section
// (declared there or used there as an address), or a register of the
// thread declared or assigned earlier in its code (or set in the init
// section). Each such name is reported once per thread, at its first use,
// with a suggestion when a declared name is close. Tests in other
// dialects have no such names; the result is nil for them.
func ResolveNames(t *Test) ErrorList {
	if t == nil || t.Arch != ArchC {
		return nil
	}
	shared := map[string]bool{}
	var sharedOrder []string
	addShared := func(n string) {
		if !shared[n] {
			shared[n] = true
			sharedOrder = append(sharedOrder, n)
		}
	}
	initRegs := map[int][]string{}
	for _, it := range t.Init {
		if it.Proc >= 0 {
			initRegs[it.Proc] = append(initRegs[it.Proc], it.Name)
			continue
		}
		addShared(it.Name)
	}
	for _, it := range t.Init {
		if it.Value == nil {
			continue
		}
		Inspect(it.Value, func(n Node) bool {
			if id, ok := n.(*Ident); ok {
				addShared(id.Name)
			}
			if c, ok := n.(*CallExpr); ok {
				for _, a := range c.Args {
					Inspect(a, func(n Node) bool {
						if id, ok := n.(*Ident); ok {
							addShared(id.Name)
						}
						return true
					})
				}
				return false // not the called function's name
			}
			return true
		})
	}
	var errs ErrorList
	for _, pr := range t.Procs {
		if pr.Body == nil {
			continue
		}
		r := &resolver{t: t, proc: pr, shared: shared, sharedOrder: sharedOrder, known: map[string]bool{}, reported: map[string]bool{}, errs: &errs}
		for _, prm := range pr.Params {
			r.declare(prm.Name.Name)
		}
		for _, n := range initRegs[pr.ID] {
			r.declare(n)
		}
		r.stmt(pr.Body)
	}
	errs.Sort()
	if len(errs) > maxErrors {
		errs = errs[:maxErrors]
	}
	return errs
}

// resolver walks one thread's code in source order.
type resolver struct {
	t           *Test
	proc        *Proc
	shared      map[string]bool
	sharedOrder []string
	known       map[string]bool // parameters and registers so far
	order       []string        // known, in declaration order
	reported    map[string]bool
	errs        *ErrorList
}

func (r *resolver) declare(name string) {
	if !r.known[name] {
		r.known[name] = true
		r.order = append(r.order, name)
	}
}

func (r *resolver) stmt(s Stmt) {
	switch s := s.(type) {
	case *BlockStmt:
		if s == nil {
			return
		}
		for _, x := range s.List {
			r.stmt(x)
		}
	case *DeclStmt:
		r.expr(s.Init)
		r.declare(s.Name.Name)
	case *AssignStmt:
		r.expr(s.RHS)
		if id, ok := Unparen(s.LHS).(*Ident); ok {
			r.declare(id.Name)
		} else {
			r.expr(s.LHS)
		}
	case *ExprStmt:
		r.expr(s.X)
	case *IfStmt:
		r.expr(s.Cond)
		r.stmt(s.Then)
		if s.Else != nil {
			r.stmt(s.Else)
		}
	case *WhileStmt:
		r.expr(s.Cond)
		r.stmt(s.Body)
	case *DoWhileStmt:
		r.stmt(s.Body)
		r.expr(s.Cond)
	case *ForStmt:
		if s.Init != nil {
			r.stmt(s.Init)
		}
		r.expr(s.Cond)
		if s.Post != nil {
			r.stmt(s.Post)
		}
		r.stmt(s.Body)
	}
}

// expr checks the location uses within e.
func (r *resolver) expr(e Expr) {
	if e == nil {
		return
	}
	Inspect(e, func(n Node) bool {
		switch n := n.(type) {
		case *UnaryExpr:
			if n.Op == "*" || n.Op == "&" {
				r.location(n.X)
			}
		case *IndexExpr:
			r.location(n.X)
		case *OffsetExpr:
			r.location(n.Ptr)
		case *CallExpr:
			if prim, ok := Lookup(n.Fun.Name); ok && len(n.Args) == len(prim.Args) {
				for i, a := range prim.Args {
					if a == ArgPtr || a == ArgLval {
						r.location(n.Args[i])
					}
				}
			}
		}
		return true
	})
}

// location checks an expression used as a location: when it is a bare
// name, the name must be declared.
func (r *resolver) location(e Expr) {
	id, ok := Unparen(e).(*Ident)
	if !ok || r.known[id.Name] || r.shared[id.Name] || r.reported[id.Name] {
		return
	}
	r.reported[id.Name] = true
	msg := fmt.Sprintf("undeclared location %s (not a parameter of P%d, not in the init section, not a register set earlier)", id.Name, r.proc.ID)
	if s := r.suggest(id.Name); s != "" {
		msg += "; did you mean " + s + "?"
	}
	r.errs.Add(r.t.File.Position(id.Pos()), msg)
}

// suggest returns the declared name closest to name, preferring the
// thread's parameters and registers, or "" when none is close.
func (r *resolver) suggest(name string) string {
	return Suggest(name, append(append([]string(nil), r.order...), r.sharedOrder...))
}

// Unparen strips parentheses and casts: the models have one kind of
// value, so (int **)r is r.
func Unparen(e Expr) Expr {
	for {
		switch p := e.(type) {
		case *ParenExpr:
			e = p.X
		case *CastExpr:
			e = p.X
		default:
			return e
		}
	}
}
