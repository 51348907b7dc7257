package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/report"
)

var explainFlags struct {
	runOptions
	state string
	dot   string
	svg   string
	png   string
}

func init() {
	register(&Command{
		Name:      "explain",
		UsageLine: "explain [--model M[,M...]] [--state COND] [--dot FILE] [--svg FILE] [--png FILE] FILE",
		Short:     "show the execution that reaches an outcome",
		Long: `
Explain prints, step by step, an execution of the test under a model that
reaches its condition's outcome (for "exists", a final state where it holds;
for "~exists" and "forall", one where it fails) or, with --state, a final
state satisfying the given proposition, e.g. --state '0:r0=0 /\ 1:r0=0'.

Under sc, tso and pso each step names the thread, the source line, the
instruction, the value read and whether it came from the thread's store
buffer or from memory; each drain of a buffered store to memory is a step
of its own, and the store buffers are shown after every step that changes
them. The trace is a shortest one when the search was the plain
breadth-first one; a trace from the reduced search is marked as possibly
longer.

Under an axiomatic model (lkmm, the architectures, --cat, --model-dir) it
prints the first allowed execution that reaches the outcome: each
thread's events in program order and the rf, co and fr edges between
them; when none is allowed, the check that rejects such an execution,
its cycle, and that execution with the cycle marked.

It also prints each invariant violation and each stuck state with the trace
that reaches it.

Several models (--model tso,lkmm) are explained one after the other, and
their pictures are drawn side by side.

Flags:
	--model M       models, as for check (default: the test's own, as for check)
	--state COND    explain a final state satisfying COND instead of the condition
	--dot FILE      also write a Graphviz picture of the execution to FILE, in
	                herd's column layout; with "-" the picture alone goes to
	                stdout (pipe it to dot) and the explanation to stderr; an
	                error when there is no execution to draw
	--svg FILE      also render the picture as SVG (needs Graphviz's dot)
	--png FILE      also render the picture as PNG (needs Graphviz's dot)
	--cat FILE, -I DIR, --model-dir DIR   models as data, as for check
	--max-states N, --timeout D, --max-memory N   search bounds, as for check
	--jobs N        as for check (one file: no effect)
	--fresh-zero      herd7's reading of names only the final section uses, as for check
` + herdFlagsHelp,
		SetFlags: func(fs *flag.FlagSet) {
			f := &explainFlags
			// Reset everything, the repeatable --cat and -I too: the
			// commands run in-process in the tests, one after another.
			f.runOptions, f.state, f.dot, f.svg, f.png = runOptions{}, "", "", "", ""
			addRunFlags(fs, &f.runOptions)
			fs.StringVar(&f.state, "state", "", "final-state proposition to explain")
			fs.StringVar(&f.dot, "dot", "", "write a Graphviz picture to this file")
			fs.StringVar(&f.svg, "svg", "", "render the picture as SVG to this file")
			fs.StringVar(&f.png, "png", "", "render the picture as PNG to this file")
		},
		Run: runExplain,
	})
}

func runExplain(ctx context.Context, env *Env, args []string) int {
	f := explainFlags
	if len(args) != 1 {
		env.Errorf("usage: litmus explain [--model M[,M...]] [--state COND] [--dot FILE] [--svg FILE] [--png FILE] FILE")
		return exitUsage
	}
	if err := f.loadPrims(); err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	t, err := env.parseArg(args[0], f.prims)
	if err != nil {
		printInputError(env, args[0], err)
		return exitUsage
	}
	ms, err := modelsFor(f.runOptions, t)
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	prog, err := f.resolve(t, ms)
	if err != nil {
		printInputError(env, args[0], err)
		return exitUsage
	}
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
	pictures := f.dot != "" || f.svg != "" || f.png != ""
	var results []*model.Result
	var graphs []*report.Graph
	for _, m := range ms {
		r, err := prog.Check(ctx, m, opt)
		if err != nil {
			printInputError(env, args[0], err)
			return exitUsage
		}
		g := explainGraph(r)
		if pictures && g == nil {
			env.Errorf("--%s: nothing to draw under %s: %s", pictureFlag(f.dot, f.svg), m, nothingToDraw(r, f.state))
			return exitUsage
		}
		results, graphs = append(results, r), append(graphs, g)
	}
	w := env.Stdout
	if f.dot == "-" {
		// The graph alone goes to standard output, so that it can be
		// piped to dot; the explanation goes to standard error.
		w = env.Stderr
	}
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeExplanation(w, t, ms[i], r, f.state)
	}
	if !pictures {
		return exitOK
	}
	var dot bytes.Buffer
	if len(graphs) == 1 {
		graphs[0].WriteDot(&dot, t.Name, pictureTitle(t, results[0]))
	} else {
		titles := make([]string, len(results))
		for i, r := range results {
			titles[i] = pictureTitle(t, r)
		}
		report.WriteDots(&dot, t.Name, titles, graphs)
	}
	if f.dot != "" {
		if err := writeOut(env, f.dot, dot.Bytes()); err != nil {
			env.Errorf("%v", err)
			return exitUsage
		}
	}
	for _, out := range []struct{ file, format string }{{f.svg, "svg"}, {f.png, "png"}} {
		if out.file == "" {
			continue
		}
		img, err := renderDot(ctx, dot.Bytes(), out.format)
		if err != nil {
			env.Errorf("--%s: %v", out.format, err)
			return exitUsage
		}
		if err := writeOut(env, out.file, img); err != nil {
			env.Errorf("%v", err)
			return exitUsage
		}
	}
	return exitOK
}

// writeExplanation prints the explanation of one model's result.
func writeExplanation(w io.Writer, t *litmus.Test, m model.Model, r *model.Result, state string) {
	what := "the condition " + r.Condition
	if state != "" {
		what = "the final state " + state
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
	case m.Axiomatic() && r.Graph != nil:
		fmt.Fprintf(w, "\nOf the executions %s allows, %d reach %s and %d do not. The first one that %s:\n",
			axiomaticPronoun(m), r.Matches, what, r.Positive+r.Negative-r.Matches, reachesWord(t, r, state))
		r.Graph.WriteText(w)
	case r.Witness == nil && r.Why != "":
		fmt.Fprintf(w, "\n%s\n", r.Why)
		if r.WhyGraph != nil {
			fmt.Fprintf(w, "\nThe rejected execution:\n")
			r.WhyGraph.WriteText(w)
		}
	case r.Witness == nil && m.Axiomatic():
		fmt.Fprintf(w, "\n%s is axiomatic: there is no interleaving to show. Of its allowed executions, %d reach %s and %d do not.\n", axiomaticName(m), r.Matches, what, r.Positive+r.Negative-r.Matches)
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
	dropped := "Dropped, not checked"
	if len(r.Faults) > 0 {
		// A test with objects: the dead ends are findings (BADADDR).
		dropped = "Bad address, a finding"
	}
	for _, s := range r.Dropped {
		fmt.Fprintf(w, "\n%s: %s\n", dropped, s.Reason)
		writeTrace(w, &s.Trace, m)
	}
	if len(r.Dropped) == 0 {
		for _, s := range r.Faults {
			fmt.Fprintf(w, "\nBad address, a finding: %s\n", s.Reason)
			if s.Fault != nil && s.Fault.Graph != nil {
				fmt.Fprintf(w, "\nAn execution %s allows that makes the access (P%d's path ends there):\n", axiomaticPronoun(m), s.Fault.Thread)
				s.Fault.Graph.WriteText(w)
			}
		}
	}
}

// reachesWord says what the shown execution does: reaches the state
// explained, or (forall, no --state) violates the condition.
func reachesWord(t *litmus.Test, r *model.Result, state string) string {
	if state == "" && t.Cond != nil && t.Cond.Quant == litmus.Forall {
		return "violates it"
	}
	return "does"
}

// axiomaticPronoun names an axiomatic model after "the executions".
func axiomaticPronoun(m model.Model) string {
	if m == model.LKMM {
		return "the LKMM"
	}
	return m.String()
}

// explainGraph is the picture of a result: the witness trace as an
// execution, the axiomatic witness, or the rejected execution that the
// explanation names; nil when there is none.
func explainGraph(r *model.Result) *report.Graph {
	switch {
	case r.Witness != nil:
		return traceGraph(r.Witness)
	case r.Graph != nil:
		return r.Graph
	}
	return r.WhyGraph
}

// nothingToDraw says why a result has no picture.
func nothingToDraw(r *model.Result, state string) string {
	if state != "" {
		return "no execution reaches the final state " + state
	}
	return "no execution reaches " + r.Condition
}

// pictureFlag names the picture flag of an error message.
func pictureFlag(dot, svg string) string {
	switch {
	case dot != "":
		return "dot"
	case svg != "":
		return "svg"
	}
	return "png"
}

// pictureTitle labels a picture: the test, the model and what it shows.
func pictureTitle(t *litmus.Test, r *model.Result) string {
	switch {
	case r.Witness == nil && r.Graph == nil && r.WhyGraph != nil:
		return fmt.Sprintf("%s under %s: %s (forbidden: %s)", t.Name, r.Model, r.Verdict, r.WhyGraph.Rejected)
	case r.Graph != nil && r.Graph.Final != "":
		return fmt.Sprintf("%s under %s: %s (%s)", t.Name, r.Model, r.Verdict, r.Graph.Final)
	}
	return fmt.Sprintf("%s under %s: %s", t.Name, r.Model, r.Verdict)
}

// writeOut writes data to file, or to standard output for "-".
func writeOut(env *Env, file string, data []byte) error {
	if file == "-" {
		_, err := env.Stdout.Write(data)
		return err
	}
	return os.WriteFile(file, data, 0o644)
}

// renderDot renders a DOT picture with Graphviz's dot.
func renderDot(ctx context.Context, dot []byte, format string) ([]byte, error) {
	path, err := exec.LookPath("dot")
	if err != nil {
		return nil, fmt.Errorf("rendering needs Graphviz's dot on PATH (Debian: apt-get install graphviz); --dot FILE writes the picture as DOT text")
	}
	cmd := exec.CommandContext(ctx, path, "-T"+format)
	cmd.Stdin = bytes.NewReader(dot)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("dot -T%s: %v: %s", format, err, strings.TrimSpace(errOut.String()))
	}
	return out.Bytes(), nil
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
	replayTrace(tr, func(i int, s model.Step, r replayed) {
		var b strings.Builder
		switch s.Kind {
		case model.StepDrain:
			fmt.Fprintf(&b, "%3d. P%d   drain     %s", i+1, s.Thread, r.note)
		case model.StepBlock:
			fmt.Fprintf(&b, "%3d. P%d   line %-3d %s   %s", i+1, s.Thread, s.Pos.Line, s.Text, r.note)
		default:
			fmt.Fprintf(&b, "%3d. P%d   line %-3d %s", i+1, s.Thread, s.Pos.Line, s.Text)
			if r.note != "" {
				b.WriteString("   -- " + r.note)
			}
		}
		fmt.Fprintln(w, b.String())
		if r.changed && m != model.SC {
			fmt.Fprintf(w, "         buffers: %s\n", formatBuffers(r.buffers))
		}
	})
	if !tr.Shortest {
		fmt.Fprintln(w, "     (found by the reduced search: a valid execution, not necessarily a shortest one)")
	}
}

// replayed is the machine after one step of a trace: what the step did
// in words, the store buffers and the memory written so far, and whether
// the step changed the buffers.
type replayed struct {
	note    string
	buffers map[int][]bufferEntry // oldest first
	memory  map[string]string     // the locations written to memory so far
	changed bool
}

// replayTrace runs tr's steps again, reconstructing the store buffers and
// memory from the buffered stores and drains it records, and calls visit
// after each step (explain's text and serve's stepping both read it; the
// maps are reused from step to step).
func replayTrace(tr *model.Trace, visit func(i int, s model.Step, r replayed)) {
	r := replayed{buffers: map[int][]bufferEntry{}, memory: map[string]string{}}
	for i, s := range tr.Steps {
		r.changed = false
		var notes []string
		switch s.Kind {
		case model.StepDrain:
			notes = append(notes, fmt.Sprintf("%s=%s reaches memory", s.Loc, valueString(s.Wrote)))
			r.memory[s.Loc] = valueString(s.Wrote)
			buf := r.buffers[s.Thread]
			for j, e := range buf {
				if e.loc == s.Loc {
					r.buffers[s.Thread] = append(buf[:j:j], buf[j+1:]...)
					break
				}
			}
			r.changed = true
		case model.StepBlock:
			notes = append(notes, "waits forever")
		default:
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
					r.buffers[s.Thread] = append(r.buffers[s.Thread], bufferEntry{s.Loc, valueString(s.Wrote)})
					r.changed = true
					notes = append(notes, fmt.Sprintf("%s=%s into the store buffer", s.Loc, valueString(s.Wrote)))
				} else {
					r.memory[s.Loc] = valueString(s.Wrote)
					notes = append(notes, fmt.Sprintf("wrote %s=%s", s.Loc, valueString(s.Wrote)))
				}
			}
			if s.Note != "" && !strings.Contains(s.Note, "buffered") {
				notes = append(notes, s.Note)
			}
		}
		r.note = strings.Join(notes, "; ")
		visit(i, s, r)
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

// traceGraph draws an interleaving as an execution: the instructions of
// each thread in program order, numbered by the step at which each ran,
// with reads-from edges from the store a load read (or the initial
// state), as one report.Graph whatever the model.
func traceGraph(tr *model.Trace) *report.Graph {
	g := &report.Graph{}
	init := map[string]int{} // location -> its initial-state event
	node := map[int]int{}    // step -> event
	lastWrite := map[string]int{}
	pending := map[int][][2]any{} // thread -> buffered (loc, step)
	lastOf := map[int]int{}
	type rf struct {
		from int // a step, or -1 for the initial state
		loc  string
		to   int
	}
	var rfs []rf
	for i, s := range tr.Steps {
		switch s.Kind {
		case model.StepInstr:
			node[i] = len(g.Events)
			g.Events = append(g.Events, report.GraphEvent{Thread: s.Thread, Label: fmt.Sprintf("%d: %s", i+1, s.Text), Line: s.Pos.Line})
			if j, ok := lastOf[s.Thread]; ok {
				g.Edges = append(g.Edges, report.GraphEdge{From: node[j], To: node[i], Rel: "po"})
			}
			lastOf[s.Thread] = i
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
				rfs = append(rfs, rf{src, s.Loc, i})
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
	for _, e := range rfs {
		from, ok := node[e.from]
		if e.from < 0 || !ok {
			if from, ok = init[e.loc]; !ok {
				from = len(g.Events)
				init[e.loc] = from
				g.Events = append(g.Events, report.GraphEvent{Thread: -1, Label: "initial " + e.loc})
			}
		}
		g.Edges = append(g.Edges, report.GraphEdge{From: from, To: node[e.to], Rel: "rf"})
	}
	return g
}

// axiomaticName names an axiomatic model in a sentence.
func axiomaticName(m model.Model) string {
	if m == model.LKMM {
		return "The LKMM"
	}
	return "The " + m.String() + " model"
}
