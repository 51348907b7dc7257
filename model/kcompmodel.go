package model

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/kcomp"
	"github.com/litmus-dev/litmus/model/report"
)

// checkCompiled runs architecture model m on C test t compiled as the
// kernel compiles it for m's architecture (model/kcomp): the compiled
// test's events under the architecture's cat model. The states come back
// under the C test's names (the registers the C registers were given are
// renamed), and an explanation names the kernel primitive of each event.
func checkCompiled(ctx context.Context, t *litmus.Test, m Model, opt Options) (*Result, error) {
	c, err := kcomp.Compile(t, *m.cat.target, kcomp.Options{})
	if err != nil {
		return nil, err
	}
	cm, err := m.cat.model()
	if err != nil {
		return nil, err
	}
	// The budget of every other cat-model check (checkCat): the time
	// limit, ctx and the memory cap bound the compiled test's semantics
	// and the model's search alike, and a limit hit is an Unknown with
	// the limit in words.
	b := limit.New(ctx, opt.Timeout, opt.MaxMemory)
	p, err := arch.Program(c.Test, arch.Options{Budget: b})
	if err != nil {
		var ex *limit.Exceeded
		if errors.As(err, &ex) {
			return limitedResult(t, m, ex.Reason), nil
		}
		return nil, fmt.Errorf("%s: internal error: the test compiled for %s has no meaning: %v", t.Name, m, err)
	}
	start := time.Now()
	maxCand := opt.MaxStates
	if maxCand <= 0 {
		maxCand = DefaultMaxStates // as for the other models
	}
	r, err := cm.Check(ctx, p, interp.CheckOptions{MaxCandidates: maxCand, Explain: opt.Explain})
	if err != nil {
		return nil, err
	}
	states, err := cStates(c, p, r.States)
	if err != nil {
		return nil, err
	}
	why := r.Why
	if why != "" && b.Err() == nil {
		why = c.Explain(p, why)
	}
	res := axiomResult(t, m, axiomSummary{
		States: states, Verdict: r.Verdict, Reason: r.Reason, Ok: r.Ok,
		Positive: r.Positive, Negative: r.Negative, Flags: r.Flags, Why: why,
		Cut: r.Cut, Candidates: r.Candidates,
	})
	res.Stats.Elapsed = time.Since(start)
	res.Stats.Engine = "cat"
	return res, nil
}

// limitedResult is the Unknown answer of a check stopped by a limit
// before the model's search began.
func limitedResult(t *litmus.Test, m Model, reason string) *Result {
	return axiomResult(t, m, axiomSummary{Verdict: axiom.Unknown, Reason: reason})
}

// Compile returns C test t compiled for architecture model m as the
// kernel compiles it (model/kcomp): the test m checks in t's place. It is
// an error for a model that does not compile C tests.
func Compile(t *litmus.Test, m Model) (*kcomp.Compiled, error) {
	if t.Arch != litmus.ArchC || m.cat == nil || m.cat.target == nil {
		return nil, fmt.Errorf("%s: the %s model does not compile %s tests", t.Name, m, t.Arch)
	}
	return kcomp.Compile(t, *m.cat.target, kcomp.Options{})
}

// cStates renames the compiled test's final states to the C test's
// names and orders them as the C test's own states are ordered: its
// observed locations in herd's order, the states sorted as herd sorts
// them.
func cStates(c *kcomp.Compiled, p *axiom.Program, sts report.States) (report.States, error) {
	cp := &axiom.Program{Test: c.C, Names: p.Names, Index: p.Index, Threads: p.Threads}
	ce, err := axiom.NewCondEval(cp)
	if err != nil {
		return report.States{}, err
	}
	col := map[string]int{}
	for i, l := range sts.Locs() {
		if n, ok := c.CName(l); ok {
			l = n
		}
		col[l] = i
	}
	from := make([]int, len(ce.Observed))
	locs := make([]string, len(ce.Observed))
	for i, o := range ce.Observed {
		k, ok := col[o.Key()]
		if !ok && sts.Len() > 0 {
			return report.States{}, fmt.Errorf("%s: internal error: the compiled test's states have no %s", c.C.Name, o.Key())
		}
		from[i], locs[i] = k, o.Key()
	}
	set := report.NewStateSet[report.Value](len(locs))
	row := make([]report.Value, len(locs))
	for i := 0; i < sts.Len(); i++ {
		for j, k := range from {
			row[j] = sts.Value(i, k)
		}
		set.Add(row)
	}
	return set.States(locs, func(_ int, v report.Value) report.Value { return v },
		func(_ int, a, b report.Value) bool { return ce.ValueLess(a, b) }), nil
}
