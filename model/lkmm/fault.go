package lkmm

import (
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/report"
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

// faultTest returns a copy of t whose condition asks whether some
// thread ended at a fault (its faultReg is not 0), with no filter,
// locations or invariants; nil for a test with no thread.
func faultTest(t *litmus.Test) *litmus.Test {
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
		return nil
	}
	ft.Cond = &litmus.Cond{Quant: litmus.Exists, Prop: prop}
	return ft
}

// faults runs the second check when the first met a fault, and returns
// the faults some allowed execution reaches, sorted.
func faults(b *limit.Budget, t *litmus.Test, opt Options) ([]report.Fault, error) {
	ft := faultTest(t)
	if ft == nil {
		return nil, nil
	}
	p, err := newProgram(ft)
	if err != nil {
		return nil, err
	}
	p.faultEnds = true
	graphs := opt.Graphs
	opt.WitnessFor, opt.Graphs = nil, false
	r, err := p.check(b, opt)
	if err != nil {
		return nil, err
	}
	if r.Verdict == Unknown {
		// The search for faults stopped at a limit: whether some
		// allowed execution faults is not known (Check says Unknown).
		return nil, &faultsUnknown{r.Reason}
	}
	fs := p.faultsIn(r.States)
	if graphs {
		// The witness of each: the first allowed execution whose
		// thread ends at it.
		for i := range fs {
			opt.WitnessFor, opt.Graphs = FaultProp(fs[i].Thread, p.siteNumber(fs[i])), true
			w, err := p.check(b, opt)
			if err != nil {
				return nil, err
			}
			fs[i].Graph = w.Witness
		}
	}
	return fs, nil
}

// faultsUnknown is a search for faults stopped by a limit.
type faultsUnknown struct{ reason string }

func (e *faultsUnknown) Error() string { return e.reason }

// FaultsUnknown says why a search for faults stopped at a limit: Check
// and the callers of FaultProgram make the verdict Unknown with it.
func FaultsUnknown(reason string) string {
	return "the search for accesses through NULL or a wild pointer stopped: " + reason
}

// FaultProp is the proposition that thread th's path ended at the fault
// site numbered n (faultReg, or arch.FaultReg: the same name).
func FaultProp(th, n int) litmus.Prop {
	return &litmus.AtomProp{Loc: &litmus.LocRef{Proc: th, Name: faultReg, Index: -1}, Op: "=", Val: &litmus.Value{IsInt: true, Int: int64(n)}}
}

// siteNumber returns the number faultReg holds at fault f's site.
func (p *program) siteNumber(f report.Fault) int {
	for i, s := range p.faultSites {
		if g := p.fault(s); g.String() == f.String() {
			return i + 1
		}
	}
	return 0
}

// faultsIn returns the faults that the final states of a check of the
// fault test (faultTest, faultEnds) show, sorted: each thread's faultReg
// is the number of the site its path ended at, or 0.
func (p *program) faultsIn(sts report.States) []report.Fault {
	seen := map[int]bool{}
	for _, st := range sts.Slice() {
		for _, lv := range st.Values {
			if !strings.HasSuffix(lv.Loc, ":"+faultReg) {
				continue
			}
			if n := lv.Val.Int; n > 0 && int(n) <= len(p.faultSites) && lv.Val.Sym == "" {
				seen[int(n)-1] = true
			}
		}
	}
	var out []report.Fault
	for i := range seen {
		out = append(out, p.fault(p.faultSites[i]))
	}
	SortFaults(out)
	return out
}

// SortFaults orders faults by their text, so that every model lists the
// same faults in the same order.
func SortFaults(fs []report.Fault) {
	sort.Slice(fs, func(i, j int) bool { return fs[i].String() < fs[j].String() })
}

// fault is site s as a finding: an allowed execution reached it.
func (p *program) fault(s faultSite) report.Fault {
	v := report.Value{Int: s.val.N}
	if s.val.IsAddr() {
		v.Sym = p.names[s.val.Loc()]
	}
	f := report.Fault{Thread: s.thread, Access: s.text, Witness: true}
	f.Value, f.Kind = report.FaultValue(v)
	if p.test.File != nil {
		f.Pos = p.test.File.Position(s.pos)
	}
	return f
}

// FaultProgram returns, for the cat interpreter, the program of C test
// t's fault check: its paths end at a fault with faultReg holding the
// site's number, and its test's condition asks whether some thread's
// does (as the native check's second run, faults). faultsOf reads the
// faults out of the final states of the model's check of it. As
// ProgramLimited (ProgramUnrolled when unroll).
//
// site gives the number faultReg holds at a fault faultsOf returned, for
// FaultProp (a witness of that fault).
func FaultProgram(t *litmus.Test, loopBound int, b *limit.Budget, unroll bool) (ap *axiom.Program, faultsOf func(report.States) []report.Fault, site func(report.Fault) int, err error) {
	ft := faultTest(t)
	if ft == nil {
		return nil, nil, nil, nil
	}
	p, err := newProgram(ft)
	if err != nil {
		return nil, nil, nil, err
	}
	p.faultEnds = true
	p.setAwaits(unroll)
	if loopBound <= 0 {
		loopBound = 2
	}
	ap = p.axiomProgram(loopBound, b)
	ap.Budget = b
	return ap, p.faultsIn, p.siteNumber, nil
}

// SawFault reports whether a walk over ap, a program of Program,
// ProgramLimited or ProgramUnrolled, met an access through NULL or a
// wild pointer in a test with objects (a finding: FaultProgram checks
// whether an allowed execution makes it).
func SawFault(ap *axiom.Program) bool {
	for _, th := range ap.Threads {
		if c, ok := th.(*cThread); ok && c.p.sawFault {
			return true
		}
	}
	return false
}
