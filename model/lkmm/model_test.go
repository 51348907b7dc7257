package lkmm

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// This file tests the model on hand-built executions: each test writes
// the events of every thread, picks rf and co, and checks which axiom of
// linux-kernel.cat rejects the execution (or that none does). No parser is
// involved.

// xbuild builds one execution by hand.
type xbuild struct {
	names   []string
	threads [][]event
	rf      [][2]int
	co      [][]int
	x       *execution
}

func newXbuild(names ...string) *xbuild {
	sort.Strings(names)
	return &xbuild{names: names}
}

func (b *xbuild) loc(name string) int {
	for i, n := range b.names {
		if n == name {
			return i
		}
	}
	panic("test: unknown location " + name)
}

// add appends an event to thread th and returns its thread-local index.
func (b *xbuild) add(th int, e event) int {
	for len(b.threads) <= th {
		b.threads = append(b.threads, nil)
	}
	e.thread = th
	if e.rmwR == 0 {
		e.rmwR = -1
	}
	b.threads[th] = append(b.threads[th], e)
	return len(b.threads[th]) - 1
}

func (b *xbuild) w(th int, loc string, v int64, t tag) int {
	return b.add(th, event{kind: evW, loc: b.loc(loc), val: intVal(v), tags: t})
}

func (b *xbuild) r(th int, loc string, v int64, t tag) int {
	return b.add(th, event{kind: evR, loc: b.loc(loc), val: intVal(v), tags: t})
}

func (b *xbuild) f(th int, k fenceKind) int {
	t := tag(0)
	if k == fMb {
		t = tMb
	}
	return b.add(th, event{kind: evF, loc: -1, fence: k, tags: t})
}

// rmwPair appends the read and write of an RMW.
func (b *xbuild) rmwPair(th int, loc string, old, new int64, t tag) (int, int) {
	r := b.r(th, loc, old, t|tRMW)
	w := b.add(th, event{kind: evW, loc: b.loc(loc), val: intVal(new), tags: t | tRMW})
	b.rmwFix(th, w, r)
	return r, w
}

// dep records a dependency of kind "addr", "data" or "ctrl" from the read
// from to the event to, both in thread th.
func (b *xbuild) dep(th int, kind string, from, to int) {
	e := &b.threads[th][to]
	switch kind {
	case "addr":
		e.addr = append(e.addr, from)
	case "data":
		e.data = append(e.data, from)
	case "ctrl":
		e.ctrl = append(e.ctrl, from)
	}
}

// g returns the global number of event i of thread th; th < 0 names the
// initial write of location i.
func (b *xbuild) g(th, i int) int {
	if th < 0 {
		return i
	}
	n := len(b.names)
	for t := 0; t < th; t++ {
		n += len(b.threads[t])
	}
	return n + i
}

func (b *xbuild) init(loc string) int { return b.loc(loc) }

// execution returns the execution with rf given as (write, read) global
// pairs and co as chains of global writes.
func (b *xbuild) execution(rf [][2]int, co ...[]int) *execution {
	p := &program{names: b.names, init: make([]Val, len(b.names))}
	var trs []*trace
	for _, evs := range b.threads {
		trs = append(trs, &trace{events: evs, regs: map[string]Val{}})
	}
	x := newExecution(p, trs, &arena{}, nil)
	x.rf, x.co = newRel(x.n), newRel(x.n)
	for _, pr := range rf {
		x.rf.Add(pr[0], pr[1])
	}
	for _, chain := range co {
		for i := range chain {
			for j := i + 1; j < len(chain); j++ {
				x.co.Add(chain[i], chain[j])
			}
		}
	}
	return x
}

// mp builds message passing: P0 writes x then y, P1 reads y=1 then x=0.
// The extra functions add fences or orderings to each side.
func mp(t0, t1 tag, f0, f1 fenceKind) *execution {
	b := newXbuild("x", "y")
	b.w(0, "x", 1, tOnce)
	if f0 != fNone {
		b.f(0, f0)
	}
	wy := b.w(0, "y", 1, tOnce|t0)
	ry := b.r(1, "y", 1, tOnce|t1)
	if f1 != fNone {
		b.f(1, f1)
	}
	rx := b.r(1, "x", 0, tOnce)
	return b.execution([][2]int{{b.g(0, wy), b.g(1, ry)}, {b.init("x"), b.g(1, rx)}},
		[]int{b.init("x"), b.g(0, 0)}, []int{b.init("y"), b.g(0, wy)})
}

func TestModelMP(t *testing.T) {
	for _, tc := range []struct {
		name   string
		t0, t1 tag
		f0, f1 fenceKind
		want   string
	}{
		{"poonceonces", 0, 0, fNone, fNone, ""},
		{"release+acquire", tRelease, tAcquire, fNone, fNone, axHB},
		{"wmb+rmb", 0, 0, fWmb, fRmb, axHB},
		{"wmb only", 0, 0, fWmb, fNone, ""},
		{"mb+mb", 0, 0, fMb, fMb, axHB},
		{"release only", tRelease, 0, fNone, fNone, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := mp(tc.t0, tc.t1, tc.f0, tc.f1).model(false)
			require.Equal(t, tc.want, out.failed)
		})
	}
}

// TestModelSB: store buffering needs a strong fence on both sides; the
// cycle is in pb (propagation), not in hb.
func TestModelSB(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    fenceKind
		want string
	}{{"poonceonces", fNone, ""}, {"mb", fMb, axPB}, {"wmb", fWmb, ""}, {"rmb", fRmb, ""}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newXbuild("x", "y")
			b.w(0, "x", 1, tOnce)
			if tc.f != fNone {
				b.f(0, tc.f)
			}
			r0 := b.r(0, "y", 0, tOnce)
			b.w(1, "y", 1, tOnce)
			if tc.f != fNone {
				b.f(1, tc.f)
			}
			r1 := b.r(1, "x", 0, tOnce)
			x := b.execution([][2]int{{b.init("y"), b.g(0, r0)}, {b.init("x"), b.g(1, r1)}},
				[]int{b.init("x"), b.g(0, 0)}, []int{b.init("y"), b.g(1, 0)})
			require.Equal(t, tc.want, x.model(false).failed)
		})
	}
}

// TestModelLB: load buffering is forbidden once each side has a
// dependency or an ordering into its write (hb through ppo and rfe).
func TestModelLB(t *testing.T) {
	for _, tc := range []struct {
		name string
		dep  string
		want string
	}{{"poonceonces", "", ""}, {"ctrl", "ctrl", axHB}, {"data", "data", axHB}, {"addr", "addr", axHB}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newXbuild("x", "y")
			r0 := b.r(0, "x", 1, tOnce)
			w0 := b.w(0, "y", 1, tOnce)
			r1 := b.r(1, "y", 1, tOnce)
			w1 := b.w(1, "x", 1, tOnce)
			if tc.dep != "" {
				b.dep(0, tc.dep, r0, w0)
				b.dep(1, tc.dep, r1, w1)
			}
			x := b.execution([][2]int{{b.g(1, w1), b.g(0, r0)}, {b.g(0, w0), b.g(1, r1)}},
				[]int{b.init("x"), b.g(1, w1)}, []int{b.init("y"), b.g(0, w0)})
			require.Equal(t, tc.want, x.model(false).failed)
		})
	}
}

// TestModelWRC: write-to-read causality is ordered by a release on the
// middle thread and an acquire (or rmb) on the last: A-cumulativity of
// the release makes it hb.
func TestModelWRC(t *testing.T) {
	for _, tc := range []struct {
		name string
		rel  tag
		f2   fenceKind
		want string
	}{{"poonceonces", 0, fNone, ""}, {"release+rmb", tRelease, fRmb, axHB}, {"once+rmb", 0, fRmb, ""}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newXbuild("x", "y")
			w0 := b.w(0, "x", 1, tOnce)
			r1 := b.r(1, "x", 1, tOnce)
			w1 := b.w(1, "y", 1, tOnce|tc.rel)
			r2 := b.r(2, "y", 1, tOnce)
			if tc.f2 != fNone {
				b.f(2, tc.f2)
			}
			r2x := b.r(2, "x", 0, tOnce)
			x := b.execution([][2]int{{b.g(0, w0), b.g(1, r1)}, {b.g(1, w1), b.g(2, r2)}, {b.init("x"), b.g(2, r2x)}},
				[]int{b.init("x"), b.g(0, w0)}, []int{b.init("y"), b.g(1, w1)})
			require.Equal(t, tc.want, x.model(false).failed)
		})
	}
}

// TestModelIRIW: independent reads of independent writes need full
// fences between the reads; rmb is not enough (the LKMM is not
// multicopy-atomic for ONCE accesses).
func TestModelIRIW(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    fenceKind
		want string
	}{{"poonceonces", fNone, ""}, {"mb", fMb, axPB}, {"rmb", fRmb, ""}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newXbuild("x", "y")
			wx := b.w(0, "x", 1, tOnce)
			wy := b.w(1, "y", 1, tOnce)
			a := b.r(2, "x", 1, tOnce)
			if tc.f != fNone {
				b.f(2, tc.f)
			}
			a2 := b.r(2, "y", 0, tOnce)
			c := b.r(3, "y", 1, tOnce)
			if tc.f != fNone {
				b.f(3, tc.f)
			}
			c2 := b.r(3, "x", 0, tOnce)
			x := b.execution([][2]int{{b.g(0, wx), b.g(2, a)}, {b.init("y"), b.g(2, a2)}, {b.g(1, wy), b.g(3, c)}, {b.init("x"), b.g(3, c2)}},
				[]int{b.init("x"), b.g(0, wx)}, []int{b.init("y"), b.g(1, wy)})
			require.Equal(t, tc.want, x.model(false).failed)
		})
	}
}

// TestModelCoherence: reading an older value after a newer one (CoRR) is a
// coherence cycle, and an RMW whose read and write are split by another
// write breaks atomicity.
func TestModelCoherence(t *testing.T) {
	b := newXbuild("x")
	w := b.w(0, "x", 1, tOnce)
	r1 := b.r(1, "x", 1, tOnce)
	r2 := b.r(1, "x", 0, tOnce)
	x := b.execution([][2]int{{b.g(0, w), b.g(1, r1)}, {b.init("x"), b.g(1, r2)}}, []int{b.init("x"), b.g(0, w)})
	require.Equal(t, axCoherence, x.model(false).failed)

	b = newXbuild("x")
	r, wr := b.rmwPair(0, "x", 0, 1, tOnce)
	w2 := b.w(1, "x", 2, tOnce)
	x = b.execution([][2]int{{b.init("x"), b.g(0, r)}}, []int{b.init("x"), b.g(1, w2), b.g(0, wr)})
	out := x.model(true)
	require.Equal(t, axAtomic, out.failed)
	require.Contains(t, x.explain(&program{names: b.names}, out), "rejected by atomic")
}

// TestModelRCU: a grace period cannot overlap a whole read-side critical
// section (RCU+sync+read): if the updater sees the section's first write
// before synchronize_rcu(), it must see the second after it. The rcu axiom
// rejects the execution; without the grace period nothing does.
func TestModelRCU(t *testing.T) {
	for _, tc := range []struct {
		name string
		gp   bool
		want string
	}{{"sync", true, axRCU}, {"no sync", false, ""}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newXbuild("x", "y")
			b.f(0, fRcuLock)
			wx := b.w(0, "x", 1, tOnce)
			wy := b.w(0, "y", 1, tOnce)
			b.f(0, fRcuUnlock)
			rx := b.r(1, "x", 1, tOnce)
			if tc.gp {
				b.f(1, fSyncRcu)
			}
			ry := b.r(1, "y", 0, tOnce)
			x := b.execution([][2]int{{b.g(0, wx), b.g(1, rx)}, {b.init("y"), b.g(1, ry)}},
				[]int{b.init("x"), b.g(0, wx)}, []int{b.init("y"), b.g(0, wy)})
			out := x.model(true)
			require.Equal(t, tc.want, out.failed)
		})
	}
}

// TestModelLocks: two critical sections of one lock, handed over from P0
// to P1: the accesses inside are ordered as with release/acquire (MP
// through the lock is forbidden by hb), and a nested spin_lock deadlocks.
func TestModelLocks(t *testing.T) {
	b := newXbuild("l", "x", "y")
	lkr0 := b.add(0, event{kind: evR, loc: b.loc("l"), val: unlocked, tags: tLKR})
	lkw0 := b.add(0, event{kind: evW, loc: b.loc("l"), val: locked, tags: tLKW, rmwR: lkr0})
	b.rmwFix(0, lkw0, lkr0)
	wx := b.w(0, "x", 1, tOnce)
	ul0 := b.add(0, event{kind: evW, loc: b.loc("l"), val: unlocked, tags: tUL})
	wy := b.w(0, "y", 1, tOnce)
	ry := b.r(1, "y", 1, tOnce)
	lkr1 := b.add(1, event{kind: evR, loc: b.loc("l"), val: unlocked, tags: tLKR})
	lkw1 := b.add(1, event{kind: evW, loc: b.loc("l"), val: locked, tags: tLKW})
	b.rmwFix(1, lkw1, lkr1)
	rx := b.r(1, "x", 0, tOnce)
	ul1 := b.add(1, event{kind: evW, loc: b.loc("l"), val: unlocked, tags: tUL})
	x := b.execution([][2]int{{b.init("l"), b.g(0, lkr0)}, {b.g(0, ul0), b.g(1, lkr1)}, {b.g(0, wy), b.g(1, ry)}, {b.init("x"), b.g(1, rx)}},
		[]int{b.init("l"), b.g(0, lkw0), b.g(0, ul0), b.g(1, lkw1), b.g(1, ul1)},
		[]int{b.init("x"), b.g(0, wx)}, []int{b.init("y"), b.g(0, wy)})
	require.Equal(t, axHB, x.model(false).failed, "x read as 0 after the lock handover")

	b = newXbuild("l")
	r := b.add(0, event{kind: evR, loc: b.loc("l"), val: unlocked, tags: tLKR})
	w := b.add(0, event{kind: evW, loc: b.loc("l"), val: locked, tags: tLKW})
	b.rmwFix(0, w, r)
	r2 := b.add(0, event{kind: evR, loc: b.loc("l"), val: unlocked, tags: tLKR})
	w2 := b.add(0, event{kind: evW, loc: b.loc("l"), val: locked, tags: tLKW})
	b.rmwFix(0, w2, r2)
	x = b.execution(nil, []int{b.init("l"), b.g(0, w), b.g(0, w2)})
	require.Equal(t, axLockNest, x.model(false).failed)
}

// rmwFix links the write w of thread th to its read r (index 0 is a valid
// read index, which add cannot tell from "unset").
func (b *xbuild) rmwFix(th, w, r int) { b.threads[th][w].rmwR = r }

// TestModelDataRace: plain accesses to one location from two threads with
// nothing ordering them race; a release/acquire pair removes the race.
func TestModelDataRace(t *testing.T) {
	for _, tc := range []struct {
		name string
		rel  tag
		acq  tag
		race bool
	}{{"plain MP", tOnce, tOnce, true}, {"release/acquire", tRelease, tAcquire, false}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newXbuild("x", "y")
			wx := b.w(0, "x", 1, 0) // plain
			wy := b.w(0, "y", 1, tc.rel)
			ry := b.r(1, "y", 1, tc.acq)
			rx := b.r(1, "x", 1, 0) // plain
			x := b.execution([][2]int{{b.g(0, wy), b.g(1, ry)}, {b.g(0, wx), b.g(1, rx)}},
				[]int{b.init("x"), b.g(0, wx)}, []int{b.init("y"), b.g(0, wy)})
			out := x.model(false)
			require.Equal(t, "", out.failed)
			require.Equal(t, tc.race, contains(out.flags, "data-race"), "flags %v", out.flags)
		})
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestRelOps checks the bitset relation operations on small examples.
func TestRelOps(t *testing.T) {
	r := newRel(70) // more than one word per row
	r.Add(0, 1)
	r.Add(1, 65)
	r.Add(65, 69)
	p := r.Plus()
	require.True(t, p.Has(0, 69))
	require.False(t, p.Has(69, 0))
	require.True(t, r.Acyclic())
	r.Add(69, 0)
	require.False(t, r.Acyclic())
	require.Equal(t, []int{0, 1, 65, 69}, r.FindCycle())
	s := r.Seq(r)
	require.True(t, s.Has(0, 65))
	require.False(t, s.Has(0, 1))
	require.True(t, r.Inv().Has(65, 1))
	require.True(t, r.Opt().Has(5, 5))
	d := r.Domain()
	require.True(t, d.Has(65) && !d.Has(2))
}
