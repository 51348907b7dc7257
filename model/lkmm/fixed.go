package lkmm

// fixedRels are the sets and relations of the model that depend only on
// the events of the threads' paths, not on rf or co. They are computed
// once per combination of paths (execution) and shared by all its
// candidates; eval computes the rest per candidate. The cat lines they
// implement are quoted as in eval.
type fixedRels struct {
	failed string   // lock-nest, nested-is-locked or unmatched-locks, or ""
	flags  []string // flags that do not depend on rf or co

	all                                    Set
	LKR, UL                                Set
	Noreturn, SyncRcu, SyncSrcu            Set
	SrcuLock, SrcuUnlock, notSU            Set
	Marked, Plain, R4rmb                   Set
	rmw, rcuRscs, poloc, dataNotSU         Rel
	poRel, wmb, poUL                       Rel
	pulpPo, strongFence, nonrwFence, fence Rel  // without the rf part of po-unlock-lock-po
	locks                                  bool // there are UL and LKR events: po-unlock-lock-po has an rf part

	// Terms of the per-candidate relations that do not depend on rf or
	// co (see catRun): the empty relation, the identity, po?, po ; [M],
	// ppo's to-r, to-w, fence and po-unlock-lock-po terms without rf, co
	// and carry-dep, dep ; [Marked], strong-fence | po-rel, the two Rmb
	// terms of the plain accesses' bounds, pre-race, rcu-gp, srcu-gp and
	// rcu-rscs^-1.
	empty, id, poq, poM, ppoFixed, depMarked, sfPoRel Rel
	rmbPre, rmbPost, preRace, rcuGp, srcuGp, rcuRscsi Rel
	// rcu numbers the events rcu-order can relate (rcu.go); nil when
	// there are none or more than 64.
	rcu *rcuEvents
}

// fixed returns x's fixed relations, computing them on first use. The
// enumeration calls it before it marks the arena for candidates, so that
// they survive each candidate's reset.
func (x *execution) fixed() *fixedRels {
	if x.fix != nil {
		return x.fix
	}
	f := &fixedRels{}
	x.fix = f
	n := x.n
	all := newSet(n).Compl(n)
	f.all = all
	al := x.al
	id := func(s Set) Rel { return al.Ident(n, s) }
	fencerel := func(s Set) Rel { return x.po.Restrict(nil, s).Seq(x.po) }
	po, rmw0 := x.po, x.rmw

	// ---- linux-kernel.bell ----
	LKR, LKW, UL := x.tagged(tLKR), x.tagged(tLKW), x.tagged(tUL)
	LF0, RL, RU := x.tagged(tLF), x.tagged(tRL), x.tagged(tRU)
	SrcuLock, SrcuUnlock := x.tagged(tSrcuLock), x.tagged(tSrcuUnlock)
	RMWset := x.tagged(tRMW)
	// The rmw of the bell is the RMW primitives' only; lock.cat adds
	// lk-rmw later.
	lkrmw := rmw0.Restrict(LKR, LKW)
	rmw := rmw0.Minus(lkrmw)
	// let FailedRMW = RMW \ (domain(rmw) | range(rmw))
	FailedRMW := RMWset.Minus(rmw.Domain().Union(rmw.Range()))
	// let Acquire = ACQUIRE \ W \ FailedRMW
	Acquire := x.tagged(tAcquire).Minus(x.W).Minus(FailedRMW)
	// let Release = RELEASE \ R \ FailedRMW
	Release := x.tagged(tRelease).Minus(x.R).Minus(FailedRMW)
	// let Mb = MB \ FailedRMW
	Mb := x.tagged(tMb).Minus(FailedRMW)
	// let Noreturn = NORETURN \ W
	Noreturn := x.tagged(tNoreturn).Minus(x.W)
	RcuLock, RcuUnlock := x.fenceSets[fRcuLock], x.fenceSets[fRcuUnlock]
	SyncRcu, SyncSrcu := x.fenceSets[fSyncRcu], x.syncSrcu

	// let rcu-rscs = let rec ... (matching nested Rcu-lock/Rcu-unlock)
	rcuRscs := x.matchRCU(RcuLock, RcuUnlock)
	// flag ~empty Rcu-lock \ domain(rcu-rscs) as unmatched-rcu-lock
	if !RcuLock.Minus(rcuRscs.Domain()).Empty() {
		f.flags = append(f.flags, "unmatched-rcu-lock")
	}
	// flag ~empty Rcu-unlock \ range(rcu-rscs) as unmatched-rcu-unlock
	if !RcuUnlock.Minus(rcuRscs.Range()).Empty() {
		f.flags = append(f.flags, "unmatched-rcu-unlock")
	}
	notSU := SrcuUnlock.Compl(n)
	// (the srcu-rscs flags depend on rf: see eval)
	// flag ~empty rcu-rscs & (po ; [Sync-srcu] ; po) as invalid-sleep
	if !rcuRscs.Inter(fencerel(SyncSrcu)).Empty() {
		f.flags = append(f.flags, "invalid-sleep")
	}
	// let Marked = (~M) | IW | ONCE | RELEASE | ACQUIRE | MB | RMW |
	//	LKR | LKW | UL | LF | RL | RU | Srcu-lock | Srcu-unlock
	Marked := x.M.Compl(n)
	for _, t := range []tag{tIW, tOnce, tRelease, tAcquire, tMb, tRMW, tLKR, tLKW, tUL, tLF, tRL, tRU, tSrcuLock, tSrcuUnlock} {
		Marked = Marked.Union(x.tagged(t))
	}
	// let Plain = M \ Marked
	Plain := x.M.Minus(Marked)

	// ---- lock.cat ----
	LF := LF0.Union(RL) // let LF = LF | RL
	// let ALL-LOCKS = LKR | LKW | UL | LF | RU | Srcu-lock | Srcu-unlock | Sync-srcu
	allLocks := union1(LKR, LKW, UL, LF, RU, SrcuLock, SrcuUnlock, SyncSrcu)
	// flag ~empty [M \ IW \ ALL-LOCKS] ; loc ; [ALL-LOCKS] as mixed-lock-accesses
	if !x.loc.Restrict(x.M.Minus(x.IW).Minus(allLocks), allLocks).Empty() {
		f.flags = append(f.flags, "mixed-lock-accesses")
	}
	// flag ~empty [FW] ; loc ; [ALL-LOCKS] as lock-final
	// FW, herd's final writes, are the writes the final state shows:
	// the flag says the final section looks at a lock.
	lockFinal := false
	allLocks.Each(func(i int) {
		if l := x.ev[i].loc; l >= 0 && l < len(x.finalLoc) && x.finalLoc[l] {
			lockFinal = true
		}
	})
	if lockFinal {
		f.flags = append(f.flags, "lock-final")
	}
	poloc := po.Inter(x.loc)
	// let rmw = rmw | lk-rmw
	rmw = union(rmw, lkrmw)
	// empty ([LKW] ; po-loc ; [LKR]) \ (po-loc ; [UL] ; po-loc) as lock-nest
	throughUL := poloc.Restrict(nil, UL).Seq(poloc)
	if !poloc.Restrict(LKW, LKR).Minus(throughUL).Empty() {
		f.failed = axLockNest
		return f
	}
	// empty ([LKW] ; po-loc ; [RU]) \ (po-loc ; [UL] ; po-loc) as nested-is-locked
	if !poloc.Restrict(LKW, RU).Minus(throughUL).Empty() {
		f.failed = axNestedIsLocked
		return f
	}
	// let critical = ([LKW] ; po-loc ; [UL]) \ (po-loc ; [LKW | UL] ; po-loc)
	critical := x.critical(LKW, UL)
	// flag ~empty UL \ range(critical) as unmatched-unlock
	if !UL.Minus(critical.Range()).Empty() {
		f.flags = append(f.flags, "unmatched-unlock")
	}
	// empty ([UNMATCHED-LKW] ; loc ; [UNMATCHED-LKW]) \ id as unmatched-locks
	unmatchedLKW := LKW.Minus(critical.Domain())
	if !x.loc.Restrict(unmatchedLKW, unmatchedLKW).Minus(id(all)).Empty() {
		f.failed = axUnmatchedLocks
		return f
	}
	// let R = R | LKR | LF | RU ; let W = W | LKW ; ... let W = W | UL ;
	// let M = R | W: the event kinds already include them.
	R, W, M := x.R, x.W, x.M
	// let Release = Release | UL ; let Acquire = Acquire | LKR
	Release = Release.Union(UL)
	Acquire = Acquire.Union(LKR)

	// ---- linux-kernel.cat ----
	// let acq-po = [Acquire] ; po ; [M]
	acqPo := po.Restrict(Acquire, M)
	// let po-rel = [M] ; po ; [Release]
	poRel := po.Restrict(M, Release)
	// let po-unlock-lock-po = po ; [UL] ; (po|rf) ; [LKR] ; po
	// Here its po part; eval adds po ; [UL] ; rf ; [LKR] ; po.
	poUL := po.Restrict(nil, UL)
	pulpPo := seqs(poUL, po.Restrict(nil, LKR), po)
	// let rmb = [R4rmb] ; fencerel(Rmb) ; [R4rmb]
	R4rmb := R.Minus(Noreturn)
	rmb := fencerel(x.fenceSets[fRmb]).Restrict(R4rmb, R4rmb)
	// let wmb = [W] ; fencerel(Wmb) ; [W]
	wmb := fencerel(x.fenceSets[fWmb]).Restrict(W, W)
	poq := po.Opt()
	mb := union(
		// ([M] ; fencerel(Mb) ; [M]) |
		fencerel(Mb).Restrict(M, M),
		// ([M] ; po ; [Mb & R]) |
		po.Restrict(M, Mb.Inter(R)),
		// ([Mb & W] ; po ; [M]) |
		po.Restrict(Mb.Inter(W), M),
		// ([M] ; fencerel(Before-atomic) ; [RMW] ; po? ; [M]) |
		fencerel(x.fenceSets[fBeforeAtomic]).Restrict(M, RMWset).Seq(poq.Restrict(nil, M)),
		// ([M] ; po? ; [RMW] ; fencerel(After-atomic) ; [M]) |
		poq.Restrict(M, RMWset).Seq(fencerel(x.fenceSets[fAfterAtomic]).Restrict(nil, M)),
		// ([M] ; po? ; [LKW] ; fencerel(After-spinlock) ; [M]) |
		poq.Restrict(M, LKW).Seq(fencerel(x.fenceSets[fAfterSpinlock]).Restrict(nil, M)),
		// ([M] ; po-unlock-lock-po ; [After-unlock-lock] ; po ; [M]) |
		pulpPo.Restrict(M, x.fenceSets[fAfterUnlockLock]).Seq(po.Restrict(nil, M)),
		// ([M] ; po? ; [Srcu-unlock] ; fencerel(After-srcu-read-unlock) ; [M])
		poq.Restrict(M, SrcuUnlock).Seq(fencerel(x.fenceSets[fAfterSrcuReadUnlock]).Restrict(nil, M)),
	)
	// let gp = po ; [Sync-rcu | Sync-srcu] ; po?
	gp := po.Restrict(nil, SyncRcu.Union(SyncSrcu)).Seq(poq)
	// let strong-fence = mb | gp
	strongFence := union(mb, gp)
	// let nonrw-fence = strong-fence | po-rel | acq-po
	nonrwFence := union(strongFence, poRel, acqPo)
	// let fence = nonrw-fence | wmb | rmb
	fence := union(nonrwFence, wmb, rmb)

	// let barrier = fencerel(Barrier | Rmb | Wmb | Mb | Sync-rcu | Sync-srcu |
	//	Before-atomic | After-atomic | Acquire | Release |
	//	Rcu-lock | Rcu-unlock | Srcu-lock | Srcu-unlock) |
	//	(po ; [Release]) | ([Acquire] ; po)
	bset := union1(x.fenceSets[fBarrier], x.fenceSets[fRmb], x.fenceSets[fWmb], Mb, SyncRcu, SyncSrcu,
		x.fenceSets[fBeforeAtomic], x.fenceSets[fAfterAtomic], Acquire, Release, RcuLock, RcuUnlock, SrcuLock, SrcuUnlock)
	barrier := union(fencerel(bset), po.Restrict(nil, Release), po.Restrict(Acquire, nil))
	// let mixed-accesses = ([Plain & W] ; (po-loc \ barrier) ; [Marked]) |
	//	([Marked] ; (po-loc \ barrier) ; [Plain & W])
	plocNB := poloc.Minus(barrier)
	PlainW := Plain.Inter(W)
	if !union(plocNB.Restrict(PlainW, Marked), plocNB.Restrict(Marked, PlainW)).Empty() {
		f.flags = append(f.flags, "mixed-accesses")
	}

	*f = fixedRels{
		flags: f.flags, all: all, LKR: LKR, UL: UL,
		Noreturn: Noreturn, SyncRcu: SyncRcu, SyncSrcu: SyncSrcu,
		SrcuLock: SrcuLock, SrcuUnlock: SrcuUnlock, notSU: notSU,
		Marked: Marked, Plain: Plain, R4rmb: R4rmb,
		rmw: rmw, rcuRscs: rcuRscs, poloc: poloc, dataNotSU: x.data.Restrict(nil, notSU),
		poRel: poRel, wmb: wmb, poUL: poUL,
		pulpPo: pulpPo, strongFence: strongFence, nonrwFence: nonrwFence, fence: fence,
		locks: !UL.Empty() && !LKR.Empty(),
	}
	f.fixedTerms(x, rcuRscs)
	return f
}

// fixedTerms computes the rf- and co-independent terms of the relations
// eval computes per candidate.
func (f *fixedRels) fixedTerms(x *execution, rcuRscs Rel) {
	n, al, po := x.n, x.al, x.po
	id := func(s Set) Rel { return al.Ident(n, s) }
	f.empty, f.id, f.poq, f.poM = al.Rel(n), id(f.all), po.Opt(), po.Restrict(nil, x.M)
	// let dep = addr | data
	dep := union(x.addr, x.data)
	// to-r's (addr ; [R]), to-w's rwdep and (addr ; [Plain] ; wmb), and
	// (fence & int) | (po-unlock-lock-po & int) without rf
	f.ppoFixed = union(union(dep, x.ctrl).Restrict(nil, x.W), x.addr.Restrict(nil, f.Plain).Seq(f.wmb),
		x.addr.Restrict(nil, x.R), f.fence.Inter(x.int_), f.pulpPo.Inter(x.int_))
	f.depMarked = dep.Restrict(nil, f.Marked)
	f.sfPoRel = union(f.strongFence, f.poRel)
	rmbRel := po.Restrict(nil, x.fenceSets[fRmb]).Seq(po)
	notNR := f.Noreturn.Compl(n)
	// [R4rmb] ; fencerel(Rmb) ; [~Noreturn] and its converse
	f.rmbPre, f.rmbPost = rmbRel.Restrict(f.R4rmb, notNR), rmbRel.Restrict(notNR, f.R4rmb)
	// let pre-race = ext & ((Plain * M) | ((M \ IW) * Plain))
	f.preRace = x.ext.Inter(union(al.Cross(n, f.Plain, x.M), al.Cross(n, x.M.Minus(x.IW), f.Plain)))
	f.rcuGp, f.srcuGp, f.rcuRscsi = id(f.SyncRcu), id(f.SyncSrcu), rcuRscs.Inv()
	if !f.SyncRcu.Empty() || !f.SyncSrcu.Empty() {
		s := union1(f.SyncRcu, f.SyncSrcu, rcuRscs.Domain(), rcuRscs.Range(), f.SrcuLock, f.SrcuUnlock)
		f.rcu = newRCUEvents(x, s, rcuRscs, f.SyncRcu, f.SyncSrcu)
	}
}
