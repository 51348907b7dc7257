package axiom

import (
	"fmt"
	"slices"
	"sort"
)

// MaxDomain bounds the number of values of one location.
const MaxDomain = 256

// Domains computes, for each location, the values it may hold: its
// initial value and every value some path of some thread writes to it,
// given reads that return values of the same sets. The writes of paths
// that die or are cut count too, up to where the path stops. The
// iteration stops at a fixed point, or, when capped, after as many rounds
// as an execution has writes: a value needs a chain of distinct writes to
// be computed (each reads the previous one), so values found later belong
// to no execution. Values in a domain that no execution produces are
// harmless: a read taking one finds no write to read from. converged
// reports whether the domains are a fixed point.
func (p *Program) Domains(capped bool) (dom [][]Val, converged bool, err error) {
	dom = make([][]Val, len(p.Names))
	for i, v := range p.Init {
		dom[i] = []Val{v}
	}
	for round := 0; ; round++ {
		changed := false
		// next[i] is dom[i] and then the values the round's writes add,
		// in the order found (a domain has at most MaxDomain values, and
		// usually two or three: a slice, not a map).
		next := make([][]Val, len(dom))
		for i, d := range dom {
			next[i] = slices.Clip(d)
		}
		add := func(loc int, v Val) {
			if v.IsSymbolic() {
				return // a value a semantics left unchosen (lkmm's top)
			}
			if !slices.Contains(next[loc], v) {
				next[loc] = append(next[loc], v)
				changed = true
			}
		}
		maxWrites := 0
		for _, th := range p.Threads {
			if err := p.Budget.Err(); err != nil {
				return nil, false, err
			}
			most, err := walkWrites(th, dom, add)
			if err != nil {
				return nil, false, err
			}
			maxWrites += most
		}
		if !changed {
			return dom, true, nil
		}
		if capped && round >= maxWrites {
			return dom, false, nil
		}
		for i, d := range next {
			if len(d) == len(dom[i]) {
				continue
			}
			sort.Slice(d, func(a, b int) bool { return d[a].Less(d[b]) })
			if len(d) > MaxDomain {
				return nil, false, &LimitError{fmt.Sprintf("location %s may hold more than %d values", p.Names[i], MaxDomain)}
			}
			dom[i] = d
		}
	}
}

// Paths returns every path of every thread over the domains dom, and
// whether the loop bound cut some path.
func (p *Program) Paths(dom [][]Val) ([][]Trace, bool, error) {
	all := make([][]Trace, len(p.Threads))
	cut := false
	for i, th := range p.Threads {
		if err := p.Budget.Err(); err != nil {
			return nil, false, err
		}
		trs, c, err := th.Walk(dom, false)
		if err != nil {
			return nil, false, err
		}
		cut = cut || c
		all[i] = trs
	}
	return all, cut, nil
}

// walkWrites calls write for every write of every path of th's walk for
// the domains, and returns the most writes of one path.
func walkWrites(th Thread, dom [][]Val, write func(loc int, v Val)) (int, error) {
	if ww, ok := th.(WriteWalker); ok {
		return ww.WalkWrites(dom, write)
	}
	trs, _, err := th.Walk(dom, true)
	if err != nil {
		return 0, err
	}
	most := 0
	for _, tr := range trs {
		nw := 0
		for _, e := range tr.Events {
			if e.Kind == KindW {
				nw++
				write(e.Loc, e.Val)
			}
		}
		most = max(most, nw)
	}
	return most, nil
}
