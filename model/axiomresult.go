package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/report"
)

// The answer of the axiomatic families (lkmm.go, cat.go, kcomp.go), put
// in report's shape once.

// axiomSummary is what an axiomatic engine answers, in package axiom's
// terms.
type axiomSummary struct {
	States             report.States
	Verdict            axiom.Verdict
	Reason             string
	Ok                 bool
	Positive, Negative int
	Flags              []string
	Why                string
	Graph, WhyGraph    *report.Graph
	Matches            int
	Cut                bool
	Loops              []string
	Candidates         int
	// Incomplete says what a search cut short after finding both a
	// positive and a negative execution did not finish (its verdict,
	// Sometimes, is exact).
	Incomplete string
}

// axiomResult gives an axiomatic engine's answer the shape of every other
// model's Result.
func axiomResult(t *litmus.Test, m Model, r axiomSummary) *Result {
	res := &Result{
		Name:     t.Name,
		Model:    m.String(),
		Ok:       r.Ok,
		Positive: r.Positive,
		Negative: r.Negative,
		Flags:    r.Flags,
		Why:      r.Why,
		Graph:    r.Graph,
		WhyGraph: r.WhyGraph,
		Matches:  r.Matches,
		Loops:    r.Loops,
		Stats:    Stats{States: int64(r.Candidates)},
	}
	res.Kind, res.Condition = report.Condition(t)
	res.States, res.Locs = r.States, r.States.Locs()
	switch r.Verdict {
	case axiom.Never:
		res.Verdict = Never
	case axiom.Sometimes:
		res.Verdict = Sometimes
	case axiom.Always:
		res.Verdict = Always
	default:
		res.Verdict, res.Reason, res.Ok = Unknown, r.Reason, false
	}
	res.Incomplete = r.Incomplete
	if r.Cut && res.Verdict != Unknown {
		// Loops were unrolled a bounded number of times, like herd7's
		// -unroll, and longer paths dropped: the state set may be
		// incomplete. Sometimes stays exact (the executions found are
		// real ones); Never and Always do not.
		cut := fmt.Sprintf("loops were unrolled a bounded number of times and longer paths dropped (herd7 -unroll would print %s)", res.Verdict)
		if un := unrolled(r.Loops); un != "" {
			cut += "; " + un
		}
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
	return res
}

// unrolled lists the loops a search unrolled, with why each is not an
// await (the notes of litmus.Awaits).
func unrolled(loops []string) string {
	var out []string
	for _, l := range loops {
		if !strings.Contains(l, " checked as an await") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}

// parseValue reads a value as herd prints it: an integer or a location
// name.
func parseValue(s string) Value {
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		return Value{Int: n}
	}
	return Value{Sym: s}
}
