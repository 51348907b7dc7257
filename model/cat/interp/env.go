package interp

import (
	"slices"

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
	// gid names the candidate-dependent top-level binding the thunk is
	// (slot+1, or -(base slot+1) for rf, FW...), 0 for any other; memo
	// is the memo table of a lazy top-level let's thunk (slot+1), 0 for
	// none (see memo.go).
	gid, memo int32
}

func valueThunk(v Value) *thunk { return &thunk{v: v, state: 2} }

// scope is a frame of bindings over a parent scope. The root of a
// top-level evaluation is the global table as one instruction sees it;
// the scope of a closure body or a lazy local binding holds only what it
// captured (its free variables).
type scope struct {
	names  []string
	vals   []*thunk
	parent *scope
	// global, in the root scope of top-level instruction at, is the
	// table of top-level bindings.
	global *globals
	at     int
	// Room for the first bindings of a scope from the evaluator's
	// chunks (see evaluator.newScope).
	nb [3]string
	vb [3]*thunk
}

func (s *scope) lookup(name string) *thunk {
	for ; s != nil; s = s.parent {
		for i := len(s.names) - 1; i >= 0; i-- {
			if s.names[i] == name {
				return s.vals[i]
			}
		}
		if s.global != nil {
			return s.global.lookup(name, s.at)
		}
	}
	return nil
}

// bind returns a scope extending s with one binding.
func (s *scope) bind(name string, th *thunk) *scope {
	return &scope{names: []string{name}, vals: []*thunk{th}, parent: s}
}

// globals holds the top-level bindings of one search. Which binding a
// name refers to at each instruction is known from the program text
// (Model.assignSlots): each binding of a name by a top-level instruction
// has a slot of its own, written when the instruction runs, and the names
// an execution or candidate binds (po, rf, the tags...) have a base slot.
// Running an instruction again, for another candidate or another choice
// of a "with", writes its slots again; nothing is undone.
type globals struct {
	m     *Model
	slots []*thunk
	base  []*thunk
}

func newGlobals(m *Model) *globals {
	return &globals{m: m, slots: make([]*thunk, m.nSlots), base: make([]*thunk, m.nBase)}
}

// lookup returns the binding of name that instruction at sees: the last
// one made by an instruction before it, else the base one; nil if none.
func (g *globals) lookup(name string, at int) *thunk {
	info := g.m.names[name]
	if info == nil {
		return nil
	}
	for k := len(info.defs) - 1; k >= 0; k-- {
		if info.defs[k].at < at {
			return g.slots[info.defs[k].slot]
		}
	}
	return g.base[info.base]
}

// bindBase binds a name of the execution or candidate. A name the model
// never reads has no slot and is left out.
func (g *globals) bindBase(name string, th *thunk) {
	if info := g.m.names[name]; info != nil {
		g.base[info.base] = th
		if th != nil && slices.Contains(candidateNames, name) {
			th.gid = -int32(info.base) - 1
		}
	}
}

// set writes a slot; -1 stands for a name written _.
func (g *globals) set(slot int, th *thunk) {
	if slot >= 0 {
		g.slots[slot] = th
		if th != nil && !g.m.fixedSlot[slot] {
			th.gid = int32(slot) + 1
		}
	}
}

// capture returns a scope holding the current bindings of names (those
// not bound are left out: using them fails later, as in herd).
func (ev *evaluator) capture(from *scope, names []string) *scope {
	s := ev.newScopeCap(nil, len(names))
	for _, n := range names {
		if th := from.lookup(n); th != nil {
			s.names = append(s.names, n)
			s.vals = append(s.vals, th)
		}
	}
	return s
}
