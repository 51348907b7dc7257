package model

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/litmus-dev/litmus/litmus"
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
	if t.Arch != litmus.ArchC {
		return nil, fmt.Errorf("%s: the Linux-kernel memory model applies to C tests, not %s", t.Name, t.Arch)
	}
	start := time.Now()
	maxCand := opt.MaxStates
	if maxCand <= 0 {
		maxCand = DefaultMaxStates // as for the other models
	}
	r, err := lkmm.Check(ctx, t, lkmm.Options{MaxCandidates: maxCand, Timeout: opt.Timeout, MaxMemory: opt.MaxMemory})
	if err != nil {
		return nil, err
	}
	res := &Result{
		Name:     t.Name,
		Model:    LKMM,
		Ok:       r.Ok,
		Positive: r.Positive,
		Negative: r.Negative,
		Flags:    r.Flags,
		Why:      r.Why,
		Stats:    Stats{States: int64(r.Candidates), Elapsed: time.Since(start), Engine: "lkmm"},
	}
	res.Kind, res.Condition = Condition(t)
	for i, s := range r.States {
		st := State{Values: make([]LocValue, len(s))}
		for j, b := range s {
			st.Values[j] = LocValue{Loc: b.Loc, Val: parseValue(b.Val)}
			if i == 0 {
				res.Locs = append(res.Locs, b.Loc)
			}
		}
		res.States = append(res.States, st)
	}
	switch r.Verdict {
	case lkmm.Never:
		res.Verdict = Never
	case lkmm.Sometimes:
		res.Verdict = Sometimes
	case lkmm.Always:
		res.Verdict = Always
	default:
		res.Verdict, res.Reason, res.Ok = Unknown, r.Reason, false
	}
	res.Incomplete = r.Incomplete
	if r.Cut && res.Verdict != Unknown {
		// The engine unrolls loops a bounded number of times, like
		// herd7's -unroll, and drops the longer paths: the state set may
		// be incomplete. Sometimes stays exact (the executions found are
		// real ones); Never and Always are not.
		cut := fmt.Sprintf("loops were unrolled a bounded number of times and longer paths dropped (herd7 -unroll would print %s)", res.Verdict)
		if res.Verdict == Sometimes {
			if res.Incomplete == "" {
				res.Incomplete = cut
			}
		} else {
			res.Reason = cut
			res.Verdict, res.Ok = Unknown, false
		}
	}
	if res.Incomplete != "" {
		res.Partial = []string{"flags"}
	}
	return res, nil
}

// parseValue reads a value as herd prints it: an integer or a location
// name.
func parseValue(s string) Value {
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		return Value{Int: n}
	}
	return Value{Sym: s}
}
