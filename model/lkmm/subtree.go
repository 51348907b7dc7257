package lkmm

import "sync/atomic"

// This file certifies whole subtrees of the rf enumeration at once, so
// that the candidates of a 19-thread RCU ring (2^19 of them, nearly all
// allowed) are not each put through the whole model.
//
// The enumeration chooses the rf source of one read after another
// (rfAt). At a node, the reads chosen so far have one source each and
// the others have their candidate sources; when every location not
// ordered yet has a single co order (one write besides the initial
// one), the node's upper bound is the execution whose rf is the chosen
// edges plus every candidate edge of the reads still to choose, with
// those co orders. Each candidate below the node has an rf, a co and so
// an fr (rf^-1 ; co) contained in the upper bound's.
//
// Every check after coherence and atomicity — happens-before,
// propagation, rcu, plain-coherence — says that a relation built from
// rf, co, fr and relations fixed by the events is acyclic, irreflexive
// or empty, and each such relation is monotone in rf, co and fr: it is
// made by union, sequence, intersection with fixed relations, closure,
// X \ id, inverse, and rcu-order's least fixed point of a monotone
// operator (no negation or difference of a relation that depends on rf
// or co: the \ and ~ of the cat files apply to fixed sets). The checks
// before coherence (lock-nest, nested-is-locked, unmatched-locks) are
// fixed by the events. So when the upper bound passes those checks,
// every candidate below passes them, and a candidate there is allowed
// exactly when it passes coherence and atomicity, which concern one
// location at a time (enumState.consistent) and are checked on each
// candidate. A candidate that fails them goes through the whole model,
// as before, so its rejection is counted under the same check.
//
// Coherence and atomicity themselves are left out of the upper bound's
// check: a read with two candidate sources, the initial write and w,
// has both rf from w and fr to w there, a cycle no candidate has.
//
// The certification is used only where the model's flags cannot depend
// on rf: no plain accesses (data-race), no SRCU read-side locks
// (srcu-rscs), no lock events (whose rf and co lock.cat derives); and
// where each location has at most 64 events (enumState.consistent's
// bitmasks). A node is tried only when its subtree holds at least
// subtreeMin candidates, so that a node whose bound fails costs at most
// a fraction of the candidates below it.

// subtreeMin is the fewest candidates below a node for the node's upper
// bound to be checked.
const subtreeMin = 8

// subtreesCertified counts the nodes certified, for the tests to see the
// certification at work.
var subtreesCertified atomic.Int64

// subtrees holds the certification's state in an enumState.
type subtrees struct {
	on bool // the execution's events allow certification
	// unique[l]: every location from l on has a single co order
	// (unique[nLoc] is true).
	unique []bool
	sure   bool // the current node's subtree is certified
	// size[l]: the product of the numbers of sources of the reads of
	// the locations from l on, up to subtreeMin (sizeReads).
	size   []int
	orders [][]int
	buf    [][]int
}

// initSubtrees decides whether the events of st's execution allow
// certification (see above).
func (st *enumState) initSubtrees(opt Options) {
	x := st.x
	f := x.fixed()
	t := &st.sub
	*t = subtrees{}
	if opt.noSubtrees || opt.Graphs || f.failed != "" || !f.Plain.Empty() || !f.SrcuLock.Empty() || !f.SrcuUnlock.Empty() {
		return
	}
	for _, e := range x.ev {
		if e.tags&(tLKR|tLKW|tUL|tLF|tRL|tRU) != 0 {
			return
		}
	}
	for _, evs := range st.evAt {
		if len(evs) > 64 {
			return
		}
	}
	t.on = true
	t.unique = make([]bool, x.nLoc+1)
	t.unique[x.nLoc] = true
	for l := x.nLoc - 1; l >= 0; l-- {
		t.unique[l] = t.unique[l+1] && len(st.lw[l].ws) <= 1 && st.lw[l].unmatched < 0
	}
	t.size = make([]int, x.nLoc+1)
	t.orders = make([][]int, x.nLoc)
	t.buf = make([][]int, x.nLoc)
	for l := range t.buf {
		t.buf[l] = append([]int{l}, st.lw[l].ws...)
	}
}

// certify reports whether the node before the choice of the i-th read
// of location l is worth checking and its upper bound passes every check
// after atomicity.
func (st *enumState) certify(l, i int) bool {
	t := &st.sub
	if !t.on || t.sure || !t.unique[l] {
		return false
	}
	// The candidates below: the product of the numbers of sources of
	// the reads left, up to subtreeMin.
	size := t.size[l+1]
	for j := i; j < len(st.reads[l]) && size < subtreeMin; j++ {
		size *= len(st.cands[l][j])
	}
	if size < subtreeMin {
		return false
	}
	x := st.x
	m := x.al.Mark()
	defer x.al.Reset(m)
	up := st.rf.Clone()
	for l2, j := l, i; l2 < x.nLoc; l2, j = l2+1, 0 {
		for ; j < len(st.reads[l2]); j++ {
			r := st.reads[l2][j]
			for _, w := range st.cands[l2][j] {
				up.Add(w, r)
			}
		}
	}
	copy(t.orders, st.orders[:l])
	copy(t.orders[l:], t.buf[l:])
	x.setRfCo(up, t.orders)
	return upperHolds(x)
}

// upperHolds reports whether the upper bound set in x passes every check
// after atomicity.
func upperHolds(x *execution) bool {
	if x.eval(false, false, true).failed != "" {
		return false
	}
	subtreesCertified.Add(1)
	return true
}

// sureConsistent reports whether the current candidate, in a certified
// subtree, passes coherence and atomicity on every location, and so is
// allowed (its flags are the fixed ones).
func (st *enumState) sureConsistent(sure bool) bool {
	if !sure && !st.sub.sure || !st.sub.on {
		return false
	}
	for l, o := range st.orders {
		if len(st.evAt[l]) > 1 && !st.consistent(l, o) {
			return false
		}
	}
	return true
}

// certifyCombine reports whether the node of combine before the choice
// of thread i's trace is worth checking and its upper bound passes every
// check after atomicity. The node's combinations must have one event
// structure: each thread from i on has traces of one shape only
// (search.shapes), which differ in values alone. The upper bound is then
// the execution of those shapes whose rf relates each read to every
// write of its location not po-after it, except where both are of
// threads before i (their values known) and the values differ: every
// rf of every combination below is contained in it. Its co is each
// location's single order (subtrees.unique), as in every combination.
func (s *search) certifyCombine(all [][]trace, pick []*trace, i int) bool {
	if s.sure || s.opt.noSubtrees || s.opt.Graphs {
		return false
	}
	size := 1
	for j := i; j < len(all); j++ {
		if len(all[j]) == 0 {
			return false
		}
		sh := all[j][0].shape
		for k := range all[j] {
			if all[j][k].shape != sh {
				return false
			}
		}
		if size < subtreeMin {
			size *= len(all[j])
		}
	}
	if size < subtreeMin {
		return false
	}
	rep := append(s.rep[:0], pick[:i]...)
	for j := i; j < len(all); j++ {
		rep = append(rep, &all[j][0])
	}
	s.rep = rep
	n := len(s.p.names)
	for _, tr := range rep {
		n += len(tr.events)
	}
	if uint64(minRelations)*relBytes(n) > s.b.Memory() {
		// Over the cap: the combinations below, if any gets past
		// combine's value checks, say so themselves.
		return false
	}
	x, st := s.scratchFor(rep)
	if st == nil || !st.sub.on || !st.sub.unique[0] {
		return false
	}
	m := x.al.Mark()
	defer x.al.Reset(m)
	known := func(e int) bool { return x.thread[e] < i }
	up := x.al.Rel(x.n)
	for r, e := range x.ev {
		if e.kind != evR {
			continue
		}
		for _, w := range st.evAt[e.loc] {
			f := x.ev[w]
			if f.kind != evW || x.po.Has(r, w) {
				continue
			}
			if known(r) && known(w) && f.val != e.val {
				continue
			}
			up.Add(w, r)
		}
	}
	x.setRfCo(up, st.sub.buf)
	return upperHolds(x)
}

// sizeReads sets sub.size for the reads and candidates of the current
// combination.
func (st *enumState) sizeReads() {
	t := &st.sub
	if !t.on {
		return
	}
	t.size[len(st.reads)] = 1
	for l := len(st.reads) - 1; l >= 0; l-- {
		size := t.size[l+1]
		for j := 0; j < len(st.reads[l]) && size < subtreeMin; j++ {
			size *= len(st.cands[l][j])
		}
		t.size[l] = size
	}
}
