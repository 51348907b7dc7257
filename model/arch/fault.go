package arch

import (
	"sync"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// This file keeps the accesses whose address designates no location: a
// NULL pointer, an integer, an address that left its object or landed
// between its cells. herd drops a path that makes one (the access has no
// location, the candidate disappears), and so does a walk here; but for
// a C test with objects (a code test) such an access is a finding, as
// the LKMM reports it (model/lkmm/fault.go). Every walk notes that it
// met one (SawFault); a program built with Options.FaultEnds ends such a
// path at the access instead, with register FaultReg holding the site's
// number, so that the model says whether an execution it allows makes
// the access. Native assembly tests are never built with FaultEnds:
// they keep herd7's meaning.

// FaultReg is the register a path ends with at a fault, under
// Options.FaultEnds: 1 + the site's index in FaultSites. No assembly
// register has this name (canon gives it no register, and RegName leaves
// it as written).
const FaultReg = "__fault"

// FaultSite is one access that designated no location: the thread, the
// instruction's place in the test checked, and the address.
type FaultSite struct {
	Thread int
	Pos    litmus.Pos
	Addr   axiom.Val
}

// faultLog is a program's record of its faults. Checks of one program
// may run in parallel, so it is locked.
type faultLog struct {
	mu    sync.Mutex
	saw   bool
	sites []FaultSite
}

// fault handles an access at address a, which designates no location.
func (m *machine) fault(a axiom.Val) {
	p := m.th.p
	if m.partial {
		// A partial walk's values may be ones no execution gives
		// (axiom.Thread): the full walks decide.
		m.dead = true
		return
	}
	p.faults.mu.Lock()
	defer p.faults.mu.Unlock()
	p.faults.saw = true
	if !p.opt.FaultEnds {
		m.dead = true
		return
	}
	s := FaultSite{Thread: m.th.ID(), Pos: m.in.Pos(), Addr: a}
	id := -1
	for i, t := range p.faults.sites {
		if t == s {
			id = i
		}
	}
	if id < 0 {
		id = len(p.faults.sites)
		p.faults.sites = append(p.faults.sites, s)
	}
	m.set(FaultReg, reg{v: axiom.Int(int64(id + 1))})
	m.halted = true
}

// SawFault reports whether a complete walk of a thread of ap, a program
// of Program, met an access whose address designates no location.
func SawFault(ap *axiom.Program) bool {
	if p := archProgram(ap); p != nil {
		p.faults.mu.Lock()
		defer p.faults.mu.Unlock()
		return p.faults.saw
	}
	return false
}

// FaultSites returns the faults the walks of ap, a program of Program
// with Options.FaultEnds, ended paths at: site i is the one FaultReg
// numbers i+1.
func FaultSites(ap *axiom.Program) []FaultSite {
	if p := archProgram(ap); p != nil {
		p.faults.mu.Lock()
		defer p.faults.mu.Unlock()
		return append([]FaultSite(nil), p.faults.sites...)
	}
	return nil
}

// archProgram returns the program behind ap's threads, or nil.
func archProgram(ap *axiom.Program) *program {
	for _, th := range ap.Threads {
		if t, ok := th.(*thread); ok {
			return t.p
		}
	}
	return nil
}
