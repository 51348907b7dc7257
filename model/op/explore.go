package op

import (
	"fmt"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
)

// This file is the search: a breadth-first walk over the state graph with
// a visited set of canonical encodings. State numbers are discovery order,
// so following parents from a state gives a shortest path to it (in the
// graph searched: the plain graph, or the reduced one).

// searchOpts configure one search.
type searchOpts struct {
	maxStates int
	budget    *limit.Budget // time, cancellation and the memory cap
	reduced   bool          // expand persistent sets only (por.go)
	edges     bool          // keep every edge, for stuck analysis
	// inv, when set, is checked on every new state; the search records the
	// first state that violates each proposition.
	inv []*cprop
	// goal, when set, stops the search at the first final state for which
	// it returns true.
	goal func(*mstate) bool
}

// search is the result of exploring a program on a machine.
type search struct {
	m      *machine
	set    *stateSet
	parent []uint32 // parent state of each state (the initial state: itself)
	via    []action // the action from parent to each state
	// terminals are the states with no enabled action, in order; final
	// ones and stuck ones alike.
	terminals   []int
	transitions int64
	edgeFrom    []uint32 // with searchOpts.edges: edge i goes edgeFrom[i] -> edgeTo[i]
	edgeTo      []uint32
	invHit      []int // per invariant: first violating state, or -1
	goalHit     int   // with searchOpts.goal: the state found, or -1
	unknown     string
	reduced     bool
	elapsed     time.Duration
	budget      *limit.Budget
	hold        *limit.Hold // the search's storage, as the budget accounts it
}

// maxBuffer bounds a store buffer's length. The machines' buffers are
// unbounded, as in the models; a program that stores in a loop without a
// fence would make states ever longer, so past this length the search ends
// in Unknown. Litmus tests need a handful of entries.
const maxBuffer = 64

func (m *machine) explore(o searchOpts) (*search, error) {
	start := time.Now()
	sr := &search{m: m, set: newStateSet(), goalHit: -1, reduced: o.reduced, budget: o.budget, hold: o.budget.Hold()}
	for range o.inv {
		sr.invHit = append(sr.invHit, -1)
	}
	var pi *porInfo
	if o.reduced {
		pi = newPorInfo(m.p, m.mm.Model() != SC)
	}
	init := m.initial()
	key := encode(nil, init)
	sr.set.insert(key)
	sr.parent = append(sr.parent, 0)
	sr.via = append(sr.via, 0)
	sr.checkInv(o, init, 0)
	cur, next := m.blank(), m.blank()
	var all, acts []action
	var polled int64 // sr.transitions at the last poll
	for id := 0; id < sr.set.Len(); id++ {
		// Poll every 64 states, or every 256 transitions: a state of a
		// test with many threads has as many successors, each encoded
		// in full (56 threads polled every 3,584 encodings and ran
		// 0.5 s past a 100 ms limit).
		if id&63 == 0 || sr.transitions-polled >= 256 {
			polled = sr.transitions
			sr.hold.Set(uint64(sr.bytes()))
			if err := o.budget.Err(); err != nil {
				sr.unknown = err.Error()
				break
			}
		}
		decode(sr.set.get(id), cur)
		all = m.enabled(cur, all[:0])
		if len(all) == 0 {
			sr.terminals = append(sr.terminals, id)
			if o.goal != nil && m.final(cur) && o.goal(cur) {
				sr.goalHit = id
				break
			}
			continue
		}
		acts = all
		if o.reduced {
			acts = m.persistent(cur, pi, all, acts[len(acts):])
		}
		for _, a := range acts {
			if err := m.apply(cur, a, next, nil); err != nil {
				return nil, err
			}
			if !a.isDrain() && len(next.th[a.thread()].buf) > maxBuffer {
				sr.unknown = fmt.Sprintf("a store buffer grew past %d entries (P%d stores in a loop without a fence?)", maxBuffer, m.p.threads[a.thread()].id)
				break
			}
			key = encode(key[:0], next)
			// A new state may make the set and the parent arrays grow,
			// each by a copy: ask the budget first, as the next check
			// would come after the jump.
			if g := sr.set.growBytes() + growth(len(sr.parent), cap(sr.parent), 4) + growth(len(sr.via), cap(sr.via), 4); g >= 1<<20 {
				if err := o.budget.Reserve(g, "the visited set"); err != nil {
					sr.unknown = err.Error()
					break
				}
			}
			nid, isNew := sr.set.insert(key)
			sr.transitions++
			if o.edges {
				if g := 2 * growth(len(sr.edgeFrom), cap(sr.edgeFrom), 4); g >= 1<<20 {
					// Growing copies both arrays: ask first.
					if err := o.budget.Reserve(g, "the search's edge list"); err != nil {
						sr.unknown = err.Error()
						break
					}
				}
				sr.edgeFrom = append(sr.edgeFrom, uint32(id))
				sr.edgeTo = append(sr.edgeTo, uint32(nid))
			}
			if isNew {
				sr.parent = append(sr.parent, uint32(id))
				sr.via = append(sr.via, a)
				sr.checkInv(o, next, nid)
			}
		}
		if sr.unknown != "" {
			break
		}
		if sr.set.Len() > o.maxStates {
			sr.unknown = fmt.Sprintf("state limit of %d states reached", o.maxStates)
			break
		}
	}
	sr.elapsed = time.Since(start)
	return sr, nil
}

func (sr *search) checkInv(o searchOpts, s *mstate, id int) {
	for i, p := range o.inv {
		if sr.invHit[i] < 0 && !p.eval(s) {
			sr.invHit[i] = id
		}
	}
}

// path returns the actions from the initial state to state id.
func (sr *search) path(id int) []action {
	var rev []action
	for id != 0 {
		rev = append(rev, sr.via[id])
		id = int(sr.parent[id])
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// decode decodes state id into s and returns s.
func (sr *search) decode(id int, s *mstate) *mstate {
	decode(sr.set.get(id), s)
	return s
}

// state decodes state id into a new state.
func (sr *search) state(id int) *mstate {
	s := sr.m.blank()
	decode(sr.set.get(id), s)
	return s
}

// bytes is the memory the search's own storage takes: the visited set,
// parents, actions and edges: Stats.BytesPerState, and what the search
// holds for its memory cap (internal/limit).
func (sr *search) bytes() int64 {
	return sr.set.size() + int64(cap(sr.parent))*4 + int64(cap(sr.via))*4 + int64(cap(sr.edgeFrom)+cap(sr.edgeTo))*4
}

// bytesPerState is bytes per state.
func (sr *search) bytesPerState() float64 {
	if n := sr.set.Len(); n > 0 {
		return float64(sr.bytes()) / float64(n)
	}
	return 0
}
