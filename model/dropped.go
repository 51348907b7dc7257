package model

import "fmt"

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
func (m *machine) droppedReport(sr *search, ids []int) []Stuck {
	var out []Stuck
	for _, id := range ids {
		if len(out) == maxStuck {
			break
		}
		s := sr.state(id)
		st := Stuck{Trace: m.trace(sr.path(id))}
		st.Trace.Shortest = !sr.reduced
		var reasons []string
		for t := range s.th {
			code := m.p.threads[t].code
			if s.th[t].pc >= len(code) || !m.badAccess(s, t, &code[s.th[t].pc]) {
				continue
			}
			th := m.p.threads[t]
			in := &code[s.th[t].pc]
			a, _ := eval(in.addr, s.th[t].regs)
			pos := m.p.test.File.Position(in.pos)
			st.Threads = append(st.Threads, th.id)
			reasons = append(reasons, fmt.Sprintf("P%d accesses %s, which is not the address of a shared location, at line %d: %s", th.id, m.p.format(a), pos.Line, in.text))
			st.Trace.Steps = append(st.Trace.Steps, Step{Kind: StepBlock, Thread: th.id, Pos: pos, Text: in.text, Note: fmt.Sprintf("access to %s: execution dropped", m.p.format(a))})
		}
		st.Reason = joinReasons(reasons)
		out = append(out, st)
	}
	return out
}
