package interp

import (
	"github.com/litmus-dev/litmus/model/cat"
)

// thunk is a binding's value, computed when first needed (herd binds
// lazily: a definition that would fail is harmless until used).
type thunk struct {
	v     Value
	err   *evalError
	state uint8 // 0 not computed, 1 being computed, 2 done
	expr  cat.Expr
	env   *scope
	file  *loadedFile
}

func valueThunk(v Value) *thunk { return &thunk{v: v, state: 2} }

// scope is a frame of bindings over a parent scope. The root of a
// top-level evaluation is the global table; the scope of a closure body
// or a lazy binding holds only what it captured (its free variables).
type scope struct {
	names  []string
	vals   []*thunk
	parent *scope
	global *globals
}

func (s *scope) lookup(name string) *thunk {
	for ; s != nil; s = s.parent {
		for i := len(s.names) - 1; i >= 0; i-- {
			if s.names[i] == name {
				return s.vals[i]
			}
		}
		if s.global != nil {
			return s.global.lookup(name)
		}
	}
	return nil
}

// bind returns a scope extending s with one binding.
func (s *scope) bind(name string, th *thunk) *scope {
	return &scope{names: []string{name}, vals: []*thunk{th}, parent: s}
}

// globals is the top-level environment: a stack of bindings per name
// with an undo log, so that the depth-first evaluation of "with"
// branches can drop what a branch bound.
type globals struct {
	m   map[string][]*thunk
	log []string
}

func newGlobals() *globals { return &globals{m: map[string][]*thunk{}} }

func (g *globals) lookup(name string) *thunk {
	st := g.m[name]
	if len(st) == 0 {
		return nil
	}
	return st[len(st)-1]
}

func (g *globals) bind(name string, th *thunk) {
	g.m[name] = append(g.m[name], th)
	g.log = append(g.log, name)
}

func (g *globals) mark() int { return len(g.log) }

// undo drops the bindings made since mark m.
func (g *globals) undo(m int) {
	for i := len(g.log) - 1; i >= m; i-- {
		name := g.log[i]
		st := g.m[name]
		g.m[name] = st[:len(st)-1]
	}
	g.log = g.log[:m]
}

// capture returns a scope holding the current bindings of names (those
// not bound are left out: using them fails later, as in herd).
func capture(from *scope, names []string) *scope {
	s := &scope{names: make([]string, 0, len(names)), vals: make([]*thunk, 0, len(names))}
	for _, n := range names {
		if th := from.lookup(n); th != nil {
			s.names = append(s.names, n)
			s.vals = append(s.vals, th)
		}
	}
	return s
}
