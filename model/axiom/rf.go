package axiom

import "slices"

// This file enumerates rf, and holds the coherence facts that let the
// enumeration drop choices early. A model that requires SC per location
// (herd's uniproc: acyclic po-loc | rf | co | fr, which the LKMM and the
// architecture models all check) rejects an rf in which a read takes its
// value from a write po-after it, and rejects every co that orders two
// writes against what the reads of their location saw; the enumeration
// uses these facts only when the caller says the model checks uniproc.

// RFSources returns the writes read r of x may read from: the writes of
// its location that wrote the value it read. With uniproc, writes po-after
// r in its own thread are left out (a coherence cycle po-loc ; rf).
// Without it the write of r's own instruction that comes after it (the
// write of a read-modify-write, or one iico_order puts after r) is still
// left out: herd's candidate generation never lets a read take its value
// from a write its own instruction makes from it (herd7's default -optace
// iico, mem.ml map_load_possible_stores), whatever the model.
func (x *Execution) RFSources(r int, uniproc bool) []int {
	return x.appendRFSources(nil, r, uniproc)
}

// appendRFSources appends RFSources(r, uniproc) to c.
func (x *Execution) appendRFSources(c []int, r int, uniproc bool) []int {
	e := x.Ev[r]
	for w, f := range x.Ev {
		if f.Kind != KindW || f.Loc != e.Loc || f.Val != e.Val {
			continue
		}
		if uniproc && x.Ordered(r, w) || x.iicoAfter(r, w) {
			continue
		}
		c = append(c, w)
	}
	return c
}

// iicoAfter reports whether write w is made by read r's instruction
// after r: the write of its read-modify-write instruction (amo), or one
// after it in iico_order. An LR's read may still take the value of the
// po-later SC's write here, as in herd: only the model's coherence
// rejects that.
func (x *Execution) iicoAfter(r, w int) bool {
	if x.Thread[r] < 0 || x.Thread[w] != x.Thread[r] {
		return false
	}
	return x.Amo.N() > 0 && x.Amo.Has(r, w) || x.IicoOrder.N() > 0 && x.IicoOrder.Has(r, w)
}

// RFEnum enumerates the rf of an execution location by location: every
// read of Reads takes one of its Sources. After the reads of a location
// are assigned, Check (when not nil) may reject the choice so far.
type RFEnum struct {
	X       *Execution
	Reads   [][]int   // the reads of each location that take an rf source
	Sources [][][]int // their candidate sources
	// Check is called when the reads of location l have their sources
	// (Src holds them); returning false drops the choice.
	Check func(l int) bool
	// Src is the source of each read chosen so far, -1 if none.
	Src []int
	RF  Rel

	buf, ends []int // the sources of the reads in one buffer, and each read and its end in buf (Reset)
}

// NewRFEnum prepares the enumeration of x's rf over the reads for which
// take reports true (all reads when take is nil). It returns nil when
// some read has no possible source: x has no candidate.
func NewRFEnum(x *Execution, uniproc bool, take func(r int) bool) *RFEnum {
	en := &RFEnum{}
	if !en.Reset(x, uniproc, take) {
		return nil
	}
	return en
}

// Reset prepares en for the enumeration of x's rf as NewRFEnum does,
// reusing the room of en's slices (an engine that visits thousands of
// executions of a few events each would otherwise allocate them for
// each); Check is cleared. It reports false where NewRFEnum returns nil.
func (en *RFEnum) Reset(x *Execution, uniproc bool, take func(r int) bool) bool {
	nLoc := len(x.P.Names)
	en.X, en.Check, en.RF = x, nil, Rel{}
	en.Reads = resize(en.Reads, nLoc)
	en.Sources = resize(en.Sources, nLoc)
	for l := range nLoc {
		en.Reads[l] = en.Reads[l][:0]
		en.Sources[l] = en.Sources[l][:0]
	}
	en.Src = resize(en.Src, x.N)
	for i := range en.Src {
		en.Src[i] = -1
	}
	// The sources of all reads share one buffer: the slices into it
	// are cut once it is complete, as growing it may move it.
	en.buf, en.ends = en.buf[:0], en.ends[:0]
	for r, e := range x.Ev {
		if e.Kind != KindR || (take != nil && !take(r)) {
			continue
		}
		start := len(en.buf)
		en.buf = x.appendRFSources(en.buf, r, uniproc)
		if len(en.buf) == start {
			return false
		}
		en.Reads[e.Loc] = append(en.Reads[e.Loc], r)
		en.ends = append(en.ends, r, len(en.buf))
	}
	start := 0
	for k := 0; k < len(en.ends); k += 2 {
		l, end := x.Ev[en.ends[k]].Loc, en.ends[k+1]
		en.Sources[l] = append(en.Sources[l], en.buf[start:end:end])
		start = end
	}
	en.RF = x.Al.Rel(x.N)
	return true
}

// resize returns s with length n, reusing its room.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Each calls visit with every rf, in a fixed order; visit returns false to
// stop. The relation passed is reused: copy it to keep it.
func (en *RFEnum) Each(visit func(rf Rel) bool) bool { return en.at(0, 0, visit) }

func (en *RFEnum) at(l, i int, visit func(rf Rel) bool) bool {
	if l == len(en.Reads) {
		return visit(en.RF)
	}
	if i < len(en.Reads[l]) {
		r := en.Reads[l][i]
		for _, w := range en.Sources[l][i] {
			en.RF.Add(w, r)
			en.Src[r] = w
			ok := en.at(l, i+1, visit)
			en.RF.Del(w, r)
			en.Src[r] = -1
			if !ok {
				return false
			}
		}
		return true
	}
	if en.Check != nil && len(en.Reads[l]) > 0 && !en.Check(l) {
		return true
	}
	return en.at(l+1, 0, visit)
}

// CoMust returns the pairs (a, b) of writes of location l that every co
// must order a before b for the execution to be coherent (uniproc) given
// the rf sources src of its reads (-1 for a read without one): a write
// po-before another of its thread (CoWW), a write po-before a read comes
// no later than the write the read reads (CoWR), the write a read reads
// comes before the writes po-after the read (CoRW), two reads in program
// order read writes in co order (CoRR); the initial write comes first.
// Pairs of equal writes are left out. must is cleared and filled.
func (x *Execution) CoMust(l int, evs []int, src []int, must Rel) {
	clear(must.b)
	for _, a := range evs {
		ea := x.Ev[a]
		if ea.Kind == KindW && x.Thread[a] < 0 {
			for _, b := range evs {
				if b != a && x.Ev[b].Kind == KindW {
					must.Add(a, b)
				}
			}
			continue
		}
		if x.Thread[a] < 0 {
			continue
		}
		for _, j := range evs {
			if !x.Ordered(a, j) {
				continue
			}
			ej := x.Ev[j]
			switch {
			case ea.Kind == KindW && ej.Kind == KindW:
				must.Add(a, j) // CoWW
			case ea.Kind == KindW && ej.Kind == KindR && src[j] >= 0 && src[j] != a:
				must.Add(a, src[j]) // CoWR
			case ea.Kind == KindR && ej.Kind == KindW && src[a] >= 0 && src[a] != j:
				must.Add(src[a], j) // CoRW
			case ea.Kind == KindR && ej.Kind == KindR && src[a] >= 0 && src[j] >= 0 && src[a] != src[j]:
				must.Add(src[a], src[j]) // CoRR
			}
		}
	}
}

// Ordered reports whether events a and b of one thread are in program
// order, a first, for coherence: herd's po ∪ iico, which the uniproc
// check of its candidate generation uses. That is their order in the
// path, except for the events of two operands of one C operator, which
// herd evaluates in parallel (Event.Par).
func (x *Execution) Ordered(a, b int) bool {
	t := x.Thread[a]
	if t < 0 || x.Thread[b] != t || b <= a {
		return false
	}
	return !slices.Contains(x.Ev[b].Par, a-x.Start[t])
}

// LocEvents returns the reads and writes of each location, initial write
// first.
func (x *Execution) LocEvents() [][]int {
	out := make([][]int, len(x.P.Names))
	for i, e := range x.Ev {
		if e.Kind == KindR || e.Kind == KindW {
			out[e.Loc] = append(out[e.Loc], i)
		}
	}
	return out
}
