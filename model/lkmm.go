package model

import (
	"context"
	"fmt"
	"time"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// checkLKMM runs the axiomatic LKMM engine (package model/lkmm) and
// gives its answer the shape of every other model's Result.
//
// Two differences follow from the engine being axiomatic: there is no
// interleaving, so Witness is nil and Why explains the verdict instead;
// and there are no intermediate states, so invariant clauses are not
// checked (InvariantsChecked is false). Positive and Negative are herd7's
// own counts of allowed candidate executions.
func checkLKMM(ctx context.Context, t *litmus.Test, opt Options) (*Result, error) {
	if t.Arch != litmus.ArchC && t.Arch != litmus.ArchLISA {
		return nil, fmt.Errorf("%s: the Linux-kernel memory model applies to C and LISA tests, not %s", t.Name, t.Arch)
	}
	start := time.Now()
	maxCand := opt.MaxStates
	if maxCand <= 0 {
		maxCand = DefaultMaxStates // as for the other models
	}
	r, err := lkmm.Check(ctx, t, lkmm.Options{MaxCandidates: maxCand, Timeout: opt.Timeout, MaxMemory: opt.MaxMemory, LoopBound: opt.LoopBound, Unroll: opt.Unroll,
		WitnessFor: opt.WitnessFor, Graphs: opt.Explain})
	if err != nil {
		return nil, err
	}
	res := axiomResult(t, LKMM, axiomSummary{
		States: r.States, Verdict: axiom.Verdict(r.Verdict), Reason: r.Reason, Ok: r.Ok,
		Positive: r.Positive, Negative: r.Negative, Flags: r.Flags, Why: r.Why,
		Graph: r.Witness, WhyGraph: r.WhyGraph, Matches: r.Matches,
		Cut: r.Cut, Loops: r.Loops, Candidates: r.Candidates, Incomplete: r.Incomplete,
	})
	// r.Flags has bad-address already when there are faults.
	setFaults(res, t, r.Faults, nil)
	res.Stats.Elapsed = time.Since(start)
	res.Stats.Engine = "lkmm"
	return res, nil
}
