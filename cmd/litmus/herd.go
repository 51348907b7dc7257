package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/model"
)

// formatValue prints a value as herd does: a decimal integer, or the name
// of the location whose address it is.
func formatValue(v model.Value) string {
	if v.Sym != "" {
		return v.Sym
	}
	return strconv.FormatInt(v.Int, 10)
}

// formatState prints one final state as a herd state line:
// "0:r0=0; [x]=1;".
func formatState(s model.State) string {
	var b strings.Builder
	for i, lv := range s.Values {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(lv.Loc)
		b.WriteByte('=')
		b.WriteString(formatValue(lv.Val))
		b.WriteByte(';')
	}
	return b.String()
}

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
// followed by litmus's own lines, which herd never prints: "Unknown NAME
// reason" when the search was cut short, "Invariant NAME violated ..." and
// "Stuck NAME ...". With withTime false the Time line is left out so that
// the output is byte-for-byte reproducible.
func writeHerd(w io.Writer, r *model.Result, withTime bool) {
	fmt.Fprintf(w, "Test %s %s\n", r.Name, r.Kind)
	fmt.Fprintf(w, "States %d\n", len(r.States))
	for _, s := range r.States {
		fmt.Fprintln(w, formatState(s))
	}
	if r.Ok {
		fmt.Fprintln(w, "Ok")
	} else {
		fmt.Fprintln(w, "No")
	}
	pos, neg := r.Witnesses()
	fmt.Fprintln(w, "Witnesses")
	fmt.Fprintf(w, "Positive: %d Negative: %d\n", pos, neg)
	for _, f := range r.Flags {
		fmt.Fprintf(w, "Flag %s\n", f)
	}
	if r.Condition != "" {
		fmt.Fprintf(w, "Condition %s\n", r.Condition)
	}
	fmt.Fprintf(w, "Observation %s %s %d %d\n", r.Name, r.Verdict, r.Positive, r.Negative)
	if r.Verdict == model.Unknown {
		fmt.Fprintf(w, "Unknown %s %s\n", r.Name, r.Reason)
	}
	for _, v := range r.Violations {
		fmt.Fprintf(w, "Invariant %s violated: %s in state %s (run 'litmus explain' for the trace)\n", r.Name, v.Invariant, v.State)
	}
	for _, s := range r.Stuck {
		fmt.Fprintf(w, "Stuck %s %s\n", r.Name, s.Reason)
	}
	if withTime {
		fmt.Fprintf(w, "Time %s %.2f\n", r.Name, r.Stats.Elapsed.Seconds())
	}
	fmt.Fprintln(w)
}
