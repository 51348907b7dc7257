package op

import (
	"context"
	"encoding/binary"
	"github.com/litmus-dev/litmus/model/report"
	"sort"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
)

// witnessBudget bounds the extra plain search that looks for a shortest
// witness after a reduced search; past it the reduced search's trace is
// used (valid, maybe not shortest).
const witnessBudget = 20_000

// maxStuck is how many stuck states a Result reports.
const maxStuck = 3

func newMemModel(m Machine) memModel {
	switch m {
	case SC:
		return scModel{}
	case TSO:
		return tsoModel{}
	case PSO:
		return psoModel{}
	}
	panic("model: no machine for " + m.String())
}

func check(ctx context.Context, t *litmus.Test, m Machine, opt report.Options) (*report.Result, error) {
	res, err := check1(ctx, t, m, opt)
	if e, ok := err.(*litmus.Error); ok {
		err = litmus.ErrorList{e}
	}
	return res, err
}

func check1(ctx context.Context, t *litmus.Test, m Machine, opt report.Options) (*report.Result, error) {
	start := time.Now()
	// The limits count from here: the compilation is part of the
	// (test, model) check that --timeout bounds.
	budget := limit.New(ctx, opt.Timeout, opt.MaxMemory)
	p, err := compile(t)
	if err != nil {
		return nil, err
	}
	mc := &machine{p: p, mm: newMemModel(m)}
	res := &report.Result{Name: t.Name, Model: m.String()}
	res.Kind, res.Condition = report.Condition(t)
	obs, err := p.observed()
	if err != nil {
		return nil, err
	}
	for _, k := range obs {
		res.Locs = append(res.Locs, k.String())
	}
	pr, err := compileProps(p, t, opt)
	if err != nil {
		return nil, err
	}

	so := searchOpts{maxStates: opt.MaxStates, inv: pr.invs, edges: p.hasLoops}
	if so.maxStates <= 0 {
		so.maxStates = report.DefaultMaxStates
	}
	so.budget = budget
	ok, unreduced := porPossible(p)
	if ok && len(pr.invs) > 0 {
		ok, unreduced = false, unreducedInvariants
	}
	so.reduced = ok && !opt.Plain
	if opt.Plain {
		unreduced = ""
	}
	sr, err := mc.explore(so)
	if err != nil {
		return nil, runtimeErr(t, err)
	}
	res.Stats = report.Stats{States: int64(sr.set.Len()), Transitions: sr.transitions, BytesPerState: sr.bytesPerState(), Elapsed: sr.elapsed, Engine: "plain"}
	if so.reduced {
		res.Stats.Engine = "reduced"
	}
	res.Stats.Unreduced = unreduced

	scratch := mc.blank()
	outs, stuckIDs, droppedIDs := mc.outcomes(sr, obs, pr, scratch)
	finals := report.NewStateSet[val](len(obs))
	for _, o := range outs {
		finals.Add(o.vals)
		if o.holds {
			res.Positive++
		} else {
			res.Negative++
		}
	}
	res.States = finals.States(res.Locs, func(_ int, v val) report.Value { return p.value(v) },
		func(_ int, a, b val) bool { return lessVal(p, a, b) })
	// Stuck states first: the analysis may stop at the memory cap, and
	// then the verdict is Unknown too.
	res.Stuck = mc.stuck(sr, stuckIDs)
	setVerdict(res, t, p, sr, len(pr.invs) > 0)
	if !opt.NoWitness && (pr.cond != nil || pr.witnessFor != nil) {
		res.Witness = mc.witness(t, sr, so, pr, outs, scratch)
	}
	for i, id := range sr.invHit {
		if id < 0 {
			continue
		}
		res.Violations = append(res.Violations, mc.violation(t, sr, t.Invariants[i], id))
	}
	res.InvariantsChecked = true
	res.Dropped = mc.droppedReport(sr, droppedIDs)
	res.Stats.Dropped = int64(len(droppedIDs))
	res.FaultsChecked = t.Code != nil || len(t.Objects) > 0
	if len(res.Dropped) > 0 && res.FaultsChecked {
		// In a test with objects an access through NULL or a wild
		// pointer is a finding (report.Result.Faults), with its trace.
		res.Faults = res.Dropped
		res.Flags = append(res.Flags, "bad-address")
	}
	res.Stats.Elapsed = time.Since(start)
	return res, nil
}

// props are a test's propositions, compiled for p.
type props struct {
	cond, filter, witnessFor *cprop
	invs                     []*cprop
}

// compileProps compiles t's condition, filter and invariants and the
// --witness-for proposition.
func compileProps(p *program, t *litmus.Test, opt report.Options) (props, error) {
	var pr props
	var err error
	if t.Cond != nil {
		if pr.cond, err = p.compileProp(t.Cond.Prop); err != nil {
			return pr, err
		}
	}
	if t.Filter != nil {
		if pr.filter, err = p.compileProp(t.Filter); err != nil {
			return pr, err
		}
	}
	if opt.WitnessFor != nil {
		if pr.witnessFor, err = p.compileProp(opt.WitnessFor); err != nil {
			return pr, report.AsPropError(err)
		}
	}
	for _, inv := range t.Invariants {
		c, err := p.compileProp(inv.Prop)
		if err != nil {
			return pr, err
		}
		pr.invs = append(pr.invs, c)
	}
	return pr, nil
}

// outcome is one final state's projection on the observed locations.
type outcome struct {
	vals  []val
	id    int  // the first state found with these values, for witnesses
	holds bool // the condition's proposition holds
}

// outcomes returns the search's final states that pass the filter,
// projected on obs, deduplicated and sorted, and the terminal states
// that are not final: stuck, or dropped.
func (m *machine) outcomes(sr *search, obs []locKey, pr props, scratch *mstate) (outs []outcome, stuckIDs, droppedIDs []int) {
	seen := map[string]int{}
	var key []byte
	for _, id := range sr.terminals {
		s := sr.decode(id, scratch)
		if !m.final(s) {
			if m.dropped(s) {
				droppedIDs = append(droppedIDs, id)
			} else {
				stuckIDs = append(stuckIDs, id)
			}
			continue
		}
		if pr.filter != nil && !pr.filter.eval(s) {
			continue
		}
		vals := make([]val, len(obs))
		key = key[:0]
		for i, o := range obs {
			vals[i] = o.get(s)
			key = binary.AppendVarint(key, vals[i])
		}
		if _, dup := seen[string(key)]; !dup {
			seen[string(key)] = len(outs)
			holds := pr.cond == nil || pr.cond.eval(s)
			outs = append(outs, outcome{vals, id, holds})
		}
	}
	sort.Slice(outs, func(i, j int) bool { return lessVals(m.p, outs[i].vals, outs[j].vals) })
	return outs, stuckIDs, droppedIDs
}

// setVerdict sets res's verdict from its counts of final states and the
// search's completeness, and whether the test's condition is met.
func setVerdict(res *report.Result, t *litmus.Test, p *program, sr *search, hasInvs bool) {
	switch {
	case sr.unknown != "" && res.Positive > 0 && res.Negative > 0:
		// Reachable final states where the proposition holds and
		// where it fails: Sometimes, whatever the rest of the graph.
		res.Verdict, res.Incomplete = report.Sometimes, sr.unknown
		if hasInvs {
			res.Partial = append(res.Partial, "invariants")
		}
		if p.mayBlock() {
			res.Partial = append(res.Partial, "stuck threads")
		}
	case sr.unknown != "":
		res.Verdict, res.Reason = report.Unknown, sr.unknown
	case res.Positive == 0:
		res.Verdict = report.Never
	case res.Negative == 0:
		res.Verdict = report.Always
	default:
		res.Verdict = report.Sometimes
	}
	if res.Verdict != report.Unknown && t.Cond != nil {
		switch t.Cond.Quant {
		case litmus.Exists:
			res.Ok = res.Positive > 0
		case litmus.NotExists:
			res.Ok = res.Positive == 0
		case litmus.Forall:
			res.Ok = res.Negative == 0
		}
	}
}

// witness returns the trace to the first final state (in discovery
// order) that explains the verdict, or nil.
func (m *machine) witness(t *litmus.Test, sr *search, so searchOpts, pr props, outs []outcome, scratch *mstate) *report.Trace {
	p := m.p
	want := func(s *mstate) bool {
		if pr.filter != nil && !pr.filter.eval(s) {
			return false
		}
		if pr.witnessFor != nil {
			return pr.witnessFor.eval(s)
		}
		// exists P and ~exists P are explained by a state where P
		// holds (for ~exists, the state that makes the test fail);
		// forall P by one where it fails.
		return pr.cond.eval(s) != (t.Cond.Quant == litmus.Forall)
	}
	best := -1
	for _, o := range outs {
		if (best < 0 || o.id < best) && want(sr.decode(o.id, scratch)) {
			best = o.id
		}
	}
	if best < 0 {
		return nil
	}
	if so.reduced && !p.fixedLength() {
		if w := m.shortestWitness(so, want); w != nil {
			return w
		}
	}
	tr := m.trace(sr.path(best))
	tr.Shortest = !so.reduced || p.fixedLength()
	return &tr
}

// violation reports invariant inv, broken in state id.
func (m *machine) violation(t *litmus.Test, sr *search, inv *litmus.Invariant, id int) report.Violation {
	p := m.p
	v := report.Violation{Invariant: "invariant (" + report.PropString(inv.Prop, t.Arch) + ")", Pos: t.File.Position(inv.Pos()), Trace: m.trace(sr.path(id))}
	v.Trace.Shortest = true
	v.State = stateString(p, invKeys(p, inv.Prop), sr.state(id))
	return v
}

// mayBlock reports whether a thread of p can be left unable to finish: p
// has a loop, takes a lock or waits for a grace period.
func (p *program) mayBlock() bool {
	if p.hasLoops {
		return true
	}
	for _, th := range p.threads {
		for _, in := range th.code {
			switch in.op {
			case opLock, opGPWait:
				return true
			}
		}
	}
	return false
}

// fixedLength reports whether every run to a final state has the same
// number of steps: each thread runs each of its instructions once (no
// branch), and each buffered store drains once (no rcu_read_unlock, whose
// ghost store is buffered only sometimes). Then any trace to a final state
// is a shortest one.
func (p *program) fixedLength() bool {
	for _, th := range p.threads {
		for _, in := range th.code {
			switch in.op {
			case opBranch, opJump, opRCUUnlock:
				return false
			}
		}
	}
	return true
}

// shortestWitness looks for a shortest trace to a final state satisfying
// want with a plain breadth-first search, within witnessBudget states.
func (m *machine) shortestWitness(so searchOpts, want func(*mstate) bool) *report.Trace {
	so.reduced, so.edges, so.inv, so.goal = false, false, nil, want
	if so.maxStates > witnessBudget {
		so.maxStates = witnessBudget
	}
	sr, err := m.explore(so)
	if err != nil || sr.goalHit < 0 {
		return nil
	}
	tr := m.trace(sr.path(sr.goalHit))
	tr.Shortest = true
	return &tr
}

// runtimeErr gives a runtime error its source position.
func runtimeErr(t *litmus.Test, err error) error {
	if re, ok := err.(*runtimeError); ok {
		var l litmus.ErrorList
		l.Add(t.File.Position(re.pos), re.msg)
		return l
	}
	return err
}

// lessVals orders outcomes as herd sorts its state lines: location by
// location, integers numerically before addresses, addresses by name.
func lessVals(p *program, a, b []val) bool {
	for i := range a {
		if a[i] != b[i] {
			return lessVal(p, a[i], b[i])
		}
	}
	return false
}

// lessVal orders two different values of one location as herd does:
// integers numerically before addresses, addresses by name.
func lessVal(p *program, a, b val) bool {
	if a == b {
		return false
	}
	sa, oka := p.symbol(a)
	sb, okb := p.symbol(b)
	switch {
	case oka && okb:
		return sa < sb
	case oka != okb:
		return okb
	}
	return a < b
}

// invKeys returns the locations an invariant mentions, sorted as herd
// sorts observed locations.
func invKeys(p *program, pr litmus.Prop) []locKey {
	q := *p
	t := *p.test
	t.Locations, t.Cond = nil, &litmus.Cond{Quant: litmus.Exists, Prop: pr}
	q.test = &t
	keys, _ := q.observed()
	return keys
}

func stateString(p *program, keys []locKey, s *mstate) string {
	out := ""
	for i, k := range keys {
		if i > 0 {
			out += " "
		}
		out += k.String() + "=" + p.format(k.get(s)) + ";"
	}
	return out
}
