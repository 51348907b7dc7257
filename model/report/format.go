package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// String prints the value as herd does: an integer, or a location's name
// for its address.
func (v Value) String() string {
	if v.Sym != "" {
		return v.Sym
	}
	return strconv.FormatInt(v.Int, 10)
}

// appendTo appends the value as String prints it.
func (v Value) appendTo(b []byte) []byte {
	if v.Sym != "" {
		return append(b, v.Sym...)
	}
	return strconv.AppendInt(b, v.Int, 10)
}

// String prints a state as one herd state line: "0:r0=1; [x]=2;".
func (s State) String() string {
	var b []byte
	for i, lv := range s.Values {
		b = appendBinding(b, i, lv.Loc, lv.Val)
	}
	return string(b)
}

// appendBinding appends the i-th binding of a herd state line, "0:r0=1;"
// ("[x]=2;" after a space when i > 0): the one printer of state lines,
// for State and for the packed States.
func appendBinding(b []byte, i int, loc string, v Value) []byte {
	if i > 0 {
		b = append(b, ' ')
	}
	b = append(b, loc...)
	b = append(b, '=')
	b = v.appendTo(b)
	return append(b, ';')
}

// String prints one step, for instance
//
//	P0  line 7   r0 = READ_ONCE(*y)   read y=0 from memory
//	P0  line 6   WRITE_ONCE(*x, 1)   drain: x=1 reaches memory
func (s Step) String() string {
	switch s.Kind {
	case StepDrain:
		if s.Wrote == nil { // the ghost store that ends an RCU read-side section
			return fmt.Sprintf("P%d  line %-3d %s   %s", s.Thread, s.Pos.Line, s.Text, s.Note)
		}
		return fmt.Sprintf("P%d  line %-3d %s   drain: %s=%s reaches memory", s.Thread, s.Pos.Line, s.Text, s.Loc, s.Wrote)
	case StepBlock:
		return fmt.Sprintf("P%d  line %-3d %s   %s", s.Thread, s.Pos.Line, s.Text, s.Note)
	}
	str := fmt.Sprintf("P%d  line %-3d %s", s.Thread, s.Pos.Line, s.Text)
	var parts []string
	if s.Read != nil {
		from := "memory"
		if s.From == FromBuffer {
			from = "own store buffer"
		}
		parts = append(parts, fmt.Sprintf("read %s=%s from %s", s.Loc, s.Read, from))
	}
	if s.Wrote != nil {
		w := fmt.Sprintf("write %s=%s", s.Loc, s.Wrote)
		if s.Note == "buffered" {
			w = fmt.Sprintf("store %s=%s into the store buffer", s.Loc, s.Wrote)
		}
		parts = append(parts, w)
	}
	if s.Note != "" && s.Note != "buffered" {
		parts = append(parts, s.Note)
	}
	if len(parts) > 0 {
		str += "   " + strings.Join(parts, "; ")
	}
	return str
}

// String prints the trace one step a line.
func (t Trace) String() string {
	var b strings.Builder
	for _, s := range t.Steps {
		b.WriteString(s.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// WriteHerd writes the result in herd7's output format (without the Time
// and Hash lines, which depend on the run):
//
//	Test SB Allowed
//	States 4
//	0:r0=0; 1:r0=0;
//	...
//	Ok
//	Witnesses
//	Positive: 1 Negative: 3
//	Condition exists (0:r0=0 /\ 1:r0=0)
//	Observation SB Sometimes 1 3
//
// An Unknown result has no verdict, so it prints none of the lines a
// script reading herd's output takes for one: no Ok/No line, no
// Witnesses and Positive/Negative lines, and "Observation NAME Unknown"
// without counts. Its States are the final states found before the
// search stopped. The kernel's judgelitmus.sh, which looks for the
// expected word on the Observation line (and "Never 0 0" for DEADLOCK),
// then reports the test as not verified.
//
// The state lines are streamed from the packed States, never all held
// as text.
func (r *Result) WriteHerd(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "Test %s %s\n", r.Name, r.Kind)
	fmt.Fprintf(b, "States %d\n", r.States.Len())
	var line []byte
	for i := 0; i < r.States.Len(); i++ {
		line = append(r.States.AppendLine(line[:0], i), '\n')
		b.Write(line)
	}
	unknown := r.Verdict == Unknown
	switch {
	case unknown:
	case r.Ok:
		b.WriteString("Ok\n")
	default:
		b.WriteString("No\n")
	}
	if !unknown {
		pos, neg := r.Witnesses()
		fmt.Fprintf(b, "Witnesses\nPositive: %d Negative: %d\n", pos, neg)
	}
	for _, f := range r.Flags {
		fmt.Fprintf(b, "Flag %s\n", f)
	}
	if r.Condition != "" {
		fmt.Fprintf(b, "Condition %s\n", r.Condition)
	}
	if unknown {
		fmt.Fprintf(b, "Observation %s %s\n", r.Name, r.Verdict)
	} else {
		fmt.Fprintf(b, "Observation %s %s %d %d\n", r.Name, r.Verdict, r.Positive, r.Negative)
	}
	return b.Flush()
}
