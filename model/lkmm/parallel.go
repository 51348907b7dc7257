package lkmm

import (
	"errors"
	"github.com/litmus-dev/litmus/model/report"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/litmus-dev/litmus/model/axiom"
)

// This file spreads the combinations of traces over the cores. The
// combinations are independent: each is a set of candidate executions
// whose allowed ones add final states, counts and flags. The first
// threads' choices cut the combinations into prefixes, taken in turn by
// the workers; each prefix's findings are kept apart and merged in prefix
// order, so that the result is the sequential search's, whatever the
// number of workers and whichever worker ran which prefix:
//
//   - states, flags and the counts are unions and sums;
//   - the explanation of a rejected execution is the first prefix's that
//     has one, the one the sequential search records first;
//   - the candidate limit counts over all workers; when it is reached
//     the search runs again sequentially, so that the candidates counted
//     are the sequential search's first ones;
//   - a time or memory limit stops every worker (their partial findings
//     then depend on timing, as a sequential search's depend on speed).

// errHalted stops a worker because another one hit a limit.
var errHalted = errors.New("halted: another worker of the search hit a limit")

// errOverLimit stops a worker when the workers together have examined
// more candidates than Options.MaxCandidates.
var errOverLimit = errors.New("candidate limit reached by the parallel search")

// minParallel is the number of trace combinations below which the
// search stays sequential: starting workers costs more than it saves.
const minParallel = 64

// prefixesPerWorker is how many prefixes the search aims at per worker,
// so that a long prefix does not leave the other workers idle.
const prefixesPerWorker = 8

// prefix is the choice of traces for the first threads of a combination,
// with the (location, value) pairs they write.
type prefix struct {
	pick []*trace
	acc  Set
}

// findings is what one prefix's combinations found.
type findings struct {
	pos, neg, cands int
	rejected        map[string]int
	finals          *axiom.Finals
	flags           map[string]bool
	why             string
	matches         int
	witness         *report.Graph
	whyGraph        *report.Graph
	err             error
}

// workers returns the number of goroutines to search all's combinations
// with: 1 unless there are several cores and enough combinations.
func (s *search) workers(all [][]trace) int {
	n := s.opt.Workers
	if n == 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if n < 2 {
		return 1
	}
	least := minParallel
	if s.opt.minParallel > 0 {
		least = s.opt.minParallel
	}
	combos := 1
	for _, trs := range all {
		combos *= len(trs)
		if combos >= least {
			return n
		}
	}
	return 1
}

// searchAll runs the combinations of all, in parallel when worthwhile.
func (s *search) searchAll(all [][]trace) {
	n := s.workers(all)
	if n < 2 {
		s.guard(func() { s.combine(all, make([]*trace, len(all)), 0) })
		return
	}
	s.p.initWrites() // built once, before the workers share p
	d, jobs := s.prefixes(all, n*prefixesPerWorker)
	out := make([]findings, len(jobs))
	var next, total atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := s.fork(&stop, &total)
			pick := make([]*trace, len(all))
			for {
				j := int(next.Add(1)) - 1
				if j >= len(jobs) {
					return
				}
				if stop.Load() {
					out[j].err = errHalted
					continue
				}
				w.begin()
				copy(pick, jobs[j].pick)
				copy(w.acc[d], jobs[j].acc)
				w.guard(func() { w.combine(all, pick, d) })
				out[j] = w.findings()
				if out[j].err != nil {
					stop.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, f := range out {
		if f.err == errOverLimit {
			// Count the candidates as the sequential search does.
			r := s.res
			r.Positive, r.Negative, r.Candidates, r.Rejected = 0, 0, 0, map[string]int{}
			s.finals, s.flags = s.cond.NewFinals(s.b), map[string]bool{}
			s.why, s.stopErr, s.steps = "", nil, 0
			s.matches, s.witness, s.whyGraph = 0, nil, nil
			s.guard(func() { s.combine(all, make([]*trace, len(all)), 0) })
			return
		}
	}
	for _, f := range out {
		s.res.Positive += f.pos
		s.res.Negative += f.neg
		s.res.Candidates += f.cands
		for k, v := range f.rejected {
			s.res.Rejected[k] += v
		}
		s.finals.Merge(f.finals)
		maps.Copy(s.flags, f.flags)
		if s.why == "" {
			s.why, s.whyGraph = f.why, f.whyGraph
		}
		s.matches += f.matches
		if s.witness == nil {
			s.witness = f.witness
		}
		if s.stopErr == nil && f.err != nil && f.err != errHalted {
			s.stopErr = f.err
		}
	}
}

// prefixes returns the prefixes of all's combinations over the fewest
// first threads that give at least want of them (or all threads), in the
// order of the sequential search, and the number of threads they cover.
// A prefix whose reads need values no chosen or later trace writes is
// left out, as combine leaves it out.
func (s *search) prefixes(all [][]trace, want int) (int, []prefix) {
	var out []prefix
	d := 0
	for d < len(all) && len(out) < want {
		d++
		out = out[:0]
		pick := make([]*trace, d)
		var rec func(i int, acc Set)
		rec = func(i int, acc Set) {
			if i == d {
				out = append(out, prefix{pick: append([]*trace(nil), pick...), acc: acc})
				return
			}
			for k := range all[i] {
				tr := &all[i][k]
				next := acc.Clone()
				if s.admits(next, tr, i) {
					pick[i] = tr
					rec(i+1, next)
				}
			}
		}
		rec(0, s.acc[0])
	}
	return d, out
}

// fork returns a search of the same test for one worker: the shared,
// read-only parts of s, and a budget, arena and findings of its own.
func (s *search) fork(stop *atomic.Bool, total *atomic.Int64) *search {
	b := s.b.Fork()
	w := &search{b: b, p: s.p, opt: s.opt, cond: s.cond, al: &arena{Budget: b}, finalLoc: s.finalLoc,
		nVals: s.nVals, future: s.future, dom: s.dom, stop: stop, total: total}
	w.last = make([]int, len(s.last))
	for i := range w.last {
		w.last[i] = -1
	}
	w.acc = make([]Set, len(s.acc))
	for i := range w.acc {
		w.acc[i] = newSet(s.nVals)
	}
	return w
}

// begin gives the worker s new findings for a new prefix.
func (s *search) begin() {
	s.res = &Result{Rejected: map[string]int{}}
	s.finals = s.cond.NewFinals(s.b)
	s.flags = map[string]bool{}
	s.why, s.stopErr, s.steps = "", nil, 0
	s.matches, s.witness, s.whyGraph = 0, nil, nil
}

// findings returns what s found since begin.
func (s *search) findings() findings {
	return findings{pos: s.res.Positive, neg: s.res.Negative, cands: s.res.Candidates, rejected: s.res.Rejected,
		finals: s.finals, flags: s.flags, why: s.why, err: s.stopErr,
		matches: s.matches, witness: s.witness, whyGraph: s.whyGraph}
}
