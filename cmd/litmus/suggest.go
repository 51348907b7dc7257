package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/advice"
)

// fences --suggest: the cheapest primitive for each ordering construct
// (model/advice), as advice a reviewer can paste, or JSON Lines.

var suggestFlags struct {
	suggest, json bool
}

func addSuggestFlags(fs *flag.FlagSet) {
	suggestFlags.suggest, suggestFlags.json = false, false
	fs.BoolVar(&suggestFlags.suggest, "suggest", false, "suggest the cheapest primitive for each construct that keeps every model's verdict")
	fs.BoolVar(&suggestFlags.json, "json", false, "with --suggest, print JSON Lines: one object per construct")
}

func runSuggest(ctx context.Context, env *Env, file string) int {
	if err := fencesFlags.loadPrims(); err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	t, err := env.parseArg(file, fencesFlags.prims)
	if err != nil {
		printInputError(env, file, err)
		return exitUsage
	}
	var models []model.Model
	if fencesFlags.models != "auto" || fencesFlags.modelDir != "" || len(fencesFlags.cats) > 0 {
		if models, err = modelsFor(fencesFlags, t); err != nil {
			env.Errorf("%v", err)
			return exitUsage
		}
	}
	checked := models
	if checked == nil {
		checked = advice.DefaultModels()
	}
	prog, err := fencesFlags.resolve(t, checked)
	if err != nil {
		printInputError(env, file, err)
		return exitUsage
	}
	rep, err := advice.Suggest(ctx, prog, advice.Options{Models: checked, Check: fencesFlags.modelOptions(),
		Resolve: model.ResolveOptions{FreshZero: fencesFlags.freshZero, Models: fileModels(checked)}})
	if err != nil {
		printInputError(env, file, err)
		return exitUsage
	}
	if suggestFlags.json {
		err = writeAdviceJSON(env.Stdout, file, rep)
	} else {
		writeAdvice(env.Stdout, rep)
	}
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	if rep.Unknown != "" {
		return exitCheck
	}
	return exitOK
}

// modelNames joins the models' names.
func modelNames(ms []model.Model) string {
	var names []string
	for _, m := range ms {
		names = append(names, m.String())
	}
	return strings.Join(names, ", ")
}

// verdictsLine says the verdicts in few words: "Never under every model"
// when they agree.
func verdictsLine(vs []advice.ModelVerdict) string {
	groups := map[string][]model.Model{}
	var order []string
	for _, v := range vs {
		k := v.Verdict.String()
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], v.Model)
	}
	if len(order) == 1 {
		return order[0] + " under every model"
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, k+" under "+modelNames(groups[k]))
	}
	return strings.Join(parts, "; ")
}

// costLine prints what each architecture emits, architectures with the
// same instructions together.
func costLine(cs []advice.ArchCost, change bool) string {
	type group struct {
		arches []string
		text   string
	}
	var gs []group
	for _, c := range cs {
		text := c.From
		if change {
			if c.Relation == "same" {
				text = c.From + " (same)"
			} else {
				text = c.From + " -> " + c.To
			}
		}
		if n := len(gs); n > 0 && gs[n-1].text == text {
			gs[n-1].arches = append(gs[n-1].arches, string(c.Arch))
			continue
		}
		gs = append(gs, group{[]string{string(c.Arch)}, text})
	}
	var parts []string
	for _, g := range gs {
		parts = append(parts, strings.Join(g.arches, ", ")+": "+g.text)
	}
	return strings.Join(parts, "; ")
}

// brokeLine says under which models a rejected primitive changes the
// verdict, and under which it does not.
func brokeLine(t advice.Tried) string {
	broken := map[model.Model]bool{}
	for _, m := range t.Broken {
		broken[m] = true
	}
	var holds []model.Model
	for _, v := range t.Verdicts {
		if !broken[v.Model] {
			holds = append(holds, v.Model)
		}
	}
	if !t.Complete {
		return fmt.Sprintf("breaks the verdict under %s (checked no further)", modelNames(t.Broken))
	}
	if len(holds) == 0 {
		return "breaks the verdict under every model"
	}
	return fmt.Sprintf("breaks the verdict under %s; holds under %s", modelNames(t.Broken), modelNames(holds))
}

func writeAdvice(w io.Writer, rep *advice.Report) {
	fmt.Fprintf(w, "%s: advice under %s (as written: %s)\n", rep.Name, modelNames(rep.Models), verdictsLine(rep.Baseline))
	if rep.Unknown != "" && len(rep.Advice) == 0 {
		fmt.Fprintf(w, "  no advice: %s; give the search more room (--max-states, --timeout, --max-memory)\n", rep.Unknown)
		return
	}
	if len(rep.Advice) == 0 {
		fmt.Fprintln(w, "  no ordering constructs")
	}
	var reachable []model.Model
	for _, v := range rep.Baseline {
		if v.Verdict != model.Never {
			reachable = append(reachable, v.Model)
		}
	}
	if len(reachable) > 0 {
		fmt.Fprintf(w, "  as written the condition's outcome is reachable under %s; the advice keeps every verdict as it is, so it does not fix a test whose outcome is the bug\n", modelNames(reachable))
	}
	for _, a := range rep.Advice {
		fmt.Fprintln(w)
		head := fmt.Sprintf("line %d, P%d: %s", a.Pos.Line, a.Thread, a.Construct)
		switch {
		case a.Keep && a.None != "":
			fmt.Fprintf(w, "%s stays: %s\n", head, a.None)
		case a.Keep:
			fmt.Fprintf(w, "%s stays: nothing cheaper keeps the verdict\n", head)
		case a.Remove:
			fmt.Fprintf(w, "%s can go\n", head)
		default:
			fmt.Fprintf(w, "%s -> %s\n", head, a.Label)
		}
		if a.Note != "" {
			fmt.Fprintf(w, "  %s\n", a.Note)
		}
		if len(a.Edits) > 1 {
			for _, e := range a.Edits {
				to := e.To
				if to == "" {
					to = "(removed)"
				}
				fmt.Fprintf(w, "  line %d: %s -> %s\n", e.Line, e.From, to)
			}
		}
		fmt.Fprintf(w, "  emits %s\n", costLine(a.Costs, !a.Keep))
		for i, r := range a.Rejected {
			lead := "  not enough: "
			if i > 0 {
				lead = "              "
			}
			fmt.Fprintf(w, "%s%s %s\n", lead, r.Label, brokeLine(r))
		}
		for _, alt := range a.Alternatives {
			fmt.Fprintf(w, "  or %s: %s\n", alt.Label, alt.Why)
		}
		if a.Alone != "" {
			fmt.Fprintf(w, "  %s\n", a.Alone)
		}
	}
	fmt.Fprintln(w)
	if rep.Unknown != "" {
		fmt.Fprintf(w, "incomplete: a check ended Unknown (%s); what it judged is not suggested\n", rep.Unknown)
	}
	fmt.Fprintf(w, "every suggestion at once: %s, as written\n", verdictsLine(rep.Final))
}

// The JSON Lines of fences --suggest: one object per construct.
type adviceJSON struct {
	File         string            `json:"file"`
	Test         string            `json:"test"`
	Line         int               `json:"line"`
	Thread       int               `json:"thread"`
	Kind         string            `json:"kind"`
	Construct    string            `json:"construct"`
	Suggest      string            `json:"suggest"`
	Change       string            `json:"change"`
	Edits        []editJSON        `json:"edits"`
	Cost         []costJSON        `json:"cost"`
	Baseline     map[string]string `json:"baseline"`
	Verdicts     map[string]string `json:"verdicts"`
	Rejected     []triedJSON       `json:"rejected"`
	Alternatives []altJSON         `json:"alternatives"`
	Note         string            `json:"note,omitempty"`
	Alone        string            `json:"alone,omitempty"`
	None         string            `json:"none,omitempty"`
	SetVerdicts  map[string]string `json:"set_verdicts"`
	Unknown      string            `json:"unknown,omitempty"`
}

type editJSON struct {
	Line int    `json:"line"`
	From string `json:"from"`
	To   string `json:"to"`
}

type costJSON struct {
	Arch     string `json:"arch"`
	From     string `json:"from"`
	To       string `json:"to"`
	Relation string `json:"relation"`
}

type triedJSON struct {
	Suggest  string            `json:"suggest"`
	Label    string            `json:"label"`
	Verdicts map[string]string `json:"verdicts"`
	Broken   []string          `json:"broken_under"`
	Complete bool              `json:"complete"`
}

type altJSON struct {
	Suggest string     `json:"suggest"`
	Label   string     `json:"label"`
	Edits   []editJSON `json:"edits"`
	Cost    []costJSON `json:"cost"`
	Why     string     `json:"why"`
}

func verdictMap(vs []advice.ModelVerdict) map[string]string {
	m := map[string]string{}
	for _, v := range vs {
		m[v.Model.String()] = v.Verdict.String()
	}
	return m
}

func editsJSON(es []advice.Edit) []editJSON {
	out := []editJSON{}
	for _, e := range es {
		out = append(out, editJSON{e.Line, e.From, e.To})
	}
	return out
}

func costsJSON(cs []advice.ArchCost) []costJSON {
	out := []costJSON{}
	for _, c := range cs {
		out = append(out, costJSON{string(c.Arch), c.From, c.To, c.Relation})
	}
	return out
}

func writeAdviceJSON(w io.Writer, file string, rep *advice.Report) error {
	enc := json.NewEncoder(w)
	for _, a := range rep.Advice {
		change := "weaken"
		switch {
		case a.Keep:
			change = "keep"
		case a.Remove:
			change = "remove"
		}
		verdicts := a.Verdicts
		if a.Keep {
			verdicts = rep.Baseline
		}
		rec := adviceJSON{File: file, Test: rep.Name, Line: a.Pos.Line, Thread: a.Thread, Kind: string(a.Kind),
			Construct: a.Construct, Suggest: a.Suggest, Change: change, Edits: editsJSON(a.Edits), Cost: costsJSON(a.Costs),
			Baseline: verdictMap(rep.Baseline), Verdicts: verdictMap(verdicts), Rejected: []triedJSON{}, Alternatives: []altJSON{},
			Note: a.Note, Alone: a.Alone, None: a.None, SetVerdicts: verdictMap(rep.Final), Unknown: rep.Unknown}
		for _, r := range a.Rejected {
			var broken []string
			for _, m := range r.Broken {
				broken = append(broken, m.String())
			}
			rec.Rejected = append(rec.Rejected, triedJSON{r.Suggest, r.Label, verdictMap(r.Verdicts), broken, r.Complete})
		}
		for _, alt := range a.Alternatives {
			rec.Alternatives = append(rec.Alternatives, altJSON{alt.Suggest, alt.Label, editsJSON(alt.Edits), costsJSON(alt.Costs), alt.Why})
		}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return nil
}
