package lkmm

import "sort"

// coLoop enumerates co location by location: for each, every order of
// its writes (initial write first) that keeps each thread's writes in
// program order, with lock.cat's rules for lock events.
func (s *search) coLoop(x *execution, rf Rel) {
	type locWrites struct {
		ws        []int // writes to order (not IW, not matched UL)
		unmatched int   // the unmatched LKW, which co0 puts last, or -1
	}
	LKW, UL := x.tagged(tLKW), x.tagged(tUL)
	critical := x.critical(LKW, UL)
	ulOf := map[int]int{}
	for _, pr := range critical.pairs() {
		ulOf[pr[0]] = pr[1]
	}
	lw := make([]locWrites, x.nLoc)
	for i := range lw {
		lw[i].unmatched = -1
	}
	for w, e := range x.ev {
		if e.kind != evW || e.tags&tIW != 0 {
			continue
		}
		if e.tags&tUL != 0 {
			continue // merged after its LKW (or, unmatched, left out of co)
		}
		if e.tags&tLKW != 0 && critical.row(w).empty() {
			if lw[e.loc].unmatched >= 0 {
				return // unmatched-locks: two unmatched LKW of one lock
			}
			lw[e.loc].unmatched = w
			continue
		}
		lw[e.loc].ws = append(lw[e.loc].ws, w)
	}
	// With many writes to one location the orders explode; there the
	// orders that coherence or atomicity rejects for sure are skipped
	// (below that they are kept, so that a forbidden outcome still gets
	// its explanation). must(a, b) says a is co-before b.
	var must Rel
	for _, w := range lw {
		if len(w.ws) >= pruneWrites {
			must = x.coConstraints(rf)
			break
		}
	}
	orders := make([][]int, x.nLoc)
	var rec func(l int)
	rec = func(l int) {
		if s.stopErr != nil {
			return
		}
		if l == x.nLoc {
			s.candidate(x, rf, orders, ulOf)
			return
		}
		ws := lw[l].ws
		prune := len(ws) >= pruneWrites
		perm := make([]int, 0, len(ws)+2)
		used := make([]bool, len(ws))
		var gen func()
		gen = func() {
			if len(perm) == len(ws) {
				o := append([]int{l}, perm...)
				if lw[l].unmatched >= 0 {
					o = append(o, lw[l].unmatched)
				}
				// Merge each matched UL right after its LKW.
				var full []int
				for _, w := range o {
					full = append(full, w)
					if u, ok := ulOf[w]; ok {
						full = append(full, u)
					}
				}
				orders[l] = full
				rec(l + 1)
				return
			}
			for k, w := range ws {
				if used[k] {
					continue
				}
				// Keep program order among one thread's writes.
				ok := true
				for k2, w2 := range ws {
					if !used[k2] && k2 != k && (x.po.has(w2, w) || prune && must.has(w2, w)) {
						ok = false
						break
					}
				}
				if ok && prune {
					// Atomicity: an RMW write comes right after the
					// write its read reads from.
					prev := l
					if len(perm) > 0 {
						prev = perm[len(perm)-1]
					}
					if r := x.rmwOf[w]; r >= 0 && x.ev[w].tags&tLKW == 0 && !rf.has(prev, r) {
						ok = false
					}
					if ok && x.rmwAfter(rf, prev) >= 0 && x.rmwAfter(rf, prev) != w {
						ok = false
					}
				}
				if !ok {
					continue
				}
				used[k] = true
				perm = append(perm, w)
				gen()
				perm = perm[:len(perm)-1]
				used[k] = false
			}
		}
		gen()
	}
	rec(0)
}

// pruneWrites is the number of writes to one location from which coLoop
// skips the orders coherence or atomicity rejects anyway.
const pruneWrites = 4

// coConstraints returns pairs (a, b) of writes that every coherent co
// orders a before b, given rf: a write po-before a read comes no later
// than the write it reads (CoWR), the write a read reads comes before the
// writes po-after the read (CoRW), and two reads in program order read
// writes in co order (CoRR). Pairs of equal writes are left out.
func (x *execution) coConstraints(rf Rel) Rel {
	must := x.al.rel(x.n)
	src := make([]int, x.n)
	for i := range src {
		src[i] = -1
	}
	for w := 0; w < x.n; w++ {
		rf.row(w).each(func(r int) { src[r] = w })
	}
	for r := 0; r < x.n; r++ {
		w := src[r]
		if w < 0 {
			continue
		}
		for j := 0; j < x.n; j++ {
			if x.thread[j] != x.thread[r] || x.thread[r] < 0 || x.ev[j].loc != x.ev[r].loc || j == r {
				continue
			}
			switch {
			case j < r && x.ev[j].kind == evW && j != w:
				must.add(j, w) // CoWR
			case j > r && x.ev[j].kind == evW && j != w:
				must.add(w, j) // CoRW
			case j < r && x.ev[j].kind == evR && src[j] >= 0 && src[j] != w:
				must.add(src[j], w) // CoRR
			}
		}
	}
	return must
}

// rmwAfter returns the write of the RMW whose read reads from w, or -1.
func (x *execution) rmwAfter(rf Rel, w int) int {
	found := -1
	rf.row(w).each(func(r int) {
		for k := r + 1; k < x.n && x.thread[k] == x.thread[r]; k++ {
			if x.rmwOf[k] == r && x.ev[k].tags&tLKW == 0 {
				found = k
			}
		}
	})
	return found
}

// lfSources returns the possible rf sources of an LF or RL event r
// (lock.cat): inside a critical section of its lock, the LKW that opened
// it (rfi-lf); outside, any LKW of the lock in another thread.
func (x *execution) lfSources(r int) []int {
	e := x.ev[r]
	for j := r - 1; j >= 0 && x.thread[j] == x.thread[r]; j-- {
		f := x.ev[j]
		if f.loc != e.loc {
			continue
		}
		if f.tags&tUL != 0 {
			break
		}
		if f.tags&tLKW != 0 {
			return []int{j}
		}
	}
	var c []int
	for w, f := range x.ev {
		if f.tags&tLKW != 0 && f.loc == e.loc && x.thread[w] != x.thread[r] {
			c = append(c, w)
		}
	}
	return c
}

// ruSources returns the possible rf sources of an RU event r (lock.cat's
// possible-rf-ru): the last UL of the lock before it in its thread, or
// any UL of the lock in another thread, or the initial write.
func (x *execution) ruSources(r int) []int {
	e := x.ev[r]
	var c []int
	for j := r - 1; j >= 0 && x.thread[j] == x.thread[r]; j-- {
		f := x.ev[j]
		if f.loc == e.loc && f.tags&tUL != 0 {
			c = append(c, j)
			break
		}
	}
	for w, f := range x.ev {
		if f.loc != e.loc || x.thread[w] == x.thread[r] {
			continue
		}
		if f.tags&(tUL|tIW) != 0 {
			c = append(c, w)
		}
	}
	sort.Ints(c)
	return c
}
