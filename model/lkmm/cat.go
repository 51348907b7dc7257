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
func (x *execution) model(explain bool) outcome { return x.eval(explain, false) }

// hbFails reports whether x, whose rf and co may be a part of a
// candidate's, already fails a check up to happens-before. Those checks
// (lock-nest, nested-is-locked, unmatched-locks, coherence, atomic,
// happens-before) are monotone in rf and co: their relations are built
// from rf, co and fixed relations by union, sequence, intersection with
// fixed relations and closure, so a cycle or a non-empty intersection
// found with part of rf and co stays with all of it, and no extension of
// the part is consistent.
func (x *execution) hbFails() bool { return x.eval(false, true).failed != "" }

func (x *execution) eval(explain, uptoHB bool) outcome {
	n := x.n
	al := x.al
	id := func(s Set) Rel { return al.Ident(n, s) }
	fencerel := func(s Set) Rel { return x.po.Restrict(nil, s).Seq(x.po) }
	po, rf, co := x.po, x.rf, x.co
	ext := x.ext
	rfi := rf.Inter(x.int_)
	f := x.fixed()
	if f.failed != "" {
		return outcome{failed: f.failed}
	}
	all := f.all
	Noreturn := f.Noreturn
	SyncRcu, SyncSrcu := f.SyncRcu, f.SyncSrcu
	SrcuLock, SrcuUnlock, notSU := f.SrcuLock, f.SrcuUnlock, f.notSU
	Marked, Plain, R4rmb := f.Marked, f.Plain, f.R4rmb
	R, W, M := x.R, x.W, x.M
	rmw, rcuRscs, poloc := f.rmw, f.rcuRscs, f.poloc
	poRel := f.poRel
	poq := po.Opt()

	flags := append([]string(nil), f.flags...)
	// let srcu-rscs = ([Srcu-lock] ; carry-srcu-data ; data ; [Srcu-unlock]) & loc
	srcuRscs := al.Rel(n)
	if !SrcuLock.Empty() {
		// let carry-srcu-data = (data ; [~ Srcu-unlock] ; rf)*
		carrySrcu := x.data.Restrict(nil, notSU).Seq(rf).Star()
		srcuRscs = carrySrcu.Restrict(SrcuLock, nil).Seq(x.data.Restrict(nil, SrcuUnlock)).Inter(x.loc)
	}
	// flag ~empty Srcu-lock \ domain(srcu-rscs) as unmatched-srcu-lock
	if !SrcuLock.Minus(srcuRscs.Domain()).Empty() {
		flags = append(flags, "unmatched-srcu-lock")
	}
	// flag ~empty Srcu-unlock \ range(srcu-rscs) as unmatched-srcu-unlock
	if !SrcuUnlock.Minus(srcuRscs.Range()).Empty() {
		flags = append(flags, "unmatched-srcu-unlock")
	}
	// flag ~empty (srcu-rscs^-1 ; srcu-rscs) \ id as multiple-srcu-matches
	if !srcuRscs.Inv().Seq(srcuRscs).Minus(id(all)).Empty() {
		flags = append(flags, "multiple-srcu-matches")
	}
	// flag ~empty different-values(srcu-rscs) as srcu-bad-value-match
	for _, pr := range srcuRscs.Pairs() {
		if x.ev[pr[0]].val != x.ev[pr[1]].val {
			flags = append(flags, "srcu-bad-value-match")
			break
		}
	}
	// let carry-dep = (data ; [~ Srcu-unlock] ; rfi)*
	// let addr = carry-dep ; addr   (and likewise ctrl, data)
	addr, ctrl, data := x.addr, x.ctrl, x.data
	if step := f.dataNotSU.Seq(rfi); !step.Empty() {
		// (carry-dep is the identity when no data feeds an rfi.)
		carryDep := step.Star()
		addr, ctrl, data = carryDep.Seq(x.addr), carryDep.Seq(x.ctrl), carryDep.Seq(x.data)
	}

	// The final rf and co (generated with the lock rules by the
	// enumerator): co includes UL after its LKW, rf the LKR reads.
	fr := rf.Inv().Seq(co)
	// let fre = fr & ext ... (co, rf, fr split into internal and external)
	rfe := rf.Inter(ext)
	rfi = rf.Inter(x.int_)
	coe := co.Inter(ext)
	fre := fr.Inter(ext)

	// ---- linux-kernel.cat ----
	// let po-unlock-lock-po = po ; [UL] ; (po|rf) ; [LKR] ; po
	// (its po-only part is fixed; only the rf part is computed here)
	pulp, strongFence, nonrwFence, fence := f.pulpPo, f.strongFence, f.nonrwFence, f.fence
	if f.locks {
		pulp = union(f.pulpPo, seqs(f.poUL, rf.Restrict(nil, f.LKR), po))
		// mb's ([M] ; po-unlock-lock-po ; [After-unlock-lock] ; po ; [M])
		// term, the only part of mb, strong-fence and fence that
		// depends on rf
		pulpMb := pulp.Restrict(M, x.fenceSets[fAfterUnlockLock]).Seq(po.Restrict(nil, M))
		strongFence = union(strongFence, pulpMb)
		nonrwFence = union(nonrwFence, pulpMb)
		fence = union(fence, pulpMb)
	}

	// let com = rf | co | fr ; acyclic po-loc | com as coherence
	if c := union(poloc, rf, co, fr); !c.Acyclic() {
		return x.fail(axCoherence, c, explain, &relations{rf: rf, co: co, fr: fr, po: po})
	}
	// empty rmw & (fre ; coe) as atomic
	if !rmw.Inter(fre.Seq(coe)).Empty() {
		return x.fail(axAtomic, rmw.Inter(fre.Seq(coe)), explain, &relations{rf: rf, co: co, fr: fr, po: po, rmw: rmw})
	}

	// let dep = addr | data
	dep := union(addr, data)
	// let rwdep = (dep | ctrl) ; [W]
	rwdep := union(dep, ctrl).Restrict(nil, W)
	// let overwrite = co | fr
	overwrite := union(co, fr)
	// let to-w = rwdep | (overwrite & int) | (addr ; [Plain] ; wmb)
	toW := union(rwdep, overwrite.Inter(x.int_), addr.Restrict(nil, Plain).Seq(f.wmb))
	// let to-r = (addr ; [R]) | (dep ; [Marked] ; rfi)
	toR := union(addr.Restrict(nil, R), dep.Restrict(nil, Marked).Seq(rfi))
	// let ppo = to-r | to-w | (fence & int) | (po-unlock-lock-po & int)
	ppo := union(toR, toW, fence.Inter(x.int_), pulp.Inter(x.int_))

	// let A-cumul(r) = (rfe ; [Marked])? ; r
	aCumul := func(r Rel) Rel { return rfe.Restrict(nil, Marked).Opt().Seq(r) }
	// let rmw-sequence = (rf ; rmw)*
	rmwSeq := rf.Seq(rmw).Star()
	// let cumul-fence = [Marked] ; (A-cumul(strong-fence | po-rel) | wmb |
	//	po-unlock-lock-po) ; [Marked] ; rmw-sequence
	cumulFence := union(aCumul(union(strongFence, poRel)), f.wmb, pulp).Restrict(Marked, Marked).Seq(rmwSeq)
	// let prop = [Marked] ; (overwrite & ext)? ; cumul-fence* ;
	//	[Marked] ; rfe? ; [Marked]
	prop := seqs(overwrite.Inter(ext).Opt().Restrict(Marked, nil), cumulFence.Star().Restrict(nil, Marked),
		rfe.Opt().Restrict(nil, Marked))
	// let hb = [Marked] ; (ppo | rfe | ((prop \ id) & int)) ; [Marked]
	hb := union(ppo, rfe, prop.Minus(id(all)).Inter(x.int_)).Restrict(Marked, Marked)
	// acyclic hb as happens-before
	if !hb.Acyclic() {
		return x.fail(axHB, hb, explain, &relations{rf: rf, co: co, fr: fr, po: po, ppo: ppo, prop: prop})
	}
	if uptoHB {
		return outcome{}
	}
	hbStar := hb.Star()
	// let pb = prop ; strong-fence ; hb* ; [Marked]
	pb := seqs(prop, strongFence, hbStar.Restrict(nil, Marked))
	// acyclic pb as propagation
	if !pb.Acyclic() {
		return x.fail(axPB, pb, explain, &relations{rf: rf, co: co, fr: fr, po: po, prop: prop, hb: hb, strongFence: strongFence})
	}
	pbStar := pb.Star()

	// ---- RCU ----
	// let rcu-gp = [Sync-rcu] ; let srcu-gp = [Sync-srcu]
	rcuGp, srcuGp := id(SyncRcu), id(SyncSrcu)
	// let rcu-rscsi = rcu-rscs^-1 ; let srcu-rscsi = srcu-rscs^-1
	rcuRscsi, srcuRscsi := rcuRscs.Inv(), srcuRscs.Inv()
	var rcuFence, rb Rel
	if SyncRcu.Empty() && SyncSrcu.Empty() {
		// rcu-order is empty without grace periods.
		rcuFence, rb = al.Rel(n), al.Rel(n)
	} else {
		// let rcu-link = po? ; hb* ; pb* ; prop ; po
		rcuLink := seqs(poq, hbStar, pbStar, prop, po)
		// let rec rcu-order = rcu-gp | srcu-gp |
		//	(rcu-gp ; rcu-link ; rcu-rscsi) |
		//	((srcu-gp ; rcu-link ; srcu-rscsi) & loc) |
		//	(rcu-rscsi ; rcu-link ; rcu-gp) |
		//	((srcu-rscsi ; rcu-link ; srcu-gp) & loc) |
		//	(rcu-gp ; rcu-link ; rcu-order ; rcu-link ; rcu-rscsi) |
		//	((srcu-gp ; rcu-link ; rcu-order ; rcu-link ; srcu-rscsi) & loc) |
		//	(rcu-rscsi ; rcu-link ; rcu-order ; rcu-link ; rcu-gp) |
		//	((srcu-rscsi ; rcu-link ; rcu-order ; rcu-link ; srcu-gp) & loc) |
		//	(rcu-order ; rcu-link ; rcu-order)
		// computed as a least fixed point.
		base := union(rcuGp, srcuGp,
			seqs(rcuGp, rcuLink, rcuRscsi),
			seqs(srcuGp, rcuLink, srcuRscsi).Inter(x.loc),
			seqs(rcuRscsi, rcuLink, rcuGp),
			seqs(srcuRscsi, rcuLink, srcuGp).Inter(x.loc))
		order := base
		for {
			lo := seqs(rcuLink, order, rcuLink)
			next := union(base,
				seqs(rcuGp, lo, rcuRscsi),
				seqs(srcuGp, lo, srcuRscsi).Inter(x.loc),
				seqs(rcuRscsi, lo, rcuGp),
				seqs(srcuRscsi, lo, srcuGp).Inter(x.loc),
				seqs(order, rcuLink, order))
			if relEqual(next, order) {
				break
			}
			order = next
		}
		// let rcu-fence = po ; rcu-order ; po?
		rcuFence = seqs(po, order, poq)
		// let rb = prop ; rcu-fence ; hb* ; pb* ; [Marked]
		rb = seqs(prop, rcuFence, hbStar, pbStar.Restrict(nil, Marked))
	}
	// let fence = fence | rcu-fence ; let strong-fence = strong-fence | rcu-fence
	fence2 := union(fence, rcuFence)
	strongFence2 := union(strongFence, rcuFence)
	// irreflexive rb as rcu
	if !rb.Irreflexive() {
		return x.fail(axRCU, rb, explain, &relations{rf: rf, co: co, fr: fr, po: po, prop: prop, hb: hb, pb: pb, rb: rb})
	}

	// ---- Plain accesses and data races ----
	if !Plain.Empty() {
		// let xbstar = (hb | pb | rb)*
		xbstar := union(hb, pb, rb).Star()
		// let vis = cumul-fence* ; rfe? ; [Marked] ;
		//	((strong-fence ; [Marked] ; xbstar) | (xbstar & int))
		vis := seqs(cumulFence.Star(), rfe.Opt().Restrict(nil, Marked),
			union(strongFence2.Restrict(nil, Marked).Seq(xbstar), xbstar.Inter(x.int_)))
		notNR := Noreturn.Compl(n)
		rmbRel := fencerel(x.fenceSets[fRmb])
		// let w-pre-bounded = [Marked] ; (addr | fence)?
		wPre := union(addr, fence2).Opt().Restrict(Marked, nil)
		// let r-pre-bounded = [Marked] ; (addr | nonrw-fence |
		//	([R4rmb] ; fencerel(Rmb) ; [~Noreturn]))?
		rPre := union(addr, nonrwFence, rmbRel.Restrict(R4rmb, notNR)).Opt().Restrict(Marked, nil)
		// let w-post-bounded = fence? ; [Marked] ; rmw-sequence
		wPost := fence2.Opt().Restrict(nil, Marked).Seq(rmwSeq)
		// let r-post-bounded = (nonrw-fence | ([~Noreturn] ; fencerel(Rmb) ;
		//	[R4rmb]))? ; [Marked]
		rPost := union(nonrwFence, rmbRel.Restrict(notNR, R4rmb)).Opt().Restrict(nil, Marked)
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
		preRace := ext.Inter(union(al.Cross(n, Plain, M), al.Cross(n, M.Minus(x.IW), Plain)))
		// let wr-incoh = pre-race & rf & rw-xbstar^-1
		// let rw-incoh = pre-race & fr & wr-vis^-1
		// let ww-incoh = pre-race & co & ww-vis^-1
		// empty (wr-incoh | rw-incoh | ww-incoh) as plain-coherence
		incoh := union(preRace.Inter(rf).Inter(rwXbstar.Inv()),
			preRace.Inter(fr).Inter(wrVis.Inv()),
			preRace.Inter(co).Inter(wwVis.Inv()))
		if !incoh.Empty() {
			return x.fail(axPlain, incoh, explain, &relations{rf: rf, co: co, fr: fr, po: po})
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
			flags = append(flags, "data-race")
		}
	}
	sort.Strings(flags)
	return outcome{flags: flags}
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
