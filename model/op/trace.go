package op

import (
	"fmt"
	"sort"

	"github.com/litmus-dev/litmus/model/report"
)

// trace replays a path from the initial state and describes each step.
func (m *machine) trace(path []action) report.Trace {
	var tr report.Trace
	s, next := m.initial(), m.blank()
	var eff effect
	// pending shadows each store buffer with the instruction that made
	// each entry, so that a drain can name the store it completes.
	type origin struct {
		loc int
		in  *instr
	}
	pending := make([][]origin, len(s.th))
	for _, a := range path {
		t := a.thread()
		th := m.p.threads[t]
		st := report.Step{Kind: report.StepInstr, Thread: th.id}
		var in *instr
		if a.isDrain() {
			st.Kind, st.Text = report.StepDrain, "drain"
			for k, o := range pending[t] {
				if o.loc == a.loc() {
					st.Pos, st.Text = m.p.test.File.Position(o.in.pos), o.in.text
					pending[t] = append(pending[t][:k:k], pending[t][k+1:]...)
					break
				}
			}
		} else {
			in = &th.code[s.th[t].pc]
			st.Pos, st.Text = m.p.test.File.Position(in.pos), in.text
		}
		if err := m.apply(s, a, next, &eff); err != nil {
			st.Note = "error: " + err.Error()
			tr.Steps = append(tr.Steps, st)
			break
		}
		if eff.loc >= 0 {
			st.Loc = m.p.locs[eff.loc].name
			if !a.isDrain() && eff.from != report.FromNone {
				v := m.p.value(eff.read)
				st.Read, st.From = &v, eff.from
			}
			if eff.hasWrite {
				v := m.p.value(eff.wrote)
				st.Wrote = &v
			}
			if !a.isDrain() && eff.hasWrite && len(next.th[t].buf) > len(s.th[t].buf) {
				st.Note = "buffered"
			}
		}
		if eff.note != "" {
			if st.Note != "" {
				st.Note += "; "
			}
			st.Note += eff.note
		}
		if in != nil && len(next.th[t].buf) > len(s.th[t].buf) {
			pending[t] = append(pending[t], origin{next.th[t].buf[len(next.th[t].buf)-1].loc, in})
		}
		tr.Steps = append(tr.Steps, st)
		s, next = next, s
	}
	return tr
}

// stuck reports the states from which some thread can never finish: the
// reachable deadlocks that are not final states, and, when the program
// loops, the first states (in breadth-first order) from which no final
// state is reachable.
func (m *machine) stuck(sr *search, deadlocks []int) []report.Stuck {
	out := m.blockReports(sr, deadlocks, func(s *mstate, t int, in *instr, line int) (string, string, bool) {
		if m.done(s, t) {
			return "", "", false
		}
		return fmt.Sprintf("P%d waits forever at line %d: %s", m.p.threads[t].id, line, in.text), "waits forever", true
	})
	if len(out) > 0 || sr.edgeFrom == nil || sr.unknown != "" {
		return out
	}
	// Reverse reachability from the final states, over two copies of the
	// edges.
	n := sr.set.Len()
	if err := sr.budget.Reserve(uint64(n)*9+uint64(len(sr.edgeFrom))*8, "the search for stuck threads"); err != nil {
		sr.unknown = err.Error()
		return nil
	}
	radj := csr(n, sr.edgeTo, sr.edgeFrom)
	canFinish := make([]bool, n)
	var queue []uint32
	scratch := m.blank()
	for _, id := range sr.terminals {
		// A dropped execution's dead end counts as an end: the states
		// that lead only there are dropped with it, not stuck.
		if s := sr.decode(id, scratch); m.final(s) || m.dropped(s) {
			canFinish[id] = true
			queue = append(queue, uint32(id))
		}
	}
	for len(queue) > 0 {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, u := range radj.out(v) {
			if !canFinish[u] {
				canFinish[u] = true
				queue = append(queue, u)
			}
		}
	}
	adj := csr(n, sr.edgeFrom, sr.edgeTo)
	for id := 0; id < n && len(out) < maxStuck; id++ {
		if canFinish[id] || (id > 0 && !canFinish[sr.parent[id]]) {
			continue // not stuck, or not the first stuck state on its path
		}
		// The threads that finish in no state reachable from id.
		finishes := make([]bool, len(m.p.threads))
		seen := map[uint32]bool{uint32(id): true}
		stack := []uint32{uint32(id)}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			s := sr.decode(int(v), scratch)
			for t := range s.th {
				if m.done(s, t) {
					finishes[t] = true
				}
			}
			for _, u := range adj.out(v) {
				if !seen[u] {
					seen[u] = true
					stack = append(stack, u)
				}
			}
		}
		// Report the threads where they stay: in a state of a sink
		// component (one the search cannot leave) reachable from id, not
		// in id itself, which may come before the loop ("while (1) {}"
		// used to be reported at the line before it).
		w := sinkState(adj, id)
		s := sr.state(w)
		st := report.Stuck{Trace: m.trace(sr.path(w))}
		st.Trace.Shortest = true
		var reasons []string
		for t, f := range finishes {
			if f {
				continue
			}
			th := m.p.threads[t]
			in := &th.code[s.th[t].pc]
			pos := m.p.test.File.Position(in.pos)
			st.Threads = append(st.Threads, th.id)
			reasons = append(reasons, fmt.Sprintf("P%d can never finish (it is at line %d: %s)", th.id, pos.Line, in.text))
		}
		st.Reason = joinReasons(reasons)
		out = appendNew(out, st)
	}
	return out
}

// appendNew appends st unless out already has a report with its reason:
// several stuck states may leave the threads stuck at the same places.
func appendNew(out []report.Stuck, st report.Stuck) []report.Stuck {
	for _, o := range out {
		if o.Reason == st.Reason {
			return out
		}
	}
	return append(out, st)
}

// sinkState returns a state of a sink strongly connected component
// reachable from id (the first state of it in breadth-first order): a set
// of states the search, once there, never leaves. It is the first
// component Tarjan's algorithm completes from id.
func sinkState(adj *adjacency, id int) int {
	index := map[uint32]int{}
	low := map[uint32]int{}
	onStack := map[uint32]bool{}
	var stack []uint32
	type frame struct {
		v    uint32
		next int
	}
	calls := []frame{{v: uint32(id)}}
	index[uint32(id)], low[uint32(id)] = 0, 0
	stack, onStack[uint32(id)] = append(stack, uint32(id)), true
	for len(calls) > 0 {
		f := &calls[len(calls)-1]
		out := adj.out(f.v)
		if f.next < len(out) {
			u := out[f.next]
			f.next++
			if _, seen := index[u]; !seen {
				index[u], low[u] = len(index), len(index)
				stack, onStack[u] = append(stack, u), true
				calls = append(calls, frame{v: u})
			} else if onStack[u] {
				low[f.v] = min(low[f.v], index[u])
			}
			continue
		}
		v := f.v
		calls = calls[:len(calls)-1]
		if len(calls) > 0 {
			p := calls[len(calls)-1].v
			low[p] = min(low[p], low[v])
		}
		if low[v] == index[v] {
			// The first component completed: nothing leaves it.
			best := v
			for i := len(stack) - 1; i >= 0; i-- {
				best = min(best, stack[i])
				if stack[i] == v {
					break
				}
			}
			return int(best)
		}
	}
	return id
}

// blockReports builds a Stuck for each of the first maxStuck states of
// ids: the trace to it, then a StepBlock step for each thread that blocked
// says is blocked there, with its reason and note. Stuck and dropped
// states are both reported this way.
func (m *machine) blockReports(sr *search, ids []int, blocked func(s *mstate, t int, in *instr, line int) (reason, note string, ok bool)) []report.Stuck {
	var out []report.Stuck
	for _, id := range ids {
		if len(out) == maxStuck {
			break
		}
		s := sr.state(id)
		st := report.Stuck{Trace: m.trace(sr.path(id))}
		st.Trace.Shortest = !sr.reduced
		var reasons []string
		for t := range s.th {
			th := m.p.threads[t]
			if s.th[t].pc >= len(th.code) {
				continue
			}
			in := &th.code[s.th[t].pc]
			pos := m.p.test.File.Position(in.pos)
			reason, note, ok := blocked(s, t, in, pos.Line)
			if !ok {
				continue
			}
			st.Threads = append(st.Threads, th.id)
			reasons = append(reasons, reason)
			st.Trace.Steps = append(st.Trace.Steps, report.Step{Kind: report.StepBlock, Thread: th.id, Pos: pos, Text: in.text, Note: note})
		}
		st.Reason = joinReasons(reasons)
		out = appendNew(out, st)
	}
	return out
}

// joinReasons sorts the reasons and joins them.
func joinReasons(r []string) string {
	sort.Strings(r)
	s := ""
	for i, x := range r {
		if i > 0 {
			s += "; "
		}
		s += x
	}
	return s
}

// adjacency is a compressed sparse row graph.
type adjacency struct {
	start []uint32
	to    []uint32
}

func (a *adjacency) out(v uint32) []uint32 { return a.to[a.start[v]:a.start[v+1]] }

func csr(n int, from, to []uint32) *adjacency {
	a := &adjacency{start: make([]uint32, n+1), to: make([]uint32, len(from))}
	for _, f := range from {
		a.start[f+1]++
	}
	for i := 1; i <= n; i++ {
		a.start[i] += a.start[i-1]
	}
	fill := append([]uint32(nil), a.start[:n]...)
	for i, f := range from {
		a.to[fill[f]] = to[i]
		fill[f]++
	}
	return a
}
