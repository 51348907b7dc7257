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
	// vocab and vslots are the tags of the last program bound and
	// their base slots (see vocabSlots).
	vocab  []string
	vslots []int
}

// vocabSlots returns the base slot of each tag of vocab (-1 for a tag the
// model never reads), resolved again only when the vocabulary differs
// from the last one's: the programs of one front end share theirs.
func (g *globals) vocabSlots(vocab []string) []int {
	if !slices.Equal(vocab, g.vocab) || len(g.vslots) != len(vocab) {
		g.vocab = append(g.vocab[:0], vocab...)
		g.vslots = g.vslots[:0]
		for _, n := range vocab {
			g.vslots = append(g.vslots, g.m.baseSlot(n))
		}
	}
	return g.vslots
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
		g.bindSlot(info.base, th)
	}
}

// bindSlot binds base slot b (one the model reads; -1 for none).
func (g *globals) bindSlot(b int, th *thunk) {
	if b < 0 {
		return
	}
	g.base[b] = th
	if th != nil && g.m.candBase[b] {
		th.gid = -int32(b) - 1
	}
}

// baseSlot is the base slot of name, -1 when the model never reads it.
func (m *Model) baseSlot(name string) int {
	if info := m.names[name]; info != nil {
		return info.base
	}
	return -1
}

// primSlot is a primitive the model reads and its base slot.
type primSlot struct {
	slot int
	v    *primV
}

// baseSlots resolves, once per model, the names bindBase binds for every
// execution whatever its program: the primitives, the annotations' sets
// and which base slots are candidate names.
func (m *Model) baseSlots() {
	m.primSlots = m.primSlots[:0]
	for name, p := range primValues {
		if b := m.baseSlot(name); b >= 0 {
			m.primSlots = append(m.primSlots, primSlot{b, p})
		}
	}
	// A fixed order: the base slots are distinct, so any order binds
	// the same, but a fixed one keeps the runs alike.
	slices.SortFunc(m.primSlots, func(a, b primSlot) int { return a.slot - b.slot })
	m.annotSlots = m.annotSlots[:0]
	for _, a := range m.annots {
		m.annotSlots = append(m.annotSlots, m.baseSlot(setName(a)))
	}
	// The top-level enums' sets, the same for every execution (no
	// operation changes a set in place).
	m.enumSets = map[*cat.Enum]valSetV{}
	for i := range m.prog {
		if e, ok := m.prog[i].s.(*cat.Enum); ok {
			m.enumSets[e] = enumValue(e)
		}
	}
	m.rfBase, m.fwBase = m.baseSlot("rf"), m.baseSlot("FW")
	m.candBase = make([]bool, m.nBase)
	for _, n := range candidateNames {
		if b := m.baseSlot(n); b >= 0 {
			m.candBase[b] = true
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
