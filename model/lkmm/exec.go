package lkmm

// execution is one candidate execution: the events of one trace per
// thread, the initial writes, and a choice of rf and co.
type execution struct {
	n      int
	ev     []event // initial writes first (event i writes location i), then the threads
	nLoc   int
	thread []int            // thread of each event, -1 for initial writes
	regs   []map[string]Val // final registers of each thread's trace

	// Base relations, fixed by the traces.
	po, int_, loc Rel
	rmw           Rel // the rmw of RMW primitives and spin_lock/trylock (lk-rmw)
	addr, data    Rel
	ctrl          Rel

	// Event classes.
	IW, R, W, M Set
	tagSets     map[tag]Set
	fenceSets   [len(fenceText)]Set
	syncSrcu    Set

	// The candidate's choices.
	rf, co Rel
}

// newExecution builds the events and base relations of one combination of
// thread traces. Dependencies recorded as thread-local read indices become
// relations between global event numbers.
func newExecution(p *program, traces []*trace) *execution {
	nLoc := len(p.names)
	n := nLoc
	for _, t := range traces {
		n += len(t.events)
	}
	x := &execution{n: n, nLoc: nLoc, ev: make([]event, 0, n), thread: make([]int, 0, n)}
	for i := 0; i < nLoc; i++ {
		x.ev = append(x.ev, event{thread: -1, kind: evW, tags: tIW, loc: i, val: p.init[i], rmwR: -1, prim: "init"})
		x.thread = append(x.thread, -1)
	}
	x.po, x.int_, x.loc = newRel(n), newRel(n), newRel(n)
	x.rmw, x.addr, x.data, x.ctrl = newRel(n), newRel(n), newRel(n), newRel(n)
	for ti, t := range traces {
		x.regs = append(x.regs, t.regs)
		base := len(x.ev)
		for j, e := range t.events {
			g := base + j
			x.ev = append(x.ev, e)
			x.thread = append(x.thread, ti)
			for k := base; k < g; k++ {
				x.po.add(k, g)
			}
			for k := base; k < base+len(t.events); k++ {
				x.int_.add(k, g)
			}
			if e.rmwR >= 0 {
				x.rmw.add(base+e.rmwR, g)
			}
			for _, d := range e.addr {
				x.addr.add(base+d, g)
			}
			for _, d := range e.data {
				x.data.add(base+d, g)
			}
			for _, d := range e.ctrl {
				x.ctrl.add(base+d, g)
			}
		}
	}
	for i := 0; i < nLoc; i++ {
		x.int_.add(i, i)
	}
	x.IW, x.R, x.W, x.syncSrcu = newSet(n), newSet(n), newSet(n), newSet(n)
	x.tagSets = map[tag]Set{}
	for i := range x.fenceSets {
		x.fenceSets[i] = newSet(n)
	}
	for i, e := range x.ev {
		switch e.kind {
		case evR:
			x.R.add(i)
		case evW:
			x.W.add(i)
		case evF:
			x.fenceSets[e.fence].add(i)
		case evSync:
			x.syncSrcu.add(i)
		}
		if e.tags&tIW != 0 {
			x.IW.add(i)
		}
		for t := tag(1); t != 0 && t <= tIW; t <<= 1 {
			if e.tags&t != 0 {
				s, ok := x.tagSets[t]
				if !ok {
					s = newSet(n)
					x.tagSets[t] = s
				}
				s.add(i)
			}
		}
		if e.loc >= 0 {
			for j, f := range x.ev[:i+1] {
				if f.loc == e.loc {
					x.loc.add(i, j)
					x.loc.add(j, i)
				}
			}
		}
	}
	x.M = x.R.union(x.W)
	return x
}

// tagged returns the set of events carrying tag t.
func (x *execution) tagged(t tag) Set {
	if s, ok := x.tagSets[t]; ok {
		return s
	}
	return newSet(x.n)
}
