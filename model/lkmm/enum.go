package lkmm

import (
	"context"
	"fmt"
	"sort"
)

// maxDomain bounds the number of values of one location.
const maxDomain = 256

// errLimit marks errors that make the verdict Unknown rather than the
// input wrong.
type errLimit struct{ msg string }

func (e *errLimit) Error() string { return e.msg }

// domains computes, for each location, the values it may hold: its
// initial value and every value some path of some thread writes to it,
// given reads that return values of the same sets. The iteration stops at
// a fixed point, or after as many rounds as an execution has writes: a
// value needs a chain of distinct writes to be computed (each reads the
// previous one), so values found later belong to no execution. Values
// that are in a domain but no execution can produce are harmless: a read
// taking one finds no write to read from.
func (p *program) domains(opt Options) ([][]Val, error) {
	dom := make([][]Val, len(p.names))
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
			trs, _, err := paths(p, th, dom, opt.LoopBound)
			if err != nil {
				return nil, err
			}
			most := 0
			for _, tr := range trs {
				nw := 0
				for _, e := range tr.events {
					if e.kind == evW {
						nw++
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
		if !changed || round >= maxWrites {
			return dom, nil
		}
		for i, m := range next {
			d := make([]Val, 0, len(m))
			for v := range m {
				d = append(d, v)
			}
			sort.Slice(d, func(a, b int) bool { return valLess(d[a], d[b]) })
			if len(d) > maxDomain {
				return nil, &errLimit{fmt.Sprintf("location %s may hold more than %d values", p.names[i], maxDomain)}
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

// search holds the state of one run of the enumeration.
type search struct {
	ctx  context.Context
	p    *program
	opt  Options
	res  *Result
	cond *condEval

	al       *arena
	scratch  *execution
	keyBuf   []byte
	finalLoc []bool

	nVals   int   // number of (location, value) pairs of the domains
	acc     []Set // acc[i]: pairs written by the traces chosen for threads < i
	future  []Set // future[i]: pairs some trace of a thread >= i writes
	states  map[string]State
	flags   map[string]bool
	why     string
	limit   bool
	stopErr error
}

func (p *program) check(ctx context.Context, opt Options) (*Result, error) {
	dom, err := p.domains(opt)
	if err != nil {
		if _, ok := err.(*errLimit); ok {
			return &Result{Name: p.test.Name, Verdict: Unknown, Reason: err.Error()}, nil
		}
		return nil, err
	}
	all := make([][]trace, len(p.threads))
	res := &Result{Name: p.test.Name, Rejected: map[string]int{}}
	for i, th := range p.threads {
		trs, cut, err := paths(p, th, dom, opt.LoopBound)
		if err != nil {
			return nil, err
		}
		res.Cut = res.Cut || cut
		all[i] = trs
	}
	ce, err := newCondEval(p)
	if err != nil {
		return nil, err
	}
	s := &search{ctx: ctx, p: p, opt: opt, res: res, cond: ce, al: &arena{}, states: map[string]State{}, flags: map[string]bool{}}
	s.finalLoc = make([]bool, len(p.names))
	for _, o := range ce.observed {
		if o.th < 0 {
			s.finalLoc[o.loc] = true
		}
	}
	s.indexValues(dom, all)
	pick := make([]*trace, len(all))
	s.acc = make([]Set, len(all)+1)
	for i := range s.acc {
		s.acc[i] = newSet(s.nVals)
	}
	s.combine(all, pick, 0)
	if s.stopErr != nil {
		res.Verdict, res.Reason = Unknown, s.stopErr.Error()
		return res, nil
	}
	s.finish()
	return res, nil
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
		fut := s.future[i+1].clone()
		for k := range all[i] {
			tr := &all[i][k]
			tr.writes = newSet(s.nVals)
			for _, e := range tr.events {
				switch {
				case e.kind == evW:
					if v := id(e.loc, e.val); v >= 0 {
						tr.writes.add(v)
					}
				case e.kind == evR && e.tags&(tLKR|tLF|tRL|tRU) == 0 && e.val != s.p.init[e.loc]:
					if v := id(e.loc, e.val); v >= 0 {
						tr.needs = append(tr.needs, v)
					}
				}
			}
			fut = fut.union(tr.writes)
		}
		s.future[i] = fut
	}
}

// combine chooses one trace per thread, dropping a combination as soon as
// a read of a chosen trace needs a value no chosen or later trace writes.
func (s *search) combine(all [][]trace, pick []*trace, i int) {
	if s.stopErr != nil {
		return
	}
	if i == len(all) {
		for _, tr := range pick {
			for _, v := range tr.needs {
				if !s.acc[i].has(v) {
					return
				}
			}
		}
		s.execute(pick)
		return
	}
	for k := range all[i] {
		tr := &all[i][k]
		acc := s.acc[i+1]
		copy(acc, s.acc[i])
		for w := range acc {
			acc[w] |= tr.writes[w]
		}
		ok := true
		for _, v := range tr.needs {
			if !acc.has(v) && !s.future[i+1].has(v) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		pick[i] = tr
		s.combine(all, pick, i+1)
	}
}

// execute enumerates the rf and co of one combination of traces.
func (s *search) execute(pick []*trace) {
	s.al.reset(arenaMark{})
	x := newExecution(s.p, pick, s.al, s.scratch)
	s.scratch = x
	x.finalLoc = s.finalLoc
	// Candidate writes for each read.
	var reads []int
	var cands [][]int
	for r, e := range x.ev {
		if e.kind != evR {
			continue
		}
		if e.tags&tLKR != 0 {
			continue // read from the co-predecessor of its LKW, below
		}
		var c []int
		switch {
		case e.tags&(tLF|tRL) != 0:
			c = x.lfSources(r)
		case e.tags&tRU != 0:
			c = x.ruSources(r)
		default:
			for w, f := range x.ev {
				if f.kind != evW || f.loc != e.loc || f.val != e.val {
					continue
				}
				if x.thread[w] == x.thread[r] && w > r {
					continue // po-later: a coherence cycle
				}
				c = append(c, w)
			}
		}
		if len(c) == 0 {
			return
		}
		reads = append(reads, r)
		cands = append(cands, c)
	}
	choice := make([]int, len(reads))
	s.rfLoop(x, reads, cands, choice, 0)
}

func (s *search) rfLoop(x *execution, reads []int, cands [][]int, choice []int, i int) {
	if s.stopErr != nil {
		return
	}
	if i < len(reads) {
		for _, w := range cands[i] {
			choice[i] = w
			s.rfLoop(x, reads, cands, choice, i+1)
		}
		return
	}
	x.al.reset(x.mark)
	rf := x.al.rel(x.n)
	for k, r := range reads {
		rf.add(choice[k], r)
	}
	x.rfMark = x.al.mark()
	s.coLoop(x, rf)
}

// coLoop enumerates co location by location: for each, every order of
// its writes (initial write first) that keeps each thread's writes in
// program order, with lock.cat's rules for lock events.
func (s *search) coLoop(x *execution, rf Rel) {
	type locWrites struct {
		ws        []int // writes to order (not IW, not matched UL)
		unmatched int   // the unmatched LKW, which co0 puts last, or -1
	}
	LKW, UL := x.tagged(tLKW), x.tagged(tUL)
	critical := x.critical(LKW, UL)
	ulOf := map[int]int{}
	for _, pr := range critical.pairs() {
		ulOf[pr[0]] = pr[1]
	}
	lw := make([]locWrites, x.nLoc)
	for i := range lw {
		lw[i].unmatched = -1
	}
	for w, e := range x.ev {
		if e.kind != evW || e.tags&tIW != 0 {
			continue
		}
		if e.tags&tUL != 0 {
			continue // merged after its LKW (or, unmatched, left out of co)
		}
		if e.tags&tLKW != 0 && critical.row(w).empty() {
			if lw[e.loc].unmatched >= 0 {
				return // unmatched-locks: two unmatched LKW of one lock
			}
			lw[e.loc].unmatched = w
			continue
		}
		lw[e.loc].ws = append(lw[e.loc].ws, w)
	}
	// With many writes to one location the orders explode; there the
	// orders that coherence or atomicity rejects for sure are skipped
	// (below that they are kept, so that a forbidden outcome still gets
	// its explanation). must(a, b) says a is co-before b.
	var must Rel
	for _, w := range lw {
		if len(w.ws) >= pruneWrites {
			must = x.coConstraints(rf)
			break
		}
	}
	orders := make([][]int, x.nLoc)
	var rec func(l int)
	rec = func(l int) {
		if s.stopErr != nil {
			return
		}
		if l == x.nLoc {
			s.candidate(x, rf, orders, ulOf)
			return
		}
		ws := lw[l].ws
		prune := len(ws) >= pruneWrites
		perm := make([]int, 0, len(ws)+2)
		used := make([]bool, len(ws))
		var gen func()
		gen = func() {
			if len(perm) == len(ws) {
				o := append([]int{l}, perm...)
				if lw[l].unmatched >= 0 {
					o = append(o, lw[l].unmatched)
				}
				// Merge each matched UL right after its LKW.
				var full []int
				for _, w := range o {
					full = append(full, w)
					if u, ok := ulOf[w]; ok {
						full = append(full, u)
					}
				}
				orders[l] = full
				rec(l + 1)
				return
			}
			for k, w := range ws {
				if used[k] {
					continue
				}
				// Keep program order among one thread's writes.
				ok := true
				for k2, w2 := range ws {
					if !used[k2] && k2 != k && (x.po.has(w2, w) || prune && must.has(w2, w)) {
						ok = false
						break
					}
				}
				if ok && prune {
					// Atomicity: an RMW write comes right after the
					// write its read reads from.
					prev := l
					if len(perm) > 0 {
						prev = perm[len(perm)-1]
					}
					if r := x.rmwOf[w]; r >= 0 && x.ev[w].tags&tLKW == 0 && !rf.has(prev, r) {
						ok = false
					}
					if ok && x.rmwAfter(rf, prev) >= 0 && x.rmwAfter(rf, prev) != w {
						ok = false
					}
				}
				if !ok {
					continue
				}
				used[k] = true
				perm = append(perm, w)
				gen()
				perm = perm[:len(perm)-1]
				used[k] = false
			}
		}
		gen()
	}
	rec(0)
}

// pruneWrites is the number of writes to one location from which coLoop
// skips the orders coherence or atomicity rejects anyway.
const pruneWrites = 4

// coConstraints returns pairs (a, b) of writes that every coherent co
// orders a before b, given rf: a write po-before a read comes no later
// than the write it reads (CoWR), the write a read reads comes before the
// writes po-after the read (CoRW), and two reads in program order read
// writes in co order (CoRR). Pairs of equal writes are left out.
func (x *execution) coConstraints(rf Rel) Rel {
	must := x.al.rel(x.n)
	src := make([]int, x.n)
	for i := range src {
		src[i] = -1
	}
	for w := 0; w < x.n; w++ {
		rf.row(w).each(func(r int) { src[r] = w })
	}
	for r := 0; r < x.n; r++ {
		w := src[r]
		if w < 0 {
			continue
		}
		for j := 0; j < x.n; j++ {
			if x.thread[j] != x.thread[r] || x.thread[r] < 0 || x.ev[j].loc != x.ev[r].loc || j == r {
				continue
			}
			switch {
			case j < r && x.ev[j].kind == evW && j != w:
				must.add(j, w) // CoWR
			case j > r && x.ev[j].kind == evW && j != w:
				must.add(w, j) // CoRW
			case j < r && x.ev[j].kind == evR && src[j] >= 0 && src[j] != w:
				must.add(src[j], w) // CoRR
			}
		}
	}
	return must
}

// rmwAfter returns the write of the RMW whose read reads from w, or -1.
func (x *execution) rmwAfter(rf Rel, w int) int {
	found := -1
	rf.row(w).each(func(r int) {
		for k := r + 1; k < x.n && x.thread[k] == x.thread[r]; k++ {
			if x.rmwOf[k] == r && x.ev[k].tags&tLKW == 0 {
				found = k
			}
		}
	})
	return found
}

// candidate checks one complete candidate execution.
func (s *search) candidate(x *execution, rf Rel, orders [][]int, ulOf map[int]int) {
	s.res.Candidates++
	if s.opt.MaxCandidates > 0 && s.res.Candidates > s.opt.MaxCandidates {
		s.stopErr = fmt.Errorf("more than %d candidate executions", s.opt.MaxCandidates)
		return
	}
	if s.res.Candidates&1023 == 1 {
		if err := s.ctx.Err(); err != nil {
			s.stopErr = err
			return
		}
	}
	x.al.reset(x.rfMark)
	co := x.al.rel(x.n)
	rf = rf.clone()
	for _, o := range orders {
		for i := 0; i < len(o); i++ {
			for j := i + 1; j < len(o); j++ {
				co.add(o[i], o[j])
			}
		}
		// An LKR reads from the write just before its LKW in co, when
		// that is the initial write or an unlock:
		// let rf = rf | ([IW | UL] ; singlestep(co) ; lk-rmw^-1)
		for i := 1; i < len(o); i++ {
			w := x.ev[o[i]]
			if lkr := x.rmwOf[o[i]]; w.tags&tLKW != 0 && lkr >= 0 {
				if prev := x.ev[o[i-1]]; prev.tags&(tIW|tUL) != 0 {
					rf.add(o[i-1], lkr)
				}
			}
		}
	}
	x.rf, x.co = rf, co
	fin := finalState(x, orders)
	if s.cond.filter != nil && !s.cond.holds(s.cond.filter, fin) {
		return
	}
	sat := s.cond.prop == nil || s.cond.holds(s.cond.prop, fin)
	wantWhy := sat && s.why == ""
	out := x.model(wantWhy)
	if out.failed != "" {
		if sat {
			s.res.Rejected[out.failed]++
			if wantWhy {
				s.why = x.explain(s.p, out)
			}
		}
		return
	}
	if sat {
		s.res.Positive++
	} else {
		s.res.Negative++
	}
	for _, f := range out.flags {
		s.flags[f] = true
	}
	s.keyBuf = s.cond.key(fin, s.keyBuf[:0])
	if _, seen := s.states[string(s.keyBuf)]; !seen {
		s.states[string(s.keyBuf)] = s.cond.observe(fin)
	}
}

// lfSources returns the possible rf sources of an LF or RL event r
// (lock.cat): inside a critical section of its lock, the LKW that opened
// it (rfi-lf); outside, any LKW of the lock in another thread.
func (x *execution) lfSources(r int) []int {
	e := x.ev[r]
	for j := r - 1; j >= 0 && x.thread[j] == x.thread[r]; j-- {
		f := x.ev[j]
		if f.loc != e.loc {
			continue
		}
		if f.tags&tUL != 0 {
			break
		}
		if f.tags&tLKW != 0 {
			return []int{j}
		}
	}
	var c []int
	for w, f := range x.ev {
		if f.tags&tLKW != 0 && f.loc == e.loc && x.thread[w] != x.thread[r] {
			c = append(c, w)
		}
	}
	return c
}

// ruSources returns the possible rf sources of an RU event r (lock.cat's
// possible-rf-ru): the last UL of the lock before it in its thread, or
// any UL of the lock in another thread, or the initial write.
func (x *execution) ruSources(r int) []int {
	e := x.ev[r]
	var c []int
	for j := r - 1; j >= 0 && x.thread[j] == x.thread[r]; j-- {
		f := x.ev[j]
		if f.loc == e.loc && f.tags&tUL != 0 {
			c = append(c, j)
			break
		}
	}
	for w, f := range x.ev {
		if f.loc != e.loc || x.thread[w] == x.thread[r] {
			continue
		}
		if f.tags&(tUL|tIW) != 0 {
			c = append(c, w)
		}
	}
	sort.Ints(c)
	return c
}

// finish turns the counts into the verdict.
func (s *search) finish() {
	r := s.res
	switch {
	case r.Positive == 0:
		r.Verdict = Never
	case r.Negative == 0:
		r.Verdict = Always
	default:
		r.Verdict = Sometimes
	}
	r.Ok = s.cond.ok(r.Positive, r.Negative)
	keys := make([]string, 0, len(s.states))
	for k := range s.states {
		keys = append(keys, k)
	}
	sts := make([]State, 0, len(keys))
	for _, k := range keys {
		sts = append(sts, s.states[k])
	}
	sort.Slice(sts, func(i, j int) bool { return s.cond.stateLess(sts[i], sts[j]) })
	r.States = sts
	for f := range s.flags {
		r.Flags = append(r.Flags, f)
	}
	sort.Strings(r.Flags)
	r.DataRace = s.flags["data-race"]
	if r.Positive == 0 && s.why != "" {
		r.Why = s.why
	}
}
