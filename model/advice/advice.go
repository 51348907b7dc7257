// Package advice answers the question behind most barrier patches: is
// this the cheapest primitive that works on every architecture? For each
// ordering construct of a kernel C test (each fence, acquire load,
// release store and ordered RMW) it tries the kernel's cheaper
// primitives, from the cheapest (nothing at all) up: smp_mb() may become
// smp_mb__after_atomic() or smp_mb__before_atomic() beside an RMW,
// smp_wmb(), smp_rmb(), or give way to smp_load_acquire() on the load
// before it or smp_store_release() on the store after it; an acquire or
// release access may become READ_ONCE() or WRITE_ONCE() (with smp_rmb()
// or smp_wmb() where that is cheaper on some architecture); a fully
// ordered RMW its _release, _acquire or _relaxed form. It suggests the
// cheapest that keeps every selected model's verdict, with what each
// architecture emits for it (model/kmap) and which models rule out the
// cheaper ones.
//
// Weakenings are chosen one construct at a time in source order, each
// checked together with those already chosen, so that two weakenings
// that are each safe alone but break the verdict together are never both
// suggested; the last accepted check is the whole suggested set. Every
// check runs on a copy of the test: the caller's tree is never edited.
package advice

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/kmap"
)

// Options are the models to keep the verdict under and the search bounds
// of every check.
type Options struct {
	Models []model.Model
	Check  model.Options
	// Resolve are the options the program was resolved with; each
	// weakened copy is resolved with them too.
	Resolve model.ResolveOptions

	noShortcut bool // check every model, even where the code is the same (tests)
}

// DefaultModels are the models advice keeps the verdict under when none
// are named: the LKMM and each architecture the kernel's mapping covers.
func DefaultModels() []model.Model {
	return []model.Model{model.LKMM, model.TSO, model.AArch64, model.AArch64LLSC, model.RISCV, model.PPC}
}

// Suggest gives advice on the C test of program p. It is an error for a
// test in another dialect: the advice is in the kernel's primitives.
func Suggest(ctx context.Context, p *model.Program, opt Options) (*Report, error) {
	t := p.Test()
	if t.Arch != litmus.ArchC {
		return nil, fmt.Errorf("%s: fences --suggest advises on the kernel's C primitives; this is a %s test", t.Name, t.Arch)
	}
	if len(opt.Models) == 0 {
		opt.Models = DefaultModels()
	}
	opt.Check.NoWitness = true
	s := &search{ctx: ctx, t: t, prog: p, opt: opt}
	rep := &Report{Name: t.Name, Models: opt.Models}
	base, _, err := s.run(nil, false)
	if err != nil {
		return nil, err
	}
	rep.Baseline, rep.Final = base, base
	for _, v := range base {
		if v.Verdict == model.Unknown {
			rep.Unknown = fmt.Sprintf("the test as written is Unknown under %s (%s)", v.Model, v.Reason)
			rep.Checks = s.checks
			return rep, nil
		}
	}
	s.base = base
	ks := constructs(t)
	// The dearest constructs are weakened first: of two barriers that
	// are each redundant while the other stays, the dearer goes (full
	// fences before acquires and releases); ties in source order. The
	// advice is printed in source order.
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].cost.weight() > ks[j].cost.weight() })
	var chosen []edit
	picks := make([]*candidate, len(ks))
	for i, k := range ks {
		adv, pick, vs, err := s.advise(k, chosen)
		if err != nil {
			return nil, err
		}
		if pick != nil {
			chosen = append(chosen, pick.edits...)
			rep.Final = vs
		}
		picks[i] = pick
		rep.Advice = append(rep.Advice, adv)
	}
	// An alternative was checked with the weakenings chosen before its
	// construct; check it again with the whole set, the construct's own
	// suggestion taken out.
	for i := range rep.Advice {
		a := &rep.Advice[i]
		var kept []Alternative
		for j, alt := range a.Alternatives {
			edits := without(chosen, picks[i])
			edits = append(edits, s.alts[altKey{i, j}].edits...)
			_, ok, err := s.run(edits, true)
			if err != nil {
				return nil, err
			}
			if ok {
				kept = append(kept, alt)
			}
		}
		a.Alternatives = kept
	}
	sort.SliceStable(rep.Advice, func(i, j int) bool { return rep.Advice[i].Pos.Offset < rep.Advice[j].Pos.Offset })
	rep.Unknown = s.unknown
	rep.Checks = s.checks
	return rep, nil
}

type altKey struct{ construct, alt int }

// search holds the state of one Suggest.
type search struct {
	ctx     context.Context
	t       *litmus.Test
	prog    *model.Program // t, resolved
	opt     Options
	base    []ModelVerdict
	checks  int
	unknown string
	n       int // constructs advised so far
	alts    map[altKey]*candidate
	memo    map[string]result
}

// run checks the test with edits under every model, and reports whether
// each keeps its baseline verdict; early stops at the first that does
// not. Results are kept: the same set of edits is checked once.
func (s *search) run(edits []edit, early bool) ([]ModelVerdict, bool, error) {
	return s.runOn(nil, false, edits, early)
}

// runOn checks the test with context and extra edits. When context is
// known to keep every verdict (kept), an architecture model on which
// extra compiles to the same instructions as what it replaces keeps its
// verdict too and is not checked: model/kcomp compiles each primitive
// from its kmap row alone, so smp_mb__after_atomic() in place of smp_mb()
// is the same test on arm64, RISC-V and POWER (differential test:
// TestShortcut).
func (s *search) runOn(context []edit, kept bool, extra []edit, early bool) ([]ModelVerdict, bool, error) {
	edits := append(append([]edit(nil), context...), extra...)
	key := editKey(edits)
	if r, ok := s.memo[key]; ok && (r.complete || early) {
		return r.verdicts, r.kept, nil
	}
	var v *model.Program
	var out []ModelVerdict
	keptAll, complete := true, true
	for i, m := range s.opt.Models {
		if s.base != nil && kept && !s.opt.noShortcut && sameCode(m, extra) {
			out = append(out, s.base[i])
			continue
		}
		if v == nil {
			v = s.prog
			if len(edits) > 0 {
				// A weakened copy renames primitives only; its names
				// resolve as the test's do.
				var err error
				if v, err = model.Resolve(variant(s.t, edits), s.opt.Resolve); err != nil {
					return nil, false, fmt.Errorf("%s with %s: internal error: %w", s.t.Name, describe(edits), err)
				}
			}
		}
		r, err := v.Check(s.ctx, m, s.opt.Check)
		s.checks++
		if err != nil {
			if s.base == nil {
				return nil, false, err // the test as written: the caller's error
			}
			// A weakened copy the model cannot check is not suggested;
			// the report says so, as for an Unknown.
			if s.unknown == "" {
				s.unknown = fmt.Sprintf("%s under %s: %v", describe(edits), m, err)
			}
			out = append(out, ModelVerdict{Model: m, Verdict: model.Unknown, Reason: err.Error()})
			keptAll, complete = false, i == len(s.opt.Models)-1
			break
		}
		out = append(out, ModelVerdict{Model: m, Verdict: r.Verdict, Ok: r.Ok, Reason: r.Reason})
		if s.base == nil {
			continue
		}
		if r.Verdict == model.Unknown && s.unknown == "" {
			s.unknown = fmt.Sprintf("%s under %s: %s", describe(edits), m, r.Reason)
		}
		if r.Verdict != s.base[i].Verdict || r.Ok != s.base[i].Ok {
			keptAll = false
			if early && i < len(s.opt.Models)-1 {
				complete = false
				break
			}
		}
	}
	if s.memo == nil {
		s.memo = map[string]result{}
	}
	s.memo[key] = result{out, keptAll, complete}
	return out, keptAll, nil
}

// result is a memoised run.
type result struct {
	verdicts []ModelVerdict
	kept     bool
	complete bool // every model was checked
}

// editKey is a canonical name of a set of edits.
func editKey(edits []edit) string {
	parts := make([]string, len(edits))
	for i, e := range edits {
		parts[i] = fmt.Sprintf("%d/%d>%s", e.stmt, e.call, e.to)
	}
	sort.Strings(parts)
	return strings.Join(parts, "|")
}

// archOf is the kernel mapping an architecture model compiles C tests
// with.
var archOf = map[model.Model]kmap.Arch{model.AArch64: kmap.ARM64, model.AArch64LLSC: kmap.ARM64LLSC, model.RISCV: kmap.RISCV64, model.PPC: kmap.PPC64}

// sameCode reports whether every edit renames a call to a primitive with
// the same instructions on m's architecture.
func sameCode(m model.Model, edits []edit) bool {
	a, ok := archOf[m]
	if !ok || len(edits) == 0 {
		return false
	}
	for _, e := range edits {
		if e.repl == nil {
			return false
		}
		from, _, ok1 := kmap.Lookup(a, callName(e))
		to, _, ok2 := kmap.Lookup(a, e.repl.Fun.Name)
		if !ok1 || !ok2 || from.Code != to.Code || e.from != callName(e)+"("+argsText(e.repl)+")" {
			return false
		}
	}
	return true
}

// argsText prints a call's arguments.
func argsText(c *litmus.CallExpr) string {
	var parts []string
	for _, a := range c.Args {
		parts = append(parts, litmus.ExprString(a))
	}
	return strings.Join(parts, ", ")
}

// describe names a set of edits for an error.
func describe(edits []edit) string {
	if len(edits) == 0 {
		return "the test as written"
	}
	var parts []string
	for _, e := range edits {
		from := strings.TrimSuffix(e.from, ";")
		if e.to == "" {
			parts = append(parts, fmt.Sprintf("%s (line %d) removed", from, e.line))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (line %d) made %s", from, e.line, strings.TrimSuffix(e.to, ";")))
	}
	return strings.Join(parts, ", ")
}

// advise chooses the suggestion for construct k given the weakenings
// chosen before it.
func (s *search) advise(k *construct, chosen []edit) (Advice, *candidate, []ModelVerdict, error) {
	idx := s.n
	s.n++
	adv := Advice{Pos: s.t.File.Position(k.pos), Thread: k.thread, Kind: k.kind, Construct: k.text,
		Suggest: k.text, Label: k.text, Keep: true, None: k.none}
	var pick *candidate
	var verdicts []ModelVerdict
	for _, c := range k.cands {
		if !c.weaker {
			continue
		}
		if conflicts(chosen, c.edits) {
			continue
		}
		// The cheapest is checked under every model, to say which need
		// an ordering here at all; the dearer ones stop at the first
		// model they break.
		vs, ok, err := s.runOn(chosen, true, c.edits, len(adv.Rejected) > 0)
		if err != nil {
			return adv, nil, nil, err
		}
		if ok {
			pick, verdicts = c, vs
			break
		}
		adv.Rejected = append(adv.Rejected, s.tried(c, vs))
	}
	own := k.cost
	if pick != nil {
		adv.Suggest, adv.Label, adv.Keep, adv.Remove = pick.suggest, pick.label, false, pick.suggest == ""
		adv.Note = pick.note
		adv.Verdicts = verdicts
		for _, e := range pick.edits {
			adv.Edits = append(adv.Edits, Edit{Line: e.line, From: e.from, To: e.to})
		}
		own = pick.cost
	}
	adv.Costs = costs(k.cost, own)
	// The cheapest primitive, safe alone? Said when the weakenings
	// chosen before ruled it out.
	if len(adv.Rejected) > 0 && len(chosen) > 0 {
		first := firstWeaker(k)
		if _, ok, err := s.runOn(nil, true, first.edits, true); err != nil {
			return adv, nil, nil, err
		} else if ok {
			adv.Alone = fmt.Sprintf("%s alone keeps the verdict, but not with %s", first.label, describe(chosen))
		}
	}
	// Alternatives: sufficient primitives that the suggestion does not
	// beat everywhere, cheaper or incomparable on some architecture.
	for _, c := range k.cands {
		if c == pick || conflicts(chosen, c.edits) {
			continue
		}
		if !c.cost.somewhereCheaper(own) {
			continue
		}
		if pick == nil && c.weaker {
			continue // a weakening of a kept construct was tried above and failed
		}
		if tried(adv.Rejected, c) {
			continue
		}
		_, ok, err := s.runOn(chosen, true, c.edits, true)
		if err != nil {
			return adv, nil, nil, err
		}
		if !ok {
			continue
		}
		if s.alts == nil {
			s.alts = map[altKey]*candidate{}
		}
		s.alts[altKey{idx, len(adv.Alternatives)}] = c
		alt := Alternative{Suggest: c.suggest, Label: c.label, Costs: costs(own, c.cost)}
		for _, e := range c.edits {
			alt.Edits = append(alt.Edits, Edit{Line: e.line, From: e.from, To: e.to})
		}
		alt.Why = tradeWhy(alt.Costs)
		adv.Alternatives = append(adv.Alternatives, alt)
	}
	return adv, pick, verdicts, nil
}

func firstWeaker(k *construct) *candidate {
	for _, c := range k.cands {
		if c.weaker {
			return c
		}
	}
	return nil
}

func tried(ts []Tried, c *candidate) bool {
	for _, t := range ts {
		if t.Label == c.label {
			return true
		}
	}
	return false
}

// tried records a rejected candidate with the models it breaks.
func (s *search) tried(c *candidate, vs []ModelVerdict) Tried {
	t := Tried{Suggest: c.suggest, Label: c.label, Verdicts: vs, Note: c.note, Complete: len(vs) == len(s.opt.Models)}
	for i, v := range vs {
		if v.Verdict != s.base[i].Verdict || v.Ok != s.base[i].Ok {
			t.Broken = append(t.Broken, v.Model)
		}
	}
	return t
}

// conflicts reports whether edits touch what chosen already changed.
func conflicts(chosen, edits []edit) bool {
	for _, c := range chosen {
		for _, e := range edits {
			if e.target() < c.end && c.target() < e.end {
				return true
			}
		}
	}
	return false
}

// without returns chosen less the edits of pick.
func without(chosen []edit, pick *candidate) []edit {
	if pick == nil {
		return append([]edit(nil), chosen...)
	}
	var out []edit
	for _, e := range chosen {
		mine := false
		for _, p := range pick.edits {
			if e.target() == p.target() && e.to == p.to {
				mine = true
			}
		}
		if !mine {
			out = append(out, e)
		}
	}
	return out
}

// costs sets from against to on every architecture.
func costs(from, to cost) []ArchCost {
	out := make([]ArchCost, len(arches))
	for i, a := range arches {
		rel := [...]string{same: "same", cheaper: "cheaper", dearer: "dearer", incomparable: "incomparable"}[to.rel(i, from)]
		out[i] = ArchCost{Arch: a, From: from[i].String(), To: to[i].String(), Relation: rel}
	}
	return out
}

// tradeWhy says where an alternative is cheaper and where it is not.
func tradeWhy(cs []ArchCost) string {
	var cheap, inc, dear []string
	for _, c := range cs {
		switch c.Relation {
		case "cheaper":
			cheap = append(cheap, fmt.Sprintf("%s (%s instead of %s)", c.Arch, c.To, c.From))
		case "incomparable":
			inc = append(inc, fmt.Sprintf("%s (%s against %s)", c.Arch, c.To, c.From))
		case "dearer":
			dear = append(dear, fmt.Sprintf("%s (%s instead of %s)", c.Arch, c.To, c.From))
		}
	}
	var parts []string
	if len(cheap) > 0 {
		parts = append(parts, "cheaper on "+strings.Join(cheap, ", "))
	}
	if len(inc) > 0 {
		parts = append(parts, "incomparable on "+strings.Join(inc, ", ")+": each orders something the other does not")
	}
	if len(dear) > 0 {
		parts = append(parts, "dearer on "+strings.Join(dear, ", "))
	}
	return strings.Join(parts, "; ")
}
