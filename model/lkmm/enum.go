package lkmm

import (
	"fmt"
	"sort"
	"sync/atomic"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/report"
)

// search holds the state of one run of the enumeration.
type search struct {
	b    *limit.Budget
	p    *program
	opt  Options
	res  *Result
	cond *axiom.CondEval

	al       *arena
	scratch  *execution
	finalLoc []bool

	steps  int           // choices made, to poll the budget now and then
	nVals  int           // number of (location, value) pairs of the domains
	acc    []Set         // acc[i]: pairs written by the traces chosen for threads < i
	future []Set         // future[i]: pairs some trace of a thread >= i writes
	finals *axiom.Finals // the distinct final states, packed
	// dom are the value domains of the run, as package axiom's values;
	// flow and src are the current execution's FlowExec and rf sources,
	// for herd's value equations (axiom.FlowExec.ThinAir).
	dom     [][]axiom.Val
	flow    *axiom.FlowExec
	src     []int
	last    []int // the shape of each thread's trace in the last execution
	flags   map[string]bool
	why     string
	stopErr error
	// matches counts the allowed executions reaching the target (the
	// condition's proposition, or Options.WitnessFor); witness and
	// whyGraph are the first allowed and the first rejected one, drawn
	// (Options.Graphs).
	matches  int
	witness  *report.Graph
	whyGraph *report.Graph
	// stop and total are shared by the workers of a parallel search
	// (parallel.go): a limit hit by one stops all, and total counts the
	// candidates of all; nil in a sequential search.
	stop  *atomic.Bool
	total *atomic.Int64
	// enum is the rf and co enumeration of scratch, kept with it for the
	// next combination of the same shapes (nil: none is possible).
	enum *enumState
	// sure: the combinations below the current node of combine are
	// certified (subtree.go); rep is the buffer of the node's
	// representative combination.
	sure bool
	rep  []*trace
}

func (p *program) check(b *limit.Budget, opt Options) (*Result, error) {
	dom, converged, err := p.domains(b, opt, true)
	if err != nil {
		return limitResult(p, b, err)
	}
	res, err := p.run(b, opt, dom)
	if err != nil || res.Verdict == Unknown || res.Candidates > 0 || converged {
		return res, err
	}
	// Not a single candidate execution: herd's "States 0". That is the
	// model's answer only if the value domains were complete (with a
	// value missing, every path of a thread may die), so when the round
	// cap stopped them short of a fixed point, run again on the fixed
	// point itself; a test whose domains grow without end then gives
	// Unknown rather than a Never that may come from missing values.
	dom, _, err = p.domains(b, opt, false)
	if err != nil {
		if _, ok := err.(*errLimit); ok && b.Err() == nil {
			err = &errLimit{Msg: "no candidate execution with the capped value domains, and " + err.Error()}
		}
		return limitResult(p, b, err)
	}
	return p.run(b, opt, dom)
}

// limitResult turns an errLimit or a limit.Exceeded into an Unknown
// result; other errors are input errors. When the budget is spent, its
// reason wins: a search that ran out of time says so, whatever limit of
// its own it met on the way.
func limitResult(p *program, b *limit.Budget, err error) (*Result, error) {
	switch err.(type) {
	case *errLimit, *limit.Exceeded:
		if berr := b.Err(); berr != nil {
			err = berr
		}
		return &Result{Name: p.test.Name, Verdict: Unknown, Reason: err.Error(), Rejected: map[string]int{}}, nil
	}
	return nil, err
}

// run enumerates the executions over the value domains dom.
func (p *program) run(b *limit.Budget, opt Options, dom [][]Val) (*Result, error) {
	all := make([][]trace, len(p.threads))
	res := &Result{Name: p.test.Name, Rejected: map[string]int{}}
	for i, th := range p.threads {
		trs, cut, err := paths(p, b, th, dom, opt.LoopBound)
		if err != nil {
			return limitResult(p, b, err)
		}
		res.Cut = res.Cut || cut
		all[i] = trs
	}
	ce, err := newCondEval(p)
	if err != nil {
		return nil, err
	}
	s := &search{b: b, p: p, opt: opt, res: res, cond: ce, al: getArena(b), flags: map[string]bool{}}
	defer putArena(s.al)
	s.finals = ce.NewFinals(b)
	s.finalLoc = make([]bool, len(p.names))
	for _, o := range ce.Observed {
		if o.Th < 0 {
			s.finalLoc[o.Loc] = true
		}
	}
	s.indexValues(dom, all)
	s.dom = dom
	s.shapes(all)
	s.acc = make([]Set, len(all)+1)
	for i := range s.acc {
		s.acc[i] = newSet(s.nVals)
	}
	s.searchAll(all)
	s.finish()
	if s.stopErr != nil {
		if berr := b.Err(); berr != nil {
			s.stopErr = berr
		}
		if res.Verdict == Sometimes {
			// Executions that satisfy the proposition and executions
			// that do not are both allowed: no other execution can
			// change that.
			res.Incomplete = s.stopErr.Error()
		} else {
			res.Verdict, res.Reason, res.Ok = Unknown, s.stopErr.Error(), false
		}
	}
	return res, nil
}

// combine chooses one trace per thread, dropping a combination as soon as
// a read of a chosen trace needs a value no chosen or later trace writes.
func (s *search) combine(all [][]trace, pick []*trace, i int) {
	if s.stopErr != nil {
		return
	}
	if i < len(all) && s.certifyCombine(all, pick, i) {
		s.sure = true
		s.combine(all, pick, i)
		s.sure = false
		return
	}
	if i == len(all) {
		for _, tr := range pick {
			for _, v := range tr.needs {
				if !s.acc[i].Has(v) {
					return
				}
			}
		}
		s.execute(pick)
		return
	}
	for k := range all[i] {
		if s.poll() {
			return
		}
		tr := &all[i][k]
		acc := s.acc[i+1]
		copy(acc, s.acc[i])
		if !s.admits(acc, tr, i) {
			continue
		}
		pick[i] = tr
		s.combine(all, pick, i+1)
	}
}

// admits adds to acc, the (location, value) pairs written by the traces
// chosen for threads before i, those trace tr of thread i writes, and
// reports whether every value tr's reads need is written by a chosen
// trace or may be by a later thread's.
func (s *search) admits(acc Set, tr *trace, i int) bool {
	for w := range acc {
		acc[w] |= tr.writes[w]
	}
	for _, v := range tr.needs {
		if !acc.Has(v) && !s.future[i+1].Has(v) {
			return false
		}
	}
	return true
}

// poll counts a step of the search and, every thousand, checks the
// budget; it reports whether the search must stop.
func (s *search) poll() bool {
	s.steps++
	if s.steps&1023 == 0 && s.stopErr == nil {
		// The final states are held packed (their Hold counts them)
		// and sorted into a copy when the search ends: the cap keeps
		// room for that copy, so that it holds for the whole run, not
		// only the search.
		if err := s.b.Reserve(s.finals.Bytes(), "sorting the final states found"); err != nil {
			s.stopErr = err
		} else if s.stop != nil && s.stop.Load() {
			s.stopErr = errHalted
		}
	}
	return s.stopErr != nil
}

// guard runs f, and records the error of the axiom.Abort with which the
// relation code deep inside the model stops a search that has spent its
// budget (axiom.Arena).
func (s *search) guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(axiom.Abort)
			if !ok {
				panic(r)
			}
			s.stopErr = a.Err
		}
	}()
	f()
}

// minRelations is how many relations over an execution's events the
// model needs at the least (it computes well over a hundred): an
// execution whose relations would not fit under the memory cap even then
// is refused before any is built.
const minRelations = 64

// execute enumerates the rf and co of one combination of traces.
func (s *search) execute(pick []*trace) {
	x, st := s.scratchFor(pick)
	if st == nil {
		return
	}
	s.src = st.src
	s.flow = flowExec(x, pick, s.flow)
	// Candidate writes for each read.
	for r, e := range x.ev {
		if e.kind != evR {
			continue
		}
		if e.tags&tLKR != 0 {
			continue // read from the co-predecessor of its LKW, in candidate
		}
		var c []int
		switch {
		case e.tags&(tLF|tRL) != 0:
			c = x.lfSources(r)
		case e.tags&tRU != 0:
			c = x.ruSources(r)
		default:
			// In the enumeration's buffer, which serves every
			// combination (a slice cut from it stays valid when
			// it grows).
			start := len(st.candBuf)
			for _, w := range st.evAt[e.loc] {
				if f := x.ev[w]; f.kind != evW || f.val != e.val {
					continue
				}
				if x.po.Has(r, w) {
					continue // po-later: a coherence cycle
				}
				st.candBuf = append(st.candBuf, w)
			}
			c = st.candBuf[start:len(st.candBuf):len(st.candBuf)]
		}
		if len(c) == 0 {
			return
		}
		st.reads[e.loc] = append(st.reads[e.loc], r)
		st.cands[e.loc] = append(st.cands[e.loc], c)
	}
	x.rfMark = x.al.Mark()
	st.sizeReads()
	s.rfAt(st, 0, 0)
}

// scratchFor returns the execution of the combination pick, with the
// enumeration of its rf and co: the scratch ones rebound when pick has
// the shapes of the last combination, else new ones. The enumeration is
// nil when no candidate is possible or the execution is over the memory
// cap (then stopErr says so).
func (s *search) scratchFor(pick []*trace) (*execution, *enumState) {
	n := len(s.p.names)
	for _, tr := range pick {
		n += len(tr.events)
	}
	if need := uint64(minRelations) * relBytes(n); need > s.b.Memory() {
		s.stopErr = &limit.Exceeded{Reason: fmt.Sprintf("memory cap: an execution of %d events needs at least %s for its relations (%d of them, %d² bits each), over the %s cap",
			n, limit.Bytes(need), minRelations, n, limit.Bytes(s.b.Memory()))}
		return nil, nil
	}
	x := s.scratch
	var st *enumState
	if x != nil && s.sameShapes(pick) {
		// The same events and relations as the last combination, with
		// other values: keep the base and fixed relations, and the
		// enumeration's structure, which depends on the events only.
		x.rebind(pick)
		x.al.Reset(x.fixMark)
		st = s.enum
		if st != nil {
			st.clearReads()
		}
	} else {
		s.al.Reset(arenaMark{})
		s.al.Events = n
		x = newExecution(s.p, pick, s.al, s.scratch)
		s.scratch = x
		x.finalLoc = s.finalLoc
		x.plain = s.opt.plainModel
		x.fixed()
		pruneFrom := s.opt.pruneFrom
		if pruneFrom == 0 {
			pruneFrom = pruneWrites
		}
		st = newEnum(x, pruneFrom)
		if st != nil {
			st.initSubtrees(s.opt)
		}
		s.enum = st
		x.fixMark = x.al.Mark()
	}
	for i, tr := range pick {
		s.last[i] = tr.shape
	}
	return x, st
}

// candidate checks one complete candidate execution.
func (s *search) candidate(x *execution, rf Rel, orders [][]int, ulOf map[int]int) {
	s.res.Candidates++
	if s.total != nil {
		if n := s.total.Add(1); s.opt.MaxCandidates > 0 && n > int64(s.opt.MaxCandidates) {
			s.stopErr = errOverLimit
			return
		}
	} else if s.opt.MaxCandidates > 0 && s.res.Candidates > s.opt.MaxCandidates {
		s.stopErr = fmt.Errorf("state limit of %d candidate executions reached", s.opt.MaxCandidates)
		return
	}
	if s.poll() {
		return
	}
	keep, sym := s.flow.ThinAir(s.src, s.dom)
	if !keep {
		return
	}
	x.al.Reset(x.rfMark)
	x.setRfCo(rf, orders)
	fin := finalState(x, orders, symOf(s.flow, sym))
	if s.cond.Filter != nil && !s.cond.Holds(s.cond.Filter, fin) {
		return
	}
	sat := s.cond.Prop == nil || s.cond.Holds(s.cond.Prop, fin)
	// The target is what explain explains: the condition's proposition,
	// or the final state it was asked about (Options.WitnessFor).
	target := sat
	if s.opt.WitnessFor != nil {
		target = s.cond.Holds(s.opt.WitnessFor, fin)
	}
	wantWhy := target && s.why == ""
	var out outcome
	if s.enum.sureConsistent(s.sure) {
		// Allowed: a certified subtree's candidate that passes
		// coherence and atomicity (subtree.go).
		out.flags = x.fixed().flags
	} else {
		out = x.model(wantWhy)
	}
	if out.failed != "" {
		if sat {
			s.res.Rejected[out.failed]++
		}
		if wantWhy {
			why, path := x.explainPath(s.p, out)
			s.why = why
			if s.opt.Graphs {
				s.whyGraph = x.graph(s.p, path, out.failed, s.finalText(fin))
			}
		}
		return
	}
	if sat {
		s.res.Positive++
	} else {
		s.res.Negative++
	}
	if target {
		s.matches++
	}
	// The witness of a forall is an execution where it fails.
	if s.opt.WitnessFor == nil && s.cond.Quant == litmus.Forall {
		target = !sat
	}
	if target && s.opt.Graphs && s.witness == nil {
		s.witness = x.graph(s.p, nil, "", s.finalText(fin))
	}
	for _, f := range out.flags {
		s.flags[f] = true
	}
	s.finals.Add(fin)
}

// flowExec returns the axiom.FlowExec of x, made of traces, in the
// slices of reuse when it is not nil (the last combination's: the search
// keeps none).
func flowExec(x *execution, traces []*trace, reuse *axiom.FlowExec) *axiom.FlowExec {
	f := reuse
	if f == nil || cap(f.Kind) < x.n {
		f = &axiom.FlowExec{Kind: make([]axiom.Kind, x.n), Loc: make([]int, x.n), Val: make([]axiom.Val, x.n)}
	}
	*f = axiom.FlowExec{Kind: f.Kind[:x.n], Thread: x.thread, Loc: f.Loc[:x.n], Val: f.Val[:x.n], Flows: f.Flows[:0], Start: f.Start[:0]}
	for e, ev := range x.ev {
		switch ev.kind {
		case evR:
			f.Kind[e] = axiom.KindR
		case evW:
			f.Kind[e] = axiom.KindW
		default:
			f.Kind[e] = axiom.KindF
		}
		f.Loc[e], f.Val[e] = ev.loc, ev.val
	}
	k := x.nLoc
	for _, t := range traces {
		f.Flows = append(f.Flows, t.flow)
		f.Start = append(f.Start, k)
		k += len(t.events)
	}
	return f
}

// symbolic is what finalState needs of ThinAir's answer: the symbolic
// value of each event that has one, and the threads' flows.
type symbolic struct {
	vals  map[int]axiom.Val
	flows *axiom.FlowExec
}

func symOf(f *axiom.FlowExec, sym map[int]axiom.Val) symbolic {
	return symbolic{vals: sym, flows: f}
}

// setRfCo sets x.rf and x.co from the rf of the plain reads and the co
// order of each location (nil for a location not ordered yet), adding
// lock.cat's rf of each LKR. It allocates from x's arena.
func (x *execution) setRfCo(rf Rel, orders [][]int) {
	co := x.al.Rel(x.n)
	rf = rf.Clone()
	for _, o := range orders {
		for i := 0; i < len(o); i++ {
			for j := i + 1; j < len(o); j++ {
				co.Add(o[i], o[j])
			}
		}
		// An LKR reads from the write just before its LKW in co, when
		// that is the initial write or an unlock:
		// let rf = rf | ([IW | UL] ; singlestep(co) ; lk-rmw^-1)
		for i := 1; i < len(o); i++ {
			w := x.ev[o[i]]
			if lkr := x.rmwOf[o[i]]; w.tags&tLKW != 0 && lkr >= 0 {
				if prev := x.ev[o[i-1]]; prev.tags&(tIW|tUL) != 0 {
					rf.Add(o[i-1], lkr)
				}
			}
		}
	}
	x.rf, x.co = rf, co
}

// finish turns the counts into the verdict.
func (s *search) finish() {
	r := s.res
	switch {
	case r.Positive == 0:
		r.Verdict = Never
	case r.Negative == 0:
		r.Verdict = Always
	default:
		r.Verdict = Sometimes
	}
	r.Ok = s.cond.Ok(r.Positive, r.Negative)
	r.States = s.finals.States()
	for f := range s.flags {
		r.Flags = append(r.Flags, f)
	}
	sort.Strings(r.Flags)
	r.DataRace = s.flags["data-race"]
	r.Matches = s.matches
	if s.matches == 0 && s.why != "" {
		r.Why, r.WhyGraph = s.why, s.whyGraph
	}
	r.Witness = s.witness
}

// finalText prints the observed part of fin as herd prints a state.
func (s *search) finalText(fin axiom.Final) string {
	return s.cond.Line(fin)
}

// shapes numbers the traces of each thread by their structure: two traces
// with the same shape differ only in the values read and written, so two
// combinations of traces of the same shapes have the same events, base
// relations and fixed relations (fixed.go), which execute then keeps.
func (s *search) shapes(all [][]trace) {
	s.last = make([]int, len(all))
	for i := range all {
		s.last[i] = -1
		ids := map[string]int{}
		var buf []byte
		for k := range all[i] {
			tr := &all[i][k]
			buf = buf[:0]
			for _, e := range tr.events {
				buf = append(buf, byte(e.kind), byte(e.fence), byte(e.tags), byte(e.tags>>8), byte(e.tags>>16), byte(e.tags>>24),
					byte(e.loc), byte(e.loc>>8), byte(e.rmwR), byte(e.rmwR>>8))
				for _, deps := range [][]int{e.addr, e.data, e.ctrl, e.par} {
					buf = append(buf, byte(len(deps)), byte(len(deps)>>8))
					for _, d := range deps {
						buf = append(buf, byte(d), byte(d>>8))
					}
				}
			}
			id, ok := ids[string(buf)]
			if !ok {
				id = len(ids)
				ids[string(buf)] = id
			}
			tr.shape = id
		}
	}
}

// sameShapes reports whether pick has the shapes of the last combination.
func (s *search) sameShapes(pick []*trace) bool {
	for i, tr := range pick {
		if s.last[i] != tr.shape {
			return false
		}
	}
	return true
}
