package litmus

import (
	"fmt"
	"strings"
)

// This file resolves the names of the final section (the condition, the
// locations and filter sections, the invariants) against the rest of
// the test, as ResolveNames does for the names of C code.
//
// herd7 reads a name that only the final section uses as a fresh
// location (or register) holding 0: "exists (flga=1 /\ 1:r1=0)" where
// the threads write flag is Never under every model, and "Result:
// Never" passes having checked nothing. ResolveFinal reports such names;
// a caller that wants herd's reading (tests written for it) does not
// call it.

// ResolveFinal reports each name of the final section that names
// nothing in the rest of the test:
//
//   - a register "N:r" of a thread that does not exist, or whose thread
//     never mentions r (C: a parameter, a name declared, assigned or
//     used in its code; assembly: a register operand, also inside a
//     memory operand, counting a W register as its X register) and the
//     init section does not set;
//   - a shared location (also as a value, "p=x") that the init section
//     does not declare or use as a value, no C thread takes as a
//     parameter and no assembly code names (X86 "[x]", RISC-V "la").
//
// Each name is reported once, at its first use, with a suggestion when
// a known name is close.
func ResolveFinal(t *Test) ErrorList {
	if t == nil {
		return nil
	}
	f := &finalResolver{t: t, regs: map[int]*nameSet{}, reported: map[string]bool{}}
	f.collect()
	for _, l := range t.Locations {
		f.loc(l)
	}
	if t.Filter != nil {
		f.prop(t.Filter)
	}
	if t.Cond != nil {
		f.prop(t.Cond.Prop)
	}
	for _, inv := range t.Invariants {
		f.prop(inv.Prop)
	}
	f.errs.Sort()
	if len(f.errs) > maxErrors {
		f.errs = f.errs[:maxErrors]
	}
	return f.errs
}

// nameSet is a set of names in the order they were added, for
// suggestions.
type nameSet struct {
	has   map[string]bool
	order []string
}

func (s *nameSet) add(n string) {
	if s.has == nil {
		s.has = map[string]bool{}
	}
	if n != "" && !s.has[n] {
		s.has[n] = true
		s.order = append(s.order, n)
	}
}

type finalResolver struct {
	t        *Test
	shared   nameSet
	regs     map[int]*nameSet // by thread number; absent: no such thread
	reported map[string]bool
	errs     ErrorList
}

func (f *finalResolver) threadRegs(proc int) *nameSet {
	s := f.regs[proc]
	if s == nil {
		s = &nameSet{}
		f.regs[proc] = s
	}
	return s
}

// regKey is the name under which a register of the test's dialect is
// compared: its canonical name (X0 for W0, x10 for a0, rax for eax).
func (f *finalResolver) regKey(name string) string {
	switch f.t.Arch {
	case ArchAArch64, ArchRISCV, ArchPPC:
		if r, ok := ArchRegister(f.t.Arch, name); ok {
			return r.Name
		}
		if r, ok := ppcCR(name); ok && f.t.Arch == ArchPPC {
			return r.Name
		}
	case ArchX86, ArchX8664:
		return x86Family(name)
	}
	return name
}

// collect gathers the names the init section and the threads declare.
func (f *finalResolver) collect() {
	t := f.t
	for _, pr := range t.Procs {
		f.threadRegs(pr.ID)
	}
	for _, it := range t.Init {
		if it.Proc >= 0 {
			f.threadRegs(it.Proc).add(f.regKey(it.Name))
		} else {
			f.shared.add(it.Name)
		}
		if it.Value != nil {
			Inspect(it.Value, func(n Node) bool {
				if id, ok := n.(*Ident); ok {
					f.shared.add(id.Name)
				}
				return true
			})
		}
	}
	for _, pr := range t.Procs {
		regs := f.threadRegs(pr.ID)
		for _, prm := range pr.Params {
			f.shared.add(prm.Name.Name)
			regs.add(prm.Name.Name)
		}
		if pr.Body != nil {
			Inspect(pr.Body, func(n Node) bool {
				switch n := n.(type) {
				case *Ident:
					regs.add(n.Name)
				case *DeclStmt:
					regs.add(n.Name.Name)
				}
				return true
			})
		}
		for _, in := range pr.Code {
			for _, o := range in.Args {
				f.operand(regs, o)
			}
		}
		for _, in := range pr.LISA {
			regs.add(in.Reg)
			for _, a := range []*LISAArg{in.Val} {
				f.lisaArg(regs, a)
			}
			if in.Addr != nil {
				f.lisaArg(regs, in.Addr.Base)
				f.lisaArg(regs, in.Addr.Off)
			}
			if in.Expr != nil {
				f.lisaArg(regs, in.Expr.X)
				f.lisaArg(regs, in.Expr.Y)
			}
		}
	}
}

func (f *finalResolver) operand(regs *nameSet, o *Operand) {
	if o == nil {
		return
	}
	if o.R != nil {
		regs.add(o.R.Name)
	}
	if o.Mem != nil {
		regs.add(o.Mem.Base.Name)
		if o.Mem.Index != nil {
			regs.add(o.Mem.Index.Name)
		}
	}
	switch {
	case o.Kind == OpdReg && o.R == nil:
		regs.add(x86Family(o.Reg)) // X86
	case o.Kind == OpdMem && o.Mem == nil:
		regs.add(x86Family(o.Base))
		regs.add(x86Family(o.Index))
	}
	if o.Sym != "" {
		f.shared.add(o.Sym)
	}
}

func (f *finalResolver) lisaArg(regs *nameSet, a *LISAArg) {
	if a == nil {
		return
	}
	switch a.Kind {
	case LISAReg:
		regs.add(a.Name)
	case LISAName:
		f.shared.add(a.Name)
	}
}

func (f *finalResolver) prop(p Prop) {
	EachAtom(p, func(p *AtomProp) {
		f.loc(p.Loc)
		switch {
		case p.Val == nil:
		case p.Val.Loc != nil:
			f.loc(p.Val.Loc)
		case !p.Val.IsInt && p.Val.Sym != "":
			f.sharedName(p.Val.Sym, p.Val.Pos())
		}
	})
}

func (f *finalResolver) loc(l *LocRef) {
	if l == nil {
		return
	}
	if l.Proc < 0 {
		f.sharedName(l.Name, l.Pos())
		return
	}
	regs, ok := f.regs[l.Proc]
	key := fmt.Sprintf("%d:%s", l.Proc, l.Name)
	if f.reported[key] {
		return
	}
	if !ok {
		f.reported[key] = true
		f.errs.Add(f.t.File.Position(l.Pos()), fmt.Sprintf("no thread P%d", l.Proc))
		return
	}
	if regs.has[f.regKey(l.Name)] {
		return
	}
	f.reported[key] = true
	msg := fmt.Sprintf("unknown register %s: P%d never uses it and the init section does not set it (herd7 reads it as a fresh 0, as --fresh-zero does)", key, l.Proc)
	if s := Suggest(l.Name, regs.order); s != "" {
		msg += fmt.Sprintf("; did you mean %d:%s?", l.Proc, s)
	}
	f.errs.Add(f.t.File.Position(l.Pos()), msg)
}

func (f *finalResolver) sharedName(name string, pos Pos) {
	if f.shared.has[name] || f.reported[name] {
		return
	}
	f.reported[name] = true
	msg := fmt.Sprintf("unknown location %s: no thread accesses it and the init section does not declare it (herd7 reads it as a fresh 0, as --fresh-zero does)", name)
	if s := Suggest(name, f.shared.order); s != "" {
		msg += "; did you mean " + s + "?"
	}
	f.errs.Add(f.t.File.Position(pos), msg)
}

// Suggest returns the candidate closest to name by edit distance, or ""
// when none is close enough to be a likely misspelling.
func Suggest(name string, candidates []string) string {
	// A suggestion that changes every letter of the name is no guess.
	best, bestD := "", min(2+len(name)/8, len(name)-1)
	for _, c := range candidates {
		if d := editDistance(name, c); d <= bestD && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// x86Family is the name of the whole register an X86 register name is
// part of, in lower case: rax for EAX, AX and AL; r8 for r8d.
func x86Family(name string) string {
	r := strings.ToLower(strings.TrimPrefix(name, "%"))
	if r == "" {
		return ""
	}
	if len(r) >= 2 && r[0] == 'r' && isDigit(r[1]) {
		return strings.TrimRight(r, "dwb")
	}
	switch len(r) {
	case 3:
		if r[0] == 'r' || r[0] == 'e' {
			r = r[1:]
		}
	}
	switch r {
	case "ax", "al", "ah":
		return "rax"
	case "bx", "bl", "bh":
		return "rbx"
	case "cx", "cl", "ch":
		return "rcx"
	case "dx", "dl", "dh":
		return "rdx"
	case "si", "sil":
		return "rsi"
	case "di", "dil":
		return "rdi"
	case "bp", "bpl":
		return "rbp"
	case "sp", "spl":
		return "rsp"
	}
	return r
}
