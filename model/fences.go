package model

import (
	"context"
	"fmt"
	"strings"

	"github.com/litmus-dev/litmus/litmus"
)

// This file answers the reviewer's question "is this barrier
// load-bearing?": every ordering construct of a C test is weakened in turn
// (a fence removed, an acquire or release made plain, a fully ordered RMW
// made relaxed, an RMW whose result is unused split into a plain read and
// write) and the test re-checked. The weakening is done on the syntax tree,
// so the same analysis serves every model, LKMM included.

// Weakening says how an ordering construct is weakened.
type Weakening int

// Weakenings.
const (
	RemoveFence   Weakening = iota + 1 // smp_mb(); -> nothing
	DropOrdering                       // smp_load_acquire(x) -> READ_ONCE(*x), xchg -> xchg_relaxed
	PlainAccesses                      // atomic_inc(x) -> WRITE_ONCE(*x, READ_ONCE(*x) + 1)
)

func (w Weakening) String() string {
	switch w {
	case RemoveFence:
		return "remove"
	case DropOrdering:
		return "relax"
	case PlainAccesses:
		return "non-atomic"
	}
	return "?"
}

// Site is one ordering construct of a test and how it is weakened.
type Site struct {
	Pos       litmus.Position
	Thread    int
	Text      string // the construct as written, "smp_mb()"
	Weakening Weakening
	Into      string // what it becomes, "nothing", "READ_ONCE(*x)"

	call  *litmus.CallExpr  // C: the call weakened into repl
	prim  *litmus.Primitive // C: its row
	repl  litmus.CallExpr
	instr *litmus.Instr // assembly: the instruction replaced by instrRepl
	// instrRepl replaces instr; nil means a NOP.
	instrRepl *litmus.Instr
	// partial marks a weakening that keeps part of the ordering (DMB SY
	// made DMB ST): reported, but left out of the minimal set, which
	// removes or relaxes constructs whole.
	partial bool
}

// FenceResult is the weakened verdict of one site.
type FenceResult struct {
	Site
	Verdict Verdict
	// Necessary reports whether weakening this site alone changes the
	// verdict (or makes herd's Ok/No flip).
	Necessary bool
	// Why explains a redundant site in words where the model says why,
	// e.g. that x86 atomic RMWs are full barriers.
	Why string
}

// FenceReport is the answer for one test under one model.
type FenceReport struct {
	Name     string
	Model    Model
	Baseline Verdict
	// BaselineReason is why the baseline is Unknown, when it is: then
	// Sites and Minimal are empty, as nothing can be judged against it.
	BaselineReason string
	Sites          []FenceResult
	// Minimal is a minimal sufficient set: the sites that must be kept
	// (all others weakened at once) for the baseline verdict, found by
	// weakening the sites one by one in source order and keeping each
	// weakening that preserves the verdict. It is minimal (no site in it
	// can be dropped) but not necessarily the smallest such set.
	Minimal []Site
	// Unknown is set when some check ended Unknown; the report is then
	// incomplete and says so.
	Unknown string
}

// Sites lists the ordering constructs of a test, in source order: for C
// the kernel's fences, acquire/release accesses and RMWs; for X86 the
// MFENCE, LFENCE and SFENCE instructions; for AArch64, RISC-V and POWER
// their barriers and acquire/release forms (archSites).
func Sites(t *litmus.Test) []Site {
	if t.Arch == litmus.ArchAArch64 || t.Arch == litmus.ArchRISCV || t.Arch == litmus.ArchPPC {
		return archSites(t)
	}
	var sites []Site
	for _, p := range t.Procs {
		for _, in := range p.Code {
			switch strings.ToUpper(in.Op) {
			case "MFENCE", "LFENCE", "SFENCE":
				sites = append(sites, Site{Pos: t.File.Position(in.Pos()), Thread: p.ID, Text: litmus.InstrString(in),
					Weakening: RemoveFence, Into: "nothing", instr: in})
			}
		}
		if p.Body == nil {
			continue
		}
		unused := map[*litmus.CallExpr]bool{} // calls whose value is discarded
		litmus.Inspect(p.Body, func(n litmus.Node) bool {
			switch n := n.(type) {
			case *litmus.ExprStmt:
				if c, ok := n.X.(*litmus.CallExpr); ok {
					unused[c] = true
				}
			case *litmus.CallExpr:
				if s, ok := siteFor(t, p.ID, n, unused[n]); ok {
					sites = append(sites, s)
				}
			}
			return true
		})
	}
	return sites
}

// siteFor returns the site for call c, if it is an ordering construct.
func siteFor(t *litmus.Test, thread int, c *litmus.CallExpr, unused bool) (Site, bool) {
	prim, ok := t.Primitive(c.Fun.Name)
	if !ok {
		return Site{}, false
	}
	s := Site{Pos: t.File.Position(c.Pos()), Thread: thread, Text: litmus.ExprString(c), call: c, prim: prim}
	repl := func(name string, args ...litmus.Expr) litmus.CallExpr {
		return litmus.CallExpr{Fun: &litmus.Ident{NamePos: c.Fun.NamePos, Name: name}, Lparen: c.Lparen, Args: args, Rparen: c.Rparen}
	}
	deref := func(e litmus.Expr) litmus.Expr { return &litmus.UnaryExpr{OpPos: e.Pos(), Op: "*", X: e} }
	switch {
	case prim.Kind == litmus.KFence:
		switch prim.Fence {
		case "rcu-lock", "rcu-unlock", "sync-rcu":
			return Site{}, false // RCU markers are not barriers to weaken
		}
		s.Weakening, s.repl, s.Into = RemoveFence, repl("cpu_relax"), "nothing"
	case prim.Kind == litmus.KLoad && prim.Order&litmus.OrdAcquire != 0 && len(c.Args) == 1:
		arg := c.Args[0]
		if prim.Args[0] == litmus.ArgPtr {
			arg = deref(arg)
		}
		s.Weakening, s.repl = DropOrdering, repl("READ_ONCE", arg)
	case prim.Kind == litmus.KStore && (prim.Order&litmus.OrdRelease != 0 || prim.Fence != "") && len(c.Args) == 2:
		arg := c.Args[0]
		if prim.Args[0] == litmus.ArgPtr {
			arg = deref(arg)
		}
		s.Weakening, s.repl = DropOrdering, repl("WRITE_ONCE", arg, c.Args[1])
	case prim.Kind == litmus.KRMW && !prim.NonAtomic:
		if relaxed := relaxedName(t, prim); relaxed != "" {
			s.Weakening, s.repl = DropOrdering, repl(relaxed, c.Args...)
			break
		}
		if !unused {
			return Site{}, false
		}
		r, ok := plainRMW(prim, c, repl, deref)
		if !ok {
			return Site{}, false
		}
		s.Weakening, s.repl = PlainAccesses, r
	default:
		return Site{}, false
	}
	if s.Into == "" {
		r := s.repl
		s.Into = litmus.ExprString(&r)
	}
	return s, true
}

// relaxedName returns the relaxed variant of an ordered RMW, if the table
// has one: xchg -> xchg_relaxed, atomic_fetch_add_acquire ->
// atomic_fetch_add_relaxed.
func relaxedName(t *litmus.Test, p *litmus.Primitive) string {
	if p.Order == litmus.OrdOnce && p.FailOrder == litmus.OrdOnce {
		return ""
	}
	base := p.Name
	for _, suf := range []string{"_acquire", "_release"} {
		base = strings.TrimSuffix(base, suf)
	}
	cand := base + "_relaxed"
	if q, ok := t.Primitive(cand); ok && q.Kind == p.Kind && q.Op == p.Op && q.Ret == p.Ret && cand != p.Name {
		return cand
	}
	return ""
}

// plainRMW rewrites an RMW whose result is unused as a plain read and
// write: WRITE_ONCE(*x, READ_ONCE(*x) op v).
func plainRMW(p *litmus.Primitive, c *litmus.CallExpr, repl func(string, ...litmus.Expr) litmus.CallExpr, deref func(litmus.Expr) litmus.Expr) (litmus.CallExpr, bool) {
	if p.Loc < 0 || p.Loc >= len(c.Args) {
		return litmus.CallExpr{}, false
	}
	loc := c.Args[p.Loc]
	if p.Args[p.Loc] == litmus.ArgPtr {
		loc = deref(loc)
	}
	var operand litmus.Expr = &litmus.IntLit{ValuePos: c.Pos(), Value: 1, Text: "1"}
	for i, a := range p.Args {
		switch a {
		case litmus.ArgVal:
			operand = c.Args[i]
		case litmus.ArgBit:
			operand = &litmus.ParenExpr{Lparen: c.Pos(), X: &litmus.BinaryExpr{X: &litmus.IntLit{ValuePos: c.Pos(), Value: 1, Text: "1"}, OpPos: c.Pos(), Op: "<<", Y: c.Args[i]}, Rparen: c.Pos()}
		}
	}
	old := litmus.CallExpr{Fun: &litmus.Ident{NamePos: c.Fun.NamePos, Name: "READ_ONCE"}, Lparen: c.Lparen, Args: []litmus.Expr{loc}, Rparen: c.Rparen}
	var val litmus.Expr
	switch p.Op {
	case litmus.RMWAdd:
		val = &litmus.BinaryExpr{X: &old, OpPos: c.Pos(), Op: "+", Y: operand}
	case litmus.RMWSub:
		val = &litmus.BinaryExpr{X: &old, OpPos: c.Pos(), Op: "-", Y: operand}
	case litmus.RMWAnd:
		val = &litmus.BinaryExpr{X: &old, OpPos: c.Pos(), Op: "&", Y: operand}
	case litmus.RMWOr:
		val = &litmus.BinaryExpr{X: &old, OpPos: c.Pos(), Op: "|", Y: operand}
	case litmus.RMWXor:
		val = &litmus.BinaryExpr{X: &old, OpPos: c.Pos(), Op: "^", Y: operand}
	case litmus.RMWAndNot:
		val = &litmus.BinaryExpr{X: &old, OpPos: c.Pos(), Op: "&", Y: &litmus.UnaryExpr{OpPos: c.Pos(), Op: "~", X: operand}}
	case litmus.RMWXchg:
		val = operand
	default:
		return litmus.CallExpr{}, false
	}
	return repl("WRITE_ONCE", loc, val), true
}

// apply weakens the sites in place and returns a function that undoes it.
func apply(sites []Site) (undo func()) {
	saved := make([]litmus.CallExpr, len(sites))
	savedInstr := make([]litmus.Instr, len(sites))
	for i, s := range sites {
		if s.instr != nil {
			savedInstr[i] = *s.instr
			if s.instrRepl != nil {
				*s.instr = *s.instrRepl
			} else {
				*s.instr = litmus.Instr{InstrPos: s.instr.InstrPos, Label: s.instr.Label, Op: "NOP", Mnemonic: nopFor(s.instr), EndPos: s.instr.EndPos}
			}
			continue
		}
		saved[i] = *s.call
		*s.call = s.repl
	}
	return func() {
		// In reverse, so that two weakenings of one construct undo to
		// the original.
		for i := len(sites) - 1; i >= 0; i-- {
			s := sites[i]
			if s.instr != nil {
				*s.instr = savedInstr[i]
			} else {
				*s.call = saved[i]
			}
		}
	}
}

// Fences weakens each ordering construct of t in turn and re-checks it
// under m. The test is modified during the call and restored before it
// returns, so t must not be used concurrently.
func Fences(ctx context.Context, t *litmus.Test, m Model, opt Options) (*FenceReport, error) {
	p, err := Resolve(t, ResolveOptions{})
	if err != nil {
		return nil, err
	}
	return p.Fences(ctx, m, opt)
}

// Fences is the package's Fences on a resolved test: weakening an
// ordering construct changes no name, so the variants are not resolved
// again.
func (p *Program) Fences(ctx context.Context, m Model, opt Options) (*FenceReport, error) {
	t := p.test
	if t.Arch == litmus.ArchLISA {
		// Sites knows C primitives and X86 instructions; reporting "no
		// ordering constructs" for a LISA test would be wrong.
		return nil, fmt.Errorf("%s: fences does not weaken LISA annotations; rewrite the test in C to analyse its barriers", t.Name)
	}
	opt.NoWitness = true
	run := func(sites []Site) (*Result, error) {
		undo := apply(sites)
		defer undo()
		return check(ctx, t, m, opt)
	}
	base, err := run(nil)
	if err != nil {
		return nil, err
	}
	rep := &FenceReport{Name: t.Name, Model: m, Baseline: base.Verdict}
	if base.Verdict == Unknown {
		rep.BaselineReason = base.Reason
		rep.Unknown = "baseline: " + base.Reason
		return rep, nil
	}
	sites := Sites(t)
	for _, s := range sites {
		r, err := run([]Site{s})
		if err != nil {
			return nil, err
		}
		fr := FenceResult{Site: s, Verdict: r.Verdict}
		switch {
		case r.Verdict == Unknown:
			rep.Unknown = fmt.Sprintf("%s weakened: %s", s.Text, r.Reason)
		case r.Verdict != base.Verdict || r.Ok != base.Ok:
			fr.Necessary = true
		default:
			fr.Why = redundantWhy(m, s)
		}
		rep.Sites = append(rep.Sites, fr)
	}
	// Minimal sufficient set: weaken greedily in source order.
	var dropped, kept []Site
	for _, s := range sites {
		if s.partial {
			continue
		}
		r, err := run(append(append([]Site(nil), dropped...), s))
		if err != nil {
			return nil, err
		}
		if r.Verdict == base.Verdict && r.Ok == base.Ok {
			dropped = append(dropped, s)
		} else {
			if r.Verdict == Unknown && rep.Unknown == "" {
				rep.Unknown = "minimal set: " + r.Reason
			}
			kept = append(kept, s)
		}
	}
	rep.Minimal = kept
	return rep, nil
}

// redundantWhy explains, where the model makes it plain, why weakening a
// site changes nothing.
func redundantWhy(m Model, s Site) string {
	if s.instr != nil {
		switch op := strings.ToUpper(s.instr.Op); {
		case m == TSO && (op == "LFENCE" || op == "SFENCE"):
			return "x86-TSO keeps loads in order and stores in order; LFENCE and SFENCE only matter for non-temporal and string stores"
		case m == SC:
			return "under SC every access is already ordered"
		}
		return ""
	}
	prim := s.prim
	if prim == nil {
		return ""
	}
	if m == TSO || m == PSO {
		machine := "on x86 every atomic RMW is a LOCK'd instruction and"
		if m == PSO {
			machine = "under PSO every atomic RMW drains the store buffers and is"
		}
		switch prim.Fence {
		case "after-atomic", "before-atomic":
			return machine + " already a full barrier; smp_mb__{before,after}_atomic() add nothing"
		case "after-spinlock":
			return "spin_lock() is an atomic RMW and already a full barrier here"
		}
	}
	if m == TSO {
		switch prim.Fence {
		case "rmb", "wmb":
			return "x86-TSO keeps loads in order and stores in order; smp_rmb()/smp_wmb() compile to nothing"
		}
		if prim.Kind == litmus.KRMW && s.Weakening == DropOrdering {
			return "on x86 every atomic RMW is a LOCK'd instruction, relaxed or not"
		}
		if s.Weakening == DropOrdering && (prim.Kind == litmus.KLoad || prim.Kind == litmus.KStore) && prim.Fence == "" {
			return "on x86 acquire loads and release stores are plain MOVs"
		}
	}
	if m == SC {
		return "under SC every access is already ordered"
	}
	return ""
}
