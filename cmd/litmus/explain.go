package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

var explainFlags struct {
	runOptions
	state string
	dot   string
}

func init() {
	register(&Command{
		Name:      "explain",
		UsageLine: "explain [--model M] [--state COND] [--dot FILE] FILE",
		Short:     "show the interleaving that reaches an outcome",
		Long: `
Explain prints, step by step, an execution of the test under a model that
reaches its condition's outcome (for "exists", a final state where it holds;
for "~exists" and "forall", one where it fails) or, with --state, a final
state satisfying the given proposition, e.g. --state '0:r0=0 /\ 1:r0=0'.

Each step names the thread, the source line, the instruction, the value read
and whether it came from the thread's store buffer or from memory; each
drain of a buffered store to memory is a step of its own, and the store
buffers are shown after every step that changes them. The trace is a
shortest one when the search was the plain breadth-first one; a trace from
the reduced search is marked as possibly longer.

It also prints each invariant violation and each stuck state with the trace
that reaches it.

Flags:
	--model M       one model, as for check (default: the test's own, as for check)
	--state COND    explain a final state satisfying COND instead of the condition
	--dot FILE      also write a Graphviz picture of the execution to FILE; with
	                "-" the picture alone goes to stdout (pipe it to dot) and the
	                explanation to stderr; an error when there is no execution
	                to draw (under lkmm, or when nothing reaches the outcome)
	--max-states N, --timeout D, --max-memory N   search bounds, as for check
`,
		SetFlags: func(fs *flag.FlagSet) {
			f := &explainFlags
			// Reset everything, the repeatable --cat and -I too: the
			// commands run in-process in the tests, one after another.
			f.runOptions, f.state, f.dot = runOptions{}, "", ""
			addRunFlags(fs, &f.runOptions)
			fs.StringVar(&f.state, "state", "", "final-state proposition to explain")
			fs.StringVar(&f.dot, "dot", "", "write a Graphviz picture to this file")
		},
		Run: runExplain,
	})
}

func runExplain(ctx context.Context, env *Env, args []string) int {
	f := explainFlags
	if len(args) != 1 {
		env.Errorf("usage: litmus explain [--model M] [--state COND] [--dot FILE] FILE")
		return exitUsage
	}
	if err := f.loadPrims(); err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	t, err := env.parseArg(args[0], f.prims)
	if err != nil {
		printInputError(env, args[0], err, nil)
		return exitUsage
	}
	ms, err := modelsFor(f.runOptions, t)
	if err == nil && len(ms) != 1 {
		err = fmt.Errorf("explain takes one model, not %d", len(ms))
	}
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	m := ms[0]
	opt := f.modelOptions()
	if f.state != "" {
		p, err := parseProp(f.state)
		if err != nil {
			env.Errorf("--state: %v", err)
			return exitUsage
		}
		if err := model.CheckProp(t, p); err != nil {
			// The proposition is the flag's, not the file's.
			env.Errorf("--state: %v", err)
			return exitUsage
		}
		opt.WitnessFor = p
	}
	opt.Explain = true
	r, err := model.Check(ctx, t, m, opt)
	if err != nil {
		printInputError(env, args[0], err, nil)
		return exitUsage
	}
	if f.dot != "" && r.Witness == nil {
		why := "no execution reaches " + r.Condition
		if f.state != "" {
			why = "no execution reaches the final state " + f.state
		}
		if m == model.LKMM {
			why = "the LKMM is axiomatic: it has no interleaving to draw"
		}
		env.Errorf("--dot: nothing to draw: %s", why)
		return exitUsage
	}
	w := env.Stdout
	if f.dot == "-" {
		// The graph alone goes to standard output, so that it can be
		// piped to dot; the explanation goes to standard error.
		w = env.Stderr
	}
	what := "the condition " + r.Condition
	if f.state != "" {
		what = "the final state " + f.state
	}
	explored := "states explored"
	if m.Axiomatic() {
		explored = "candidate executions"
	}
	fmt.Fprintf(w, "Test %s under %s: %s (%d final states, %d %s)\n", r.Name, m, r.Verdict, r.States.Len(), r.Stats.States, explored)
	if r.Verdict == model.Unknown {
		fmt.Fprintf(w, "The search was cut short (%s): what follows may be incomplete.\n", r.Reason)
	}
	if r.Incomplete != "" {
		fmt.Fprintf(w, "The search stopped early (%s) after it found final states where the condition holds and where it fails: %s is certain, but what follows may be incomplete.\n", r.Incomplete, r.Verdict)
	}
	switch {
	case r.Witness == nil && r.Why != "":
		fmt.Fprintf(w, "\n%s\n", r.Why)
	case r.Witness == nil && m.Axiomatic():
		fmt.Fprintf(w, "\n%s is axiomatic: there is no interleaving to show. Of its allowed executions, %d reach %s and %d do not.\n", axiomaticName(m), r.Positive, what, r.Negative)
	case r.Witness == nil:
		fmt.Fprintf(w, "\nNo execution reaches %s.\n", what)
	default:
		fmt.Fprintf(w, "\nAn execution reaching %s:\n", what)
		writeTrace(w, r.Witness, m)
	}
	if !r.InvariantsChecked && len(t.Invariants) > 0 {
		fmt.Fprintf(w, "\nInvariants are not checked under %s: an axiomatic model has no intermediate states.\n", m)
	}
	for _, v := range r.Violations {
		fmt.Fprintf(w, "\n%s (%s) is violated, first in state %s\n", v.Invariant, v.Pos, v.State)
		writeTrace(w, &v.Trace, m)
	}
	for _, s := range r.Stuck {
		fmt.Fprintf(w, "\nStuck: %s\n", s.Reason)
		writeTrace(w, &s.Trace, m)
	}
	for _, s := range r.Dropped {
		fmt.Fprintf(w, "\nDropped, not checked: %s\n", s.Reason)
		writeTrace(w, &s.Trace, m)
	}
	if f.dot != "" && r.Witness != nil {
		out := io.Writer(env.Stdout)
		if f.dot != "-" {
			file, err := os.Create(f.dot)
			if err != nil {
				env.Errorf("%v", err)
				return exitUsage
			}
			defer file.Close()
			out = file
		}
		writeDot(out, r, r.Witness)
	}
	return exitOK
}

// parseProp parses a condition-language proposition by wrapping it in a
// minimal test, so that it is read by exactly the parser that reads tests.
func parseProp(s string) (litmus.Prop, error) {
	src := "C state\n{}\nP0(int *x)\n{\n}\nexists (" + s + ")\n"
	t, err := litmus.Parse("--state", []byte(src))
	if err != nil {
		return nil, fmt.Errorf("cannot parse %q: %v", s, err)
	}
	return t.Cond.Prop, nil
}

// bufferEntry is one store in a reconstructed store buffer.
type bufferEntry struct{ loc, val string }

// writeTrace prints a trace step by step, with the store buffers
// reconstructed from the buffered stores and drains it records.
func writeTrace(w io.Writer, tr *model.Trace, m model.Model) {
	buffers := map[int][]bufferEntry{}
	for i, s := range tr.Steps {
		changed := false
		var b strings.Builder
		switch s.Kind {
		case model.StepDrain:
			fmt.Fprintf(&b, "%3d. P%d   drain     %s=%s reaches memory", i+1, s.Thread, s.Loc, valueString(s.Wrote))
			buf := buffers[s.Thread]
			for j, e := range buf {
				if e.loc == s.Loc {
					buffers[s.Thread] = append(buf[:j:j], buf[j+1:]...)
					break
				}
			}
			changed = true
		case model.StepBlock:
			fmt.Fprintf(&b, "%3d. P%d   line %-3d %s   waits forever", i+1, s.Thread, s.Pos.Line, s.Text)
		default:
			fmt.Fprintf(&b, "%3d. P%d   line %-3d %s", i+1, s.Thread, s.Pos.Line, s.Text)
			var notes []string
			if s.Read != nil {
				from := ""
				switch s.From {
				case model.FromBuffer:
					from = " from P" + fmt.Sprint(s.Thread) + "'s store buffer"
				case model.FromMemory:
					from = " from memory"
				}
				notes = append(notes, fmt.Sprintf("read %s=%s%s", s.Loc, valueString(s.Read), from))
			}
			if s.Wrote != nil {
				if strings.Contains(s.Note, "buffered") {
					buffers[s.Thread] = append(buffers[s.Thread], bufferEntry{s.Loc, valueString(s.Wrote)})
					changed = true
					notes = append(notes, fmt.Sprintf("%s=%s into the store buffer", s.Loc, valueString(s.Wrote)))
				} else {
					notes = append(notes, fmt.Sprintf("wrote %s=%s", s.Loc, valueString(s.Wrote)))
				}
			}
			if s.Note != "" && !strings.Contains(s.Note, "buffered") {
				notes = append(notes, s.Note)
			}
			if len(notes) > 0 {
				b.WriteString("   -- " + strings.Join(notes, "; "))
			}
		}
		fmt.Fprintln(w, b.String())
		if changed && m != model.SC {
			fmt.Fprintf(w, "         buffers: %s\n", formatBuffers(buffers))
		}
	}
	if !tr.Shortest {
		fmt.Fprintln(w, "     (found by the reduced search: a valid execution, not necessarily a shortest one)")
	}
}

func formatBuffers(buffers map[int][]bufferEntry) string {
	var threads []int
	for t, b := range buffers {
		if len(b) > 0 {
			threads = append(threads, t)
		}
	}
	if len(threads) == 0 {
		return "all empty"
	}
	sort.Ints(threads)
	var parts []string
	for _, t := range threads {
		var es []string
		for _, e := range buffers[t] {
			es = append(es, e.loc+"="+e.val)
		}
		parts = append(parts, fmt.Sprintf("P%d [%s]", t, strings.Join(es, ", ")))
	}
	return strings.Join(parts, "  ")
}

func valueString(v *model.Value) string {
	if v == nil {
		return "?"
	}
	return v.String()
}

// writeDot writes a Graphviz picture of a trace: one column per thread in
// program order, numbered by the step at which each instruction ran, with
// reads-from edges from the store a load read (or "init").
func writeDot(w io.Writer, r *model.Result, tr *model.Trace) {
	fmt.Fprintf(w, "digraph %q {\n\trankdir=TB;\n\tnode [shape=box, fontname=\"monospace\"];\n", r.Name+" "+r.Model)
	byThread := map[int][]int{}
	lastWrite := map[string]int{} // location -> step that wrote memory (or buffered it, for forwarding)
	pending := map[int][][2]any{} // thread -> buffered (loc, step)
	var edges []string
	for i, s := range tr.Steps {
		switch s.Kind {
		case model.StepInstr:
			byThread[s.Thread] = append(byThread[s.Thread], i)
			if s.Read != nil {
				src := -1
				if s.From == model.FromBuffer {
					for j := len(pending[s.Thread]) - 1; j >= 0; j-- {
						if pending[s.Thread][j][0] == s.Loc {
							src = pending[s.Thread][j][1].(int)
							break
						}
					}
				} else if k, ok := lastWrite[s.Loc]; ok {
					src = k
				}
				if src >= 0 {
					edges = append(edges, fmt.Sprintf("\ts%d -> s%d [label=\"rf\", color=red, fontcolor=red, constraint=false];", src, i))
				} else {
					edges = append(edges, fmt.Sprintf("\tinit -> s%d [label=\"rf\", color=red, fontcolor=red, constraint=false];", i))
				}
			}
			if s.Wrote != nil {
				if strings.Contains(s.Note, "buffered") {
					pending[s.Thread] = append(pending[s.Thread], [2]any{s.Loc, i})
				} else {
					lastWrite[s.Loc] = i
				}
			}
		case model.StepDrain:
			q := pending[s.Thread]
			for j, e := range q {
				if e[0] == s.Loc {
					lastWrite[s.Loc] = e[1].(int)
					pending[s.Thread] = append(q[:j:j], q[j+1:]...)
					break
				}
			}
		}
	}
	fmt.Fprintf(w, "\tinit [label=\"initial state\", shape=ellipse];\n")
	var threads []int
	for t := range byThread {
		threads = append(threads, t)
	}
	sort.Ints(threads)
	for _, t := range threads {
		fmt.Fprintf(w, "\tsubgraph cluster_P%d {\n\t\tlabel=\"P%d\";\n", t, t)
		steps := byThread[t]
		for _, i := range steps {
			s := tr.Steps[i]
			fmt.Fprintf(w, "\t\ts%d [label=%q];\n", i, fmt.Sprintf("%d: %s", i+1, s.Text))
		}
		for j := 1; j < len(steps); j++ {
			fmt.Fprintf(w, "\t\ts%d -> s%d [label=\"po\"];\n", steps[j-1], steps[j])
		}
		fmt.Fprintln(w, "\t}")
	}
	for _, e := range edges {
		fmt.Fprintln(w, e)
	}
	fmt.Fprintln(w, "}")
}

// axiomaticName names an axiomatic model in a sentence.
func axiomaticName(m model.Model) string {
	if m == model.LKMM {
		return "The LKMM"
	}
	return "The " + m.String() + " model"
}
