package axiom

import "slices"

// Execution is one combination of paths, one per thread, with the initial
// writes: its events and the relations fixed by the paths (program order,
// dependencies, rmw pairs, locations). The candidates of an execution add
// rf and co; models compute everything else from these.
type Execution struct {
	P  *Program
	N  int      // number of events
	Ev []*Event // initial writes first (event i writes location i), then each path in thread order
	// Thread is the thread index of each event, -1 for initial writes.
	Thread []int
	// Regs are the final registers of each thread's path.
	Regs []map[string]Val
	// Paths are the paths of the threads, and Start the index of each
	// path's first event.
	Paths []*Trace
	Start []int
	flow  *FlowExec // built by ThinAir, per combination of paths
	// RMWOf is, for the write of an rmw pair, its read; -1 otherwise.
	RMWOf []int

	PO, Int, Ext, Loc Rel
	RMW, Amo          Rel // rmw pairs; those within one instruction
	Addr, Data, Ctrl  Rel
	SameInstr         Rel // events of one instruction of one thread
	IicoOrder         Rel // herd's iico_order
	// SCA relates the events of one single-copy-atomic access (herd's
	// sm): the identity on memory events, and in a mixed-size test the
	// granules of one access.
	SCA Rel
	// The pick dependencies (see PickDeps); empty when no event has any.
	PickAddr, PickData, PickCtrl, PickDep Rel

	IW, R, W, M, F, B Set
	Tag               []Set // the events carrying each tag of P.Vocab

	// Gen numbers the structures of the executions a Combine visits: an
	// execution with the same Gen as the previous one has the same events
	// and base relations, only other values (see combiner.shapes), and
	// nothing allocated in Al since Mark was freed.
	Gen int

	Al   *Arena
	mark ArenaMark // the arena past the base relations
}

// rebind points x at paths of the same shapes as its own: the same events
// and relations with other values.
func (x *Execution) rebind(paths []*Trace) {
	k := len(x.P.Names)
	x.Regs = x.Regs[:0]
	copy(x.Paths, paths)
	x.flow = nil
	for _, t := range paths {
		x.Regs = append(x.Regs, t.Regs)
		for j := range t.Events {
			x.Ev[k] = &t.Events[j]
			k++
		}
	}
}

// NewExecution builds the events and base relations of one combination
// of paths (one per thread, in p.Threads order) in al. Dependencies
// recorded as path-local read indices become relations between execution
// event numbers. When reuse is not nil its slices are recycled.
func (p *Program) NewExecution(paths []*Trace, al *Arena, reuse *Execution) *Execution {
	nLoc := len(p.Names)
	n := nLoc
	for _, t := range paths {
		n += len(t.Events)
	}
	iw := p.initWrites()
	x := reuse
	if x == nil {
		x = &Execution{}
	}
	if al != nil {
		al.Events = n
	}
	*x = Execution{P: p, N: n, Ev: x.Ev[:0], Thread: x.Thread[:0], Regs: x.Regs[:0], Paths: x.Paths[:0], Start: x.Start[:0], RMWOf: x.RMWOf[:0], Tag: x.Tag[:0], Al: al}
	for i := 0; i < nLoc; i++ {
		x.Ev = append(x.Ev, &iw[i])
		x.Thread = append(x.Thread, -1)
		x.RMWOf = append(x.RMWOf, -1)
	}
	x.PO, x.Int, x.Loc, x.SameInstr = al.Rel(n), al.Rel(n), al.Rel(n), al.Rel(n)
	x.RMW, x.Amo, x.Addr, x.Data, x.Ctrl = al.Rel(n), al.Rel(n), al.Rel(n), al.Rel(n), al.Rel(n)
	x.IicoOrder, x.SCA = al.Rel(n), al.Rel(n)
	x.PickAddr, x.PickData, x.PickCtrl, x.PickDep = al.Rel(n), al.Rel(n), al.Rel(n), al.Rel(n)
	for ti, t := range paths {
		x.Regs = append(x.Regs, t.Regs)
		x.Paths = append(x.Paths, t)
		x.Start = append(x.Start, len(x.Ev))
		base := len(x.Ev)
		for j := range t.Events {
			e := &t.Events[j]
			g := base + j
			if g&63 == 0 {
				// Each event adds a row of the quadratic relations:
				// poll the budget (a panic the search recovers).
				al.Poll()
			}
			x.Ev = append(x.Ev, e)
			x.Thread = append(x.Thread, ti)
			for k := base; k < g; k++ {
				if (!p.InstrPO || e.Instr < 0 || t.Events[k-base].Instr != e.Instr) && !slices.Contains(e.Par, k-base) {
					x.PO.Add(k, g)
				}
			}
			for k := base; k < base+len(t.Events); k++ {
				x.Int.Add(k, g)
				if e.Instr >= 0 && t.Events[k-base].Instr == e.Instr {
					x.SameInstr.Add(k, g)
				}
			}
			if e.RMW >= 0 {
				x.RMW.Add(base+e.RMW, g)
				if t.Events[e.RMW].Instr == e.Instr {
					x.Amo.Add(base+e.RMW, g)
				}
				x.RMWOf = append(x.RMWOf, base+e.RMW)
			} else {
				x.RMWOf = append(x.RMWOf, -1)
			}
			for _, d := range e.Addr {
				x.Addr.Add(base+d, g)
			}
			for _, d := range e.Data {
				x.Data.Add(base+d, g)
			}
			for _, d := range e.Ctrl {
				x.Ctrl.Add(base+d, g)
			}
			for _, d := range e.Order {
				x.IicoOrder.Add(base+d, g)
			}
			if pk := e.Pick; pk != nil {
				for _, d := range pk.Addr {
					x.PickAddr.Add(base+d, g)
				}
				for _, d := range pk.Data {
					x.PickData.Add(base+d, g)
				}
				for _, d := range pk.Ctrl {
					x.PickCtrl.Add(base+d, g)
				}
				for _, d := range pk.Dep {
					x.PickDep.Add(base+d, g)
				}
			}
		}
	}
	for i := 0; i < nLoc; i++ {
		x.Int.Add(i, i)
	}
	x.IW, x.R, x.W, x.F, x.B = al.Set(n), al.Set(n), al.Set(n), al.Set(n), al.Set(n)
	for range p.Vocab {
		x.Tag = append(x.Tag, al.Set(n))
	}
	for i, e := range x.Ev {
		if i&63 == 63 {
			al.Poll()
		}
		switch e.Kind {
		case KindR:
			x.R.Add(i)
		case KindW:
			x.W.Add(i)
		case KindF:
			x.F.Add(i)
		case KindB:
			x.B.Add(i)
		}
		if e.Thread < 0 {
			x.IW.Add(i)
		}
		e.Tags.Each(func(t int) { x.Tag[t].Add(i) })
		if e.Loc >= 0 {
			for j, f := range x.Ev[:i+1] {
				if f.Loc == e.Loc {
					x.Loc.Add(i, j)
					x.Loc.Add(j, i)
				}
			}
		}
	}
	x.M = x.R.Union(x.W)
	for i, e := range x.Ev {
		if e.Kind != KindR && e.Kind != KindW {
			continue
		}
		if i&63 == 0 {
			al.Poll()
		}
		x.SCA.Add(i, i)
		if e.Access == 0 {
			continue
		}
		for j := i + 1; j < n; j++ {
			f := x.Ev[j]
			if f.Access == e.Access && x.Thread[j] == x.Thread[i] && (f.Kind == KindR || f.Kind == KindW) {
				x.SCA.Add(i, j)
				x.SCA.Add(j, i)
			}
		}
	}
	x.Ext = x.Int.Compl()
	x.mark = al.Mark()
	return x
}

// Mark returns the arena mark past the execution's base relations: what
// a candidate allocates after it can be freed by x.Al.Reset(x.Mark()).
func (x *Execution) Mark() ArenaMark { return x.mark }

// All returns the set of all events.
func (x *Execution) All() Set { return NewSet(x.N).Compl(x.N) }
