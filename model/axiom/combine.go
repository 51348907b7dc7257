package axiom

import (
	"context"
	"sort"
)

// Combine calls visit with the execution of every combination of one
// path per thread (paths[i] are thread i's) in which each read can take
// its value from some write: a read of a value other than its location's
// initial one needs a write of that value by a chosen path. The
// execution passed to visit is built in al and recycled for the next
// combination. Combine stops early when visit returns false or ctx is
// done (then it returns ctx.Err()).
func (p *Program) Combine(ctx context.Context, dom [][]Val, paths [][]Trace, al *Arena, visit func(x *Execution) bool) error {
	c := &combiner{ctx: ctx, p: p, paths: paths, al: al, visit: visit}
	c.indexValues(dom)
	c.acc = make([]Set, len(paths)+1)
	for i := range c.acc {
		c.acc[i] = NewSet(c.nVals)
	}
	c.pick = make([]*Trace, len(paths))
	c.shapes(paths)
	c.run(0)
	return c.err
}

// shapes numbers the paths of each thread by their structure: two paths
// with the same shape differ only in the values read and written, so two
// combinations of paths of the same shapes have the same events and base
// relations, and whatever a model computes from those alone.
func (c *combiner) shapes(paths [][]Trace) {
	for i := range paths {
		ids := map[string]int{}
		var buf []byte
		for k := range paths[i] {
			tr := &paths[i][k]
			buf = buf[:0]
			for _, e := range tr.Events {
				buf = append(buf, byte(e.Kind), byte(e.Tags), byte(e.Tags>>8), byte(e.Tags>>16), byte(e.Tags>>24),
					byte(e.Tags>>32), byte(e.Tags>>40), byte(e.Tags>>48), byte(e.Tags>>56),
					byte(e.Loc), byte(e.Loc>>8), byte(e.RMW), byte(e.RMW>>8), byte(e.Instr), byte(e.Instr>>8))
				deps := [][]int{e.Addr, e.Data, e.Ctrl, e.Order}
				if e.Pick != nil {
					deps = append(deps, e.Pick.Addr, e.Pick.Data, e.Pick.Ctrl, e.Pick.Dep)
				}
				for _, deps := range deps {
					buf = append(buf, byte(len(deps)))
					for _, d := range deps {
						buf = append(buf, byte(d), byte(d>>8))
					}
				}
			}
			id, ok := ids[string(buf)]
			if !ok {
				id = len(ids)
				ids[string(buf)] = id
			}
			tr.shape = id
		}
	}
	c.last = make([]int, len(paths))
	for i := range c.last {
		c.last[i] = -1
	}
}

type combiner struct {
	ctx   context.Context
	p     *Program
	paths [][]Trace
	al    *Arena
	visit func(x *Execution) bool

	nVals   int
	acc     []Set // acc[i]: pairs written by the paths chosen for threads < i
	future  []Set // future[i]: pairs some path of a thread >= i writes
	pick    []*Trace
	last    []int // the shape of each thread's path in the last combination
	scratch *Execution
	steps   int
	stop    bool
	err     error
}

// indexValues numbers the (location, value) pairs of the domains and
// records, for each path, the pairs it writes and the pairs its reads
// need from some write other than the initial one.
func (c *combiner) indexValues(dom [][]Val) {
	offset := make([]int, len(dom))
	for l, d := range dom {
		offset[l] = c.nVals
		c.nVals += len(d)
	}
	id := func(l int, v Val) int {
		d := dom[l]
		k := sort.Search(len(d), func(i int) bool { return !d[i].Less(v) })
		if k < len(d) && d[k] == v {
			return offset[l] + k
		}
		return -1
	}
	n := len(c.paths)
	c.future = make([]Set, n+1)
	c.future[n] = NewSet(c.nVals)
	for i := n - 1; i >= 0; i-- {
		fut := c.future[i+1].Clone()
		for k := range c.paths[i] {
			tr := &c.paths[i][k]
			tr.writes = NewSet(c.nVals)
			tr.needs = tr.needs[:0]
			for _, e := range tr.Events {
				switch {
				case e.Kind == KindW:
					if v := id(e.Loc, e.Val); v >= 0 {
						tr.writes.Add(v)
					}
				case e.Kind == KindR && e.Val != c.p.Init[e.Loc]:
					if v := id(e.Loc, e.Val); v >= 0 {
						tr.needs = append(tr.needs, v)
					}
				}
			}
			fut = fut.Union(tr.writes)
		}
		c.future[i] = fut
	}
}

// run chooses a path for thread i and goes on, dropping a combination as
// soon as a read of a chosen path needs a value no chosen or later path
// writes.
func (c *combiner) run(i int) {
	if c.stop {
		return
	}
	n := len(c.paths)
	if i == n {
		for _, tr := range c.pick {
			for _, v := range tr.needs {
				if !c.acc[n].Has(v) {
					return
				}
			}
		}
		same := c.scratch != nil
		for i, tr := range c.pick {
			if c.last[i] != tr.shape {
				same = false
			}
			c.last[i] = tr.shape
		}
		x := c.scratch
		if same {
			x.rebind(c.pick)
		} else {
			c.al.Reset(ArenaMark{})
			gen := 0
			if x != nil {
				gen = x.Gen
			}
			x = c.p.NewExecution(c.pick, c.al, c.scratch)
			x.Gen = gen + 1
			c.scratch = x
		}
		if !c.visit(x) {
			c.stop = true
		}
		return
	}
	for k := range c.paths[i] {
		c.steps++
		if c.steps&4095 == 0 {
			if err := c.ctx.Err(); err != nil {
				c.err, c.stop = err, true
				return
			}
			if err := c.p.Budget.Err(); err != nil {
				c.err, c.stop = err, true
				return
			}
		}
		tr := &c.paths[i][k]
		acc := c.acc[i+1]
		copy(acc, c.acc[i])
		for w := range acc {
			acc[w] |= tr.writes[w]
		}
		ok := true
		for _, v := range tr.needs {
			if !acc.Has(v) && !c.future[i+1].Has(v) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		c.pick[i] = tr
		c.run(i + 1)
		if c.stop {
			return
		}
	}
}
