package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/litmus-dev/litmus/model"
)

// writeHerd prints r in herd7's output format, line for line:
//
//	Test NAME Allowed|Forbidden|Required
//	States N
//	<one line per final state>
//	Ok|No
//	Witnesses
//	Positive: P Negative: N
//	Flag data-race                 (LKMM, when an allowed execution races)
//	Condition exists (...)
//	Observation NAME Never|Sometimes|Always P N
//	Time NAME S
//
// with litmus's own lines, which herd never prints, before the Time line:
// "Unknown NAME reason" when the search was cut short (then the block has
// no Ok/No, no Positive/Negative and no counts on the Observation line,
// model.Result.WriteHerd), "Incomplete NAME ..." when it was cut short
// after the verdict was already certain, "Invariant NAME violated ...",
// "Stuck NAME ..." and "Dropped NAME ..." (executions dropped for
// accessing a non-address, model.Result.Dropped), "Await NAME ..." for a
// loop an axiomatic model checked as an await of its exit condition
// (model.Result.Loops). With withTime false the
// Time line is left out so that the output is byte-for-byte reproducible.
func writeHerd(w io.Writer, r *model.Result, withTime bool) {
	_ = r.WriteHerd(w)
	if r.Verdict == model.Unknown {
		fmt.Fprintf(w, "Unknown %s %s\n", r.Name, r.Reason)
	}
	if r.Incomplete != "" {
		fmt.Fprintf(w, "Incomplete %s the search stopped early (%s) after it found final states where the condition holds and where it fails: %s is certain, %s are those of the part explored\n",
			r.Name, r.Incomplete, r.Verdict, exploredParts(r.Partial))
	}
	for _, v := range r.Violations {
		fmt.Fprintf(w, "Invariant %s violated: %s in state %s (run 'litmus explain' for the trace)\n", r.Name, v.Invariant, v.State)
	}
	for _, s := range r.Stuck {
		fmt.Fprintf(w, "Stuck %s %s\n", r.Name, s.Reason)
	}
	for _, f := range r.Faults {
		fmt.Fprintf(w, "Fault %s %s\n", r.Name, f.Reason)
	}
	for _, l := range r.Loops {
		if strings.HasSuffix(l, " checked as an await of its exit condition") {
			fmt.Fprintf(w, "Await %s %s\n", r.Name, l)
		}
	}
	if len(r.Dropped) > 0 && len(r.Faults) == 0 {
		fmt.Fprintf(w, "Dropped %s %s (executions that access a non-address are dropped; %d such dead ends)\n", r.Name, r.Dropped[0].Reason, r.Stats.Dropped)
	}
	if withTime {
		fmt.Fprintf(w, "Time %s %.2f\n", r.Name, r.Stats.Elapsed.Seconds())
	}
	fmt.Fprintln(w)
}

// writeSearch prints, for an operational search whose partial-order
// reduction did not apply (check -v), why: "Search T plain: the program
// loops". A reduced search and the other engines have no such line.
func writeSearch(w io.Writer, r *model.Result) {
	if r.Stats.Unreduced != "" {
		fmt.Fprintf(w, "Search %s plain: %s, so the partial-order reduction does not apply and every interleaving is explored\n\n", r.Name, r.Stats.Unreduced)
	}
}

// exploredParts names what an incomplete result covers only in part:
// "the states, the counts and the flags".
func exploredParts(partial []string) string {
	parts := append([]string{"states", "counts"}, partial...)
	for i := range parts {
		parts[i] = "the " + parts[i]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
