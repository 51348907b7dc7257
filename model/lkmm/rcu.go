package lkmm

import "math/bits"

// This file is linux-kernel.cat's RCU part: rcu-link, the least fixed
// point rcu-order, rcu-fence and rb, and the rcu check. It is computed in
// one of two ways with the same answer:
//
//   - as written, over relations of the whole execution (Options.plainModel,
//     an explanation, and executions with more than 64 RCU events);
//   - over the RCU events only. rcu-order relates grace periods
//     (Sync-rcu, Sync-srcu) and the ends of read-side critical sections
//     (rcu-rscs^-1 and srcu-rscs^-1 go from an unlock to its lock): every
//     term of its definition starts and ends at such an event, so it is
//     a relation over those K events, and of rcu-link only the pairs
//     between them matter. With K <= 64 a relation over them is one word
//     a row, and the fixed point costs K² word operations a round where
//     the relations of a 19-thread ring cost n² (n = 95). The rcu check
//     (irreflexive rb) then needs, for each event e, whether e reaches
//     itself through prop ; po ; rcu-order ; po? ; hb* ; pb*, which the
//     rows kept for rcu-link answer without building rb.

// crossCheckRCU, set by tests, has every rcu-order computed over the RCU
// events compared with rcu-order as written.
var crossCheckRCU bool

// rcuEvents numbers the events rcu-order can relate (fixedRels.rcu).
type rcuEvents struct {
	ev    []int    // the event of each number
	num   []int    // the number of each event, -1 for the others
	gp    uint64   // the numbers of Sync-rcu events
	sgp   uint64   // the numbers of Sync-srcu events
	rscsi []uint64 // rcu-rscs^-1 over the numbers
	loc   []uint64 // loc over the numbers
	po    []uint64 // po[e]: the numbers po-after event e, for every event
}

// newRCUEvents numbers the events of s, or returns nil when there are
// more than 64.
func newRCUEvents(x *execution, s Set, rcuRscs Rel, SyncRcu, SyncSrcu Set) *rcuEvents {
	r := &rcuEvents{num: make([]int, x.n)}
	for i := range r.num {
		r.num[i] = -1
	}
	s.Each(func(e int) {
		r.num[e] = len(r.ev)
		r.ev = append(r.ev, e)
	})
	if len(r.ev) > 64 {
		return nil
	}
	k := len(r.ev)
	r.rscsi, r.loc, r.po = make([]uint64, k), make([]uint64, k), make([]uint64, x.n)
	for a, e := range r.ev {
		if SyncRcu.Has(e) {
			r.gp |= 1 << a
		}
		if SyncSrcu.Has(e) {
			r.sgp |= 1 << a
		}
		for b, g := range r.ev {
			if rcuRscs.Has(g, e) {
				r.rscsi[a] |= 1 << b
			}
			if x.loc.Has(e, g) {
				r.loc[a] |= 1 << b
			}
		}
	}
	for e := range r.po {
		x.po.Row(e).Each(func(g int) {
			if b := r.num[g]; b >= 0 {
				r.po[e] |= 1 << b
			}
		})
	}
	return r
}

// rcu computes rcu-fence and rb and checks rcu.
func (c *catRun) rcu() (outcome, bool) {
	x, f := c.x, c.f
	if f.SyncRcu.Empty() && f.SyncSrcu.Empty() {
		// rcu-order is empty without grace periods.
		c.rcuFence, c.rb = f.empty, f.empty
		return outcome{}, false
	}
	var order Rel
	if f.rcu == nil || c.explain || x.plain {
		order = c.rcuOrder()
	} else {
		sm := c.newRCUSmall()
		if crossCheckRCU && !relEqual(sm.orderRel(), c.rcuOrder()) {
			panic("lkmm: rcu-order over the RCU events differs from rcu-order as written")
		}
		if f.Plain.Empty() {
			// The rest of the model needs neither rcu-fence nor rb.
			if !sm.rbIrreflexive() {
				return outcome{failed: axRCU}, true
			}
			return outcome{}, false
		}
		order = sm.orderRel()
	}
	// let rcu-fence = po ; rcu-order ; po?
	c.rcuFence = seqs(c.po, order, f.poq)
	// let rb = prop ; rcu-fence ; hb* ; pb* ; [Marked]
	c.rb = seqs(c.prop, c.rcuFence, c.hbStar, c.pbStar.Restrict(nil, f.Marked))
	// irreflexive rb as rcu
	if !c.rb.Irreflexive() {
		return x.fail(axRCU, c.rb, c.explain, &relations{rf: c.rf, co: c.co, fr: c.fr, po: c.po, prop: c.prop, hb: c.hb, pb: c.pb, rb: c.rb}), true
	}
	return outcome{}, false
}

// rcuOrder computes rcu-order over the whole execution, as written.
func (c *catRun) rcuOrder() Rel {
	x, f := c.x, c.f
	// let rcu-gp = [Sync-rcu] ; let srcu-gp = [Sync-srcu]
	rcuGp, srcuGp := f.rcuGp, f.srcuGp
	// let rcu-rscsi = rcu-rscs^-1 ; let srcu-rscsi = srcu-rscs^-1
	rcuRscsi, srcuRscsi := f.rcuRscsi, c.srcuRscs.Inv()
	// let rcu-link = po? ; hb* ; pb* ; prop ; po
	rcuLink := seqs(f.poq, c.hbStar, c.pbStar, c.prop, c.po)
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
			return order
		}
		order = next
	}
}

// bm is a relation over at most 64 numbered events, a word a row.
type bm [64]uint64

// seq returns a ; b over k events.
func (a *bm) seq(b *bm, k int) bm {
	var out bm
	for i := 0; i < k; i++ {
		var o uint64
		for x := a[i]; x != 0; x &= x - 1 {
			o |= b[bits.TrailingZeros64(x)]
		}
		out[i] = o
	}
	return out
}

// from returns [s] ; a, and to returns a ; [s].
func (a *bm) from(s uint64, k int) bm {
	var out bm
	for i := 0; i < k; i++ {
		if s&(1<<i) != 0 {
			out[i] = a[i]
		}
	}
	return out
}

func (a *bm) to(s uint64, k int) bm {
	var out bm
	for i := 0; i < k; i++ {
		out[i] = a[i] & s
	}
	return out
}

// or adds b to a, masked by m when m is not nil.
func (a *bm) or(b *bm, m []uint64, k int) {
	for i := 0; i < k; i++ {
		if m != nil {
			a[i] |= b[i] & m[i]
		} else {
			a[i] |= b[i]
		}
	}
}

// rcuSmall is the RCU part of one candidate over its RCU events.
type rcuSmall struct {
	c     *catRun
	r     *rcuEvents
	k     int
	reach []Set    // reach[a]: the events po? ; hb* ; pb* leads to from event number a
	pp    []uint64 // pp[e]: the numbers prop ; po leads to from event e
	link  bm       // rcu-link over the numbers
	order bm       // rcu-order over the numbers
}

// newRCUSmall computes rcu-link and rcu-order over c's RCU events.
func (c *catRun) newRCUSmall() *rcuSmall {
	x, f := c.x, c.f
	r := f.rcu
	k := len(r.ev)
	sm := &c.small
	reach, pp := sm.reach, sm.pp
	if cap(reach) < k {
		reach = make([]Set, k)
	}
	if cap(pp) < x.n {
		pp = make([]uint64, x.n)
	}
	*sm = rcuSmall{c: c, r: r, k: k, reach: reach[:k], pp: pp[:x.n]}
	// rcu-link = po? ; hb* ; pb* ; prop ; po: the events po? ; hb* ; pb*
	// reaches from each RCU event, then the RCU events prop ; po
	// reaches from those.
	for e := range sm.pp {
		var o uint64
		c.prop.Row(e).Each(func(j int) { o |= r.po[j] })
		sm.pp[e] = o
	}
	for a, e := range r.ev {
		sm.reach[a] = c.pbStar.Image(c.hbStar.Image(f.poq.Row(e)))
		var o uint64
		sm.reach[a].Each(func(j int) { o |= sm.pp[j] })
		sm.link[a] = o
	}
	// srcu-rscs^-1 over the numbers (srcu-rscs depends on rf).
	var srscsi bm
	for a, e := range r.ev {
		c.srcuRscs.Row(e).Each(func(j int) { srscsi[r.num[j]] |= 1 << a })
	}
	var gpID, sgpID bm
	for i := 0; i < k; i++ {
		gpID[i] = r.gp & (1 << i)
		sgpID[i] = r.sgp & (1 << i)
	}
	var rscsi bm
	copy(rscsi[:], r.rscsi)
	// The terms of rcu-order around a middle relation m (rcu-link, or
	// rcu-link ; rcu-order ; rcu-link), added to acc.
	terms := func(acc *bm, m *bm) {
		g := m.from(r.gp, k)
		t := g.seq(&rscsi, k)
		acc.or(&t, nil, k)
		g = m.from(r.sgp, k)
		t = g.seq(&srscsi, k)
		acc.or(&t, r.loc, k)
		t = rscsi.seq(m, k)
		t = t.to(r.gp, k)
		acc.or(&t, nil, k)
		t = srscsi.seq(m, k)
		t = t.to(r.sgp, k)
		acc.or(&t, r.loc, k)
	}
	var base bm
	base.or(&gpID, nil, k)
	base.or(&sgpID, nil, k)
	terms(&base, &sm.link)
	order := base
	for {
		lo := sm.link.seq(&order, k)
		lo = lo.seq(&sm.link, k)
		next := base
		terms(&next, &lo)
		ol := order.seq(&sm.link, k)
		olo := ol.seq(&order, k)
		next.or(&olo, nil, k)
		if next == order {
			break
		}
		order = next
	}
	sm.order = order
	return sm
}

// rbIrreflexive reports whether rb = prop ; po ; rcu-order ; po? ; hb* ;
// pb* ; [Marked] is irreflexive: no Marked event e with a, b such that
// prop ; po leads from e to a, rcu-order from a to b, and po? ; hb* ; pb*
// from b back to e.
func (sm *rcuSmall) rbIrreflexive() bool {
	ok := true
	sm.c.f.Marked.Each(func(e int) {
		if !ok || sm.pp[e] == 0 {
			return
		}
		var to uint64
		for a := sm.pp[e]; a != 0; a &= a - 1 {
			to |= sm.order[bits.TrailingZeros64(a)]
		}
		for b := to; b != 0; b &= b - 1 {
			if sm.reach[bits.TrailingZeros64(b)].Has(e) {
				ok = false
				return
			}
		}
	})
	return ok
}

// orderRel returns rcu-order as a relation over the whole execution.
func (sm *rcuSmall) orderRel() Rel {
	x := sm.c.x
	o := x.al.Rel(x.n)
	for a := 0; a < sm.k; a++ {
		for b := sm.order[a]; b != 0; b &= b - 1 {
			o.Add(sm.r.ev[a], sm.r.ev[bits.TrailingZeros64(b)])
		}
	}
	return o
}
