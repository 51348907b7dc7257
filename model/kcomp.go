package model

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/kcomp"
	"github.com/litmus-dev/litmus/model/lkmm"
	"github.com/litmus-dev/litmus/model/report"
)

// checkCompiled runs architecture model m on C test t compiled as the
// kernel compiles it for m's architecture (model/kcomp): the compiled
// test's events under the architecture's cat model. The states come back
// under the C test's names (the registers the C registers were given are
// renamed), and an explanation names the kernel primitive of each event.
func checkCompiled(ctx context.Context, t *litmus.Test, m Model, opt Options) (*Result, error) {
	// The budget of every other cat-model check (checkCat): the time
	// limit, ctx and the memory cap bound the compilation, the compiled
	// test's semantics and the model's search alike, and a limit hit is
	// an Unknown with the limit in words.
	b := limit.New(ctx, opt.Timeout, opt.MaxMemory)
	src := t
	if opt.WitnessFor != nil {
		// The compiled test must observe what the proposition names:
		// compile a copy whose final section lists those locations too
		// (the states are projected back on t's own below).
		src = observing(t, opt.WitnessFor)
	}
	var ex *limit.Exceeded
	c, err := kcomp.Compile(src, *m.cat.target, kcomp.Options{Budget: b, Unroll: opt.Unroll})
	if errors.As(err, &ex) {
		return limitedResult(t, m, ex.Reason), nil
	}
	if err != nil {
		return nil, err
	}
	var witnessFor litmus.Prop
	if opt.WitnessFor != nil {
		if witnessFor, err = compiledProp(c, opt.WitnessFor); err != nil {
			return nil, err
		}
	}
	cm, err := m.cat.model()
	if err != nil {
		return nil, err
	}
	p, err := arch.Program(c.Test, arch.Options{Budget: b, LoopBound: opt.LoopBound})
	if err != nil {
		if errors.As(err, &ex) {
			return limitedResult(t, m, ex.Reason), nil
		}
		return nil, fmt.Errorf("%s: internal error: the test compiled for %s has no meaning: %v", t.Name, m, err)
	}
	start := time.Now()
	r, err := catSearch(ctx, cm, p, opt, witnessFor)
	if err != nil {
		return nil, err
	}
	states, err := cStates(c, t, p, r.States)
	if err != nil {
		return nil, err
	}
	why := r.Why
	if why != "" && b.Err() == nil {
		why = c.Explain(p, why)
	}
	for _, g := range []*report.Graph{r.Witness, r.WhyGraph} {
		cGraph(c, g)
	}
	var fs []report.Fault
	if hasObjects(t) && arch.SawFault(p) {
		if fs, err = compiledFaults(ctx, cm, c, opt, b); err != nil && !isFaultsUnknown(err) {
			return nil, err
		}
	}
	res := catResult(t, m, r, states, why, c.Loops, start)
	setFaults(res, t, fs, err)
	return res, nil
}

// compiledFaults checks compiled test c a second time under cat model cm
// with its faulting paths ending at the fault (kcomp's FaultTest, arch's
// FaultEnds), as the LKMM does its C test, and returns the faults some
// execution the model allows reaches, named in the C test's terms: the
// pointer expression the compiled access comes from and its place.
func compiledFaults(ctx context.Context, cm *interp.Model, c *kcomp.Compiled, opt Options, b *limit.Budget) ([]report.Fault, error) {
	ft := c.FaultTest(arch.FaultReg)
	if ft == nil {
		return nil, nil
	}
	p, err := arch.Program(ft, arch.Options{Budget: b, LoopBound: opt.LoopBound, FaultEnds: true})
	var ex *limit.Exceeded
	if errors.As(err, &ex) {
		return nil, &faultsUnknown{ex.Reason}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: internal error: the fault check of the test compiled for %s has no meaning: %v", c.C.Name, c.Target.Name, err)
	}
	fopt := opt
	fopt.Explain, fopt.WitnessFor = false, nil
	r, err := catSearch(ctx, cm, p, fopt, nil)
	if err != nil {
		return nil, err
	}
	if r.Verdict == axiom.Unknown {
		return nil, &faultsUnknown{r.Reason}
	}
	sites := arch.FaultSites(p)
	seen := map[int]bool{}
	for i := 0; i < r.States.Len(); i++ {
		for col, l := range r.States.Locs() {
			if !strings.HasSuffix(l, ":"+arch.FaultReg) {
				continue
			}
			if v := r.States.Value(i, col); v.Sym == "" && v.Int > 0 && int(v.Int) <= len(sites) {
				seen[int(v.Int)-1] = true
			}
		}
	}
	var out []report.Fault
	for i := range seen {
		s := sites[i]
		f := report.Fault{Thread: s.Thread, Witness: true}
		if opt.Explain {
			// The witness: the first allowed execution whose thread
			// ends at this site, its events named by their C origin.
			fopt.Explain = true
			w, err := catSearch(ctx, cm, p, fopt, lkmm.FaultProp(s.Thread, i+1))
			if err != nil {
				return nil, err
			}
			cGraph(c, w.Witness)
			f.Graph = w.Witness
		}
		o, ok := c.Origin(s.Thread, s.Pos)
		if !ok || !o.Ptr.IsValid() {
			return nil, fmt.Errorf("%s: internal error: an access of P%d compiled for %s faults, and no C access is its origin", c.C.Name, s.Thread, c.Target.Name)
		}
		f.Pos, f.Access = o.Ptr, o.PtrText
		v := report.Value{Int: s.Addr.N}
		if s.Addr.IsAddr() {
			v.Sym = p.Names[s.Addr.Loc()]
		}
		f.Value, f.Kind = report.FaultValue(v)
		out = append(out, f)
	}
	lkmm.SortFaults(out)
	return out, nil
}

// limitedResult is the Unknown answer of a check stopped by a limit
// before the model's search began.
func limitedResult(t *litmus.Test, m Model, reason string) *Result {
	return axiomResult(t, m, axiomSummary{Verdict: axiom.Unknown, Reason: reason})
}

// Compile returns C test t compiled for architecture model m as the
// kernel compiles it (model/kcomp): the test m checks in t's place. It is
// an error for a model that does not compile C tests.
func Compile(t *litmus.Test, m Model) (*kcomp.Compiled, error) {
	if t.Arch != litmus.ArchC || m.cat == nil || m.cat.target == nil {
		return nil, fmt.Errorf("%s: the %s model does not compile %s tests", t.Name, m, t.Arch)
	}
	// The code's names must resolve; the final section is herd7's to
	// read (a compiled test is herd's input), fresh zeros and all.
	if _, err := Resolve(t, ResolveOptions{FreshZero: true}); err != nil {
		return nil, err
	}
	return kcomp.Compile(t, *m.cat.target, kcomp.Options{})
}

// cStates renames the compiled test's final states to the C test's
// names and orders them as the C test's own states are ordered: its
// observed locations in herd's order, the states sorted as herd sorts
// them.
func cStates(c *kcomp.Compiled, t *litmus.Test, p *axiom.Program, sts report.States) (report.States, error) {
	cp := &axiom.Program{Test: t, Names: p.Names, Index: p.Index, Threads: p.Threads}
	ce, err := axiom.NewCondEval(cp)
	if err != nil {
		return report.States{}, err
	}
	col := map[string]int{}
	for i, l := range sts.Locs() {
		if n, ok := c.CName(l); ok {
			l = n
		}
		col[l] = i
	}
	from := make([]int, len(ce.Observed))
	locs := make([]string, len(ce.Observed))
	for i, o := range ce.Observed {
		k, ok := col[o.Key()]
		if !ok && sts.Len() > 0 {
			return report.States{}, fmt.Errorf("%s: internal error: the compiled test's states have no %s", c.C.Name, o.Key())
		}
		from[i], locs[i] = k, o.Key()
	}
	set := report.NewStateSet[report.Value](len(locs))
	row := make([]report.Value, len(locs))
	for i := 0; i < sts.Len(); i++ {
		for j, k := range from {
			row[j] = sts.Value(i, k)
		}
		set.Add(row) // a test compiled to observe more (observing) has states that differ only in what t does not observe: one of each is kept
	}
	return set.States(locs, func(_ int, v report.Value) report.Value { return v },
		func(_ int, a, b report.Value) bool { return ce.ValueLess(a, b) }), nil
}

// observing returns a copy of t whose final section also lists the
// locations and registers p names.
func observing(t *litmus.Test, p litmus.Prop) *litmus.Test {
	cp := *t
	cp.Locations = slices.Clone(t.Locations)
	seen := map[string]bool{}
	key := func(l *litmus.LocRef) string { return fmt.Sprintf("%d:%s", l.Proc, l.Name) }
	for _, l := range cp.Locations {
		seen[key(l)] = true
	}
	litmus.EachAtom(p, func(a *litmus.AtomProp) {
		for _, l := range []*litmus.LocRef{a.Loc, a.Val.Loc} {
			if l != nil && !seen[key(l)] {
				seen[key(l)] = true
				cp.Locations = append(cp.Locations, l)
			}
		}
	})
	return &cp
}

// compiledProp renames the registers of a proposition over C test's
// names to the compiled test's.
func compiledProp(c *kcomp.Compiled, p litmus.Prop) (litmus.Prop, error) {
	var err error
	rename := func(l *litmus.LocRef) *litmus.LocRef {
		if l == nil || l.Proc < 0 {
			return l
		}
		name, ok := c.AsmName(fmt.Sprintf("%d:%s", l.Proc, l.Name))
		if !ok {
			if err == nil {
				err = &PropError{Msg: fmt.Sprintf("%d:%s is not a register of the test compiled for %s", l.Proc, l.Name, c.Target)}
			}
			return l
		}
		cp := *l
		cp.Name = name
		return &cp
	}
	var walk func(p litmus.Prop) litmus.Prop
	walk = func(p litmus.Prop) litmus.Prop {
		switch p := p.(type) {
		case *litmus.AtomProp:
			cp := *p
			cp.Loc = rename(p.Loc)
			cp.Val.Loc = rename(p.Val.Loc)
			return &cp
		case *litmus.NotProp:
			cp := *p
			cp.X = walk(p.X)
			return &cp
		case *litmus.ParenProp:
			cp := *p
			cp.X = walk(p.X)
			return &cp
		case *litmus.BinProp:
			cp := *p
			cp.X, cp.Y = walk(p.X), walk(p.Y)
			return &cp
		}
		return p
	}
	out := walk(p)
	return out, err
}

// cGraph gives a picture of the compiled test's execution the C test's
// lines, constructs and register names.
func cGraph(c *kcomp.Compiled, g *report.Graph) {
	if g == nil {
		return
	}
	for i := range g.Events {
		e := &g.Events[i]
		if e.Thread < 0 {
			continue
		}
		if o, ok := c.Origin(e.Thread, e.Pos); ok {
			e.Line = o.Pos.Line
			if o.Text != "" {
				e.Source = o.Text + "  [" + e.Source + "]"
			}
		} else {
			e.Line = 0
		}
	}
	var parts []string
	for _, b := range strings.Split(strings.TrimSuffix(g.Final, ";"), "; ") {
		if loc, val, ok := strings.Cut(b, "="); ok {
			if n, ok := c.CName(loc); ok {
				loc = n
			}
			parts = append(parts, loc+"="+val+";")
		}
	}
	g.Final = strings.Join(parts, " ")
}
