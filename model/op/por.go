package op

import "math/bits"

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

// footprint is a pair of location sets; bit i is location i.
type footprint struct{ r, w uint64 }

func (f footprint) conflicts(g footprint) bool {
	return f.r&g.w != 0 || f.w&(g.r|g.w) != 0
}

// porInfo is the static part: per thread and pc, what the code from pc on
// may read, write to memory, and store (through the buffer).
type porInfo struct {
	futR, futW, futS [][]uint64
}

// porPossible reports whether the reduction's preconditions hold, and why
// not.
func porPossible(p *program) (bool, string) {
	switch {
	case p.hasLoops:
		return false, "the program loops"
	case len(p.locs)+len(p.domains) > 64:
		return false, "more than 64 locations"
	case len(p.threads) > 32:
		return false, "more than 32 threads"
	}
	return true, ""
}

// instrFootprint returns what in does to memory, statically: a dynamic
// address is any location. stored is the buffered store set (TSO/PSO).
func instrFootprint(in *instr, p *program, buffered bool) (f footprint, stored uint64) {
	var set uint64
	if in.addr != nil {
		if a, ok := in.addr.static(); ok {
			if l, ok := p.locAt(a); ok {
				set = 1 << uint(l)
			}
		} else {
			set = ^uint64(0)
		}
	}
	// An RCU domain's bookkeeping (which threads are in a read-side
	// section, which ones each grace period waits for) is one pseudo
	// location: the domain's ghost cell, after the real locations.
	rcu := uint64(1) << uint(len(p.locs)+in.dom)
	switch in.op {
	case opLoad:
		f.r = set
	case opStore, opUnlock:
		if buffered {
			stored = set
		} else {
			f.w = set
		}
	case opRMW, opLock, opTryLock:
		f.r, f.w = set, set
	case opRCULock:
		f.w = rcu
	case opRCUUnlock:
		// It ends the section at once, or buffers a ghost store that
		// ends it when it drains.
		f.w = rcu
		if buffered {
			stored = rcu
		}
	case opGPStart:
		f.r = rcu
	}
	return f, stored
}

func newPorInfo(p *program, buffered bool) *porInfo {
	pi := &porInfo{}
	for _, t := range p.threads {
		n := len(t.code)
		r, w, s := make([]uint64, n+1), make([]uint64, n+1), make([]uint64, n+1)
		// Backward fixpoint over the control-flow graph (loop-free here,
		// but the iteration does not rely on it).
		for changed := true; changed; {
			changed = false
			for pc := n - 1; pc >= 0; pc-- {
				in := &t.code[pc]
				f, st := instrFootprint(in, p, buffered)
				nr, nw, ns := f.r, f.w, st
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
					nr, nw, ns = nr|r[q], nw|w[q], ns|s[q]
				}
				if nr != r[pc] || nw != w[pc] || ns != s[pc] {
					r[pc], w[pc], s[pc] = nr, nw, ns
					changed = true
				}
			}
		}
		pi.futR, pi.futW, pi.futS = append(pi.futR, r), append(pi.futW, w), append(pi.futS, s)
	}
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
	var enabled uint64
	var cnt [64]int
	for _, a := range all {
		x := a.thread()
		if a.isDrain() {
			x += n
		}
		enabled |= 1 << uint(x)
		cnt[x]++
	}
	var cur, fut [64]footprint
	var bufLocs [32]uint64
	for t := 0; t < n; t++ {
		th := &s.th[t]
		code := m.p.threads[t].code
		if th.pc < len(code) {
			fut[t] = footprint{pi.futR[t][th.pc], pi.futW[t][th.pc]}
			in := &code[th.pc]
			if enabled&(1<<uint(t)) != 0 {
				f, _ := instrFootprint(in, m.p, buffered)
				if _, static := in.addr.static(); in.addr != nil && !static {
					if l, err := m.resolve(s, t, in); err == nil {
						bit := uint64(1) << uint(l)
						f.r &= bit
						f.w &= bit
					}
				}
				cur[t] = f
			}
		}
		var bw uint64
		for _, e := range th.buf {
			bw |= 1 << uint(e.loc)
		}
		bufLocs[t] = bw
		if len(th.buf) > 0 {
			if pso {
				cur[n+t].w = bw
			} else {
				cur[n+t].w = 1 << uint(th.buf[0].loc)
			}
		}
		if th.pc < len(code) {
			bw |= pi.futS[t][th.pc]
		}
		fut[n+t].w = bw
	}
	// deps[x]: the agents that must join P when x is in it.
	var deps [64]uint64
	for x := 0; x < 2*n; x++ {
		if enabled&(1<<uint(x)) != 0 {
			for y := 0; y < 2*n; y++ {
				if y != x && cur[x].conflicts(fut[y]) {
					deps[x] |= 1 << uint(y)
				}
			}
			if pso && x >= n && fut[x].w&^bufLocs[x-n] != 0 {
				// T_i may still store to a location not yet in its
				// buffer, opening a queue that could drain at once.
				deps[x] |= 1 << uint(x-n)
			}
		} else if x < n {
			deps[x] |= 1 << uint(x+n) // a fence or RMW waits for its own buffer
			// A lock waits for a store to it (an unlock), a grace period
			// for the end of read-side sections: every agent that may
			// still write the location or the domain can enable it.
			if th := &s.th[x]; th.pc < len(m.p.threads[x].code) {
				var need uint64
				switch in := &m.p.threads[x].code[th.pc]; in.op {
				case opLock:
					need = ^uint64(0)
					if l, err := m.resolve(s, x, in); err == nil {
						need = 1 << uint(l)
					}
				case opGPWait:
					need = 1 << uint(len(m.p.locs)+in.dom)
				}
				if need != 0 {
					for y := 0; y < 2*n; y++ {
						if y != x && fut[y].w&need != 0 {
							deps[x] |= 1 << uint(y)
						}
					}
				}
			}
		} else {
			deps[x] |= 1 << uint(x-n) // an empty buffer waits for its thread
		}
	}
	best, bestSize := uint64(0), 1<<30
	for seeds := enabled; seeds != 0; seeds &= seeds - 1 {
		seed := bits.TrailingZeros64(seeds)
		p, todo := uint64(1)<<uint(seed), uint64(1)<<uint(seed)
		size := 0
		for todo != 0 && size < bestSize {
			x := bits.TrailingZeros64(todo)
			todo &^= 1 << uint(x)
			size += cnt[x]
			add := deps[x] &^ p
			p |= add
			todo |= add
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
		if best&(1<<uint(x)) != 0 {
			out = append(out, a)
		}
	}
	return out
}
