package axiom

import "sort"

// herd7 builds a thread's events with a fresh variable for the value of
// each read, then solves, for each rf, the equations that tie each read
// to the value of the write it reads from (mem.ml, valconstraint.ml). A
// value is determined when the equations give it a constant. Two things
// follow that an engine reading concrete values from value domains does
// not see by itself:
//
//   - A cycle of reads and writes that copy a value unchanged (r1 = *x;
//     *y = r1; and r2 = *y; *x = r2; with each read reading the other's
//     write) leaves the variables of the cycle equal to one another and to
//     nothing else: herd keeps that execution once, with a symbolic value
//     (printed S8), which equals no integer in the final condition.
//   - An equation herd cannot solve (an operation on such a value: r1 + 1,
//     r1 == 0 for a branch, an address) makes herd drop the candidate.
//
// Flow records what the check needs from each path, and ThinAir applies
// it to a candidate: it rejects the candidates herd drops, keeps one
// candidate of those that differ only in the value a copying cycle
// carries, and names that value.

// Flow is how the values of one path depend on its reads.
type Flow struct {
	// Copy gives, for each event of the path that is a write, the read
	// (index in the path) whose value it writes unchanged, FlowConst when
	// its value depends on no read of memory, or FlowOp when it is
	// computed from reads (In).
	Copy []int32
	// In lists, for each write whose value is computed (FlowOp), the
	// reads the value is computed from.
	In map[int][]int
	// Need lists the reads whose values an equation of the path needs
	// determined: the operands of every operation on read values, branch
	// conditions and addresses included.
	Need []int
	// Fixed lists the reads whose value an equation of the path fixes to
	// a constant (a successful cmpxchg's read equals the expected value).
	Fixed []int
	// Regs gives, for each register whose final value is a read's value
	// unchanged, that read.
	Regs map[string]int
	// Var numbers herd's variable for each read (indexed by event; 0 for
	// other events): a cycle's symbolic value is printed S<n>, n the
	// largest number of the reads of the cycle.
	Var []int32
	// Any reports whether some write copies a read or computes from one:
	// when no path of an execution has one, every value is determined.
	Any bool
}

// The values of Flow.Copy other than a read's index.
const (
	FlowConst int32 = -1
	FlowOp    int32 = -2
)

// symbolic returns herd's symbolic value S<n>.
func symbolic(n int) Val { return Val{Sym: int32(-n)} }

// FlowExec is what ThinAir reads of an execution: its events' kinds,
// threads, locations and values, and each thread's path's Flow. An engine
// builds one per combination of paths.
type FlowExec struct {
	Kind   []Kind
	Thread []int // -1 for an initial write
	Loc    []int
	Val    []Val
	Flows  []*Flow // per thread, nil when the path has none
	Start  []int   // the first event of each thread

	prepared, cyclic bool
	det              []bool
	parent           []int
}

// cycles reports whether some candidate of the execution may have a read
// whose value depends on itself: a cycle of reads, the writes they may
// read from (same location and value) and the reads those writes copy or
// compute from. Without one every value is determined, and ThinAir keeps
// every candidate as it is.
func (f *FlowExec) cycles() bool {
	if f.prepared {
		return f.cyclic
	}
	f.prepared = true
	any := false
	for _, fl := range f.Flows {
		if fl != nil && fl.Any {
			any = true
		}
	}
	if !any {
		return false
	}
	n := len(f.Kind)
	// succ lists, for a read, the writes it may read; for a write, the
	// reads its value comes from.
	succ := make([][]int, n)
	for e := range n {
		switch f.Kind[e] {
		case KindR:
			for w := range n {
				if f.Kind[w] == KindW && f.Thread[w] >= 0 && f.Loc[w] == f.Loc[e] && f.Val[w] == f.Val[e] {
					succ[e] = append(succ[e], w)
				}
			}
		case KindW:
			ti := f.Thread[e]
			if ti < 0 || f.Flows[ti] == nil {
				continue
			}
			fl, j := f.Flows[ti], e-f.Start[ti]
			switch c := fl.Copy[j]; {
			case c >= 0:
				succ[e] = []int{f.Start[ti] + int(c)}
			case c == FlowOp:
				for _, r := range fl.In[j] {
					succ[e] = append(succ[e], f.Start[ti]+r)
				}
			}
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, n)
	var visit func(e int) bool
	visit = func(e int) bool {
		color[e] = grey
		for _, s := range succ[e] {
			if color[s] == grey || (color[s] == white && visit(s)) {
				return true
			}
		}
		color[e] = black
		return false
	}
	for e := range n {
		if color[e] == white && visit(e) {
			f.cyclic = true
			break
		}
	}
	return f.cyclic
}

// ThinAir applies herd's value equations to the candidate whose reads
// read from src (src[r] the write read r reads, -1 for an event that is
// not a read that takes an rf source). It reports whether herd keeps the
// candidate; when it does and some values are symbolic, sym maps each
// read and write event whose value is symbolic to that value (nil when
// none is). dom are the value domains the paths were built with: of the
// candidates that differ only in the value a copying cycle carries,
// ThinAir keeps the one whose value is the least that every location of
// the cycle may hold.
func (f *FlowExec) ThinAir(src []int, dom [][]Val) (keep bool, sym map[int]Val) {
	if !f.cycles() {
		return true, nil
	}
	n := len(f.Kind)
	if cap(f.det) < n {
		f.det, f.parent = make([]bool, n), make([]int, n)
	}
	det, parent := f.det[:n], f.parent[:n]
	clear(det)
	for ti, fl := range f.Flows {
		if fl == nil {
			continue
		}
		for _, r := range fl.Fixed {
			det[f.Start[ti]+r] = true
		}
	}
	// writeDet reports whether write w's value is determined given det.
	writeDet := func(w int) bool {
		ti := f.Thread[w]
		if ti < 0 || f.Flows[ti] == nil {
			return true
		}
		fl, j := f.Flows[ti], w-f.Start[ti]
		switch c := fl.Copy[j]; c {
		case FlowConst:
			return true
		case FlowOp:
			for _, r := range fl.In[j] {
				if !det[f.Start[ti]+r] {
					return false
				}
			}
			return true
		default:
			return det[f.Start[ti]+int(c)]
		}
	}
	for changed := true; changed; {
		changed = false
		for e := range n {
			if det[e] || f.Kind[e] != KindR || src[e] < 0 {
				continue
			}
			if writeDet(src[e]) {
				det[e] = true
				changed = true
			}
		}
	}
	for ti, fl := range f.Flows {
		if fl == nil {
			continue
		}
		for _, r := range fl.Need {
			if !det[f.Start[ti]+r] {
				return false, nil
			}
		}
	}
	undet := false
	for e := range n {
		if f.Kind[e] == KindR && src[e] >= 0 && !det[e] {
			undet = true
			break
		}
	}
	if !undet {
		return true, nil
	}
	// The undetermined reads form classes: a read and the read whose
	// value the write it reads copies.
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	copyOf := func(w int) int { // the read write w copies, or -1
		ti := f.Thread[w]
		if ti < 0 || f.Flows[ti] == nil {
			return -1
		}
		c := f.Flows[ti].Copy[w-f.Start[ti]]
		if c < 0 {
			return -1
		}
		return f.Start[ti] + int(c)
	}
	for e := range n {
		if f.Kind[e] == KindR && src[e] >= 0 && !det[e] {
			if r := copyOf(src[e]); r >= 0 {
				parent[find(e)] = find(r)
			}
		}
	}
	type class struct {
		locs []int
		val  Val
		vr   int32
	}
	classes := map[int]*class{}
	for e := range n {
		if f.Kind[e] != KindR || src[e] < 0 || det[e] {
			continue
		}
		c := classes[find(e)]
		if c == nil {
			c = &class{val: f.Val[e]}
			classes[find(e)] = c
		}
		c.locs = append(c.locs, f.Loc[e])
		ti := f.Thread[e]
		if fl := f.Flows[ti]; fl != nil && fl.Var != nil {
			c.vr = max(c.vr, fl.Var[e-f.Start[ti]])
		}
	}
	for _, c := range classes {
		if least, ok := leastCommon(dom, c.locs); !ok || c.val != least {
			return false, nil
		}
		c.vr = max(c.vr, 1)
	}
	sym = map[int]Val{}
	for e := range n {
		switch f.Kind[e] {
		case KindR:
			if src[e] >= 0 && !det[e] {
				sym[e] = symbolic(int(classes[find(e)].vr))
			}
		case KindW:
			if r := copyOf(e); r >= 0 && src[r] >= 0 && !det[r] {
				sym[e] = symbolic(int(classes[find(r)].vr))
			}
		}
	}
	return true, sym
}

// ThinAir is FlowExec.ThinAir on x.
func (x *Execution) ThinAir(src []int, dom [][]Val) (keep bool, sym map[int]Val) {
	if x.flow == nil {
		f := &FlowExec{Kind: make([]Kind, x.N), Thread: x.Thread, Loc: make([]int, x.N), Val: make([]Val, x.N), Start: x.Start}
		for e, ev := range x.Ev {
			f.Kind[e], f.Loc[e], f.Val[e] = ev.Kind, ev.Loc, ev.Val
		}
		for _, t := range x.Paths {
			f.Flows = append(f.Flows, t.Flow)
		}
		x.flow = f
	}
	return x.flow.ThinAir(src, dom)
}

// leastCommon returns the least value of every dom[l], l in locs.
func leastCommon(dom [][]Val, locs []int) (Val, bool) {
	if dom == nil {
		return Val{}, false
	}
	for _, v := range dom[locs[0]] {
		all := true
		for _, l := range locs[1:] {
			d := dom[l]
			k := sort.Search(len(d), func(i int) bool { return !d[i].Less(v) })
			if k == len(d) || d[k] != v {
				all = false
				break
			}
		}
		if all {
			return v, true
		}
	}
	return Val{}, false
}

// SymbolicRegs returns the final registers of x with the registers that
// hold a symbolic value (sym, from ThinAir) set to it.
func (x *Execution) SymbolicRegs(sym map[int]Val) []map[string]Val {
	if sym == nil {
		return x.Regs
	}
	out := make([]map[string]Val, len(x.Regs))
	for ti, regs := range x.Regs {
		out[ti] = regs
		fl := x.Paths[ti].Flow
		if fl == nil {
			continue
		}
		copied := false
		for name, r := range fl.Regs {
			v, ok := sym[x.Start[ti]+r]
			if !ok {
				continue
			}
			if !copied {
				m := make(map[string]Val, len(regs)+1)
				for k, w := range regs {
					m[k] = w
				}
				out[ti], copied = m, true
			}
			out[ti][name] = v
		}
	}
	return out
}
