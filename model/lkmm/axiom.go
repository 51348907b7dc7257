package lkmm

import (
	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// Vocab is the tag vocabulary of the C semantics as package axiom sees
// it: the event sets of linux-kernel.bell and lock.cat, named as herd
// names them (an annotation 'rcu-lock is the set Rcu-lock).
var Vocab = []string{
	"ONCE", "ACQUIRE", "RELEASE", "MB", "NORETURN", "RMW",
	"LKR", "LKW", "UL", "LF", "RL", "RU",
	"Srcu-lock", "Srcu-unlock", "Sync-srcu",
	"Rmb", "Wmb", "Barrier", "Rcu-lock", "Rcu-unlock", "Sync-rcu",
	"Before-atomic", "After-atomic", "After-spinlock", "After-unlock-lock", "After-srcu-read-unlock",
}

func vocabIndex(name string) int {
	for i, v := range Vocab {
		if v == name {
			return i
		}
	}
	panic("lkmm: no tag " + name)
}

var (
	tagToVocab   [tagBits]int
	fenceToVocab [len(fenceText)]int
	vSyncSrcu    = vocabIndex("Sync-srcu")
)

func init() {
	names := map[tag]string{tOnce: "ONCE", tAcquire: "ACQUIRE", tRelease: "RELEASE", tMb: "MB", tNoreturn: "NORETURN",
		tRMW: "RMW", tLKR: "LKR", tLKW: "LKW", tUL: "UL", tLF: "LF", tRL: "RL", tRU: "RU",
		tSrcuLock: "Srcu-lock", tSrcuUnlock: "Srcu-unlock"}
	for i := range tagToVocab {
		tagToVocab[i] = -1
	}
	for t, n := range names {
		tagToVocab[bitIndex(t)] = vocabIndex(n)
	}
	fences := map[fenceKind]string{fMb: "MB", fRmb: "Rmb", fWmb: "Wmb", fBarrier: "Barrier", fRcuLock: "Rcu-lock",
		fRcuUnlock: "Rcu-unlock", fSyncRcu: "Sync-rcu", fBeforeAtomic: "Before-atomic", fAfterAtomic: "After-atomic",
		fAfterSpinlock: "After-spinlock", fAfterUnlockLock: "After-unlock-lock", fAfterSrcuReadUnlock: "After-srcu-read-unlock"}
	for i := range fenceToVocab {
		fenceToVocab[i] = -1
	}
	for f, n := range fences {
		fenceToVocab[f] = vocabIndex(n)
	}
}

func bitIndex(t tag) int {
	for i := 0; i < tagBits; i++ {
		if t == 1<<uint(i) {
			return i
		}
	}
	return -1
}

// Program returns the C test t as package axiom's program, with herd's
// C semantics and LKMM annotations, for models run by the cat
// interpreter. As in herd, lock events (LKR, LKW, UL, LF, RL, RU) are not
// in the base R and W sets: lock.cat adds them, with their own rf and co.
func Program(t *litmus.Test, loopBound int) (*axiom.Program, error) {
	return cProgram(t, loopBound, false)
}

func cProgram(t *litmus.Test, loopBound int, unroll bool) (*axiom.Program, error) {
	p, err := newProgram(t)
	if err != nil {
		return nil, err
	}
	p.setAwaits(unroll)
	if loopBound <= 0 {
		loopBound = 2
	}
	return p.axiomProgram(loopBound, nil), nil
}

// ProgramLimited is Program whose threads' walks, and whatever runs over
// the program, poll budget b (axiom.Program.Budget).
func ProgramLimited(t *litmus.Test, loopBound int, b *limit.Budget) (*axiom.Program, error) {
	return programLimited(t, loopBound, b, false)
}

// ProgramUnrolled is ProgramLimited with the spin-loop reduction off:
// every loop is unrolled (lkmm.Options.Unroll).
func ProgramUnrolled(t *litmus.Test, loopBound int, b *limit.Budget) (*axiom.Program, error) {
	return programLimited(t, loopBound, b, true)
}

// LoopNotes says how each loop of C test t is checked by Program and
// ProgramLimited (unroll false) or ProgramUnrolled (unroll true).
func LoopNotes(t *litmus.Test, unroll bool) []string {
	p := &program{test: t}
	p.setAwaits(unroll)
	return p.loopNotes()
}

func programLimited(t *litmus.Test, loopBound int, b *limit.Budget, unroll bool) (*axiom.Program, error) {
	p, err := cProgram(t, loopBound, unroll)
	if err != nil {
		return nil, err
	}
	p.Budget = b
	for _, th := range p.Threads {
		th.(*cThread).budget = b
	}
	return p, nil
}

// axiomProgram returns p as package axiom's program; its threads' walks
// poll budget b (nil for none).
func (p *program) axiomProgram(loopBound int, b *limit.Budget) *axiom.Program {
	if loopBound <= 0 {
		loopBound = 2
	}
	ap := &axiom.Program{Test: p.test, Names: p.names, Index: p.index, Vocab: Vocab, Init: p.init}
	for _, th := range p.threads {
		ap.Threads = append(ap.Threads, &cThread{p: p, th: th, loopBound: loopBound, budget: b})
	}
	return ap
}

type cThread struct {
	p         *program
	th        *thread
	loopBound int
	budget    *limit.Budget // nil: no limit beyond the caller's
}

func (c *cThread) ID() int { return c.th.id }

func (c *cThread) Walk(dom [][]axiom.Val, partial bool) ([]axiom.Trace, bool, error) {
	trs, cut, err := walk(c.p, c.budget, c.th, dom, c.loopBound, partial)
	if err != nil {
		return nil, false, err
	}
	out := make([]axiom.Trace, len(trs))
	for i, tr := range trs {
		out[i].Flow = tr.flow
		out[i].Events = make([]axiom.Event, len(tr.events))
		for j := range tr.events {
			out[i].Events[j] = toAxiom(&tr.events[j], j, tr.events)
		}
		out[i].Regs = tr.regs
	}
	return out, cut, nil
}

// WalkWrites is Walk(dom, true) for the value domains: the writes of
// the paths, without the paths (axiom.WriteWalker).
func (c *cThread) WalkWrites(dom [][]axiom.Val, write func(loc int, v axiom.Val)) (int, error) {
	return walkWrites(c.p, c.budget, c.th, dom, c.loopBound, write)
}

// lockTags mark the lock operations' events.
const lockTags = tLKR | tLKW | tUL | tLF | tRL | tRU

// axiomKind returns the kind of e's axiom.Event: lock operations are
// KindOther (lock.cat's events, not the bell's reads and writes).
func axiomKind(e *event) axiom.Kind {
	if e.tags&lockTags != 0 {
		return axiom.KindOther
	}
	switch e.kind {
	case evR:
		return axiom.KindR
	case evW:
		return axiom.KindW
	case evF:
		return axiom.KindF
	case evSync:
		return axiom.KindOther
	}
	return 0
}

func toAxiom(e *event, j int, evs []event) axiom.Event {
	a := axiom.Event{Thread: e.thread, Loc: e.loc, Val: e.val, RMW: e.rmwR, Instr: j,
		Addr: e.addr, Data: e.data, Ctrl: e.ctrl, Pos: e.pos, Text: e.prim, Par: e.par}
	a.Kind = axiomKind(e)
	if e.kind == evSync {
		a.Tags |= 1 << uint(vSyncSrcu)
	}
	if e.tags&lockTags != 0 {
		a.RMW = -1 // lock.cat's lk-rmw, not the bell's rmw
	}
	if a.RMW >= 0 {
		a.Instr = a.RMW // the RMW's read and write are one instruction
	}
	for b, t := 0, e.tags; t != 0; b, t = b+1, t>>1 {
		if t&1 != 0 && tagToVocab[b] >= 0 {
			a.Tags |= 1 << uint(tagToVocab[b])
		}
	}
	if e.kind == evF && fenceToVocab[e.fence] >= 0 {
		a.Tags |= 1 << uint(fenceToVocab[e.fence])
	}
	return a
}
