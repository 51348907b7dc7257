package lkmm

import "sort"

// This file is the model: linux-kernel.bell, lock.cat and linux-kernel.cat
// of the kernel's tools/memory-model (the version in the corpus, with the
// syntactic tags ONCE, ACQUIRE, RELEASE, MB, NORETURN and variant lkmmv2),
// coded directly over bitset relations. Each definition sits under the cat
// line it implements. The cat files define some names twice (fence,
// strong-fence, rf, co, R, W, ...); the code keeps both versions where a
// later line uses the earlier one.

// check names, in the order herd evaluates them.
const (
	axLockNest       = "lock-nest"
	axNestedIsLocked = "nested-is-locked"
	axUnmatchedLocks = "unmatched-locks"
	axCoherence      = "coherence"
	axAtomic         = "atomic"
	axHB             = "happens-before"
	axPB             = "propagation"
	axRCU            = "rcu"
	axPlain          = "plain-coherence"
)

// outcome is what the model says of one candidate execution.
type outcome struct {
	failed string   // the first check that fails, or "" when consistent
	flags  []string // flags raised by a consistent execution, sorted
	// For a failed acyclicity or irreflexivity check: the relation that
	// has the cycle, for the explanation.
	bad Rel
	rel *relations
}

// relations keeps the named relations an explanation may label edges with.
type relations struct {
	rf, co, fr, po, ppo, prop, hb, pb, rb, strongFence, rmw Rel
}

// model evaluates the LKMM on x. When explain is set it keeps the
// relations needed to describe a failure.
func (x *execution) model(explain bool) outcome { return x.eval(explain, false, false) }

// hbFails reports whether x, whose rf and co may be a part of a
// candidate's, already fails a check up to happens-before. Those checks
// (lock-nest, nested-is-locked, unmatched-locks, coherence, atomic,
// happens-before) are monotone in rf and co: their relations are built
// from rf, co and fixed relations by union, sequence, intersection with
// fixed relations and closure, so a cycle or a non-empty intersection
// found with part of rf and co stays with all of it, and no extension of
// the part is consistent.
func (x *execution) hbFails() bool { return x.eval(false, true, false).failed != "" }

// catRun is one evaluation of the model over a candidate: the relations
// computed so far, topic by topic, in the order of the cat files.
type catRun struct {
	x       *execution
	f       *fixedRels
	explain bool
	flags   []string

	po, rf, co, fr, rfe, rfi, coe, fre Rel
	addr, ctrl, data                   Rel
	srcuRscs                           Rel
	pulp, strongFence, nonrwFence      Rel
	fence, rmwSeq, cumulFence          Rel
	cfStar, ppo, prop, hb, hbStar      Rel
	pb, pbStar, rcuFence, rb           Rel
	carried                            bool     // carry-dep changed addr, ctrl and data
	small                              rcuSmall // the RCU part over the RCU events (rcu.go)
}

// eval runs the model's checks on x in herd's order and returns the
// first that fails, or the flags of a consistent x; uptoHB stops after
// happens-before (hbFails); noCoherence skips coherence and atomic
// (an upper bound's check, subtree.go).
func (x *execution) eval(explain, uptoHB, noCoherence bool) outcome {
	f := x.fixed()
	if f.failed != "" {
		return outcome{failed: f.failed}
	}
	c := &x.run
	*c = catRun{x: x, f: f, explain: explain, po: x.po, rf: x.rf, co: x.co, flags: append(c.flags[:0], f.flags...), small: c.small}
	c.srcu()
	c.deps()
	c.communication()
	if !noCoherence {
		if out, bad := c.coherence(); bad {
			return out
		}
	}
	if out, bad := c.happensBefore(uptoHB); bad || uptoHB {
		return out
	}
	if out, bad := c.propagation(); bad {
		return out
	}
	if out, bad := c.rcu(); bad {
		return out
	}
	if out, bad := c.plainCoherence(); bad {
		return out
	}
	if len(c.flags) == 0 {
		return outcome{}
	}
	sort.Strings(c.flags)
	return outcome{flags: append([]string(nil), c.flags...)}
}

// srcu computes linux-kernel.bell's srcu-rscs, which depends on rf, and
// raises its flags.
func (c *catRun) srcu() {
	x, f := c.x, c.f
	n, al := x.n, x.al
	SrcuLock, SrcuUnlock := f.SrcuLock, f.SrcuUnlock
	if SrcuLock.Empty() && SrcuUnlock.Empty() {
		c.srcuRscs = f.empty
		return
	}
	// let srcu-rscs = ([Srcu-lock] ; carry-srcu-data ; data ; [Srcu-unlock]) & loc
	c.srcuRscs = al.Rel(n)
	if !SrcuLock.Empty() {
		// let carry-srcu-data = (data ; [~ Srcu-unlock] ; rf)*
		carrySrcu := f.dataNotSU.Seq(c.rf).Star()
		c.srcuRscs = carrySrcu.Restrict(SrcuLock, nil).Seq(x.data.Restrict(nil, SrcuUnlock)).Inter(x.loc)
	}
	srcuRscs := c.srcuRscs
	// flag ~empty Srcu-lock \ domain(srcu-rscs) as unmatched-srcu-lock
	if !SrcuLock.Minus(srcuRscs.Domain()).Empty() {
		c.flags = append(c.flags, "unmatched-srcu-lock")
	}
	// flag ~empty Srcu-unlock \ range(srcu-rscs) as unmatched-srcu-unlock
	if !SrcuUnlock.Minus(srcuRscs.Range()).Empty() {
		c.flags = append(c.flags, "unmatched-srcu-unlock")
	}
	// flag ~empty (srcu-rscs^-1 ; srcu-rscs) \ id as multiple-srcu-matches
	if !srcuRscs.Inv().Seq(srcuRscs).Minus(f.id).Empty() {
		c.flags = append(c.flags, "multiple-srcu-matches")
	}
	// flag ~empty different-values(srcu-rscs) as srcu-bad-value-match
	for _, pr := range srcuRscs.Pairs() {
		if x.ev[pr[0]].val != x.ev[pr[1]].val {
			c.flags = append(c.flags, "srcu-bad-value-match")
			break
		}
	}
}

// deps extends the dependencies through the reads of a data-dependent
// store by its own thread (carry-dep).
func (c *catRun) deps() {
	x, f := c.x, c.f
	c.rfi = c.rf.Inter(x.int_)
	// let carry-dep = (data ; [~ Srcu-unlock] ; rfi)*
	// let addr = carry-dep ; addr   (and likewise ctrl, data)
	c.addr, c.ctrl, c.data = x.addr, x.ctrl, x.data
	if f.dataNotSU.Empty() {
		return // carry-dep is the identity when no data feeds an rfi.
	}
	if step := f.dataNotSU.Seq(c.rfi); !step.Empty() {
		carryDep := step.Star()
		c.addr, c.ctrl, c.data = carryDep.Seq(x.addr), carryDep.Seq(x.ctrl), carryDep.Seq(x.data)
		c.carried = true
	}
}

// communication splits the final rf and co (generated with the lock
// rules by the enumerator: co includes UL after its LKW, rf the LKR
// reads) and adds the rf part of po-unlock-lock-po to the fences.
func (c *catRun) communication() {
	x, f := c.x, c.f
	rf, co := c.rf, c.co
	c.fr = rf.Inv().Seq(co)
	// let fre = fr & ext ... (co, rf, fr split into internal and external)
	c.rfe = rf.Inter(x.ext)
	c.coe = co.Inter(x.ext)
	c.fre = c.fr.Inter(x.ext)

	// ---- linux-kernel.cat ----
	// let po-unlock-lock-po = po ; [UL] ; (po|rf) ; [LKR] ; po
	// (its po-only part is fixed; only the rf part is computed here)
	c.pulp, c.strongFence, c.nonrwFence, c.fence = f.pulpPo, f.strongFence, f.nonrwFence, f.fence
	if f.locks {
		c.pulp = union(f.pulpPo, seqs(f.poUL, rf.Restrict(nil, f.LKR), c.po))
		// mb's ([M] ; po-unlock-lock-po ; [After-unlock-lock] ; po ; [M])
		// term, the only part of mb, strong-fence and fence that
		// depends on rf
		pulpMb := c.pulp.Restrict(x.M, x.fenceSets[fAfterUnlockLock]).Seq(f.poM)
		c.strongFence = union(c.strongFence, pulpMb)
		c.nonrwFence = union(c.nonrwFence, pulpMb)
		c.fence = union(c.fence, pulpMb)
	}
}

// coherence checks coherence and atomicity.
func (c *catRun) coherence() (outcome, bool) {
	x, f := c.x, c.f
	// let com = rf | co | fr ; acyclic po-loc | com as coherence
	if com := union(f.poloc, c.rf, c.co, c.fr); !com.Acyclic() {
		return x.fail(axCoherence, com, c.explain, &relations{rf: c.rf, co: c.co, fr: c.fr, po: c.po}), true
	}
	// empty rmw & (fre ; coe) as atomic
	if f.rmw.Empty() {
		return outcome{}, false
	}
	if bad := f.rmw.Inter(c.fre.Seq(c.coe)); !bad.Empty() {
		return x.fail(axAtomic, bad, c.explain, &relations{rf: c.rf, co: c.co, fr: c.fr, po: c.po, rmw: f.rmw}), true
	}
	return outcome{}, false
}

// happensBefore computes ppo, prop and hb, and checks happens-before.
func (c *catRun) happensBefore(uptoHB bool) (outcome, bool) {
	x, f := c.x, c.f
	Marked := f.Marked
	// let overwrite = co | fr
	overwrite := union(c.co, c.fr)
	// let dep = addr | data
	// let rwdep = (dep | ctrl) ; [W]
	// let to-w = rwdep | (overwrite & int) | (addr ; [Plain] ; wmb)
	// let to-r = (addr ; [R]) | (dep ; [Marked] ; rfi)
	// let ppo = to-r | to-w | (fence & int) | (po-unlock-lock-po & int)
	// The terms without rf or co are fixed (fixedRels.ppoFixed) unless
	// carry-dep or the rf part of po-unlock-lock-po changes them.
	ppoFixed, depMarked := f.ppoFixed, f.depMarked
	if c.carried || f.locks {
		dep := union(c.addr, c.data)
		ppoFixed = union(union(dep, c.ctrl).Restrict(nil, x.W), c.addr.Restrict(nil, f.Plain).Seq(f.wmb),
			c.addr.Restrict(nil, x.R), c.fence.Inter(x.int_), c.pulp.Inter(x.int_))
		depMarked = dep.Restrict(nil, Marked)
	}
	c.ppo = union(ppoFixed, overwrite.Inter(x.int_), depMarked.Seq(c.rfi))

	// let A-cumul(r) = (rfe ; [Marked])? ; r
	// let rmw-sequence = (rf ; rmw)*   (the identity without rmw)
	c.rmwSeq = f.id
	if !f.rmw.Empty() {
		c.rmwSeq = c.rf.Seq(f.rmw).Star()
	}
	// let cumul-fence = [Marked] ; (A-cumul(strong-fence | po-rel) | wmb |
	//	po-unlock-lock-po) ; [Marked] ; rmw-sequence
	sfPoRel := f.sfPoRel
	if f.locks {
		sfPoRel = union(c.strongFence, f.poRel)
	}
	aCumul := c.rfe.Restrict(nil, Marked).Opt().Seq(sfPoRel)
	c.cumulFence = union(aCumul, f.wmb, c.pulp).Restrict(Marked, Marked)
	if !f.rmw.Empty() {
		c.cumulFence = c.cumulFence.Seq(c.rmwSeq)
	}
	// let prop = [Marked] ; (overwrite & ext)? ; cumul-fence* ;
	//	[Marked] ; rfe? ; [Marked]
	c.cfStar = c.cumulFence.Star()
	c.prop = seqs(overwrite.Inter(x.ext).Opt().Restrict(Marked, nil), c.cfStar.Restrict(nil, Marked),
		c.rfe.Opt().Restrict(nil, Marked))
	// let hb = [Marked] ; (ppo | rfe | ((prop \ id) & int)) ; [Marked]
	c.hb = union(c.ppo, c.rfe, c.prop.Minus(f.id).Inter(x.int_)).Restrict(Marked, Marked)
	// acyclic hb as happens-before
	if uptoHB {
		if !c.hb.Acyclic() {
			return c.failHB(), true
		}
		return outcome{}, false
	}
	hbPlus, ok := c.hb.PlusCheck()
	if !ok {
		return c.failHB(), true
	}
	c.hbStar = hbPlus.Opt()
	return outcome{}, false
}

func (c *catRun) failHB() outcome {
	return c.x.fail(axHB, c.hb, c.explain, &relations{rf: c.rf, co: c.co, fr: c.fr, po: c.po, ppo: c.ppo, prop: c.prop})
}

// propagation computes pb and checks propagation.
func (c *catRun) propagation() (outcome, bool) {
	// let pb = prop ; strong-fence ; hb* ; [Marked]
	c.pb = seqs(c.prop, c.strongFence, c.hbStar.Restrict(nil, c.f.Marked))
	// acyclic pb as propagation
	pbPlus, ok := c.pb.PlusCheck()
	if !ok {
		return c.x.fail(axPB, c.pb, c.explain, &relations{rf: c.rf, co: c.co, fr: c.fr, po: c.po, prop: c.prop, hb: c.hb, strongFence: c.strongFence}), true
	}
	c.pbStar = pbPlus.Opt()
	return outcome{}, false
}

// plainCoherence checks the plain accesses (plain-coherence) and flags
// their data races.
func (c *catRun) plainCoherence() (outcome, bool) {
	x, f := c.x, c.f
	if f.Plain.Empty() {
		return outcome{}, false
	}
	n, al := x.n, x.al
	Marked, W := f.Marked, x.W
	rf, co, fr := c.rf, c.co, c.fr
	// let fence = fence | rcu-fence ; let strong-fence = strong-fence | rcu-fence
	fence2 := union(c.fence, c.rcuFence)
	strongFence2 := union(c.strongFence, c.rcuFence)
	// let xbstar = (hb | pb | rb)*
	xbstar := union(c.hb, c.pb, c.rb).Star()
	// let vis = cumul-fence* ; rfe? ; [Marked] ;
	//	((strong-fence ; [Marked] ; xbstar) | (xbstar & int))
	vis := seqs(c.cfStar, c.rfe.Opt().Restrict(nil, Marked),
		union(strongFence2.Restrict(nil, Marked).Seq(xbstar), xbstar.Inter(x.int_)))
	// let w-pre-bounded = [Marked] ; (addr | fence)?
	wPre := union(c.addr, fence2).Opt().Restrict(Marked, nil)
	// let r-pre-bounded = [Marked] ; (addr | nonrw-fence |
	//	([R4rmb] ; fencerel(Rmb) ; [~Noreturn]))?
	rPre := union(c.addr, c.nonrwFence, f.rmbPre).Opt().Restrict(Marked, nil)
	// let w-post-bounded = fence? ; [Marked] ; rmw-sequence
	wPost := fence2.Opt().Restrict(nil, Marked).Seq(c.rmwSeq)
	// let r-post-bounded = (nonrw-fence | ([~Noreturn] ; fencerel(Rmb) ;
	//	[R4rmb]))? ; [Marked]
	rPost := union(c.nonrwFence, f.rmbPost).Opt().Restrict(nil, Marked)
	// let ww-vis = fence | (strong-fence ; xbstar ; w-pre-bounded) |
	//	(w-post-bounded ; vis ; w-pre-bounded)
	sfx := strongFence2.Seq(xbstar)
	postVis := wPost.Seq(vis)
	wwVis := union(fence2, sfx.Seq(wPre), postVis.Seq(wPre))
	// let wr-vis = fence | (strong-fence ; xbstar ; r-pre-bounded) |
	//	(w-post-bounded ; vis ; r-pre-bounded)
	wrVis := union(fence2, sfx.Seq(rPre), postVis.Seq(rPre))
	// let rw-xbstar = fence | (r-post-bounded ; xbstar ; w-pre-bounded)
	rwXbstar := union(fence2, seqs(rPost, xbstar, wPre))
	// let pre-race = ext & ((Plain * M) | ((M \ IW) * Plain))
	preRace := f.preRace
	// let wr-incoh = pre-race & rf & rw-xbstar^-1
	// let rw-incoh = pre-race & fr & wr-vis^-1
	// let ww-incoh = pre-race & co & ww-vis^-1
	// empty (wr-incoh | rw-incoh | ww-incoh) as plain-coherence
	incoh := union(preRace.Inter(rf).Inter(rwXbstar.Inv()),
		preRace.Inter(fr).Inter(wrVis.Inv()),
		preRace.Inter(co).Inter(wwVis.Inv()))
	if !incoh.Empty() {
		return x.fail(axPlain, incoh, c.explain, &relations{rf: rf, co: co, fr: fr, po: c.po}), true
	}
	// let ww-nonrace = ww-vis & ((Marked * W) | rw-xbstar) & ((W * Marked) | wr-vis)
	wwNonrace := wwVis.Inter(union(al.Cross(n, Marked, W), rwXbstar)).Inter(union(al.Cross(n, W, Marked), wrVis))
	// let ww-race = (pre-race & co) \ ww-nonrace
	wwRace := preRace.Inter(co).Minus(wwNonrace)
	// let wr-race = (pre-race & (co? ; rf)) \ wr-vis \ rw-xbstar^-1
	wrRace := preRace.Inter(co.Opt().Seq(rf)).Minus(wrVis).Minus(rwXbstar.Inv())
	// let rw-race = (pre-race & fr) \ rw-xbstar
	rwRace := preRace.Inter(fr).Minus(rwXbstar)
	// flag ~empty (ww-race | wr-race | rw-race) as data-race
	if !union(wwRace, wrRace, rwRace).Empty() {
		c.flags = append(c.flags, "data-race")
	}
	return outcome{}, false
}

// fail builds the outcome of a failed check.
func (x *execution) fail(name string, bad Rel, explain bool, rel *relations) outcome {
	if !explain {
		return outcome{failed: name}
	}
	return outcome{failed: name, bad: bad, rel: rel}
}

// union1 returns the union of sets.
func union1(s Set, ss ...Set) Set {
	u := s.Clone()
	for _, t := range ss {
		for i := range u {
			u[i] |= t[i]
		}
	}
	return u
}

func relEqual(a, b Rel) bool {
	aw, bw := a.Words(), b.Words()
	for i := range aw {
		if aw[i] != bw[i] {
			return false
		}
	}
	return true
}

// matchRCU pairs each rcu_read_lock with its rcu_read_unlock, innermost
// first, as the recursive definition of rcu-rscs in linux-kernel.bell
// does: an unmatched lock matches the first later unmatched unlock with no
// unmatched event in between, which is bracket matching with a stack.
func (x *execution) matchRCU(lock, unlock Set) Rel {
	r := x.al.Rel(x.n)
	var stack []int
	cur := -2
	for i := range x.ev {
		if x.thread[i] != cur {
			cur, stack = x.thread[i], stack[:0]
		}
		switch {
		case lock.Has(i):
			stack = append(stack, i)
		case unlock.Has(i):
			if len(stack) > 0 {
				r.Add(stack[len(stack)-1], i)
				stack = stack[:len(stack)-1]
			}
		}
	}
	return r
}

// critical returns lock.cat's critical relation: each LKW with the first
// later UL of the same location in its thread, when no LKW or UL of that
// location comes in between.
func (x *execution) critical(LKW, UL Set) Rel {
	r := x.al.Rel(x.n)
	LKW.Each(func(i int) {
		for j := i + 1; j < x.n && x.thread[j] == x.thread[i]; j++ {
			if x.ev[j].loc != x.ev[i].loc {
				continue
			}
			if UL.Has(j) {
				r.Add(i, j)
				return
			}
			if LKW.Has(j) {
				return
			}
		}
	})
	return r
}
