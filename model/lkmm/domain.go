package lkmm

import (
	"sort"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/model/axiom"
)

// errLimit marks errors that make the verdict Unknown rather than the
// input wrong (axiom.LimitError).
type errLimit = axiom.LimitError

// domains computes the value domains of p's locations with package
// axiom's fixed point (axiom.Program.Domains), walking the threads as the
// paths do, with the search's budget.
func (p *program) domains(b *limit.Budget, opt Options, capped bool) ([][]Val, bool, error) {
	return p.axiomProgram(opt.LoopBound, b).Domains(capped)
}

func valLess(a, b Val) bool { return a.Less(b) }

// indexValues numbers the (location, value) pairs of the domains and
// records, for each trace, the pairs it writes and the pairs its reads
// need from some write other than the initial one. It lets combine drop a
// combination of traces in which some read has no write to read from
// before building its execution.
func (s *search) indexValues(dom [][]Val, all [][]trace) {
	offset := make([]int, len(dom))
	for l, d := range dom {
		offset[l] = s.nVals
		s.nVals += len(d)
	}
	id := func(l int, v Val) int {
		d := dom[l]
		k := sort.Search(len(d), func(i int) bool { return !valLess(d[i], v) })
		if k < len(d) && d[k] == v {
			return offset[l] + k
		}
		return -1
	}
	s.future = make([]Set, len(all)+1)
	s.future[len(all)] = newSet(s.nVals)
	for i := len(all) - 1; i >= 0; i-- {
		fut := s.future[i+1].Clone()
		for k := range all[i] {
			tr := &all[i][k]
			tr.writes = newSet(s.nVals)
			for _, e := range tr.events {
				switch {
				case e.kind == evW:
					if v := id(e.loc, e.val); v >= 0 {
						tr.writes.Add(v)
					}
				case e.kind == evR && e.tags&(tLKR|tLF|tRL|tRU) == 0 && e.val != s.p.init[e.loc]:
					if v := id(e.loc, e.val); v >= 0 {
						tr.needs = append(tr.needs, v)
					}
				}
			}
			fut = fut.Union(tr.writes)
		}
		s.future[i] = fut
	}
}
