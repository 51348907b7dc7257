package lkmm

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
)

// This file finds the faults of a test with objects (a code test, or a
// plain test that declares objects for ptr_add): an access through a
// value that is no location's address, NULL or an address that left its
// object. herd's C drops an execution that makes such an access (the
// read finds no write and the candidate disappears), and so does the
// search of check: a path whose pointer holds an integer dies there. For
// a test with objects such an access is a finding, as a data race is:
// the test fails unless its Result line expects it (BADADDR).
//
// A path dies at a fault whenever its reads took values that make the
// pointer bad, also values no execution gives them; whether some
// execution the model allows reaches the fault is a question for the
// model. So when a walk of check met a fault, faults checks the test
// again with faulting paths kept: such a path ends at its fault, with
// the register faultReg holding the fault's number (1 + its index in
// program.faultSites), and the condition asks whether some thread's
// faultReg is not 0. The allowed executions that satisfy it are the
// faults the model allows; their sites are Result.Faults.

// faultReg is the register a faulting path ends with, in the second
// check; a name no C test can declare (it is not an identifier herd's C
// accepts as a register, and litmus reserves the __ prefix for lowering).
const faultReg = "__fault"

// faultSite is one access that faulted on some path.
type faultSite struct {
	thread int
	pos    litmus.Pos
	val    Val
	text   string // the pointer expression
}

// noteFault records that a complete path of the walk for check faults at
// pos with pointer value v; in the second check (faultEnds) the path ends
// there instead of dying, with faultReg set.
func (in *interp) noteFault(e litmus.Expr, v Val) {
	pos := e.Pos()
	if in.partial || isTop(v) || !in.p.hasObjects() {
		in.dead = true
		return
	}
	if !in.p.faultEnds {
		in.p.sawFault = true
		in.dead = true
		return
	}
	id := -1
	for i, s := range in.p.faultSites {
		if s.thread == in.th.id && s.pos == pos && s.val == v {
			id = i
		}
	}
	if id < 0 {
		id = len(in.p.faultSites)
		in.p.faultSites = append(in.p.faultSites, faultSite{thread: in.th.id, pos: pos, val: v, text: litmus.ExprString(e)})
	}
	in.setReg(faultReg, regVal{v: intVal(int64(id + 1))})
	in.halted = true
}

// hasObjects reports whether faults are findings in this test: a code
// test, or a test that declares objects.
func (p *program) hasObjects() bool {
	return p.test.Code != nil || len(p.test.Objects) > 0
}

// faults runs the second check when the first met a fault, and returns
// the faults some allowed execution reaches, in words, sorted.
func faults(b *limit.Budget, t *litmus.Test, opt Options) ([]string, error) {
	ft := litmus.Clone(t)
	ft.Filter, ft.Locations, ft.Invariants = nil, nil, nil
	var prop litmus.Prop
	for _, pr := range ft.Procs {
		a := &litmus.AtomProp{Loc: &litmus.LocRef{Proc: pr.ID, Name: faultReg, Index: -1}, Op: "!=", Val: &litmus.Value{IsInt: true}}
		if prop == nil {
			prop = a
		} else {
			prop = &litmus.BinProp{X: prop, Op: `\/`, Y: a}
		}
	}
	if prop == nil {
		return nil, nil
	}
	ft.Cond = &litmus.Cond{Quant: litmus.Exists, Prop: prop}
	p, err := newProgram(ft)
	if err != nil {
		return nil, err
	}
	p.faultEnds = true
	opt.WitnessFor, opt.Graphs = nil, false
	r, err := p.check(b, opt)
	if err != nil {
		return nil, err
	}
	// A search for faults stopped by a limit reports the faults it
	// found; the first check met the same limits and says Unknown.
	seen := map[int]bool{}
	for _, st := range r.States.Slice() {
		for _, lv := range st.Values {
			if n := lv.Val.Int; n > 0 && int(n) <= len(p.faultSites) && lv.Val.Sym == "" {
				seen[int(n)-1] = true
			}
		}
	}
	var out []string
	for i := range seen {
		out = append(out, p.faultText(p.faultSites[i]))
	}
	sort.Strings(out)
	return out, nil
}

// faultText says where a fault is and what the pointer held.
func (p *program) faultText(s faultSite) string {
	what := s.val.Format(p.names)
	switch {
	case s.val == intVal(0):
		what = "NULL"
	case s.val.IsAddr():
		off := strconv.FormatInt(s.val.N, 10)
		if s.val.N >= 0 {
			off = "+" + off
		}
		what = p.names[s.val.Loc()] + off + ", outside its object or between its cells"
	default:
		what += ", not an address (NULL plus an offset, or an integer)"
	}
	if s.text != "" {
		what = s.text + ", which is " + what
	}
	pos := ""
	if p.test.File != nil {
		pos = p.test.File.Position(s.pos).String() + ": "
	}
	return strings.TrimSpace(fmt.Sprintf("%sP%d accesses memory through %s", pos, s.thread, what))
}
