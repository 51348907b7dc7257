package axiom

import "slices"

// One-event AMOs.
//
// herd7 makes a RISC-V AMO one event that is both a read and a write
// (RISCVSem.ml, unless -variant SplittedRMW), and herd's riscv.cat is
// written for that shape: its fence rules take the AMO as a whole on
// either side ([R];fencerel;... holds for the AMO's write too), rmw has
// no pair for it, and fr leaves out the identity ((rf^-1;co) \ id). This
// project's semantics makes an AMO two events, a read and a write paired
// by amo, which the engines need (rf and co are between reads and
// writes). OneEvent gives a cat model the view herd gives it: the two
// events of each such AMO are one, in R and W both, and every relation
// is taken through that map.

// OneEventView is an execution seen with each one-event AMO's read and
// write as one event: X is that execution, Of maps each event of the
// original to its event in X.
type OneEventView struct {
	X  *Execution
	Of []int
	// orig maps each event of X to the original event it stands for (the
	// write, for a merged AMO).
	orig []int
}

// OneEvent returns the view of x in which the read and the write of
// every AMO (an rmw pair of one instruction) are one event, allocated in
// x's arena; ok is false when x has no AMO.
func (x *Execution) OneEvent() (v *OneEventView, ok bool) {
	if x.Amo.Empty() {
		return nil, false
	}
	merged := map[int]bool{} // the original reads that join their write
	paths := make([]*Trace, len(x.Paths))
	v = &OneEventView{Of: make([]int, x.N)}
	n := len(x.P.Names)
	for i := 0; i < n; i++ {
		v.Of[i] = i
		v.orig = append(v.orig, i)
	}
	for ti, t := range x.Paths {
		base := x.Start[ti]
		drop := make([]bool, len(t.Events))
		for j := range t.Events {
			if r := t.Events[j].RMW; r >= 0 && x.Amo.Has(base+r, base+j) {
				drop[r] = true
				merged[base+r] = true
			}
		}
		// local maps an index of the path to its index in the merged
		// path: a merged read to its write's.
		local := make([]int, len(t.Events))
		k := 0
		for j := range t.Events {
			if !drop[j] {
				local[j] = k
				k++
			}
		}
		for j := range t.Events {
			if drop[j] {
				for w := j + 1; w < len(t.Events); w++ {
					if t.Events[w].RMW == j {
						local[j] = local[w]
						break
					}
				}
			}
		}
		evs := make([]Event, 0, k)
		for j, e := range t.Events {
			if drop[j] {
				continue
			}
			me := local[j]
			e.Addr = remap(e.Addr, local, me)
			e.Data = remap(e.Data, local, me)
			e.Ctrl = remap(e.Ctrl, local, me)
			e.Order = remap(e.Order, local, me)
			e.Par = remap(e.Par, local, me)
			if e.RMW >= 0 {
				if local[e.RMW] == me {
					e.RMW = -1
				} else {
					e.RMW = local[e.RMW]
				}
			}
			if pk := e.Pick; pk != nil {
				e.Pick = &PickDeps{Addr: remap(pk.Addr, local, me), Data: remap(pk.Data, local, me), Ctrl: remap(pk.Ctrl, local, me), Dep: remap(pk.Dep, local, me)}
			}
			evs = append(evs, e)
		}
		paths[ti] = &Trace{Events: evs, Regs: t.Regs, Flow: t.Flow}
		nbase := n
		for j := range t.Events {
			v.Of[base+j] = nbase + local[j]
		}
		for j := range t.Events {
			if !drop[j] {
				v.orig = append(v.orig, base+j)
			}
		}
		n += len(evs)
	}
	al := x.Al
	events := al.Events
	v.X = x.P.NewExecution(paths, al, nil)
	al.Events = events
	v.X.Gen = x.Gen
	for r := range merged {
		v.X.R.Add(v.Of[r]) // the merged event reads too
	}
	v.X.M = v.X.R.Union(v.X.W)
	v.Rebind(x)
	return v, true
}

// Rebind points the view's events at x's (x has the structure the view
// was made from, with other values): a merged AMO is its write's event,
// whose value is the value written.
func (v *OneEventView) Rebind(x *Execution) {
	for i, o := range v.orig {
		v.X.Ev[i] = x.Ev[o]
	}
}

// Rel maps a relation between x's events to one between the view's,
// leaving out the pairs a merge makes reflexive.
func (v *OneEventView) Rel(r Rel) Rel {
	out := v.X.Al.Rel(v.X.N)
	for _, p := range r.Pairs() {
		a, b := v.Of[p[0]], v.Of[p[1]]
		if a != b {
			out.Add(a, b)
		}
	}
	return out
}

// Set maps a set of x's events to the view's.
func (v *OneEventView) Set(s Set) Set {
	out := v.X.Al.Set(v.X.N)
	s.Each(func(i int) { out.Add(v.Of[i]) })
	return out
}

// remap maps path-local indices through local, leaving out self (the
// event's own index) and duplicates.
func remap(idx []int, local []int, self int) []int {
	if len(idx) == 0 {
		return idx
	}
	out := make([]int, 0, len(idx))
	for _, i := range idx {
		if j := local[i]; j != self && !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	slices.Sort(out)
	return out
}
