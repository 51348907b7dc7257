package lkmm

import "github.com/litmus-dev/litmus/litmus"

// The spin-loop reduction (litmus/await.go says which loops qualify and
// why it is sound): a loop whose failed iterations have no effect another
// thread or the rest of the thread can see runs ONE iteration, and a path
// on which that iteration fails is the thread spinning forever: it has
// no final state, so the path is dropped like an infeasible one. The
// operational models run the loop itself; a state from which it can never
// exit is stuck there (docs/semantics.md, "Loops").

// awaits are the loops of a test checked as awaits, and a note on every
// loop for the result.
type awaits struct {
	loops map[litmus.Stmt]*litmus.Await
	notes []litmus.LoopNote
}

func (a awaits) of(s litmus.Stmt) *litmus.Await { return a.loops[s] }

// setAwaits decides the test's awaits; with unroll, none: every loop is
// unrolled (the plain search of the differential tests).
func (p *program) setAwaits(unroll bool) {
	if p.test.Arch != litmus.ArchC {
		return
	}
	loops, notes := litmus.Awaits(p.test)
	if unroll {
		loops = nil
		for i := range notes {
			if notes[i].Await {
				notes[i].Await, notes[i].Why = false, "the await reduction is off"
			}
		}
	}
	p.awaits = awaits{loops: loops, notes: notes}
}

// loopNotes returns the notes on the loops of p's test: which are checked as
// awaits, and why the others are unrolled.
func (p *program) loopNotes() []string {
	var out []string
	for _, n := range p.awaits.notes {
		out = append(out, n.Text())
	}
	return out
}

// await runs a reduced loop: its init (a for loop's), its entry test if
// it has one, the statements of an iteration before its exit test, then
// the test. A failed test ends
// the path: the thread spins there forever.
func (in *interp) await(init litmus.Stmt, aw *litmus.Await) flow {
	if init != nil {
		if in.stmt(init) == flowStop {
			return flowStop
		}
	}
	saved := in.ctrl
	defer func() { in.ctrl = saved }()
	if aw.Enter != nil {
		// As loop does: the iteration depends on the condition.
		c, t := in.expr(aw.Enter)
		if in.stopped() {
			return flowStop
		}
		if in.condAllocs(aw.Enter) {
			in.newVar()
		}
		if !in.branch(c, t).Truth() {
			return flowNormal
		}
		in.ctrl = in.ctrl.Merge(t)
	}
	start := len(in.events) // the iteration's first event
	for _, s := range aw.Pre {
		if in.stmt(s) != flowNormal {
			// litmus.Awaits admits no break or continue here.
			return flowStop
		}
	}
	c, t := in.expr(aw.Cont)
	if in.stopped() {
		return flowStop
	}
	if in.condAllocs(aw.Cont) {
		in.newVar()
	}
	if in.branch(c, t).Truth() {
		if aw.Carried != "" {
			// A retry loop: the read that gave its register
			// counts too (litmus/retry.go); it is the event just
			// before the iteration.
			if start == 0 || in.events[start-1].kind != evR {
				in.dead = true
				return flowStop
			}
			start--
		}
		if !in.partial {
			if in.p.spinEnds {
				in.spinEnd(aw, start)
				return flowStop
			}
			in.p.noteSpin(in.th.id, in.events[start:])
		}
		in.dead = true
		return flowStop
	}
	return flowNormal
}

// countAwait is countStmt of a reduced loop: what await allocates.
func (in *interp) countAwait(s litmus.Stmt, aw *litmus.Await) int32 {
	var n int32
	if f, ok := s.(*litmus.ForStmt); ok {
		n += in.countStmt(f.Init)
	}
	if aw.Enter != nil {
		n += in.countExpr(aw.Enter) + b2i(in.condAllocs(aw.Enter))
	}
	for _, x := range aw.Pre {
		n += in.countStmt(x)
	}
	return n + in.countExpr(aw.Cont) + b2i(in.condAllocs(aw.Cont))
}
