package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/advice"
	"github.com/litmus-dev/litmus/model/kmap"
)

// The converse of fences --suggest, for diff: on a patch that weakens an
// ordering construct, the constructs it changed and the models (and so
// the architectures) on which the new version reaches the bad outcome,
// each with a final state that shows it.

// archName is the architecture a model stands for, where it stands for
// one.
var archName = map[model.Model]kmap.Arch{model.TSO: kmap.X86_64, model.AArch64: kmap.ARM64, model.AArch64LLSC: kmap.ARM64LLSC, model.RISCV: kmap.RISCV64, model.PPC: kmap.PPC64}

// modelArch prints "aarch64 (arm64)" for an architecture model.
func modelArch(m model.Model) string {
	if a, ok := archName[m]; ok && string(a) != m.String() {
		return fmt.Sprintf("%s (%s)", m, a)
	}
	return m.String()
}

// broken is one model on which the new version reaches the bad outcome.
type broken struct {
	m       model.Model
	witness string // a final state of the new version where the bad outcome holds, "" if none is shown
}

// writeBreaks prints the ordering changes and the models they break.
func writeBreaks(w io.Writer, old, new *litmus.Test, breaks []broken, held []model.Model) {
	changes := advice.Changes(old, new)
	if len(changes) > 0 {
		fmt.Fprintln(w, "ordering changes:")
	}
	for _, c := range changes {
		from, to := c.From, c.To
		if from == "" {
			from = "nothing"
		} else {
			from = fmt.Sprintf("%s (line %d)", from, c.OldLine)
		}
		if to == "" {
			to = "nothing"
		} else {
			to = fmt.Sprintf("%s (line %d)", to, c.NewLine)
		}
		how := "not weaker on every architecture"
		if c.Weaker {
			how = "weaker"
		}
		fmt.Fprintf(w, "  P%d: %s -> %s, %s: %s\n", c.Thread, from, to, how, costLine(c.Costs, true))
	}
	if len(breaks) == 0 {
		return
	}
	var names []string
	for _, b := range breaks {
		names = append(names, modelArch(b.m))
	}
	line := "the change breaks the verdict under " + strings.Join(names, ", ")
	if len(held) > 0 {
		var hs []string
		for _, m := range held {
			hs = append(hs, modelArch(m))
		}
		line += "; it holds under " + strings.Join(hs, ", ")
	}
	fmt.Fprintln(w, line)
	// One line per witness, with the models that reach it.
	var order []string
	by := map[string][]string{}
	for _, b := range breaks {
		if b.witness == "" {
			continue
		}
		if _, ok := by[b.witness]; !ok {
			order = append(order, b.witness)
		}
		by[b.witness] = append(by[b.witness], b.m.String())
	}
	for _, s := range order {
		fmt.Fprintf(w, "  witness %s under %s\n", s, strings.Join(by[s], ", "))
	}
}

// witness returns the first final state of r where the condition's
// proposition holds (for exists; fails, for ~exists and forall): the bad
// outcome, as herd's "Positive" witnesses count it.
func witness(t *litmus.Test, r *model.Result) string {
	if t.Cond == nil {
		return ""
	}
	want := r.Kind != "Required"
	for _, s := range r.States.All() {
		if v, ok := holds(t.Cond.Prop, s); ok && v == want {
			return s.String()
		}
	}
	return ""
}

// holds evaluates a condition proposition on a final state; ok is false
// when the state does not show a location the proposition reads.
func holds(p litmus.Prop, s model.State) (v, ok bool) {
	switch p := p.(type) {
	case *litmus.ParenProp:
		return holds(p.X, s)
	case *litmus.NotProp:
		v, ok := holds(p.X, s)
		return !v, ok
	case *litmus.BoolProp:
		return p.Value, true
	case *litmus.BinProp:
		x, ok1 := holds(p.X, s)
		y, ok2 := holds(p.Y, s)
		switch p.Op {
		case `/\`:
			return x && y, ok1 && ok2
		case `\/`:
			return x || y, ok1 && ok2
		case "=>":
			return !x || y, ok1 && ok2
		}
	case *litmus.AtomProp:
		lv, ok := valueOf(s, p.Loc)
		if !ok {
			return false, false
		}
		var eq bool
		switch {
		case p.Val.Loc != nil:
			rv, ok := valueOf(s, p.Val.Loc)
			if !ok {
				return false, false
			}
			eq = lv == rv
		case p.Val.IsInt:
			eq = lv.Sym == "" && lv.Int == p.Val.Int
		default:
			eq = lv.Sym == p.Val.Sym
		}
		if p.Op == "!=" {
			eq = !eq
		}
		return eq, true
	}
	return false, false
}

// valueOf returns the value of loc in s.
func valueOf(s model.State, l *litmus.LocRef) (model.Value, bool) {
	loc := litmus.LocString(l)
	for _, lv := range s.Values {
		if lv.Loc == loc || strings.Trim(lv.Loc, "[]") == strings.Trim(loc, "[]") {
			return lv.Val, true
		}
	}
	return model.Value{}, false
}
