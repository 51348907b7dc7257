package lkmm

import (
	"fmt"
	"sort"

	"github.com/litmus-dev/litmus/internal/limit"
)

// maxDomain bounds the number of values of one location.
const maxDomain = 256

// errLimit marks errors that make the verdict Unknown rather than the
// input wrong.
type errLimit struct{ msg string }

func (e *errLimit) Error() string { return e.msg }

// domains computes, for each location, the values it may hold: its
// initial value and every value some path of some thread writes to it,
// given reads that return values of the same sets. The writes of paths
// that die or are cut count too, up to where the path stops (see
// prefixes). The iteration stops at a fixed point, or, when capped, after
// as many rounds as an execution has writes: a value needs a chain of
// distinct writes to be computed (each reads the previous one), so values
// found later belong to no execution. Values that are in a domain but no
// execution can produce are harmless: a read taking one finds no write to
// read from. converged reports whether the domains are a fixed point.
func (p *program) domains(b *limit.Budget, opt Options, capped bool) (dom [][]Val, converged bool, err error) {
	dom = make([][]Val, len(p.names))
	for i, v := range p.init {
		dom[i] = []Val{v}
	}
	for round := 0; ; round++ {
		changed := false
		next := make([]map[Val]bool, len(dom))
		for i, d := range dom {
			next[i] = map[Val]bool{}
			for _, v := range d {
				next[i][v] = true
			}
		}
		maxWrites := 0
		for _, th := range p.threads {
			trs, err := prefixes(p, b, th, dom, opt.LoopBound)
			if err != nil {
				return nil, false, err
			}
			most := 0
			for _, tr := range trs {
				nw := 0
				for _, e := range tr.events {
					if e.kind == evW {
						nw++
						if e.val.isTop() {
							continue
						}
						if !next[e.loc][e.val] {
							next[e.loc][e.val] = true
							changed = true
						}
					}
				}
				most = max(most, nw)
			}
			maxWrites += most
		}
		if !changed {
			return dom, true, nil
		}
		if capped && round >= maxWrites {
			return dom, false, nil
		}
		for i, m := range next {
			d := make([]Val, 0, len(m))
			for v := range m {
				d = append(d, v)
			}
			sort.Slice(d, func(a, b int) bool { return valLess(d[a], d[b]) })
			if len(d) > maxDomain {
				return nil, false, &errLimit{fmt.Sprintf("location %s may hold more than %d values", p.names[i], maxDomain)}
			}
			dom[i] = d
		}
	}
}

func valLess(a, b Val) bool {
	if a.Sym != b.Sym {
		return a.Sym < b.Sym
	}
	return a.N < b.N
}

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
