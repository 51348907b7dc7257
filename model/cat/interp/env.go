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

// lazyLet is a thunk of a top-level binding with the global scope it is
// evaluated in, allocated together.
type lazyLet struct {
	th thunk
	sc scope
}

// lazyGlobal returns a thunk that evaluates e when first forced, in the
// global scope as it is now: later bindings of the names e uses do not
// change its value. herd binds the names of a let lazily too, so that a
// definition no check needs is never computed.
func lazyGlobal(g *globals, e cat.Expr, file *loadedFile) *thunk {
	l := &lazyLet{sc: scope{global: g, pinned: true, asOf: g.mark()}}
	l.th = thunk{expr: e, env: &l.sc, file: file}
	return &l.th
}

// scope is a frame of bindings over a parent scope. The root of a
// top-level evaluation is the global table; the scope of a closure body
// or a lazy binding holds only what it captured (its free variables).
type scope struct {
	names  []string
	vals   []*thunk
	parent *scope
	global *globals
	// pinned makes a global scope see only the global bindings made
	// before the mark asOf (see lazyGlobal).
	pinned bool
	asOf   int
}

func (s *scope) lookup(name string) *thunk {
	for ; s != nil; s = s.parent {
		for i := len(s.names) - 1; i >= 0; i-- {
			if s.names[i] == name {
				return s.vals[i]
			}
		}
		if s.global != nil {
			if s.pinned {
				return s.global.lookupBefore(name, s.asOf)
			}
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
	m   map[string][]globalEntry
	log []string
}

// globalEntry is one binding of a name: its thunk and its position in
// the log.
type globalEntry struct {
	th *thunk
	at int
}

func newGlobals() *globals { return &globals{m: map[string][]globalEntry{}} }

func (g *globals) lookup(name string) *thunk {
	st := g.m[name]
	if len(st) == 0 {
		return nil
	}
	return st[len(st)-1].th
}

// lookupBefore returns the binding of name that was current at mark m:
// the last one made before it.
func (g *globals) lookupBefore(name string, m int) *thunk {
	st := g.m[name]
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].at < m {
			return st[i].th
		}
	}
	return nil
}

func (g *globals) bind(name string, th *thunk) {
	g.m[name] = append(g.m[name], globalEntry{th, len(g.log)})
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
