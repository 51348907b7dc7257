package kcomp

import "github.com/litmus-dev/litmus/litmus"

// FaultTest returns the compiled test of the check for faults: an access
// through NULL or a wild pointer in a C test with objects is a finding
// (report.Result.Faults), and model/arch, given the option FaultEnds,
// ends a path at such an access with register reg holding the site's
// number instead of dropping it. The test's condition asks whether some
// thread's reg is not 0; its filter keeps only the paths that no retry
// ended (the C test's own filter and locations are left out, as the
// LKMM's check for faults leaves them: a thread that faults reaches no
// final state of its own). Nil for a test with no thread.
func (c *Compiled) FaultTest(reg string) *litmus.Test {
	ft := litmus.Clone(c.Test)
	ft.Filter, ft.Locations, ft.Invariants = nil, nil, nil
	atom := func(proc int, name, op string) litmus.Prop {
		return &litmus.AtomProp{Loc: &litmus.LocRef{Proc: proc, Name: name, Index: -1}, Op: op, Val: &litmus.Value{IsInt: true}}
	}
	join := func(p, q litmus.Prop, op string) litmus.Prop {
		if p == nil {
			return q
		}
		return &litmus.BinProp{X: p, Op: op, Y: q}
	}
	var prop litmus.Prop
	for _, pr := range ft.Procs {
		prop = join(prop, atom(pr.ID, reg, "!="), `\/`)
	}
	if prop == nil {
		return nil
	}
	ft.Cond = &litmus.Cond{Quant: litmus.Exists, Prop: prop}
	for _, id := range c.retry {
		ft.Filter = join(ft.Filter, atom(id, c.flag, "="), `/\`)
	}
	return ft
}
