package op

import (
	"math/bits"
	"slices"
)

// This file is the partial-order reduction: at each state the reduced
// search expands only a persistent set of actions (Godefroid, "Partial-
// Order Methods for the Verification of Concurrent Systems", LNCS 1032,
// 1996, chapter 4; the "conflicting transitions" construction). A set P of
// actions enabled in s is persistent when no sequence of actions outside P
// starting from s contains an action that depends on one in P. Exploring
// only persistent sets (with state caching, no sleep sets, no cycle
// proviso) preserves every reachable deadlock, that is every state with
// no enabled action (Godefroid, theorem 4.3; Valmari's stubborn sets give
// the same for cyclic graphs, by induction on the length of the path to
// the deadlock). Our final states are exactly the deadlocks in which every
// thread has finished, so the reduced search finds exactly the final
// states of the plain one. It finds every stuck deadlock too (a lock never
// released, a grace period that cannot end), but not livelocks nor every
// intermediate state, so invariants and programs that loop use the plain
// search (check.go decides).
//
// Following Abdulla et al. ("Stateless model checking for TSO and PSO",
// TACAS 2015) a buffer drain is an action of its own. The agents are the
// threads (T_i, executing their next instruction) and their buffers (D_i,
// draining one entry). Their footprints are sets of memory locations:
//
//   - T_i's next instruction: a load reads its location (whether the value
//     comes from the buffer or not: after a drain of its own buffer it reads
//     memory); an RMW or lock reads and writes it; a store writes it under
//     SC and touches only the thread's own buffer under TSO and PSO.
//   - D_i: writes the location of the head entry (TSO) or of every entry
//     (PSO, where any queue may drain).
//   - In the future, T_j may read and write what its remaining code may
//     access (static, per pc; an address computed at run time means any
//     location), and D_j may write every location in its buffer and every
//     location T_j may still store to.
//
// Locks are locations (spin_lock is an RMW that waits for 0, spin_unlock a
// store). Each RCU domain is one pseudo location: rcu_read_lock and
// rcu_read_unlock (or the drain of its ghost store) write it, the start of
// a grace period reads it.
//
// P is closed under: if X in P is enabled, every agent whose future may
// conflict with X's action (read/write or write/write on one location);
// if X is disabled, every agent that can enable it (a fence or RMW waits
// for D_i, an empty D_i waits for T_i, a lock for any agent that may still
// write the lock, a grace period for any agent that may still write its
// domain). Under PSO, D_i in P also brings
// T_i in when T_i may still store to a location that has no queue yet:
// T_i could otherwise open a queue that D_i drains at once. (A store to a
// location already queued waits behind the queue's head, which is in P.) Two
// actions of different agents that touch different locations commute; a
// drain and a later load of the same thread give the same value in either
// order; a store appended behind a non-empty buffer does not change what
// its head drains. These are the independence facts the closure relies on.

// lset is a set of locations (and RCU domains, after the locations): bit
// i of word i/64 is location i. Every set of one search has the same
// number of words (porInfo.words), so that programs of any size keep the
// reduction: it used to stop at 64 locations and 32 threads, and 33
// independent writers then timed out where 32 took 10 ms.
type lset []uint64

func (s lset) clear() { clear(s) }

func (s lset) add(i int) { s[i>>6] |= 1 << uint(i&63) }

// fill makes s every location: an address computed at run time.
func (s lset) fill() {
	for i := range s {
		s[i] = ^uint64(0)
	}
}

func (s lset) or(t lset) {
	for i := range s {
		s[i] |= t[i]
	}
}

func (s lset) meets(t lset) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}

// outside reports whether s has a location t does not.
func (s lset) outside(t lset) bool {
	for i := range s {
		if s[i]&^t[i] != 0 {
			return true
		}
	}
	return false
}

func (s lset) empty() bool { return !s.meets(s) }

// only keeps location l of s, if s has it.
func (s lset) only(l int) {
	has := s[l>>6]&(1<<uint(l&63)) != 0
	s.clear()
	if has {
		s.add(l)
	}
}

// aset is a set of agents: the threads 0..n-1 and their buffers n..2n-1,
// at most 128 (model/op compiles at most 64 threads).
type aset [2]uint64

func (a *aset) add(i int)         { a[i>>6] |= 1 << uint(i&63) }
func (a aset) has(i int) bool     { return a[i>>6]&(1<<uint(i&63)) != 0 }
func (a aset) andNot(b aset) aset { return aset{a[0] &^ b[0], a[1] &^ b[1]} }
func (a aset) or(b aset) aset     { return aset{a[0] | b[0], a[1] | b[1]} }
func (a aset) isEmpty() bool      { return a[0] == 0 && a[1] == 0 }
func (a *aset) remove(i int)      { a[i>>6] &^= 1 << uint(i&63) }
func (a aset) first() int {
	if a[0] != 0 {
		return bits.TrailingZeros64(a[0])
	}
	return 64 + bits.TrailingZeros64(a[1])
}

// footprint is a pair of location sets.
type footprint struct{ r, w lset }

func (f footprint) conflicts(g footprint) bool {
	return f.r.meets(g.w) || f.w.meets(g.r) || f.w.meets(g.w)
}

// porInfo is the static part: per thread and pc, what the code from pc on
// may read, write to memory, and store (through the buffer); and the
// scratch sets persistent reuses from state to state.
type porInfo struct {
	words            int
	futR, futW, futS [][]lset

	cur, fut []footprint
	bufLocs  []lset
	deps     []aset
	cnt      []int
	stored   lset
}

// newSet returns an empty location set of pi's size.
func (pi *porInfo) newSet() lset { return make(lset, pi.words) }

// porPossible reports whether the reduction's preconditions hold, and why
// not.
func porPossible(p *program) (bool, string) {
	if p.hasLoops {
		// A cycle of states hides livelocks and stuck loops from the
		// persistent sets (see the top of this file).
		return false, "the program loops"
	}
	return true, ""
}

// unreducedInvariants is why a test with invariants is searched plain:
// the reduction keeps the final states, not every intermediate one that
// an invariant must hold in.
const unreducedInvariants = "invariants are checked in every state"

// instrFootprint sets f to what in does to memory, statically (a dynamic
// address is any location), and stored to the buffered store set
// (TSO/PSO).
func instrFootprint(in *instr, p *program, buffered bool, f footprint, stored lset) {
	f.r.clear()
	f.w.clear()
	stored.clear()
	set := func(s lset) {
		if in.addr == nil {
			return
		}
		if a, ok := in.addr.static(); ok {
			if l, ok := p.locAt(a); ok {
				s.add(l)
			}
		} else {
			s.fill()
		}
	}
	// An RCU domain's bookkeeping (which threads are in a read-side
	// section, which ones each grace period waits for) is one pseudo
	// location: the domain's ghost cell, after the real locations.
	rcu := len(p.locs) + in.dom
	switch in.op {
	case opLoad:
		set(f.r)
	case opStore, opUnlock:
		if buffered {
			set(stored)
		} else {
			set(f.w)
		}
	case opRMW, opLock, opTryLock:
		set(f.r)
		set(f.w)
	case opRCULock:
		f.w.add(rcu)
	case opRCUUnlock:
		// It ends the section at once, or buffers a ghost store that
		// ends it when it drains.
		f.w.add(rcu)
		if buffered {
			stored.add(rcu)
		}
	case opGPStart:
		f.r.add(rcu)
	}
}

func newPorInfo(p *program, buffered bool) *porInfo {
	pi := &porInfo{words: (len(p.locs) + len(p.domains) + 63) / 64}
	if pi.words == 0 {
		pi.words = 1
	}
	f := footprint{pi.newSet(), pi.newSet()}
	st := pi.newSet()
	for _, t := range p.threads {
		n := len(t.code)
		r, w, s := make([]lset, n+1), make([]lset, n+1), make([]lset, n+1)
		for pc := range r {
			r[pc], w[pc], s[pc] = pi.newSet(), pi.newSet(), pi.newSet()
		}
		nr, nw, ns := pi.newSet(), pi.newSet(), pi.newSet()
		// Backward fixpoint over the control-flow graph (loop-free here,
		// but the iteration does not rely on it).
		for changed := true; changed; {
			changed = false
			for pc := n - 1; pc >= 0; pc-- {
				in := &t.code[pc]
				instrFootprint(in, p, buffered, f, st)
				copy(nr, f.r)
				copy(nw, f.w)
				copy(ns, st)
				succ := []int{pc + 1}
				switch in.op {
				case opJump:
					succ = []int{in.target}
				case opBranch:
					succ = append(succ, in.target)
				}
				for _, q := range succ {
					if q > n {
						q = n
					}
					nr.or(r[q])
					nw.or(w[q])
					ns.or(s[q])
				}
				if !slices.Equal(nr, r[pc]) || !slices.Equal(nw, w[pc]) || !slices.Equal(ns, s[pc]) {
					copy(r[pc], nr)
					copy(w[pc], nw)
					copy(s[pc], ns)
					changed = true
				}
			}
		}
		pi.futR, pi.futW, pi.futS = append(pi.futR, r), append(pi.futW, w), append(pi.futS, s)
	}
	na := 2 * len(p.threads)
	pi.cur, pi.fut = make([]footprint, na), make([]footprint, na)
	for i := range na {
		pi.cur[i] = footprint{pi.newSet(), pi.newSet()}
		pi.fut[i] = footprint{pi.newSet(), pi.newSet()}
	}
	pi.bufLocs = make([]lset, len(p.threads))
	for i := range pi.bufLocs {
		pi.bufLocs[i] = pi.newSet()
	}
	pi.deps, pi.cnt, pi.stored = make([]aset, na), make([]int, na), pi.newSet()
	return pi
}

// persistent appends to out a persistent set of the actions enabled in s
// (a non-empty one when any action is enabled). all holds every enabled
// action of s, as machine.enabled returns them.
func (m *machine) persistent(s *mstate, pi *porInfo, all []action, out []action) []action {
	n := len(s.th)
	if len(all) <= 1 {
		return append(out, all...)
	}
	buffered := m.mm.Model() != SC
	pso := m.mm.Model() == PSO
	// Agents 0..n-1 are the threads, n..2n-1 their buffers.
	var enabled aset
	cnt := pi.cnt[:2*n]
	clear(cnt)
	for _, a := range all {
		x := a.thread()
		if a.isDrain() {
			x += n
		}
		enabled.add(x)
		cnt[x]++
	}
	cur, fut := pi.cur, pi.fut
	for x := 0; x < 2*n; x++ {
		cur[x].r.clear()
		cur[x].w.clear()
		fut[x].r.clear()
		fut[x].w.clear()
	}
	for t := 0; t < n; t++ {
		th := &s.th[t]
		code := m.p.threads[t].code
		if th.pc < len(code) {
			copy(fut[t].r, pi.futR[t][th.pc])
			copy(fut[t].w, pi.futW[t][th.pc])
			in := &code[th.pc]
			if enabled.has(t) {
				instrFootprint(in, m.p, buffered, cur[t], pi.stored)
				if _, static := in.addr.static(); in.addr != nil && !static {
					if l, err := m.resolve(s, t, in); err == nil {
						cur[t].r.only(l)
						cur[t].w.only(l)
					}
				}
			}
		}
		bw := pi.bufLocs[t]
		bw.clear()
		for _, e := range th.buf {
			bw.add(e.loc)
		}
		if len(th.buf) > 0 {
			if pso {
				copy(cur[n+t].w, bw)
			} else {
				cur[n+t].w.add(th.buf[0].loc)
			}
		}
		copy(fut[n+t].w, bw)
		if th.pc < len(code) {
			fut[n+t].w.or(pi.futS[t][th.pc])
		}
	}
	// deps[x]: the agents that must join P when x is in it.
	deps := pi.deps[:2*n]
	clear(deps)
	for x := 0; x < 2*n; x++ {
		if enabled.has(x) {
			for y := 0; y < 2*n; y++ {
				if y != x && cur[x].conflicts(fut[y]) {
					deps[x].add(y)
				}
			}
			if pso && x >= n && fut[x].w.outside(pi.bufLocs[x-n]) {
				// T_i may still store to a location not yet in its
				// buffer, opening a queue that could drain at once.
				deps[x].add(x - n)
			}
		} else if x < n {
			deps[x].add(x + n) // a fence or RMW waits for its own buffer
			// A lock waits for a store to it (an unlock), a grace period
			// for the end of read-side sections: every agent that may
			// still write the location or the domain can enable it.
			if th := &s.th[x]; th.pc < len(m.p.threads[x].code) {
				need := pi.stored // scratch: instrFootprint is done with it
				need.clear()
				switch in := &m.p.threads[x].code[th.pc]; in.op {
				case opLock:
					if l, err := m.resolve(s, x, in); err == nil {
						need.add(l)
					} else {
						need.fill()
					}
				case opGPWait:
					need.add(len(m.p.locs) + in.dom)
				}
				if !need.empty() {
					for y := 0; y < 2*n; y++ {
						if y != x && fut[y].w.meets(need) {
							deps[x].add(y)
						}
					}
				}
			}
		} else {
			deps[x].add(x - n) // an empty buffer waits for its thread
		}
	}
	var best aset
	bestSize := 1 << 30
	for seeds := enabled; !seeds.isEmpty(); {
		seed := seeds.first()
		seeds.remove(seed)
		var p, todo aset
		p.add(seed)
		todo.add(seed)
		size := 0
		for !todo.isEmpty() && size < bestSize {
			x := todo.first()
			todo.remove(x)
			size += cnt[x]
			add := deps[x].andNot(p)
			p = p.or(add)
			todo = todo.or(add)
		}
		if size < bestSize {
			best, bestSize = p, size
			if size == 1 {
				break
			}
		}
	}
	for _, a := range all {
		x := a.thread()
		if a.isDrain() {
			x += n
		}
		if best.has(x) {
			out = append(out, a)
		}
	}
	return out
}
