package kcomp

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// cycleEdge splits a cycle as model/cat/interp spells it: events joined
// by " -REL-> "; an edge the model names by no relation is " --> ".
var cycleEdge = regexp.MustCompile(` -([A-Za-z]*(?:\[[^\]]*\])?)-> `)

// site is an instruction of the compiled test that made an event.
type site struct {
	proc, line int
}

// Explain adds to an architecture model's explanation of the compiled
// test (model/cat/interp's "rejected by CHECK: cycle E -rel-> E ...") the
// kernel construct each event of the cycle comes from: the C test's line,
// the construct as written, and the instruction of the compiled test;
// for a po edge that crosses fences, the fences too. p is the program of
// the compiled test the model checked. An explanation with no cycle comes
// back as it is.
func (c *Compiled) Explain(p *axiom.Program, why string) string {
	_, cyc, ok := strings.Cut(why, ": cycle ")
	if !ok {
		return why
	}
	parts := cycleEdge.Split(cyc, -1)
	labels := cycleEdge.FindAllStringSubmatch(cyc, -1)
	if len(parts) != len(labels)+1 {
		return why
	}
	events := c.eventSites(p)
	// Two instructions of a thread may make events that print alike
	// (two reads of one location reading the same value): a po edge of
	// the cycle says which one it is, the one after the event before it
	// or before the event after it.
	at := make([][]site, len(parts)-1)
	for i := range at {
		at[i] = events[parts[i]]
	}
	isPO := func(lab string) bool { return lab == "po" || strings.HasPrefix(lab, "po[") }
	for changed := true; changed; {
		changed = false
		for i := range at {
			if len(at[i]) < 2 {
				continue
			}
			prev, next := (i+len(at)-1)%len(at), (i+1)%len(at)
			var keep []site
			for _, s := range at[i] {
				ok := true
				if isPO(labels[prev][1]) && len(at[prev]) == 1 && at[prev][0].proc == s.proc && at[prev][0].line >= s.line {
					ok = false
				}
				if isPO(labels[i][1]) && len(at[next]) == 1 && at[next][0].proc == s.proc && at[next][0].line <= s.line {
					ok = false
				}
				if ok {
					keep = append(keep, s)
				}
			}
			if len(keep) > 0 && len(keep) < len(at[i]) {
				at[i], changed = keep, true
			}
		}
	}
	lineOf := func(i int) (int, bool) {
		if len(at[i]) != 1 {
			return 0, false
		}
		return at[i][0].line, true
	}
	instr := map[site]string{}
	for _, pr := range c.Test.Procs {
		for _, in := range pr.Code {
			if in.Op != "" {
				instr[site{pr.ID, c.Test.File.Position(in.Pos()).Line}] = litmus.InstrString(in)
			}
		}
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	seen := map[string]bool{}
	row := func(ev string, sites []site) {
		for _, s := range sites {
			key := ev + fmt.Sprint(s)
			if seen[key] {
				continue
			}
			seen[key] = true
			o, ok := c.origins[lineKey{s.proc, s.line}]
			what := "(C arithmetic)"
			if ok && o.Text != "" {
				what = fmt.Sprintf("%s, line %d", o.Text, o.Pos.Line)
			} else if ok {
				what = fmt.Sprintf("line %d", o.Pos.Line)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", ev, what, instr[s])
		}
	}
	for i, ev := range parts[:len(parts)-1] {
		row(ev, at[i])
		// The fences a po edge crosses.
		lab := labels[i][1]
		if !strings.HasPrefix(lab, "po[") {
			continue
		}
		who, _, _ := strings.Cut(ev, ":")
		from, okFrom := lineOf(i)
		to, okTo := lineOf((i + 1) % len(at))
		for _, tag := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(lab, "po["), "]"), ",") {
			f := who + ": F[" + tag + "]"
			var between []site
			for _, s := range events[f] {
				if !okFrom || !okTo || s.line > from && s.line < to {
					between = append(between, s)
				}
			}
			row(f, between)
		}
	}
	tw.Flush()
	return why + "\n\nwhere, in the test compiled for " + c.Target.Name + " (litmus compile --model " + c.Target.Name + "):\n" + strings.TrimRight(b.String(), "\n")
}

// eventSites spells every event of every path of p as model/cat/interp
// spells the events of a cycle, and says which instructions make it.
func (c *Compiled) eventSites(p *axiom.Program) map[string][]site {
	out := map[string][]site{}
	dom, _, err := p.Domains(true)
	if err != nil {
		return out
	}
	seen := map[string]bool{}
	for ti, th := range p.Threads {
		paths, _, err := th.Walk(dom, true)
		if err != nil {
			continue
		}
		for _, tr := range paths {
			for k := range tr.Events {
				e := &tr.Events[k]
				ev := spell(p, ti, e)
				s := site{th.ID(), p.Position(e.Pos).Line}
				key := ev + fmt.Sprint(s)
				if !seen[key] {
					seen[key] = true
					out[ev] = append(out[ev], s)
				}
			}
		}
	}
	for _, s := range out {
		sort.Slice(s, func(i, j int) bool { return s[i].line < s[j].line })
	}
	return out
}

// spell prints an event as model/cat/interp's explanations do: "P0: W[L]
// x=1", "P1: F[DMB.ISH]", "P0: branch".
func spell(p *axiom.Program, ti int, e *axiom.Event) string {
	who := fmt.Sprintf("P%d", ti)
	var tags []string
	e.Tags.Each(func(t int) {
		if name := p.Vocab[t]; name != "Exp" {
			tags = append(tags, name)
		}
	})
	tag := strings.Join(tags, ",")
	switch e.Kind {
	case axiom.KindF:
		return fmt.Sprintf("%s: F[%s]", who, tag)
	case axiom.KindB:
		return who + ": branch"
	}
	kind := "R"
	if e.Kind == axiom.KindW {
		kind = "W"
	}
	if tag != "" {
		kind += "[" + tag + "]"
	}
	if e.Loc < 0 {
		return who + ": " + kind
	}
	return fmt.Sprintf("%s: %s %s=%s", who, kind, p.Names[e.Loc], e.Val.Format(p.Names))
}
