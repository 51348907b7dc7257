package axiom

import (
	"fmt"
	"math/bits"

	"github.com/litmus-dev/litmus/internal/limit"
)

// This file holds the two data types every relation of the model is built
// from: a set of events (Set) and a binary relation over events (Rel), both
// bitsets. A candidate execution has at most a few dozen events, so a
// relation is n rows of ceil(n/64) words and composition is a loop of word
// ORs; nothing here allocates per edge.

// Set is a set of events of one execution, as a bitset.
type Set []uint64

func NewSet(n int) Set { return make(Set, (n+63)/64) }

func (s Set) Has(i int) bool { return s[i>>6]&(1<<(uint(i)&63)) != 0 }
func (s Set) Add(i int)      { s[i>>6] |= 1 << (uint(i) & 63) }

func (s Set) Clone() Set { return append(Set(nil), s...) }

func (s Set) Union(t Set) Set {
	u := s.Clone()
	for i := range u {
		u[i] |= t[i]
	}
	return u
}

func (s Set) Inter(t Set) Set {
	u := s.Clone()
	for i := range u {
		u[i] &= t[i]
	}
	return u
}

func (s Set) Minus(t Set) Set {
	u := s.Clone()
	for i := range u {
		u[i] &^= t[i]
	}
	return u
}

// Compl returns the complement of s among n events.
func (s Set) Compl(n int) Set {
	u := NewSet(n)
	for i := 0; i < n; i++ {
		if !s.Has(i) {
			u.Add(i)
		}
	}
	return u
}

func (s Set) Empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// Each calls f for each member in increasing order.
func (s Set) Each(f func(int)) {
	for wi, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(wi*64 + b)
			w &= w - 1
		}
	}
}

// Rel is a binary relation over the n events of one execution: row i is
// the set of j with (i, j) in the relation. The result of an operation
// takes its words from the arena of its first operand, when it has one.
type Rel struct {
	n, w int
	b    []uint64
	al   *Arena
}

func NewRel(n int) Rel { return (*Arena)(nil).Rel(n) }

// Arena hands out the words of relations. A model computes a few
// hundred relations per candidate execution and drops them all; an arena
// reset between candidates makes that free of garbage. A nil arena
// allocates from the heap.
//
// The arena is also where a model's memory and time go on a large
// execution (a relation over n events has n² bits), so it may carry the
// search's budget: it asks the budget before each new chunk, and the
// relation operations poll it every 64 rows; a spent budget panics with
// an Abort, which the search recovers.
type Arena struct {
	chunks [][]uint64
	ci     int // current chunk
	off    int // next free word in it

	// Budget, when not nil, bounds the search's time and memory.
	Budget *limit.Budget
	// Events is the size of the current execution, for messages.
	Events int
	ticks  uint32
	sccs   *sccScratch // the closure's working memory (closure.go)
	hold   *limit.Hold // the chunks' share of what the search holds
	bytes  uint64      // the chunks' size
}

// SetBudget makes b the arena's budget, accounting the chunks it already
// has (an arena reused from an earlier search) as held by b's search.
func (a *Arena) SetBudget(b *limit.Budget) {
	a.hold.Set(0)
	a.Budget, a.hold = b, nil
	if b != nil {
		a.hold = b.Hold()
		a.hold.Set(a.bytes)
	}
}

// Abort is the panic value with which relation code stops a search that
// has spent its budget; the search recovers it and reports Err.
type Abort struct{ Err error }

// RelBytes is the size of one relation over n events.
func RelBytes(n int) uint64 { return uint64(n) * uint64((n+63)/64) * 8 }

// Poll panics with an Abort when the arena's budget is spent.
func (a *Arena) Poll() {
	if a == nil || a.Budget == nil {
		return
	}
	if err := a.Budget.Err(); err != nil {
		panic(Abort{err})
	}
}

// Tick is Poll once in 256 calls: for operations that are short
// (executions of up to 128 events) but many, where reading the clock
// each time would cost more than the operation.
func (a *Arena) Tick() {
	if a == nil || a.Budget == nil {
		return
	}
	a.ticks++
	if a.ticks&255 == 0 {
		a.Poll()
	}
}

// Words returns the number of words the arena holds.
func (a *Arena) Words() int {
	n := 0
	for _, c := range a.chunks {
		n += len(c)
	}
	return n
}

// ArenaMark is a point to reset an arena to.
type ArenaMark struct{ ci, off int }

func (a *Arena) Mark() ArenaMark { return ArenaMark{a.ci, a.off} }

// Reset frees everything allocated since m.
func (a *Arena) Reset(m ArenaMark) { a.ci, a.off = m.ci, m.off }

func (a *Arena) words(k int) []uint64 {
	s := a.dirty(k)
	clear(s)
	return s
}

// dirty returns k words with whatever they held before (for a result
// whose every word is then written); zero words without an arena.
func (a *Arena) dirty(k int) []uint64 {
	if a == nil {
		return make([]uint64, k)
	}
	for {
		if a.ci < len(a.chunks) {
			c := a.chunks[a.ci]
			if a.off+k <= len(c) {
				s := c[a.off : a.off+k : a.off+k]
				a.off += k
				return s
			}
			if a.ci+1 < len(a.chunks) {
				a.ci, a.off = a.ci+1, 0
				continue
			}
		}
		size := max(1<<14, 4*k)
		if a.Budget != nil {
			if err := a.Budget.Reserve(uint64(size)*8, fmt.Sprintf("the relations of an execution of %d events", a.Events)); err != nil {
				panic(Abort{err})
			}
		}
		a.chunks = append(a.chunks, make([]uint64, size))
		if a.Budget != nil {
			if a.hold == nil {
				a.hold = a.Budget.Hold()
			}
			a.bytes += uint64(size) * 8
			a.hold.Set(a.bytes)
		}
		a.ci, a.off = len(a.chunks)-1, 0
	}
}

// Rel returns an empty relation over n events.
func (a *Arena) Rel(n int) Rel {
	w := (n + 63) / 64
	return Rel{n: n, w: w, b: a.words(n * w), al: a}
}

func (r Rel) Blank() Rel { return r.al.Rel(r.n) }

// dirty returns a relation over r's events whose words are to be
// written, every one of them, by the caller.
func (r Rel) dirty() Rel { return Rel{n: r.n, w: r.w, b: r.al.dirty(len(r.b)), al: r.al} }

// Set returns an empty set of n events.
func (a *Arena) Set(n int) Set { return Set(a.words((n + 63) / 64)) }

func (r Rel) Row(i int) Set { return Set(r.b[i*r.w : (i+1)*r.w]) }

func (r Rel) Has(i, j int) bool { return r.b[i*r.w+j>>6]&(1<<(uint(j)&63)) != 0 }
func (r Rel) Add(i, j int)      { r.b[i*r.w+j>>6] |= 1 << (uint(j) & 63) }
func (r Rel) Del(i, j int)      { r.b[i*r.w+j>>6] &^= 1 << (uint(j) & 63) }

func (r Rel) Clone() Rel {
	u := r.dirty()
	copy(u.b, r.b)
	return u
}

func (r Rel) Empty() bool {
	for _, x := range r.b {
		if x != 0 {
			return false
		}
	}
	return true
}

// Union returns r | s | ...
func Union(r Rel, ss ...Rel) Rel {
	u := r.Clone()
	for _, s := range ss {
		for i := range u.b {
			u.b[i] |= s.b[i]
		}
	}
	return u
}

// Inter returns r & s.
func (r Rel) Inter(s Rel) Rel {
	u := r.dirty()
	for i, x := range r.b {
		u.b[i] = x & s.b[i]
	}
	return u
}

// Minus returns r \ s.
func (r Rel) Minus(s Rel) Rel {
	u := r.dirty()
	for i, x := range r.b {
		u.b[i] = x &^ s.b[i]
	}
	return u
}

// Seq returns the composition r ; s.
func (r Rel) Seq(s Rel) Rel {
	w := r.w
	if w <= 2 {
		// seqSmall writes every word of its result.
		return r.seqSmall(s)
	}
	u := r.Blank()
	for i := 0; i < r.n; i++ {
		if i&63 == 63 {
			r.al.Poll()
		}
		out := u.b[i*w : (i+1)*w]
		for wi, x := range r.b[i*w : (i+1)*w] {
			for x != 0 {
				k := wi*64 + bits.TrailingZeros64(x)
				x &= x - 1
				for t, y := range s.b[k*w : (k+1)*w] {
					out[t] |= y
				}
			}
		}
	}
	return u
}

// seqSmall is Seq for relations of one or two words per row.
func (r Rel) seqSmall(s Rel) Rel {
	u := r.dirty()
	if r.w == 1 {
		// One word per row: the common case of executions with at most
		// 64 events.
		for i, x := range r.b {
			var out uint64
			for x != 0 {
				out |= s.b[bits.TrailingZeros64(x)]
				x &= x - 1
			}
			u.b[i] = out
		}
		return u
	}
	// Two words per row: executions of 65 to 128 events, such as the
	// largest RCU tests.
	r.al.Tick()
	rb, sb, ub := r.b, s.b, u.b
	for i := 0; i+1 < len(rb); i += 2 {
		var o0, o1 uint64
		for x := rb[i]; x != 0; x &= x - 1 {
			k := 2 * bits.TrailingZeros64(x)
			o0 |= sb[k]
			o1 |= sb[k+1]
		}
		for x := rb[i+1]; x != 0; x &= x - 1 {
			k := 2 * (64 + bits.TrailingZeros64(x))
			o0 |= sb[k]
			o1 |= sb[k+1]
		}
		ub[i], ub[i+1] = o0, o1
	}
	return u
}

// Seqs returns r1 ; r2 ; ... ; rk.
func Seqs(r Rel, rs ...Rel) Rel {
	for _, s := range rs {
		r = r.Seq(s)
	}
	return r
}

// Inv returns r^-1.
func (r Rel) Inv() Rel {
	u := r.Blank()
	if r.w == 1 {
		for i, x := range r.b {
			for x != 0 {
				j := bits.TrailingZeros64(x)
				x &= x - 1
				u.b[j] |= 1 << uint(i)
			}
		}
		return u
	}
	for i := 0; i < r.n; i++ {
		if i&63 == 63 {
			r.al.Poll()
		}
		r.Row(i).Each(func(j int) { u.Add(j, i) })
	}
	return u
}

// Opt returns r? = r | id.
func (r Rel) Opt() Rel {
	u := r.Clone()
	for i := 0; i < r.n; i++ {
		u.Add(i, i)
	}
	return u
}

// Plus returns the transitive closure r+ (closure.go).
func (r Rel) Plus() Rel {
	if r.Empty() {
		return r.Clone()
	}
	u, _ := r.PlusCheck()
	return u
}

func (r Rel) Star() Rel { return r.Plus().Opt() }

// Restrict returns [s] ; r ; [t]; a nil set means every event.
func (r Rel) Restrict(s, t Set) Rel {
	u := r.Blank()
	if r.w == 1 {
		mask := ^uint64(0)
		if t != nil {
			mask = t[0]
		}
		for i, x := range r.b {
			if s == nil || s[0]&(1<<uint(i)) != 0 {
				u.b[i] = x & mask
			}
		}
		return u
	}
	for i := 0; i < r.n; i++ {
		if s != nil && !s.Has(i) {
			continue
		}
		ri, ui := r.Row(i), u.Row(i)
		for k := range ri {
			if t != nil {
				ui[k] = ri[k] & t[k]
			} else {
				ui[k] = ri[k]
			}
		}
	}
	return u
}

// Domain returns the set of i with some (i, j) in r.
func (r Rel) Domain() Set {
	s := NewSet(r.n)
	for i := 0; i < r.n; i++ {
		if !r.Row(i).Empty() {
			s.Add(i)
		}
	}
	return s
}

// rng returns the set of j with some (i, j) in r.
func (r Rel) Range() Set {
	s := NewSet(r.n)
	for i := 0; i < r.n; i++ {
		for k, x := range r.Row(i) {
			s[k] |= x
		}
	}
	return s
}

// Irreflexive reports whether no (i, i) is in r.
func (r Rel) Irreflexive() bool {
	if r.w == 1 {
		for i, x := range r.b {
			if x&(1<<uint(i)) != 0 {
				return false
			}
		}
		return true
	}
	for i := 0; i < r.n; i++ {
		if r.Has(i, i) {
			return false
		}
	}
	return true
}

// Acyclic reports whether r has no cycle. With one word per row it peels
// sources off the graph (a cycle remains when no event is left without a
// predecessor); otherwise it sorts r's events topologically (closure.go).
func (r Rel) Acyclic() bool {
	if r.w != 1 {
		r.al.Tick()
		_, ok := r.topo()
		return ok
	}
	left := ^uint64(0) >> uint(64-r.n)
	if r.n == 0 {
		return true
	}
	for left != 0 {
		var targets uint64
		for x := left; x != 0; x &= x - 1 {
			targets |= r.b[bits.TrailingZeros64(x)]
		}
		sources := left &^ targets
		if sources == 0 {
			return false
		}
		left &^= sources
	}
	return true
}

// FindCycle returns the events of one cycle of r in order, or nil when r
// is acyclic. It is a depth-first search with colours; the cycle found is
// the first in event order, so the result is deterministic.
func (r Rel) FindCycle() []int {
	const (
		white = iota
		grey
		black
	)
	colour := make([]uint8, r.n)
	parent := make([]int, r.n)
	type frame struct{ v, next int }
	for s := 0; s < r.n; s++ {
		if s&63 == 63 {
			r.al.Poll()
		}
		if colour[s] != white {
			continue
		}
		stack := []frame{{s, 0}}
		colour[s] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			v := top.v
			j := top.next
			for ; j < r.n; j++ {
				if r.Has(v, j) && colour[j] != black {
					break
				}
			}
			if j >= r.n {
				colour[v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			top.next = j + 1
			if colour[j] == grey {
				cyc := []int{j}
				for u := v; u != j; u = parent[u] {
					cyc = append(cyc, u)
				}
				// reverse into forward order starting at j
				for a, b := 1, len(cyc)-1; a < b; a, b = a+1, b-1 {
					cyc[a], cyc[b] = cyc[b], cyc[a]
				}
				return cyc
			}
			colour[j] = grey
			parent[j] = v
			stack = append(stack, frame{j, 0})
		}
	}
	return nil
}

// Cross returns s * t.
func (a *Arena) Cross(n int, s, t Set) Rel {
	u := a.Rel(n)
	for i := 0; i < n; i++ {
		if s.Has(i) {
			copy(u.Row(i), t)
		}
	}
	return u
}

// Ident returns [s], the identity on s.
func (a *Arena) Ident(n int, s Set) Rel {
	u := a.Rel(n)
	s.Each(func(i int) { u.Add(i, i) })
	return u
}

// Pairs returns the edges of r in order, for messages and tests.
func (r Rel) Pairs() [][2]int {
	var out [][2]int
	for i := 0; i < r.n; i++ {
		r.Row(i).Each(func(j int) { out = append(out, [2]int{i, j}) })
	}
	return out
}

// Compl returns the complement of r.
func (r Rel) Compl() Rel {
	u := r.Blank()
	if r.w == 1 {
		mask := ^uint64(0) >> uint(64-r.n)
		for i, x := range r.b {
			u.b[i] = ^x & mask
		}
		return u
	}
	for i := 0; i < r.n; i++ {
		if i&63 == 63 {
			r.al.Poll()
		}
		for j := 0; j < r.n; j++ {
			if !r.Has(i, j) {
				u.Add(i, j)
			}
		}
	}
	return u
}

// N returns the number of events r relates.
func (r Rel) N() int { return r.n }

// Equal reports whether r and s have the same pairs.
func (r Rel) Equal(s Rel) bool {
	for i := range r.b {
		if r.b[i] != s.b[i] {
			return false
		}
	}
	return true
}

// Subset reports whether every pair of r is in s.
func (r Rel) Subset(s Rel) bool {
	for i := range r.b {
		if r.b[i]&^s.b[i] != 0 {
			return false
		}
	}
	return true
}

// Equal reports whether s and t have the same members.
func (s Set) Equal(t Set) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// Subset reports whether every member of s is in t.
func (s Set) Subset(t Set) bool {
	for i := range s {
		if s[i]&^t[i] != 0 {
			return false
		}
	}
	return true
}

// Len returns the number of members of s.
func (s Set) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Len returns the number of pairs of r.
func (r Rel) Len() int {
	n := 0
	for _, w := range r.b {
		n += bits.OnesCount64(w)
	}
	return n
}

// Words returns the words of r, row after row (for hashing and ordering;
// do not modify).
func (r Rel) Words() []uint64 { return r.b }

// Arena returns the arena r's words come from.
func (r Rel) Arena() *Arena { return r.al }

// CopyTo returns a copy of r allocated in al.
func (r Rel) CopyTo(al *Arena) Rel {
	u := al.Rel(r.n)
	copy(u.b, r.b)
	return u
}

// CopyTo returns a copy of s allocated in al.
func (s Set) CopyTo(al *Arena) Set {
	u := al.Set(len(s) * 64)
	copy(u, s)
	return u
}

// Image returns the events r relates some event of s to: the row of s
// in r, {j | (i, j) in r for some i in s}.
func (r Rel) Image(s Set) Set {
	out := Set(r.al.words(r.w))
	for wi, x := range s {
		for ; x != 0; x &= x - 1 {
			k := wi*64 + bits.TrailingZeros64(x)
			for t, y := range r.b[k*r.w : (k+1)*r.w] {
				out[t] |= y
			}
		}
	}
	return out
}
