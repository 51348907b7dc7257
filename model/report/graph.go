package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// Graph is one candidate execution of an axiomatic model, as herd7 draws
// it (`-show prop -graph columns`): the events of each thread in program
// order under the initial writes, and the execution's relations between
// them. An engine fills it for the witness of a verdict (an allowed
// execution reaching the explained final state) or for the rejected
// execution its explanation names (then Cycle holds the edges of the
// failing check's cycle and Rejected the check).
type Graph struct {
	Events []GraphEvent
	Edges  []GraphEdge
	// Rejected names the check that rejects the execution ("" for an
	// allowed one).
	Rejected string
	// Final is the execution's final state over the observed locations,
	// herd style ("0:r0=1; 1:r0=0;").
	Final string
}

// GraphEvent is one event: Thread is the thread's number (herd's Pn), or
// -1 for an initial write.
type GraphEvent struct {
	Thread int
	Label  string // "W[once] x=1", "R[acquire] y=0", "F[mb]"
	// Line is the event's source line (0 when it has none, as for an
	// initial write), and Source the construct that made it as written
	// ("smp_store_release(y, 1)", "LDAR W0,[X1]"; may be empty).
	Line   int
	Source string
	// Pos is the position of the construct in the engine's test (an
	// engine that checks a compiled test maps it back to the source).
	Pos litmus.Pos
}

// ID names event i as herd names events: a, b, ..., z, aa, ab, ...
func ID(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i = i/26 - 1
		if i < 0 {
			return s
		}
	}
}

// GraphEdge is one edge from event From to event To. Rel is the name of
// the relation as the model names it ("po", "rf", "co", "fr", "rfe", the
// model's ppo or fence names, ...); Cycle reports whether it is an edge
// of the failing check's cycle.
type GraphEdge struct {
	From, To int
	Rel      string
	Cycle    bool
}

// threads returns the thread numbers of g's events in increasing order,
// the initial writes (-1) first.
func (g *Graph) threads() []int {
	seen := map[int]bool{}
	var out []int
	for _, e := range g.Events {
		if !seen[e.Thread] {
			seen[e.Thread] = true
			out = append(out, e.Thread)
		}
	}
	sort.Ints(out)
	return out
}

// edgeStyle is herd's colour of each base relation; a model's derived
// relations are drawn in grey.
func edgeStyle(rel string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(rel, "e"), "i")
	switch {
	case rel == "po" || strings.HasPrefix(rel, "po["):
		return "color=black"
	case base == "rf" || rel == "rf":
		return "color=red, fontcolor=red"
	case base == "co" || rel == "co":
		return "color=blue, fontcolor=blue"
	case base == "fr" || rel == "fr":
		return "color=orange, fontcolor=orange"
	case rel == "rmw":
		return "color=darkgreen, fontcolor=darkgreen"
	}
	return "color=gray40, fontcolor=gray40, style=dashed"
}

// WriteDot writes g as a Graphviz digraph in herd's column layout: one
// column (cluster) per thread, the initial writes above them, program
// order downwards. The edges of the failing check's cycle are drawn bold.
// name names the digraph, title labels the picture.
func (g *Graph) WriteDot(w io.Writer, name, title string) {
	fmt.Fprintf(w, "digraph %q {\n", name)
	g.writeBody(w, "", title)
	fmt.Fprintln(w, "}")
}

// writeBody writes g's nodes and edges, named with prefix, under title:
// WriteDot writes one graph, WriteDots several side by side.
func (g *Graph) writeBody(w io.Writer, prefix, title string) {
	fmt.Fprintf(w, "\tlabel=%q;\n\tlabelloc=t;\n\tnewrank=true;\n", title)
	fmt.Fprintf(w, "\tnode [shape=plaintext, fontname=\"monospace\"];\n\tedge [fontname=\"monospace\", fontsize=10];\n")
	node := func(i int) string { return fmt.Sprintf("%se%d", prefix, i) }
	// herd's columns: the initial writes in a row on top, then one
	// column per thread, left to right in thread order.
	var inits, firsts []string
	for _, th := range g.threads() {
		if th < 0 {
			for i, e := range g.Events {
				if e.Thread < 0 {
					fmt.Fprintf(w, "\t%s [label=%q, fontcolor=gray30];\n", node(i), ID(i)+": "+e.Label)
					inits = append(inits, node(i))
				}
			}
			continue
		}
		fmt.Fprintf(w, "\tsubgraph cluster_%sP%d {\n\t\tlabel=\"P%d\";\n", prefix, th, th)
		var prev = -1
		for i, e := range g.Events {
			if e.Thread != th {
				continue
			}
			label := ID(i) + ": " + e.Label
			if e.Source != "" && e.Line > 0 {
				label += fmt.Sprintf("\n%s  (line %d)", e.Source, e.Line)
			} else if e.Line > 0 {
				label += fmt.Sprintf("  (line %d)", e.Line)
			}
			fmt.Fprintf(w, "\t\t%s [label=%q];\n", node(i), label)
			if prev < 0 {
				firsts = append(firsts, node(i))
			}
			if prev >= 0 {
				// The invisible edge keeps program order downwards
				// even where po is not drawn.
				fmt.Fprintf(w, "\t\t%s -> %s [style=invis];\n", node(prev), node(i))
			}
			prev = i
		}
		fmt.Fprintf(w, "\t}\n")
	}
	if len(inits) > 0 {
		fmt.Fprintf(w, "\t{rank=min; %s;}\n", strings.Join(inits, "; "))
		for _, f := range firsts {
			fmt.Fprintf(w, "\t%s -> %s [style=invis];\n", inits[len(inits)-1], f)
		}
	}
	if len(firsts) > 1 {
		fmt.Fprintf(w, "\t{rank=same; %s;}\n\t%s [style=invis];\n", strings.Join(firsts, "; "), strings.Join(firsts, " -> "))
	}
	for _, e := range g.Edges {
		style := edgeStyle(e.Rel)
		if e.Cycle {
			style += ", penwidth=2.5"
		}
		constraint := ""
		if g.Events[e.From].Thread != g.Events[e.To].Thread {
			constraint = ", constraint=false"
		}
		fmt.Fprintf(w, "\t%s -> %s [label=%q, %s%s];\n", node(e.From), node(e.To), e.Rel, style, constraint)
	}
}

// WriteDots writes graphs side by side in one digraph, one cluster per
// graph with its title (litmus explain --model a,b).
func WriteDots(w io.Writer, name string, titles []string, graphs []*Graph) {
	fmt.Fprintf(w, "digraph %q {\n\tnewrank=true;\n", name)
	for k, g := range graphs {
		fmt.Fprintf(w, "subgraph cluster_m%d {\n", k)
		g.writeBody(w, fmt.Sprintf("m%d_", k), titles[k])
		fmt.Fprintln(w, "}")
	}
	fmt.Fprintln(w, "}")
}

// WriteText writes g as text: each thread's events in program order, then
// the edges between threads (rf, co, fr) and, for a rejected execution,
// the cycle.
func (g *Graph) WriteText(w io.Writer) {
	label := func(i int) string { return ID(i) + ": " + g.Events[i].Label }
	for _, th := range g.threads() {
		var parts []string
		for i, e := range g.Events {
			if e.Thread == th {
				parts = append(parts, label(i))
			}
		}
		who := "init"
		if th >= 0 {
			who = fmt.Sprintf("P%d", th)
		}
		fmt.Fprintf(w, "  %-5s %s\n", who+":", strings.Join(parts, "; "))
	}
	for _, e := range g.Edges {
		if e.Rel == "po" || strings.HasPrefix(e.Rel, "po[") {
			continue
		}
		mark := ""
		if e.Cycle {
			mark = "   (cycle)"
		}
		fmt.Fprintf(w, "  %-4s %s -> %s%s\n", e.Rel, label(e.From), label(e.To), mark)
	}
	if g.Final != "" {
		fmt.Fprintf(w, "  final: %s\n", g.Final)
	}
}
