package lkmm

import (
	"math/bits"
	"slices"
)

// execution is one candidate execution: the events of one trace per
// thread, the initial writes, and a choice of rf and co.
type execution struct {
	n      int
	ev     []*event // initial writes first (event i writes location i), then the threads
	nLoc   int
	thread []int            // thread of each event, -1 for initial writes
	regs   []map[string]Val // final registers of each thread's trace
	rmwOf  []int            // for the write of an RMW (or LKW), its read; else -1

	// Base relations, fixed by the traces.
	po, int_, loc Rel
	ext           Rel
	rmw           Rel // the rmw of RMW primitives and spin_lock/trylock (lk-rmw)
	addr, data    Rel
	ctrl          Rel

	// Event classes.
	IW, R, W, M Set
	tagSets     [tagBits]Set
	fenceSets   [len(fenceText)]Set
	syncSrcu    Set

	// The candidate's choices.
	rf, co Rel

	finalLoc []bool // locations the final section observes (for lock-final)

	fix *fixedRels // the model's relations that do not depend on rf or co
	// plain has the model computed as the cat files say, without the
	// shortcuts of rcu.go (Options.plainModel).
	plain bool
	run   catRun // the model's evaluation of the current candidate (cat.go)

	al      *arena    // words of every relation of this execution
	mark    arenaMark // the arena past the base relations
	rfMark  arenaMark // the arena past the candidate's rf
	fixMark arenaMark // the arena past the fixed relations
}

// initWrites makes the initial write of each location, once.
func (p *program) initWrites() {
	if p.iw == nil {
		p.iw = make([]event, len(p.names))
		for i := range p.iw {
			p.iw[i] = event{thread: -1, kind: evW, tags: tIW, loc: i, val: p.init[i], rmwR: -1, prim: "init"}
		}
	}
}

// newExecution builds the events and base relations of one combination of
// thread traces. Dependencies recorded as thread-local read indices become
// relations between global event numbers.
//
// When reuse is not nil its slices are recycled: the search builds one
// execution per combination of traces and keeps none.
func newExecution(p *program, traces []*trace, al *arena, reuse *execution) *execution {
	nLoc := len(p.names)
	n := nLoc
	for _, t := range traces {
		n += len(t.events)
	}
	p.initWrites()
	x := reuse
	if x == nil {
		x = &execution{}
	}
	*x = execution{n: n, nLoc: nLoc, ev: x.ev[:0], thread: x.thread[:0], regs: x.regs[:0], rmwOf: x.rmwOf[:0]}
	for i := 0; i < nLoc; i++ {
		x.ev = append(x.ev, &p.iw[i])
		x.thread = append(x.thread, -1)
		x.rmwOf = append(x.rmwOf, -1)
	}
	x.al = al
	x.po, x.int_, x.loc = al.Rel(n), al.Rel(n), al.Rel(n)
	x.rmw, x.addr, x.data, x.ctrl = al.Rel(n), al.Rel(n), al.Rel(n), al.Rel(n)
	for ti, t := range traces {
		x.regs = append(x.regs, t.regs)
		base := len(x.ev)
		for j := range t.events {
			if j&63 == 63 {
				al.Poll()
			}
			e := &t.events[j]
			g := base + j
			x.ev = append(x.ev, e)
			x.thread = append(x.thread, ti)
			for k := base; k < g; k++ {
				if !slices.Contains(e.par, k-base) {
					x.po.Add(k, g)
				}
			}
			for k := base; k < base+len(t.events); k++ {
				x.int_.Add(k, g)
			}
			if e.rmwR >= 0 {
				x.rmw.Add(base+e.rmwR, g)
				x.rmwOf = append(x.rmwOf, base+e.rmwR)
			} else {
				x.rmwOf = append(x.rmwOf, -1)
			}
			for _, d := range e.addr {
				x.addr.Add(base+d, g)
			}
			for _, d := range e.data {
				x.data.Add(base+d, g)
			}
			for _, d := range e.ctrl {
				x.ctrl.Add(base+d, g)
			}
		}
	}
	for i := 0; i < nLoc; i++ {
		x.int_.Add(i, i)
	}
	x.IW, x.R, x.W, x.syncSrcu = al.Set(n), al.Set(n), al.Set(n), al.Set(n)
	for i := range x.fenceSets {
		x.fenceSets[i] = al.Set(n)
	}
	for i := range x.tagSets {
		x.tagSets[i] = al.Set(n)
	}
	for i, e := range x.ev {
		if i&63 == 63 {
			al.Poll()
		}
		switch e.kind {
		case evR:
			x.R.Add(i)
		case evW:
			x.W.Add(i)
		case evF:
			x.fenceSets[e.fence].Add(i)
		case evSync:
			x.syncSrcu.Add(i)
		}
		if e.tags&tIW != 0 {
			x.IW.Add(i)
		}
		for b, t := 0, e.tags; t != 0; b, t = b+1, t>>1 {
			if t&1 != 0 {
				x.tagSets[b].Add(i)
			}
		}
		if e.loc >= 0 {
			for j, f := range x.ev[:i+1] {
				if f.loc == e.loc {
					x.loc.Add(i, j)
					x.loc.Add(j, i)
				}
			}
		}
	}
	x.M = x.R.Union(x.W)
	x.ext = x.int_.Compl()
	x.mark = al.Mark()
	return x
}

// rebind points x at traces of the same shapes as its own (search.shapes):
// the same events and relations, other values.
func (x *execution) rebind(traces []*trace) {
	k := x.nLoc
	x.regs = x.regs[:0]
	for _, t := range traces {
		x.regs = append(x.regs, t.regs)
		for j := range t.events {
			x.ev[k] = &t.events[j]
			k++
		}
	}
}

// tagged returns the set of events carrying tag t.
func (x *execution) tagged(t tag) Set { return x.tagSets[bits.TrailingZeros32(uint32(t))] }
