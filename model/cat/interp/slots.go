package interp

import "github.com/litmus-dev/litmus/model/cat"

// nameInfo is what the program text says of a name read or bound at the
// top level: the instructions that bind it, each with its slot, and its
// base slot, for the binding made before the program runs.
type nameInfo struct {
	defs []globalDef // in program order
	base int
}

// globalDef is one binding of a name by a top-level instruction.
type globalDef struct{ at, slot int }

// assignSlots gives each name each top-level instruction binds a slot
// (flatStmt.slots, in the order of the names of its patterns), each name
// the model may read at the top level a base slot, and lists the
// instructions a candidate runs (m.perCand): all but the fixed lets,
// procedures and enums, which the prepass runs once per execution, and
// the instructions that only display.
func (m *Model) assignSlots() {
	m.names = map[string]*nameInfo{}
	defer func() {
		m.fixedSlot = make([]bool, m.nSlots)
		for _, s := range m.fixedSlots {
			m.fixedSlot[s] = true
		}
	}()
	info := func(n string) *nameInfo {
		in := m.names[n]
		if in == nil {
			in = &nameInfo{base: m.nBase}
			m.nBase++
			m.names[n] = in
		}
		return in
	}
	def := func(at int, n string) int {
		if n == "" {
			return -1
		}
		in := info(n)
		in.defs = append(in.defs, globalDef{at: at, slot: m.nSlots})
		m.nSlots++
		return m.nSlots - 1
	}
	// The base names a model may read: those its top-level instructions
	// use, and those the explanation of a failure looks up.
	for _, n := range []string{"rf", "co", "fr"} {
		info(n)
	}
	for i := range m.prog {
		fs := &m.prog[i]
		var free []string
		switch s := fs.s.(type) {
		case *cat.Let:
			for _, b := range s.Bindings {
				free = append(free, m.freeVars(b.X)...)
			}
			if s.When != nil {
				free = append(free, m.freeVars(s.When.X)...)
			}
			for _, b := range s.Bindings {
				for _, n := range b.Pat.Names {
					fs.slots = append(fs.slots, def(i, n))
				}
			}
		case *cat.Procedure:
			free = m.procFree(s)
			fs.slots = []int{def(i, s.Name)}
		case *cat.Enum:
			fs.slots = []int{def(i, s.Name)}
		case *cat.WithFrom:
			free = m.freeVars(s.X)
			fs.slots = []int{def(i, s.Var)}
		default:
			free = m.stmtsFree([]cat.Stmt{s}, nil)
		}
		for _, n := range free {
			info(n)
		}
		switch fs.s.(type) {
		case *cat.Let, *cat.Procedure, *cat.Enum:
			if fs.fixed {
				for _, s := range fs.slots {
					if s >= 0 {
						m.fixedSlots = append(m.fixedSlots, s)
					}
				}
				continue
			}
		case *cat.Show, *cat.ShowAs, *cat.Debug, *cat.Events, *cat.Include:
			continue
		}
		m.perCand = append(m.perCand, i)
	}
}
