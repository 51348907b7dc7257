package interp

import (
	"github.com/litmus-dev/litmus/model/cat"
)

// analyse computes what the model's text says once and for all: whether
// it checks SC per location (uniproc), which lets the enumeration skip
// candidates that check would reject.
func (m *Model) analyse() {
	m.uniproc = m.checksUniproc()
	m.markFixed()
	m.assignSlots()
	m.prunes = map[int]withPrune{}
	for i, fs := range m.prog {
		if _, ok := fs.s.(*cat.WithFrom); ok {
			m.prunes[i] = m.analyseWith(i)
		}
	}
	m.resolveGlobals()
	m.baseSlots()
}

// candidateNames are the names whose value differs between the
// candidates of one execution; everything else a model starts from is
// fixed by the execution's events.
var candidateNames = []string{"rf", "FW",
	// Its value depends on the values events read and write, which
	// differ between executions of the same structure.
	"different-values"}

// markFixed marks the top-level lets and checks whose value depends on no
// candidate choice (rf, the final writes, a "with" choice), directly or
// through the names they use: those are computed once per execution. The
// fixed parts of the others become lets of their own (see hoister).
func (m *Model) markFixed() {
	dyn := map[string]bool{}
	for _, n := range candidateNames {
		dyn[n] = true
	}
	anyDyn := func(names []string) bool {
		for _, n := range names {
			if dyn[n] {
				return true
			}
		}
		return false
	}
	h := &hoister{m: m, dyn: dyn}
	prog := m.prog
	m.prog = make([]flatStmt, 0, len(prog))
	for _, fs := range prog {
		m.markFixedStmt(&fs, dyn, anyDyn)
		if !fs.fixed && !m.noHoist {
			var lets []*cat.Let
			fs.s, lets = h.stmt(fs.s)
			for _, l := range lets {
				m.prog = append(m.prog, flatStmt{s: l, file: fs.file, fixed: true, lazy: true})
			}
		}
		m.prog = append(m.prog, fs)
	}
}

// markFixedStmt marks one instruction and records the names it binds.
func (m *Model) markFixedStmt(fs *flatStmt, dyn map[string]bool, anyDyn func([]string) bool) {
	switch s := fs.s.(type) {
	case *cat.Let:
		var fv []string
		bound := map[string]bool{}
		for _, b := range s.Bindings {
			fv = append(fv, m.freeVars(b.X)...)
			for _, n := range b.Pat.Names {
				bound[n] = true
			}
		}
		if s.When != nil {
			fv = append(fv, m.freeVars(s.When.X)...)
		}
		d := false
		for _, n := range fv {
			if dyn[n] && !(s.Rec && bound[n]) {
				d = true
			}
		}
		fs.fixed = !d && s.When == nil
		fs.lazy = !s.Rec && s.When == nil
		for _, b := range s.Bindings {
			if b.Pat.Tuple || len(b.Pat.Names) != 1 || b.Pat.Names[0] == "" {
				fs.lazy = false
			}
		}
		for n := range bound {
			dyn[n] = d
		}
	case *cat.Test:
		fs.fixed = !anyDyn(m.freeVars(s.X))
	case *cat.WithFrom:
		dyn[s.Var] = true
	case *cat.Procedure:
		dyn[s.Name] = anyDyn(m.procFree(s))
		fs.fixed = !dyn[s.Name]
	case *cat.Enum:
		fs.fixed = true
	case *cat.MatchStmt:
		// Its clauses may bind anything: take all as candidate-dependent.
		for _, c := range s.Clauses {
			markBound(c.Body, dyn)
		}
		markBound(s.Default, dyn)
	}
}

// markBound marks as candidate-dependent every name a list of
// instructions binds.
func markBound(list []cat.Stmt, dyn map[string]bool) {
	for _, st := range list {
		switch st := st.(type) {
		case *cat.Let:
			for _, b := range st.Bindings {
				for _, n := range b.Pat.Names {
					dyn[n] = true
				}
			}
		case *cat.Procedure:
			dyn[st.Name] = true
		case *cat.MatchStmt:
			for _, c := range st.Clauses {
				markBound(c.Body, dyn)
			}
			markBound(st.Default, dyn)
		}
	}
}

// checksUniproc reports whether the model rejects every execution whose
// po-loc | rf | co | fr has a cycle: some unconditional check "acyclic E"
// whose union members, expanding names defined as unions, include po-loc
// (or po), rf, co and fr. herd's own co generation (cos-opt.cat) makes
// the same assumption of every model it is used with.
func (m *Model) checksUniproc() bool {
	defs := map[string]cat.Expr{}
	for _, fs := range m.prog {
		switch s := fs.s.(type) {
		case *cat.Let:
			for _, b := range s.Bindings {
				if len(b.Pat.Names) == 1 && !s.Rec {
					defs[b.Pat.Names[0]] = b.X
				}
			}
		case *cat.Test:
			if s.Kind != cat.Check || s.Not || s.Op != cat.Acyclic {
				continue
			}
			leaves := map[string]bool{}
			unionLeaves(s.X, defs, leaves, 0)
			if (leaves["po-loc"] || leaves["po"]) && leaves["rf"] && leaves["co"] && leaves["fr"] {
				return true
			}
		}
	}
	return false
}

// unionLeaves collects the names e is a union of, expanding names whose
// definition (at that point of the model) is itself a union or a name.
func unionLeaves(e cat.Expr, defs map[string]cat.Expr, out map[string]bool, depth int) {
	if depth > 50 {
		return
	}
	switch e := e.(type) {
	case *cat.Op:
		if e.Op == cat.OpUnion {
			for _, a := range e.Args {
				unionLeaves(a, defs, out, depth+1)
			}
		}
	case *cat.Var:
		out[e.Name] = true
		if d, ok := defs[e.Name]; ok {
			switch d := d.(type) {
			case *cat.Op:
				if d.Op == cat.OpUnion {
					unionLeaves(d, defs, out, depth+1)
				}
			case *cat.Var:
				if d.Name != e.Name {
					unionLeaves(d, defs, out, depth+1)
				}
			}
		}
	}
}

// polarity is how a value depends on the value of a "with" name: not at
// all, monotonically (more pairs in, more pairs out), anti-monotonically,
// or in an unknown way.
type polarity uint8

const (
	indep polarity = iota
	mono
	anti
	unknownPol
)

func flip(p polarity) polarity {
	switch p {
	case mono:
		return anti
	case anti:
		return mono
	}
	return p
}

// joinPol combines the polarities of the operands of a monotone operator.
func joinPol(ps ...polarity) polarity {
	out := indep
	for _, p := range ps {
		switch {
		case p == indep:
		case out == indep:
			out = p
		case out != p:
			return unknownPol
		}
	}
	return out
}

// monotonePrims are the primitives whose result grows with their
// argument.
var monotonePrims = map[string]bool{"domain": true, "range": true, "different-values": true}

// withPrune is what the analysis found for one "with x from e": the
// checks after it that can reject a partial value of x (a check of a
// relation monotone in x fails with all of x if it fails with part of
// it), and the last instruction a check-mode run needs.
type withPrune struct {
	checks map[int]bool // indices of the prunable checks in m.prog
	last   int          // index of the last one; -1 when none
}

// analyseWith computes the pruning information of the with at index i.
func (m *Model) analyseWith(i int) withPrune {
	w := m.prog[i].s.(*cat.WithFrom)
	pol := map[string]polarity{w.Var: mono}
	wp := withPrune{checks: map[int]bool{}, last: -1}
	for j := i + 1; j < len(m.prog); j++ {
		switch s := m.prog[j].s.(type) {
		case *cat.WithFrom:
			return wp
		case *cat.Let:
			if s.Rec {
				names := map[string]bool{}
				for _, b := range s.Bindings {
					for _, n := range b.Pat.Names {
						names[n] = true
						pol[n] = mono
					}
				}
				var ps []polarity
				for _, b := range s.Bindings {
					ps = append(ps, m.exprPol(b.X, pol))
				}
				p := joinPol(ps...)
				if p == anti {
					p = unknownPol
				}
				for n := range names {
					pol[n] = p
				}
				continue
			}
			for _, b := range s.Bindings {
				p := m.exprPol(b.X, pol)
				if len(b.Pat.Names) != 1 && p != indep {
					p = unknownPol
				}
				for _, n := range b.Pat.Names {
					pol[n] = p
				}
			}
		case *cat.Test:
			if s.Kind != cat.Check || s.Not {
				continue
			}
			if p := m.exprPol(s.X, pol); p == indep || p == mono {
				wp.checks[j] = true
				wp.last = j
			}
		case *cat.Procedure:
			pol[s.Name] = unknownPol
		case *cat.MatchStmt:
			markUnknown := map[string]bool{}
			for _, c := range s.Clauses {
				markBound(c.Body, markUnknown)
			}
			markBound(s.Default, markUnknown)
			for n := range markUnknown {
				pol[n] = unknownPol
			}
		}
	}
	return wp
}

// exprPol returns the polarity of e given the polarities of names (a
// name not in pol was bound before the with: independent).
func (m *Model) exprPol(e cat.Expr, pol map[string]polarity) polarity {
	switch e := e.(type) {
	case *cat.Var:
		return pol[e.Name]
	case *cat.Empty, *cat.Universe, *cat.Tag:
		return indep
	case *cat.Op1:
		p := m.exprPol(e.X, pol)
		if e.Op == cat.OpComp {
			return flip(p)
		}
		return p
	case *cat.Op:
		if e.Op == cat.OpDiff {
			return joinPol(m.exprPol(e.Args[0], pol), flip(m.exprPol(e.Args[1], pol)))
		}
		var ps []polarity
		for _, a := range e.Args {
			ps = append(ps, m.exprPol(a, pol))
		}
		return joinPol(ps...)
	case *cat.App:
		f, arg := m.exprPol(e.Fun, pol), m.exprPol(e.Arg, pol)
		if f == indep && arg == indep {
			return indep
		}
		if v, ok := e.Fun.(*cat.Var); ok && f == indep && monotonePrims[v.Name] {
			return arg
		}
		return unknownPol
	case *cat.Bind:
		inner := map[string]polarity{}
		for k, v := range pol {
			inner[k] = v
		}
		if e.Rec {
			for _, b := range e.Bindings {
				for _, n := range b.Pat.Names {
					inner[n] = mono
				}
			}
		}
		var ps []polarity
		for _, b := range e.Bindings {
			p := m.exprPol(b.X, inner)
			ps = append(ps, p)
			if !e.Rec {
				for _, n := range b.Pat.Names {
					inner[n] = p
				}
			}
		}
		if e.Rec {
			p := joinPol(ps...)
			if p == anti {
				p = unknownPol
			}
			for _, b := range e.Bindings {
				for _, n := range b.Pat.Names {
					inner[n] = p
				}
			}
		}
		return m.exprPol(e.Body, inner)
	}
	// Functions, matches, try, if: independent only when every free name
	// is.
	for _, n := range m.freeVars(e) {
		if pol[n] != indep {
			return unknownPol
		}
	}
	return indep
}
