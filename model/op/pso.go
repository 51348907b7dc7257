package op

import "github.com/litmus-dev/litmus/model/report"

// psoModel is SPARC's Partial Store Order (The SPARC Architecture Manual,
// Version 8, appendix K; Version 9, section 8.4.4.3): like TSO, but the
// buffer is FIFO per (thread, address) only, so stores to different
// addresses may reach memory out of program order. A load reads the newest
// entry for its address in its own buffer, else memory.
//
// Store ordering (smp_wmb, SFENCE, and the implicit store fence before a
// release store: smp_store_release, rcu_assign_pointer, spin_unlock,
// atomic_set_release) is SPARC's MEMBAR #StoreStore: every store before the
// fence reaches memory before any store after it. We implement it exactly,
// without draining anything early: a store fence that finds the buffer not
// empty marks the thread's next store as starting a new group
// (entry.fenced), and only entries of the oldest group may drain. Loads
// after the fence are not held back (that would be #StoreLoad, a full
// fence), which is what makes this weaker than draining the buffer.
// Full fences and RMWs wait for the buffer to be empty, as in TSO.
type psoModel struct{}

func (psoModel) Model() Machine { return PSO }

func (psoModel) read(s *mstate, t, loc int) (val, report.Source) { return tsoModel{}.read(s, t, loc) }

func (psoModel) write(s *mstate, t, loc int, v val, rel bool) {
	if rel {
		psoModel{}.storeFence(s, t)
	}
	th := &s.th[t]
	th.buf = append(th.buf, entry{loc: loc, v: v, fenced: th.fencePending && len(th.buf) > 0})
	th.fencePending = false
}

func (psoModel) storeFence(s *mstate, t int) {
	th := &s.th[t]
	th.fencePending = len(th.buf) > 0
}

func (psoModel) quiet(s *mstate, t int) bool { return len(s.th[t].buf) == 0 }

// drains offers, for each thread, the oldest entry of each location in the
// oldest group.
func (psoModel) drains(s *mstate, out []action) []action {
	for t := range s.th {
		buf := s.th[t].buf
		for i, e := range buf {
			if i > 0 && e.fenced {
				break
			}
			first := true
			for _, f := range buf[:i] {
				if f.loc == e.loc {
					first = false
					break
				}
			}
			if first {
				out = append(out, drainAct(t, e.loc))
			}
		}
	}
	return out
}

func (psoModel) drain(s *mstate, a action) (int, val) {
	th := &s.th[a.thread()]
	loc := a.loc()
	for i, e := range th.buf {
		if e.loc == loc {
			th.buf = append(th.buf[:i], th.buf[i+1:]...)
			s.mem[loc] = e.v
			// Canonical form: the head never carries a fence mark, and an
			// empty buffer has no pending fence.
			if len(th.buf) > 0 {
				th.buf[0].fenced = false
			} else {
				th.fencePending = false
			}
			return loc, e.v
		}
	}
	panic("model: PSO drain of an empty queue")
}
