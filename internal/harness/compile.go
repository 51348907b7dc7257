package harness

import (
	"fmt"
	"slices"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/cir"
	"github.com/litmus-dev/litmus/model/kmap"
)

// compile builds the program of t for code generator arch ("x86-64",
// "arm64", "arm64-llsc") with options o (already defaulted).
func compile(t *litmus.Test, arch string, o Options) (*program, error) {
	p := &program{test: t, arch: arch, byName: map[string]*variable{}}
	cTest := t.Arch == litmus.ArchC
	switch {
	case cTest:
	case t.Arch == litmus.ArchX86 || t.Arch == litmus.ArchX8664:
		if arch != string(kmap.X86_64) {
			return nil, p.unsupported(t.ArchPos, "%s tests run only on x86-64 (this is %s)", t.Arch, arch)
		}
	default:
		return nil, p.unsupported(t.ArchPos, "%s tests", t.Arch)
	}
	if err := p.declareVars(cTest); err != nil {
		return nil, err
	}
	ids := map[int]bool{}
	for _, pr := range t.Procs {
		if ids[pr.ID] {
			return nil, p.errorf(pr.Pos(), "P%d declared twice", pr.ID)
		}
		ids[pr.ID] = true
	}

	// Front ends: C threads to cir, X86 threads scanned for registers and
	// locations (which they may declare).
	var cts []*cir.Thread
	var xps []*x86Proc
	for _, pr := range t.Procs {
		if cTest {
			ct, err := p.compileC(pr)
			if err != nil {
				return nil, err
			}
			cts = append(cts, ct)
		} else {
			xp, err := p.scanX86(pr)
			if err != nil {
				return nil, err
			}
			xps = append(xps, xp)
		}
	}
	if err := p.initValues(); err != nil {
		return nil, err
	}
	for _, v := range p.vars {
		switch {
		case v.array:
			v.width = v.elem
		case cTest:
			v.width = 8
		case v.maxAccess > 0:
			v.width = v.maxAccess
		}
	}
	if err := p.buildColumns(); err != nil {
		return nil, err
	}
	p.doLayout(o)

	for ti, pr := range t.Procs {
		var code []byte
		var nobs int
		var err error
		if cTest {
			inits, obs, ierr := p.cInitsAndObs(pr, cts[ti], ti)
			if ierr != nil {
				return nil, ierr
			}
			nobs = len(obs)
			switch arch {
			case string(kmap.X86_64):
				code, err = p.genX86C(o, len(t.Procs), ti, cts[ti], inits, obs)
			case string(kmap.ARM64), string(kmap.ARM64LLSC):
				code, err = p.genA64C(o, len(t.Procs), ti, cts[ti], inits, obs)
			default:
				err = fmt.Errorf("no code generator for %s", arch)
			}
		} else {
			inits, obs, ierr := p.x86InitsAndObs(xps[ti], ti)
			if ierr != nil {
				return nil, ierr
			}
			nobs = len(obs)
			code, err = p.genX86Asm(o, len(t.Procs), ti, xps[ti], inits, obs)
		}
		if err != nil {
			if _, ok := err.(*litmus.Error); !ok {
				err = &litmus.Error{Pos: t.File.Position(pr.Pos()), Msg: fmt.Sprintf("P%d: %v", pr.ID, err)}
			}
			return nil, err
		}
		p.threads = append(p.threads, &threadProg{id: pr.ID, code: code, nres: nobs + 1})
	}
	return p, nil
}

// buildColumns resolves the final section's locations into columns, named
// and ordered as the model names and orders its observed locations.
func (p *program) buildColumns() error {
	visible, hidden := p.observedRefs()
	seen := map[string]bool{}
	add := func(l *litmus.LocRef) error {
		c := column{slot: -1, width: 8}
		if l.Proc >= 0 {
			found := false
			for _, pr := range p.test.Procs {
				found = found || pr.ID == l.Proc
			}
			if !found {
				return p.errorf(l.Pos(), "no thread P%d", l.Proc)
			}
			c.reg, c.proc, c.regTxt = true, l.Proc, l.Name
			if p.test.Arch == litmus.ArchX8664 {
				c.regTxt, _ = canonReg(l.Name)
			}
			c.name = fmt.Sprintf("%d:%s", l.Proc, c.regTxt)
		} else {
			name := l.Name
			if l.Index >= 0 {
				name = fmt.Sprintf("%s[%d]", l.Name, l.Index)
			}
			v, e, ok := p.elemOf(name)
			if !ok {
				return p.errorf(l.Pos(), "unknown location %s", name)
			}
			c.v, c.elem, c.memName, c.width = v, e, name, v.width
			c.name = "[" + name + "]"
		}
		if seen[c.name] {
			return nil
		}
		seen[c.name] = true
		p.cols = append(p.cols, c)
		return nil
	}
	for _, l := range visible {
		if err := add(l); err != nil {
			return err
		}
	}
	sortColumns(p.cols)
	p.visible = len(p.cols)
	for _, l := range hidden {
		if err := add(l); err != nil {
			return err
		}
	}
	return nil
}

// cInitsAndObs gives a C thread's named registers their initial values
// and its observed registers result slots.
func (p *program) cInitsAndObs(pr *litmus.Proc, ct *cir.Thread, ti int) (map[int]value, []int, error) {
	inits := map[int]value{}
	for _, it := range p.test.Init {
		if it.Proc != pr.ID || it.Value == nil {
			continue
		}
		if s, ok := ct.Regs[it.Name]; ok {
			v, err := p.initValue(it.Value)
			if err != nil {
				return nil, nil, err
			}
			inits[s] = v
		}
	}
	var obs []int
	for i := range p.cols {
		c := &p.cols[i]
		if !c.reg || c.proc != pr.ID {
			continue
		}
		c.thread = ti
		s, ok := ct.Regs[c.regTxt]
		if !ok {
			v, err := p.regInit(pr.ID, c.regTxt, func(a, b string) bool { return a == b })
			if err != nil {
				return nil, nil, err
			}
			c.slot, c.konst = -1, v
			continue
		}
		k := slices.Index(obs, s)
		if k < 0 {
			k = len(obs)
			obs = append(obs, s)
		}
		c.slot = k
	}
	return inits, obs, nil
}
