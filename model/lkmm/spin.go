package lkmm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/report"
)

// This file finds the threads that can spin forever in an await
// (await.go): the await-termination check of GenMC (Kokologiannakis,
// Ren, Vafeiadis, "Dynamic partial order reductions for spinloops",
// FMCAD 2021, its liveness check) under the fairness of Lahav,
// Namakonov, Oberhauser, Podkopaev, Vafeiadis, "Making weak memory
// models fair", OOPSLA 2021 (docs/semantics.md, "Threads that spin
// forever", gives the argument).
//
// A thread spins forever in an allowed execution when the one iteration
// of an await that the reduction keeps fails and every read of that
// iteration reads the final value of its location (the value of its
// co-last write): run again, the iteration reads the same values, from
// the co-last writes, which no write ever overwrites, and fails again;
// the iterations added so only read the co-last writes and add no
// ordering edge back into the rest of the execution, so the execution
// with any number of them, and its infinite limit, is allowed. And in a
// fair infinite execution in which the thread spins, its reads
// eventually read the co-last writes (memory fairness: a write is not
// overtaken by infinitely many reads that miss it), so the execution
// reduced to one such iteration is among those found. An execution in
// which a thread's failed iteration reads an older value is one in
// which that thread has not yet seen the last write: not a witness.
//
// check drops the paths on which an await's iteration fails (they have
// no final state). When some path did, spins checks the test again with
// those paths kept: such a path ends after its failed iteration with
// register spinReg holding 1 + the await's number in program.spinSites
// and, for each read of the iteration, spinLocReg(j) holding 1 + its
// location and spinValReg(j) the value read; the final states observe
// every location and those registers, and a state is a witness when
// every thread that ended so read the final values.

// spinReg is the register a path that spins forever ends with, in the
// second check; a name no C test can declare (faultReg says why).
const spinReg = "__spin"

func spinLocReg(j int) string { return fmt.Sprintf("__spin_l%d", j) }
func spinValReg(j int) string { return fmt.Sprintf("__spin_v%d", j) }

// spinSite is an await some path of the second check spun in.
type spinSite struct {
	thread int
	loop   litmus.Stmt
}

// noteSpin records, in the first check, that a complete path of thread
// th failed an await's iteration, whose events are evs.
func (p *program) noteSpin(th int, evs []event) {
	n := 0
	for i := range evs {
		if evs[i].kind == evR {
			n++
		}
	}
	p.spinMu.Lock()
	defer p.spinMu.Unlock()
	if p.spinReads == nil {
		p.spinReads = map[int]int{}
	}
	p.sawSpin = true
	p.spinReads[th] = max(p.spinReads[th], n)
}

// spinEnd ends a path of the second check after the failed iteration of
// aw that began with event start.
func (in *interp) spinEnd(aw *litmus.Await, start int) {
	p := in.p
	p.spinMu.Lock()
	defer p.spinMu.Unlock()
	id := -1
	for i, s := range p.spinSites {
		if s.thread == in.th.id && s.loop == aw.Loop {
			id = i
		}
	}
	if id < 0 {
		id = len(p.spinSites)
		p.spinSites = append(p.spinSites, spinSite{thread: in.th.id, loop: aw.Loop})
	}
	j := 0
	for _, e := range in.events[start:] {
		if e.kind != evR {
			continue
		}
		if j >= p.spinReads[in.th.id] {
			// The first check saw fewer reads in a failed
			// iteration of this thread: no column for this one.
			p.spinOverflow = true
			break
		}
		in.setReg(spinLocReg(j), regVal{v: intVal(int64(e.loc + 1))})
		in.setReg(spinValReg(j), regVal{v: e.val})
		j++
	}
	in.setReg(spinReg, regVal{v: intVal(int64(id + 1))})
	in.halted = true
}

// maxSpinReports bounds the witnesses reported, as the operational
// models bound their stuck states.
const maxSpinReports = 3

// spins runs the second check and returns the ways some allowed
// execution has threads spinning forever (at most maxSpinReports, each
// naming its threads and what their last iteration read), and, when
// that check stopped at a limit, why it is incomplete.
func spins(b *limit.Budget, t *litmus.Test, opt Options, first *program) ([]report.Stuck, string, error) {
	p, err := spinProgram(t, first, opt.Unroll)
	if err != nil || p == nil {
		return nil, "", err
	}
	graphs := opt.Graphs
	opt.WitnessFor, opt.Graphs = nil, false
	r, err := p.check(b, opt)
	if err != nil {
		return nil, "", err
	}
	incomplete := r.Incomplete
	if r.Verdict == Unknown {
		incomplete = r.Reason
	}
	out, err := p.spinReports(r.States)
	if err != nil || !graphs {
		return out, incomplete, err
	}
	// The execution of each report, for explain: the first allowed one
	// with its threads' spinning iterations and the final values they
	// read.
	for i := range out {
		st := p.spinStates[i]
		_, prop, _ := p.spinWitness(st)
		if prop == nil {
			continue
		}
		opt.WitnessFor, opt.Graphs = prop, true
		g, err := p.check(b, opt)
		if err != nil {
			return nil, "", err
		}
		if w := g.Witness; w != nil {
			// The final state without the check's own registers.
			var keep []string
			for _, b := range strings.Split(w.Final, "; ") {
				if b = strings.TrimSuffix(b, ";"); b != "" && !strings.Contains(b, ":"+spinReg) {
					keep = append(keep, b+";")
				}
			}
			w.Final = strings.Join(keep, " ")
			out[i].Graph = w
		}
	}
	return out, incomplete, nil
}

// spinProgram is the program of the second check: t with its spinning
// paths kept and observed, the reads counted by the first check's walks.
func spinProgram(t *litmus.Test, first *program, unroll bool) (*program, error) {
	ft := litmus.Clone(t)
	ft.Filter, ft.Invariants = nil, nil
	var locs []*litmus.LocRef
	for _, n := range first.names {
		locs = append(locs, &litmus.LocRef{Proc: -1, Name: n, Index: -1})
	}
	var prop litmus.Prop
	for _, pr := range ft.Procs {
		reg := func(name string) *litmus.LocRef {
			return &litmus.LocRef{Proc: pr.ID, Name: name, Index: -1}
		}
		a := &litmus.AtomProp{Loc: reg(spinReg), Op: "!=", Val: &litmus.Value{IsInt: true}}
		if prop == nil {
			prop = a
		} else {
			prop = &litmus.BinProp{X: prop, Op: `\/`, Y: a}
		}
		locs = append(locs, reg(spinReg))
		for j := 0; j < first.spinReads[pr.ID]; j++ {
			locs = append(locs, reg(spinLocReg(j)), reg(spinValReg(j)))
		}
	}
	if prop == nil {
		return nil, nil
	}
	ft.Locations = locs
	ft.Cond = &litmus.Cond{Quant: litmus.Exists, Prop: prop}
	p, err := newProgram(ft)
	if err != nil {
		return nil, err
	}
	p.setAwaits(unroll)
	p.spinEnds = true
	p.spinReads = first.spinReads
	return p, nil
}

// spinReports reads the witnesses off the final states of the second
// check.
func (p *program) spinReports(states report.States) ([]report.Stuck, error) {
	if p.spinOverflow {
		return nil, fmt.Errorf("lkmm: %s: a failed iteration of an await read more locations in the check for threads that spin forever than in the first check", p.test.Name)
	}
	var out []report.Stuck
	p.spinStates = nil
	seen := map[string]bool{}
	for _, st := range states.Slice() {
		if s, _, ok := p.spinWitness(st); ok && !seen[s.Reason] && len(out) < maxSpinReports {
			seen[s.Reason] = true
			out = append(out, s)
			p.spinStates = append(p.spinStates, st)
		}
	}
	// The states come sorted, so the reports are in a fixed order.
	return out, nil
}

// SpinProgram is, for a program of ProgramLimited (a C test for a cat
// model) whose walks failed some await's iteration, the program of the
// check for threads that spin forever, with the function that reads
// their reports off its final states; nil when no walk failed one.
func SpinProgram(first *axiom.Program, loopBound int, b *limit.Budget) (*axiom.Program, func(report.States) ([]report.Stuck, error), error) {
	if len(first.Threads) == 0 {
		return nil, nil, nil
	}
	ct, ok := first.Threads[0].(*cThread)
	if !ok || !ct.p.sawSpin {
		return nil, nil, nil
	}
	p, err := spinProgram(ct.p.test, ct.p, false)
	if err != nil || p == nil {
		return nil, nil, err
	}
	ap := p.axiomProgram(loopBound, b)
	ap.Budget = b
	return ap, p.spinReports, nil
}

// spinWitness reports whether final state st of the second check is an
// execution in which threads spin forever: each thread that ended in a
// failed iteration read the final value of every location it read. It
// returns the report and the proposition that holds exactly in the
// final states of such executions (nil when a value has no literal).
func (p *program) spinWitness(st report.State) (report.Stuck, litmus.Prop, bool) {
	vals := map[string]report.Value{}
	for _, lv := range st.Values {
		vals[lv.Loc] = lv.Val
	}
	var s report.Stuck
	var why []string
	var prop litmus.Prop
	literal := true
	atom := func(l *litmus.LocRef, v report.Value) {
		val := &litmus.Value{IsInt: true, Int: v.Int}
		if v.Sym != "" {
			val = &litmus.Value{Sym: v.Sym}
			literal = literal && v.Int == 0
		}
		var a litmus.Prop = &litmus.AtomProp{Loc: l, Op: "=", Val: val}
		if prop != nil {
			a = &litmus.BinProp{X: prop, Op: `/\`, Y: a}
		}
		prop = a
	}
	for _, pr := range p.test.Procs {
		reg := func(name string) report.Value { return vals[fmt.Sprintf("%d:%s", pr.ID, name)] }
		regRef := func(name string) *litmus.LocRef { return &litmus.LocRef{Proc: pr.ID, Name: name, Index: -1} }
		id := reg(spinReg)
		if id.Sym != "" || id.Int <= 0 || int(id.Int) > len(p.spinSites) {
			continue
		}
		var read []string
		for j := 0; j < p.spinReads[pr.ID]; j++ {
			l := reg(spinLocReg(j))
			if l.Sym != "" || l.Int <= 0 || int(l.Int) > len(p.names) {
				break
			}
			name := p.names[l.Int-1]
			v := reg(spinValReg(j))
			final, ok := vals[name]
			if !ok {
				final, ok = vals["["+name+"]"]
			}
			if !ok || final != v {
				return report.Stuck{}, nil, false // it has yet to see the last write of name
			}
			read = append(read, name+"="+v.String())
			atom(&litmus.LocRef{Proc: -1, Name: name, Index: -1}, v)
			atom(regRef(spinLocReg(j)), l)
			atom(regRef(spinValReg(j)), v)
		}
		atom(regRef(spinReg), id)
		site := p.spinSites[id.Int-1]
		s.Threads = append(s.Threads, pr.ID)
		what := "reads nothing"
		if len(read) > 0 {
			what = "reads " + strings.Join(dedupe(read), ", ") + ", the last value written"
		}
		why = append(why, fmt.Sprintf("P%d can never finish (it spins at line %d: %s; in an allowed execution its iteration %s, so no later write lets it leave)",
			pr.ID, p.line(site.loop.Pos()), loopHead(site.loop), what))
	}
	if len(s.Threads) == 0 {
		return report.Stuck{}, nil, false
	}
	s.Reason = strings.Join(why, "; ")
	if !literal {
		prop = nil
	}
	return s, prop, true
}

func dedupe(list []string) []string {
	var out []string
	for _, x := range list {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func (p *program) line(pos litmus.Pos) int {
	if p.test.File == nil {
		return 0
	}
	return p.test.File.Position(pos).Line
}

// loopHead is the loop as the operational models name it in a stuck
// report: "while (r1 == 0)".
func loopHead(s litmus.Stmt) string {
	switch s := s.(type) {
	case *litmus.WhileStmt:
		return "while (" + exprText(s.Cond) + ")"
	case *litmus.DoWhileStmt:
		return "do ... while (" + exprText(s.Cond) + ")"
	case *litmus.ForStmt:
		if s.Cond != nil {
			return "for (...; " + exprText(s.Cond) + "; ...)"
		}
		return "for (;;)"
	}
	return "loop"
}

// exprText is litmus.ExprString with parentheses around the operands
// that are operations themselves: a code test's lowering builds
// expressions without ParenExpr nodes ("!(r == o)").
func exprText(e litmus.Expr) string {
	wrap := func(x litmus.Expr) string {
		switch x.(type) {
		case *litmus.BinaryExpr, *litmus.CondExpr:
			return "(" + exprText(x) + ")"
		}
		return exprText(x)
	}
	switch e := e.(type) {
	case *litmus.UnaryExpr:
		return e.Op + wrap(e.X)
	case *litmus.BinaryExpr:
		return wrap(e.X) + " " + e.Op + " " + wrap(e.Y)
	}
	return litmus.ExprString(e)
}
