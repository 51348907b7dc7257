package interp

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/report"
)

// CheckOptions bound one Check.
type CheckOptions struct {
	// MaxCandidates stops the search with Unknown after this many
	// candidate executions (rf and final-write choices). Zero: no limit.
	MaxCandidates int

	// Explain, when no allowed execution satisfies the proposition and
	// the search met none that a check rejected (pruning dropped them
	// earlier), searches again without pruning for Result.Why.
	Explain bool

	// SkipChecks are herd7's -skipchecks: the named checks ("as NAME")
	// whose outcome is ignored, and All (herd's -through all or invalid,
	// for a model from a file) ignores every check. The search is then
	// the plain one: a skipped check prunes nothing.
	SkipChecks map[string]bool
	SkipAll    bool
	// StrictSkip is herd7's -strictskip: an execution is kept only when
	// every check of SkipChecks fails on it.
	StrictSkip bool
	// WitnessFor, when non-nil, is the final-state proposition to
	// explain instead of the condition's: Result.Matches, Why, Witness
	// and WhyGraph are then about it.
	WitnessFor litmus.Prop
	// Graphs asks for Result.Witness and Result.WhyGraph.
	Graphs bool

	// plain turns off every shortcut of the enumeration that relies on
	// the model (coherence pruning of rf, co and final writes; checks on
	// partial co): the differential tests compare it with the default.
	plain bool
}

// Result is what a model says of a program: herd's verdict, final states,
// counts and flags (package axiom's common shape), plus the name of the
// check that rejected the executions satisfying the condition.
type Result struct {
	Name string
	// States are the final states of the allowed executions that pass
	// the filter, sorted as herd sorts them, packed.
	States  report.States
	Verdict axiom.Verdict
	Reason  string // why the verdict is Unknown
	Ok      bool   // herd's Ok/No
	// Positive and Negative count the allowed executions that satisfy
	// the condition's proposition and those that do not, as herd does.
	Positive, Negative int
	// Flags are the flags some allowed execution raises, sorted.
	Flags []string
	// Why explains, when no allowed execution satisfies the proposition
	// but a candidate that would was rejected, which check rejected the
	// first such candidate.
	Why string
	// Rejected counts, per check, the rejected candidates that satisfy
	// the proposition.
	Rejected map[string]int
	// Matches counts the allowed executions reaching the target: the
	// condition's proposition (then it equals Positive), or
	// CheckOptions.WitnessFor.
	Matches int
	// Witness is, with CheckOptions.Graphs, the first allowed execution
	// reaching the target (for a forall condition without WitnessFor,
	// one where the proposition fails); WhyGraph is the rejected one Why
	// explains, its cycle marked.
	Witness, WhyGraph *report.Graph
	// Cut reports whether the loop bound dropped some path.
	Cut bool
	// Candidates counts the candidate executions examined.
	Candidates int
	// memoHits counts the values the memo found again (for the tests).
	memoHits int
}

// candidate is the rf choice being evaluated: what the co generation
// needs to skip incoherent orders.
type candidate struct {
	x       *axiom.Execution
	src     []int
	uniproc bool
	locEv   [][]int
	// musts[l] is the coherence order location l's reads impose, when
	// have[l] (computed on first use for each rf).
	musts []axiom.Rel
	have  []bool
}

func (c *candidate) must(l int) axiom.Rel {
	if !c.have[l] {
		c.x.CoMust(l, c.locEv[l], c.src, c.musts[l])
		c.have[l] = true
	}
	return c.musts[l]
}

// Check runs the model on p.
func (m *Model) Check(ctx context.Context, p *axiom.Program, opt CheckOptions) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*evalError); ok {
				res, err = nil, e
				return
			}
			if a, ok := r.(axiom.Abort); ok {
				// The relations of an execution spent the budget.
				res, err = limitResult(p, a.Err)
				return
			}
			panic(r)
		}
	}()
	dom, converged, err := p.Domains(true)
	if err != nil {
		return limitResult(p, err)
	}
	if opt.SkipAll || len(opt.SkipChecks) > 0 {
		opt.plain = true
	}
	res, err = m.run(ctx, p, opt, dom)
	if err == nil && opt.Explain && !opt.plain && res.Verdict != axiom.Unknown && res.Matches == 0 && res.Why == "" {
		// The executions that satisfy the condition were dropped by
		// the pruning before any check could name its reason: the
		// plain search meets them. It only explains: the result is the
		// pruned search's (the differential tests hold them equal).
		plain := opt
		plain.plain = true
		if pr, perr := m.run(ctx, p, plain, dom); perr == nil && pr.Verdict != axiom.Unknown {
			res.Why, res.WhyGraph = pr.Why, pr.WhyGraph
		}
	}
	if err != nil || res.Verdict == axiom.Unknown || res.Candidates > 0 || converged {
		return res, err
	}
	// No candidate at all: herd's "States 0" only if the value domains
	// were complete; run again on their fixed point (see axiom.Domains).
	dom, _, err = p.Domains(false)
	if err != nil {
		if le, ok := err.(*axiom.LimitError); ok {
			err = &axiom.LimitError{Msg: "no candidate execution with the capped value domains, and " + le.Msg}
		}
		return limitResult(p, err)
	}
	return m.run(ctx, p, opt, dom)
}

// limitResult turns a limit (a value domain or path bound, or the
// program's budget) into an Unknown result; other errors are input
// errors.
func limitResult(p *axiom.Program, err error) (*Result, error) {
	if reason, ok := limitReason(p, err); ok {
		return &Result{Name: p.Test.Name, Verdict: axiom.Unknown, Reason: reason, Rejected: map[string]int{}}, nil
	}
	return nil, err
}

// limitReason reports whether err is a limit, and its Unknown reason:
// the budget's own words when the budget is spent ("timed out after 2s").
func limitReason(p *axiom.Program, err error) (string, bool) {
	var le *axiom.LimitError
	var ex *limit.Exceeded
	switch {
	case errors.As(err, &ex):
		return ex.Reason, true
	case errors.As(err, &le):
		if berr := p.Budget.Err(); berr != nil {
			return berr.Error(), true
		}
		return le.Msg, true
	case err == context.Canceled || err == context.DeadlineExceeded:
		if berr := p.Budget.Err(); berr != nil {
			return berr.Error(), true
		}
		return err.Error(), true
	}
	return "", false
}

// search is one run of a model over a program's executions.
type search struct {
	ctx   context.Context
	m     *Model
	p     *axiom.Program
	opt   CheckOptions
	res   *Result
	ce    *axiom.CondEval
	dom   [][]axiom.Val // the value domains of the paths
	final []bool        // locations whose final write a candidate chooses
	// finals are the distinct final states seen, packed.
	finals *axiom.Finals
	flags  map[string]bool
	stop   error

	// The runner of the current structure of execution.
	r   *runner
	gen int
	// view, when viewOK, is the current structure with each AMO one
	// event (Program.OneEventAMO).
	view   *axiom.OneEventView
	viewOK bool
	// prepared reports whether the prepass has run for the structure
	// (at its first candidate: a structure may have none); baseMark and
	// structMark are the points before and after it.
	prepared             bool
	baseMark, structMark evalMark
	// What the structure's candidates share: x.LocEvents(), the writes
	// of each location, and room for the coherence orders of candidate
	// and of the rf enumeration.
	locEv, locW [][]int
	musts       []axiom.Rel
	must        axiom.Rel
	// flows reports whether some path of the execution has a value
	// flow for herd's value equations (axiom.Flow.Any): without one,
	// ThinAir keeps every candidate as it is.
	flows bool
	// The rf enumeration and the candidate, whose room the executions
	// reuse.
	rfe  axiom.RFEnum
	cand candidate
	fw   []int
	// The final state of the candidate being evaluated, and whether it
	// satisfies the proposition (for emit).
	fin axiom.Final
	sat bool
	mem []axiom.Val
	// target is whether the candidate reaches what explain explains (the
	// proposition, or CheckOptions.WitnessFor).
	target bool
	// structCands counts the candidates of the current structure.
	structCands int
	rfCheck     func(l int) bool // rfe.Check under uniproc
}

func (m *Model) run(ctx context.Context, p *axiom.Program, opt CheckOptions, dom [][]axiom.Val) (*Result, error) {
	res := &Result{Name: p.Test.Name, Rejected: map[string]int{}}
	paths, cut, err := p.Paths(dom)
	if err != nil {
		return limitResult(p, err)
	}
	res.Cut = cut
	ce, err := axiom.NewCondEval(p)
	if err != nil {
		return nil, err
	}
	s := &search{ctx: ctx, m: m, p: p, opt: opt, res: res, ce: ce, dom: dom, flags: map[string]bool{}}
	s.finals = ce.NewFinals(p.Budget)
	s.final = make([]bool, len(p.Names))
	mark := func(name string) {
		if p.Symbol != nil {
			if locs, ok := p.Symbol(name); ok {
				for _, l := range locs {
					s.final[l] = true
				}
				return
			}
		}
		if i, ok := p.Index[name]; ok {
			s.final[i] = true
		}
	}
	for _, o := range ce.Observed {
		if o.Th < 0 {
			mark(o.Name)
		}
	}
	if p.Test.Filter != nil {
		litmus.EachAtom(p.Test.Filter, func(a *litmus.AtomProp) {
			if a.Loc.Proc < 0 {
				mark(a.Loc.Name)
			}
		})
	}
	s.r = m.getRunner()
	defer m.putRunner(s.r)
	s.r.memo.init(m)
	s.r.al.SetBudget(p.Budget)
	s.r.emit = s.emit
	err = p.Combine(ctx, dom, paths, s.r.al, s.execution)
	if err == nil {
		err = s.stop
	}
	if err != nil {
		if reason, ok := limitReason(p, err); ok {
			res.Verdict, res.Reason = axiom.Unknown, reason
			return res, nil
		}
		return nil, err
	}
	s.finish()
	res.memoHits = s.r.memo.hits()
	return res, nil
}

// execution enumerates the candidates of one combination of paths. The
// model's fixed part (what no candidate choice changes) is computed once
// per structure of execution (x.Gen): executions that differ only in the
// values their paths read share it.
func (s *search) execution(x *axiom.Execution) bool {
	m := s.m
	if x.Gen != s.gen && x.P.OneEventAMO {
		s.view, s.viewOK = x.OneEvent()
	} else if s.viewOK {
		s.view.Rebind(x)
	}
	// ex is the execution the model sees: x, or with each AMO one event
	// (axiom.OneEventView), in which case the search's coherence pruning,
	// which reasons about x's events, is off.
	ex := x
	if s.viewOK {
		ex = s.view.X
	}
	if x.Gen != s.gen {
		s.gen = x.Gen
		ev := s.r.ev
		*ev = evaluator{m: m, x: ex, al: x.Al, all: ex.All(), tags: m.tags, bx: ev.bx, g: s.r.g, ids: ev.ids, byLoc: ev.byLoc, locs: ev.locs}
		// The memo's tables hold for one structure; they are used
		// from its memoAfter-th candidate on.
		s.structCands = 0
		ev.reset(evalMark{al: ev.al.Mark()})
		clear(s.r.g.slots)
		clear(s.r.g.base)
		m.bindBase(ev, s.r.g)
		s.locEv = x.LocEvents()
		s.locW = make([][]int, len(s.locEv))
		s.musts = make([]axiom.Rel, len(s.locEv))
		for l, evs := range s.locEv {
			for _, e := range evs {
				if x.Ev[e].Kind == axiom.KindW {
					s.locW[l] = append(s.locW[l], e)
				}
			}
			s.musts[l] = axiom.NewRel(x.N)
		}
		s.must = axiom.NewRel(x.N)
		s.prepared = false
		s.baseMark = ev.mark()
	} else if s.prepared {
		s.r.ev.reset(s.structMark)
	} else {
		s.r.ev.reset(s.baseMark)
	}
	r, ev, g := s.r, s.r.ev, s.r.g
	uniproc := m.uniproc && !s.opt.plain && !s.viewOK
	s.r.noPrune = s.opt.plain || s.viewOK
	s.r.skipAll, s.r.skipChecks, s.r.strictSkip = s.opt.SkipAll, s.opt.SkipChecks, s.opt.StrictSkip
	rfe := &s.rfe
	if !rfe.Reset(x, uniproc, nil) {
		return true
	}
	s.flows = false
	for _, t := range x.Paths {
		if t.Flow != nil && t.Flow.Any {
			s.flows = true
		}
	}
	cand := &s.cand
	*cand = candidate{x: x, src: rfe.Src, uniproc: uniproc, locEv: s.locEv, musts: s.musts, have: cand.have}
	if cap(cand.have) < len(s.locEv) {
		cand.have = make([]bool, len(s.locEv))
	}
	cand.have = cand.have[:len(s.locEv)]
	ev.cand = cand
	if uniproc {
		// Drop an rf that no coherent co can go with. (One closure
		// for the search: the SB rings have one candidate per
		// execution.)
		if s.rfCheck == nil {
			s.rfCheck = func(l int) bool {
				s.cand.x.CoMust(l, s.cand.locEv[l], s.rfe.Src, s.must)
				return hasOrder(s.locW[l], s.must)
			}
		}
		rfe.Check = s.rfCheck
	}
	arenaMark := ev.mark()
	prepare := func() {
		s.r.prepass()
		if !s.opt.plain && !s.viewOK {
			ev.skip = m.skips(s.r)
		}
		s.structMark = ev.mark()
		s.prepared = true
		arenaMark = s.structMark
	}
	if len(s.fw) != len(s.p.Names) {
		s.fw = make([]int, len(s.p.Names))
	}
	fw := s.fw
	rfe.Each(func(rf axiom.Rel) bool {
		if s.p.RFOK != nil && !s.p.RFOK(x, rfe.Src) {
			return true
		}
		keep, sym := true, map[int]axiom.Val(nil)
		if s.flows {
			keep, sym = x.ThinAir(rfe.Src, s.dom)
		}
		if !keep {
			return true
		}
		clear(cand.have)
		s.eachFinal(x, cand, 0, fw, func() bool {
			s.res.Candidates++
			if s.opt.MaxCandidates > 0 && s.res.Candidates > s.opt.MaxCandidates {
				s.stop = &axiom.LimitError{Msg: fmt.Sprintf("more than %d candidate executions", s.opt.MaxCandidates)}
				return false
			}
			if s.res.Candidates&255 == 1 {
				if err := s.ctx.Err(); err != nil {
					s.stop = err
					return false
				}
				if err := s.p.Budget.Err(); err != nil {
					s.stop = err
					return false
				}
			}
			if !s.prepared {
				prepare()
			}
			if s.structCands++; s.structCands == memoAfter && !s.opt.plain {
				ev.memo = &s.r.memo
				ev.memo.newStructure()
			}
			ev.reset(arenaMark)
			if len(s.mem) != len(s.p.Names) {
				s.mem = make([]axiom.Val, len(s.p.Names))
			}
			// The final state is read only while this candidate is
			// evaluated (Finals.Add copies what it keeps).
			fin := axiom.Final{Mem: s.mem, Regs: x.SymbolicRegs(sym)}
			fwSet := x.Al.Set(x.N)
			for l := range fin.Mem {
				fin.Mem[l] = s.p.Init[l]
				if s.final[l] {
					fin.Mem[l] = x.Ev[fw[l]].Val
					if v, ok := sym[fw[l]]; ok {
						fin.Mem[l] = v
					}
					fwSet.Add(fw[l])
				}
			}
			if s.p.Test.Filter != nil && !s.ce.Holds(s.p.Test.Filter, fin) {
				return true
			}
			sat := s.ce.Prop == nil || s.ce.Holds(s.ce.Prop, fin)
			if s.viewOK {
				g.bindSlot(m.rfBase, ev.valueThunk(ev.relv(s.view.Rel(rf))))
				g.bindSlot(m.fwBase, ev.valueThunk(ev.setv(s.view.Set(fwSet))))
			} else {
				g.bindSlot(m.rfBase, ev.valueThunk(ev.relv(rf.Clone())))
				g.bindSlot(m.fwBase, ev.valueThunk(ev.setv(fwSet)))
			}
			r.stop = false
			r.pending = r.pending[:0]
			target := sat
			if s.opt.WitnessFor != nil {
				target = s.ce.Holds(s.opt.WitnessFor, fin)
			}
			r.wantWhy = target && s.res.Why == ""
			r.lastPath = nil
			s.sat, s.fin, s.target = sat, fin, target
			r.runTop(0, nil)
			return s.stop == nil
		})
		return s.stop == nil
	})
	return s.stop == nil
}

// emit records the outcome of the candidate s.fin, s.sat.
func (s *search) emit(o outcome) bool {
	r := s.r
	if o.failed != nil {
		if s.sat {
			s.res.Rejected[o.failed.name]++
		}
		if s.target && s.res.Why == "" {
			s.res.Why = o.failed.why
			if s.res.Why == "" {
				s.res.Why = "rejected by " + o.failed.name
				r.lastPath = nil
			}
			if s.opt.Graphs {
				s.res.WhyGraph = r.graph(r.lastPath, o.failed.name, s.finalText())
			}
			r.wantWhy = false
		}
		return true
	}
	if s.sat {
		s.res.Positive++
	} else {
		s.res.Negative++
	}
	if s.target {
		s.res.Matches++
	}
	// The witness of a forall is an execution where it fails.
	witness := s.target
	if s.opt.WitnessFor == nil && s.ce.Quant == litmus.Forall {
		witness = !s.sat
	}
	if witness && s.opt.Graphs && s.res.Witness == nil {
		s.res.Witness = r.graph(nil, "", s.finalText())
	}
	for _, f := range o.flags {
		s.flags[f] = true
	}
	s.finals.Add(s.fin)
	return true
}

// eachFinal chooses, for each location whose final value is observed, the
// write that is last in co (herd's FW), from location l on.
func (s *search) eachFinal(x *axiom.Execution, c *candidate, l int, fw []int, f func() bool) bool {
	for ; l < len(fw) && !s.final[l]; l++ {
	}
	if l == len(fw) {
		if s.p.FinalOK != nil && !s.p.FinalOK(x, fw, s.final) {
			return true
		}
		return f()
	}
	for _, w := range c.locEv[l] {
		if x.Ev[w].Kind != axiom.KindW {
			continue
		}
		if c.uniproc && !s.canBeLast(x, c, l, w) {
			continue
		}
		fw[l] = w
		if !s.eachFinal(x, c, l+1, fw, f) {
			return false
		}
	}
	return true
}

// canBeLast reports whether w may be the co-last write of l given the
// coherence order the candidate's reads imply.
func (s *search) canBeLast(x *axiom.Execution, c *candidate, l, w int) bool {
	must := c.must(l)
	for _, v := range c.locEv[l] {
		if v != w && x.Ev[v].Kind == axiom.KindW && must.Has(w, v) {
			return false
		}
	}
	return true
}

// finish turns the counts into the verdict.
func (s *search) finish() {
	r := s.res
	switch {
	case r.Positive == 0:
		r.Verdict = axiom.Never
	case r.Negative == 0:
		r.Verdict = axiom.Always
	default:
		r.Verdict = axiom.Sometimes
	}
	r.Ok = s.ce.Ok(r.Positive, r.Negative)
	r.States = s.finals.States()
	for f := range s.flags {
		r.Flags = append(r.Flags, f)
	}
	sort.Strings(r.Flags)
	if r.Matches > 0 {
		r.Why, r.WhyGraph = "", nil
	}
}

// finalText prints the observed part of the candidate's final state as
// herd prints a state.
func (s *search) finalText() string {
	return s.ce.Line(s.fin)
}

// bindBase binds the names every model starts from: the primitive sets
// and relations of the execution (except rf and FW, which each candidate
// binds), the event sets of the program's tags and of the model's
// annotations, and the primitive functions.
func (m *Model) bindBase(ev *evaluator, g *globals) {
	x := ev.x
	set := func(name string, s axiom.Set) { g.bindBase(name, ev.valueThunk(ev.setv(s))) }
	rel := func(name string, r axiom.Rel) { g.bindBase(name, ev.valueThunk(ev.relv(r))) }
	for _, p := range m.primSlots {
		g.bindSlot(p.slot, ev.valueThunk(p.v))
	}
	for _, b := range m.annotSlots {
		if b >= 0 {
			g.bindSlot(b, ev.valueThunk(ev.setv(x.Al.Set(x.N))))
		}
	}
	for i, b := range g.vocabSlots(x.P.Vocab) {
		if b >= 0 {
			g.bindSlot(b, ev.valueThunk(ev.setv(x.Tag[i])))
		}
	}
	set("M", x.M)
	// herd's explicit accesses (Exp) and the others (NExp: page-table
	// walks and other implicit accesses, which no semantics here makes).
	// Every memory event is explicit unless the architecture tags Exp
	// itself (AArch64). herd's current stdlib.cat defines amo and rmw
	// from them.
	if x.P.TagIndex("Exp") < 0 {
		set("Exp", x.M)
		set("NExp", x.Al.Set(x.N))
	} else {
		set("NExp", x.M.Minus(x.Tag[x.P.TagIndex("Exp")]))
	}
	if x.P.TagIndex("X") < 0 {
		// herd's X, the accesses of atomic instructions, for a program
		// whose semantics does not tag them (C without a bell): the
		// events of its read-modify-write instructions, from which
		// herd's current stdlib.cat defines amo and rmw.
		set("X", x.Amo.Domain().Union(x.Amo.Range()))
	}
	for _, name := range herdAbsentSets {
		if x.P.TagIndex(name) < 0 {
			set(name, x.Al.Set(x.N))
		}
	}
	set("R", x.R)
	set("W", x.W)
	set("F", x.F)
	set("B", x.B)
	set("IW", x.IW)
	ev.universeRel() // computed here, before the candidates' arena mark
	rel("id", ev.id)
	rel("loc", x.Loc)
	rel("int", x.Int)
	rel("ext", x.Ext)
	rel("po", x.PO)
	rel("addr", x.Addr)
	rel("data", x.Data)
	rel("ctrl", x.Ctrl)
	rel("rmw", x.RMW)
	rel("amo", x.Amo)
	rel("same-instr", x.SameInstr)
	rel("same-instance", x.SameInstr)
	rel("iico_order", x.IicoOrder)
	// herd's same-low-order-bits relates the accesses with the same
	// address offset; every use in herd's files composes it with the
	// page-table and fault events litmus never makes, and on the
	// accesses litmus makes it is loc.
	rel("same-low-order-bits", x.Loc)
	if m.catdep {
		// See registerLevel.
		rel("iico_data", x.Al.Rel(x.N))
		rel("iico_ctrl", x.Al.Rel(x.N))
	}
	rel("pick-addr-dep", x.PickAddr)
	rel("pick-data-dep", x.PickData)
	rel("pick-ctrl-dep", x.PickCtrl)
	rel("pick-dep", x.PickDep)
	// The single-copy-atomic accesses: each memory event alone, or in a
	// mixed-size test the granules of one access.
	rel("sm", x.SCA)
	rel("si", x.SCA)
}

// herdAbsentSets are event sets herd7 binds natively for events that
// litmus's semantics never makes: memory tagging (T), faults, TLB
// invalidations, cache maintenance and exception entry and return. They are empty here, herd's own
// value for them on a test without those instructions, so that herd's
// stock AArch64 files, which mention them, read as herd reads them. (The
// others of herd's files, such as PTE and the exception sets, are bound
// by the files themselves with "try ... with emptyset".)
var herdAbsentSets = []string{"T", "FAULT", "EXC-ENTRY", "EXC-RET", "TLBI", "TLBInXS", "TLBIIS", "DC.CVAU", "IC.IALLUIS", "IC.IALLU", "IC.IVAU"}
