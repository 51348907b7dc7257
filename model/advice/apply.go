package advice

import (
	"reflect"

	"github.com/litmus-dev/litmus/litmus"
)

// variant returns a copy of t with edits applied; t is not touched.
func variant(t *litmus.Test, edits []edit) *litmus.Test {
	c := cloneTest(t)
	a := applier{stmts: map[litmus.Pos]edit{}, calls: map[litmus.Pos]edit{}}
	for _, e := range edits {
		if e.stmt != litmus.NoPos {
			a.stmts[e.stmt] = e
		} else {
			a.calls[e.call] = e
		}
	}
	for _, p := range c.Procs {
		if p.Body == nil {
			continue
		}
		p.Body.List = a.list(p.Body.List)
		if len(a.calls) > 0 {
			litmus.Inspect(p.Body, func(n litmus.Node) bool {
				if call, ok := n.(*litmus.CallExpr); ok {
					if e, ok := a.calls[call.Pos()]; ok && call.Fun.Name == callName(e) {
						*call = *copyOf(e.repl)
					}
				}
				return true
			})
		}
	}
	return c
}

// callName is the name of the call edit e replaces, to match it (a
// statement and the call it starts with share a position).
func callName(e edit) string { return nameOf(e.from) }

// copyOf deep-copies a replacement, so that the variant shares no node
// with the edit (or with the test the edit's nodes came from).
func copyOf[T any](v T) T { return deepCopy(reflect.ValueOf(v)).Interface().(T) }

type applier struct {
	stmts map[litmus.Pos]edit
	calls map[litmus.Pos]edit
}

// list applies the statement edits to a statement list.
func (a applier) list(list []litmus.Stmt) []litmus.Stmt {
	out := make([]litmus.Stmt, 0, len(list))
	for _, s := range list {
		if e, ok := a.stmts[s.Pos()]; ok && simple(s) {
			out = append(out, copyOf(e.stmts)...)
			continue
		}
		a.inner(s)
		out = append(out, s)
	}
	return out
}

// one applies them to the body of an if or a loop, which is one
// statement: a replacement by none or several becomes a block.
func (a applier) one(s litmus.Stmt) litmus.Stmt {
	if s == nil {
		return nil
	}
	if e, ok := a.stmts[s.Pos()]; ok && simple(s) {
		if len(e.stmts) == 1 {
			return copyOf(e.stmts[0])
		}
		return &litmus.BlockStmt{Lbrace: s.Pos(), List: copyOf(e.stmts), Rbrace: s.End() - 1}
	}
	a.inner(s)
	return s
}

func (a applier) inner(s litmus.Stmt) {
	switch s := s.(type) {
	case *litmus.BlockStmt:
		s.List = a.list(s.List)
	case *litmus.IfStmt:
		s.Then = a.one(s.Then)
		if s.Else != nil {
			s.Else = a.one(s.Else)
		}
	case *litmus.WhileStmt:
		s.Body = a.one(s.Body)
	case *litmus.DoWhileStmt:
		s.Body = a.one(s.Body)
	case *litmus.ForStmt:
		s.Body = a.one(s.Body)
	}
}
