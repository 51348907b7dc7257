package lkmm

import (
	"math/bits"
	"sort"
)

// enumState is the enumeration of the rf and co of one execution. It runs
// location by location: the rf sources of the location's reads, then its
// co, then the next location. Coherence and atomicity are per location
// (po-loc, rf, co and fr relate events of one location), so on a location
// with many writes a choice they reject is dropped before the later
// locations multiply it.
type enumState struct {
	x      *execution
	lw     []locWrites
	ulOf   map[int]int
	evAt   [][]int   // the reads and writes of each location, initial write first
	reads  [][]int   // reads at each location that take an rf source
	cands  [][][]int // their candidate sources
	prune  []bool    // the location has pruneWrites writes or more
	must   []Rel     // co constraints of each pruned location, given its rf
	rf     Rel
	src    []int // rf source of each read so far, -1 if none
	coIdx  []int // position of each write in its location's current order, -1 if none
	local  []int // index of each event among its location's evAt
	orders [][]int
	// orderBuf holds the current co order of each location (orders),
	// gens the generation of each location's orders.
	orderBuf [][]int
	gens     []coGen
	sub      subtrees // the certification of subtrees (subtree.go)
	candBuf  []int    // the words of cands
}

// locWrites are the writes of one location that co orders.
type locWrites struct {
	ws        []int // writes to order (not IW, not matched UL)
	unmatched int   // the unmatched LKW, which co0 puts last, or -1
}

// pruneWrites is the number of writes to one location from which the
// enumeration skips the rf and co choices coherence or atomicity rejects
// anyway. Below it every choice is checked, so that a forbidden outcome
// still gets its explanation.
const pruneWrites = 4

// newEnum prepares the enumeration of x, or returns nil when lock.cat's
// unmatched-locks check rejects every candidate (two unmatched LKW of one
// lock). It allocates from x's arena before the caller sets x.rfMark, so
// what it allocates survives each candidate.
func newEnum(x *execution, pruneFrom int) *enumState {
	st := &enumState{
		x: x, lw: make([]locWrites, x.nLoc), ulOf: map[int]int{},
		evAt: make([][]int, x.nLoc), reads: make([][]int, x.nLoc), cands: make([][][]int, x.nLoc),
		prune: make([]bool, x.nLoc), must: make([]Rel, x.nLoc), rf: x.al.Rel(x.n),
		src: make([]int, x.n), coIdx: make([]int, x.n), local: make([]int, x.n), orders: make([][]int, x.nLoc),
		orderBuf: make([][]int, x.nLoc), gens: make([]coGen, x.nLoc),
	}
	LKW, UL := x.tagged(tLKW), x.tagged(tUL)
	critical := x.critical(LKW, UL)
	for _, pr := range critical.Pairs() {
		st.ulOf[pr[0]] = pr[1]
	}
	for i := range st.lw {
		st.lw[i].unmatched = -1
	}
	for w, e := range x.ev {
		st.src[w], st.coIdx[w], st.local[w] = -1, -1, -1
		if e.kind == evR || e.kind == evW {
			st.local[w] = len(st.evAt[e.loc])
			st.evAt[e.loc] = append(st.evAt[e.loc], w)
		}
		if e.kind != evW || e.tags&tIW != 0 {
			continue
		}
		if e.tags&tUL != 0 {
			continue // merged after its LKW (or, unmatched, left out of co)
		}
		if e.tags&tLKW != 0 && critical.Row(w).Empty() {
			if st.lw[e.loc].unmatched >= 0 {
				return nil
			}
			st.lw[e.loc].unmatched = w
			continue
		}
		st.lw[e.loc].ws = append(st.lw[e.loc].ws, w)
	}
	for l := range st.lw {
		if pruneFrom >= 0 && len(st.lw[l].ws) >= pruneFrom {
			st.prune[l] = true
			st.must[l] = x.al.Rel(x.n)
		}
	}
	return st
}

// clearReads forgets the reads that take an rf source and their
// candidates, for another combination of traces of the same shapes: the
// rest of the state depends on the events only, and a finished
// enumeration leaves it as newEnum made it.
func (st *enumState) clearReads() {
	st.candBuf = st.candBuf[:0]
	for l := range st.reads {
		st.reads[l] = st.reads[l][:0]
		st.cands[l] = st.cands[l][:0]
	}
}

// rfAt chooses the rf source of the i-th read of location l, then goes on
// to the next read, to l's co, and to the next location.
func (s *search) rfAt(st *enumState, l, i int) {
	if s.poll() {
		return
	}
	if l == st.x.nLoc {
		s.candidate(st.x, st.rf, st.orders, st.ulOf)
		return
	}
	if st.certify(l, i) {
		st.sub.sure = true
		s.rfAt(st, l, i)
		st.sub.sure = false
		return
	}
	if i < len(st.reads[l]) {
		r := st.reads[l][i]
		for _, w := range st.cands[l][i] {
			st.rf.Add(w, r)
			st.src[r] = w
			s.rfAt(st, l, i+1)
			st.rf.Del(w, r)
		}
		st.src[r] = -1
		return
	}
	if st.prune[l] {
		st.coConstraints(l)
	}
	s.coAt(st, l)
}

// coAt enumerates every order of location l's writes (initial write
// first) that keeps each thread's writes in program order, with lock.cat's
// rules for lock events; on a pruned location, only the orders that
// coherence and atomicity accept given l's rf.
func (s *search) coAt(st *enumState, l int) {
	g := &st.gens[l]
	if g.st == nil {
		ws := st.lw[l].ws
		*g = coGen{s: s, st: st, x: st.x, l: l, ws: ws, perm: make([]int, 0, len(ws)), used: make([]bool, len(ws))}
	}
	g.s, g.prune, g.must = s, st.prune[l], st.must[l]
	g.gen()
}

// coGen is the generation of one location's co orders, kept with the
// enumeration (its buffers serve every rf choice).
type coGen struct {
	s     *search
	st    *enumState
	x     *execution
	l     int
	ws    []int
	prune bool
	must  Rel
	perm  []int
	used  []bool
}

func (g *coGen) gen() {
	s, st, x, l, ws, prune, must := g.s, g.st, g.x, g.l, g.ws, g.prune, g.must
	if s.poll() {
		return
	}
	if len(g.perm) == len(ws) {
		// The initial write, perm, the unmatched LKW, each matched
		// UL right after its LKW; in a buffer of l's, free again
		// when this order's candidates are done.
		full := append(st.orderBuf[l][:0], l)
		for _, w := range g.perm {
			full = append(full, w)
			if u, ok := st.ulOf[w]; ok {
				full = append(full, u)
			}
		}
		if w := st.lw[l].unmatched; w >= 0 {
			full = append(full, w)
			if u, ok := st.ulOf[w]; ok {
				full = append(full, u)
			}
		}
		st.orderBuf[l] = full
		if prune && !st.consistent(l, full) {
			return
		}
		st.orders[l] = full
		if prune && l+1 < x.nLoc && st.hbFails() {
			st.orders[l] = nil
			return
		}
		s.rfAt(st, l+1, 0)
		st.orders[l] = nil
		return
	}
	for k, w := range ws {
		if g.used[k] {
			continue
		}
		// Keep program order among one thread's writes.
		ok := true
		for k2, w2 := range ws {
			if !g.used[k2] && k2 != k && (x.po.Has(w2, w) || prune && must.Has(w2, w)) {
				ok = false
				break
			}
		}
		if ok && prune {
			// Atomicity: an RMW write comes right after the
			// write its read reads from.
			prev := l
			if len(g.perm) > 0 {
				prev = g.perm[len(g.perm)-1]
			}
			if r := x.rmwOf[w]; r >= 0 && x.ev[w].tags&tLKW == 0 && !st.rf.Has(prev, r) {
				ok = false
			}
			if ok && x.rmwAfter(st.rf, prev) >= 0 && x.rmwAfter(st.rf, prev) != w {
				ok = false
			}
		}
		if !ok {
			continue
		}
		g.used[k] = true
		g.perm = append(g.perm, w)
		g.gen()
		g.perm = g.perm[:len(g.perm)-1]
		g.used[k] = false
	}
}

// hbFails reports whether the rf and co chosen so far fail a check up to
// happens-before, so that no way of completing them is consistent.
func (st *enumState) hbFails() bool {
	x := st.x
	m := x.al.Mark()
	defer x.al.Reset(m)
	x.setRfCo(st.rf, st.orders)
	return x.hbFails()
}

// coConstraints sets must[l] to the pairs (a, b) of l's writes that every
// coherent co orders a before b, given l's rf: a write po-before a read
// comes no later than the write it reads (CoWR), the write a read reads
// comes before the writes po-after the read (CoRW), and two reads in
// program order read writes in co order (CoRR). Pairs of equal writes are
// left out.
func (st *enumState) coConstraints(l int) {
	x, must := st.x, st.must[l]
	clear(must.Words())
	evs := st.evAt[l]
	for _, r := range evs {
		w := st.src[r]
		if w < 0 || x.thread[r] < 0 {
			continue
		}
		for _, j := range evs {
			if x.thread[j] != x.thread[r] || j == r {
				continue
			}
			switch {
			case x.po.Has(j, r) && x.ev[j].kind == evW && j != w:
				must.Add(j, w) // CoWR
			case x.po.Has(r, j) && x.ev[j].kind == evW && j != w:
				must.Add(w, j) // CoRW
			case x.po.Has(j, r) && x.ev[j].kind == evR && st.src[j] >= 0 && st.src[j] != w:
				must.Add(st.src[j], w) // CoRR
			}
		}
	}
}

// consistent reports whether location l, with its rf so far and the co
// order o, passes linux-kernel.cat's coherence and atomic checks as far
// as l's events go:
//
//	acyclic po-loc | com as coherence
//	empty rmw & (fre ; coe) as atomic
//
// The rf of an LKR, which candidate derives from co, is left out; with
// fewer edges a cycle or an atomicity violation found here is also one of
// the whole candidate, so the choices dropped are rejected anyway.
func (st *enumState) consistent(l int, o []int) bool {
	x, evs := st.x, st.evAt[l]
	if len(evs) > 64 {
		return true
	}
	for k, w := range o {
		st.coIdx[w] = k
	}
	defer func() {
		for _, w := range o {
			st.coIdx[w] = -1
		}
	}()
	var in [64]uint64 // in[b]: the events with an edge to b
	for a, ea := range evs {
		if x.thread[ea] < 0 {
			continue
		}
		for b := a + 1; b < len(evs); b++ {
			if x.po.Has(ea, evs[b]) {
				in[b] |= 1 << a // po-loc
			}
		}
	}
	for k := 0; k+1 < len(o); k++ {
		in[st.local[o[k+1]]] |= 1 << st.local[o[k]] // co
	}
	for b, r := range evs {
		w := st.src[r]
		if x.ev[r].kind != evR || w < 0 {
			continue
		}
		in[b] |= 1 << st.local[w] // rf
		p := st.coIdx[w]
		if p < 0 {
			continue
		}
		if p+1 < len(o) {
			in[st.local[o[p+1]]] |= 1 << b // fr (with co, to every later write)
		}
		// atomic: no write of another thread between the write an RMW's
		// read reads and the RMW's write.
		for q := p + 1; q < len(o); q++ {
			if x.rmwOf[o[q]] == r && x.ev[o[q]].tags&tLKW == 0 {
				for t := p + 1; t < q; t++ {
					if x.thread[o[t]] != x.thread[r] {
						return false
					}
				}
			}
		}
	}
	// Acyclic: peel off events with no incoming edge from those left.
	left := uint64(1)<<len(evs) - 1
	if len(evs) == 64 {
		left = ^uint64(0)
	}
	for left != 0 {
		peeled := false
		for m := left; m != 0; m &= m - 1 {
			b := bits.TrailingZeros64(m)
			if in[b]&left == 0 {
				left &^= 1 << b
				peeled = true
			}
		}
		if !peeled {
			return false
		}
	}
	return true
}

// rmwAfter returns the write of the RMW whose read reads from w, or -1.
func (x *execution) rmwAfter(rf Rel, w int) int {
	found := -1
	rf.Row(w).Each(func(r int) {
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
