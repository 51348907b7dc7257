package op

import (
	"fmt"
	"strings"

	"github.com/litmus-dev/litmus/model/report"
)

// This file reports the executions that are dropped because a thread
// accesses memory at a value that is not the address of a location
// (exec.go, badAccess): the thread waits at that instruction forever, so
// the dead ends it leaves are neither final nor stuck.

// dropped reports whether some thread of s waits at an access to a
// non-address.
func (m *machine) dropped(s *mstate) bool {
	for t := range s.th {
		if code := m.p.threads[t].code; s.th[t].pc < len(code) && m.badAccess(s, t, &code[s.th[t].pc]) {
			return true
		}
	}
	return false
}

// droppedReport describes the first few dropped dead ends, with a trace
// to each that ends in a StepBlock step per offending thread.
// Each one's Fault is the first such access of its state in parts (for
// report.Result.Faults in a test with objects): the place is the
// statement's, the access its text, the value as format prints it.
func (m *machine) droppedReport(sr *search, ids []int) []report.Stuck {
	faults := map[string]*report.Fault{}
	out := m.blockReports(sr, ids, func(s *mstate, t int, in *instr, line int) (string, string, bool) {
		if !m.badAccess(s, t, in) {
			return "", "", false
		}
		a, _ := eval(in.addr, s.th[t].regs)
		id := m.p.threads[t].id
		reason := fmt.Sprintf("P%d accesses %s, which is not the address of a shared location, at line %d: %s", id, m.p.format(a), line, in.text)
		f := &report.Fault{Thread: id, Pos: m.p.test.File.Position(in.pos), Stmt: in.text, Value: m.p.format(a), Kind: "integer"}
		switch {
		case a == 0:
			f.Value, f.Kind = "NULL", "null"
		case a == wildAddr:
			// Which address, op's value does not keep.
			f.Value, f.Kind = "an address", "outside"
		}
		faults[reason] = f
		return reason, fmt.Sprintf("access to %s: execution dropped", m.p.format(a)), true
	})
	for i := range out {
		var first *report.Fault
		for r, f := range faults {
			if strings.Contains(out[i].Reason, r) && (first == nil || first.String() > f.String()) {
				first = f
			}
		}
		if first != nil {
			f := *first
			f.Witness = len(out[i].Trace.Steps) > 0
			out[i].Fault = &f
		}
	}
	return out
}
