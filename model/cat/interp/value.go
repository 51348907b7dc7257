package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat"
)

// Value is a value of the cat language, as herd's interpreter has them:
// the polymorphic empty set 0, the universe _, a set of events, a relation
// over events, an event, a pair of events, a tag, a tuple, a set of other
// values, a function (closure or primitive), a procedure, and the lazy
// sets of relations the co generation builds (lin, product).
type Value interface{}

type (
	emptyV    struct{}
	universeV struct{}
	setV      struct{ s axiom.Set }
	relV      struct{ r axiom.Rel }
	eventV    int
	pairV     [2]int
	tagV      struct{ typ, name string }
	// tupleV is a tuple; a Value holds a *tupleV (from the
	// evaluator's chunks, so that a tuple allocates nothing).
	tupleV []Value
	// valSetV is a set of values of one type, sorted by compareValues and
	// without duplicates.
	valSetV  []Value
	closureV struct {
		params cat.Pat
		body   cat.Expr
		env    *scope // the values of its free variables, captured at creation
		name   string
		file   *loadedFile
	}
	primV struct {
		name string
		fn   func(ev *evaluator, arg Value) (Value, error)
		// mapOf, when not nil, makes the value map's partial
		// application "map f" (fn unused): applied to a set it is
		// mapSet(mapOf, set).
		mapOf Value
	}
	procV struct {
		params cat.Pat
		body   []cat.Stmt
		env    *scope
		file   *loadedFile
	}
	// linV is linearisations(S, r): the total orders of the events of S
	// that extend r, computed only when enumerated.
	linV struct {
		ws     []int     // the events, in increasing order
		before axiom.Rel // r restricted to ws
		id     int       // creation number, for ordering and equality
	}
	// productV is cross(S1, ..., Sn): the unions of one member of each
	// component, enumerated lazily (with pruning) by "with ... from".
	productV struct {
		comps []Value // each a valSetV of relations, or a linV
		id    int
	}
)

var (
	theEmpty    Value = emptyV{}
	theUniverse Value = universeV{}
)

// typeName names the type of v in messages, in herd's words.
func typeName(v Value) string {
	switch v := v.(type) {
	case emptyV:
		return "empty"
	case universeV:
		return "universe"
	case *setV:
		return "event set"
	case *relV:
		return "relation"
	case eventV:
		return "event"
	case pairV:
		return "pair"
	case tagV:
		return "tag"
	case *tupleV:
		return "tuple"
	case valSetV:
		if len(v) > 0 {
			return "set of " + typeName(v[0])
		}
		return "set"
	case *closureV, *primV:
		return "function"
	case *procV:
		return "procedure"
	case *linV, *productV:
		return "set of relations"
	}
	return fmt.Sprintf("%T", v)
}

// typeRank orders values of different types.
func typeRank(v Value) int {
	switch v.(type) {
	case emptyV:
		return 0
	case universeV:
		return 1
	case eventV:
		return 2
	case pairV:
		return 3
	case tagV:
		return 4
	case *setV:
		return 5
	case *relV:
		return 6
	case *tupleV:
		return 7
	case valSetV:
		return 8
	case *linV:
		return 9
	case *productV:
		return 10
	}
	return 11
}

// compareValues is a total order on values, for sets of values.
func compareValues(a, b Value) int {
	ra, rb := typeRank(a), typeRank(b)
	if ra != rb {
		// An empty event set or relation equals 0.
		if isEmptyValue(a) && isEmptyValue(b) {
			return 0
		}
		return ra - rb
	}
	switch a := a.(type) {
	case eventV:
		return int(a) - int(b.(eventV))
	case pairV:
		b := b.(pairV)
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	case tagV:
		b := b.(tagV)
		if a.typ != b.typ {
			return strings.Compare(a.typ, b.typ)
		}
		return strings.Compare(a.name, b.name)
	case *setV:
		return compareWords(a.s, b.(*setV).s)
	case *relV:
		return compareWords(a.r.Words(), b.(*relV).r.Words())
	case *tupleV:
		ta, tb := *a, *b.(*tupleV)
		for i := 0; i < len(ta) && i < len(tb); i++ {
			if c := compareValues(ta[i], tb[i]); c != 0 {
				return c
			}
		}
		return len(ta) - len(tb)
	case valSetV:
		b := b.(valSetV)
		for i := 0; i < len(a) && i < len(b); i++ {
			if c := compareValues(a[i], b[i]); c != 0 {
				return c
			}
		}
		return len(a) - len(b)
	case *linV:
		return a.id - b.(*linV).id
	case *productV:
		return a.id - b.(*productV).id
	}
	return 0
}

func compareWords(a, b []uint64) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// isEmptyValue reports whether v is 0, an empty event set or relation,
// or an empty set of values.
func isEmptyValue(v Value) bool {
	switch v := v.(type) {
	case emptyV:
		return true
	case *setV:
		return v.s.Empty()
	case *relV:
		return v.r.Empty()
	case valSetV:
		return len(v) == 0
	}
	return false
}

// newValSet returns the set of vs: sorted, without duplicates (the first
// of equal values is kept).
func newValSet(vs []Value) valSetV {
	slices.SortStableFunc(vs, compareValues)
	out := vs[:0]
	for i, v := range vs {
		if i > 0 && compareValues(out[len(out)-1], v) == 0 {
			continue
		}
		out = append(out, v)
	}
	return valSetV(out)
}

// String prints a value for messages and debug.
func formatValue(v Value, x *axiom.Execution) string {
	ev := func(i int) string {
		if x == nil || i >= len(x.Ev) {
			return fmt.Sprintf("e%d", i)
		}
		return fmt.Sprintf("e%d", i)
	}
	switch v := v.(type) {
	case emptyV:
		return "0"
	case universeV:
		return "_"
	case *setV:
		var parts []string
		v.s.Each(func(i int) { parts = append(parts, ev(i)) })
		return "{" + strings.Join(parts, ", ") + "}"
	case *relV:
		var parts []string
		for _, p := range v.r.Pairs() {
			parts = append(parts, "("+ev(p[0])+","+ev(p[1])+")")
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case eventV:
		return ev(int(v))
	case pairV:
		return "(" + ev(v[0]) + "," + ev(v[1]) + ")"
	case tagV:
		return "'" + v.name
	case *tupleV:
		var parts []string
		for _, e := range *v {
			parts = append(parts, formatValue(e, x))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case valSetV:
		var parts []string
		for _, e := range v {
			parts = append(parts, formatValue(e, x))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "<" + typeName(v) + ">"
}

// boxes hands out the *relV and *setV values, the thunks, scopes and
// lazy sets of relations of an evaluation, and the members of its tuples
// and sets of values, from chunks that are reused, as the arena reuses
// relation words: a value or binding made for one candidate is dropped
// with it, and boxing a relation in an interface allocates nothing.
type boxes struct {
	rels     slab[relV]
	sets     slab[setV]
	thunks   slab[thunk]
	scopes   slab[scope]
	lins     slab[linV]
	prods    slab[productV]
	tups     slab[tupleV]
	closures slab[closureV]
	prims    slab[primV] // partial applications of map
	// The bindings of scopes larger than a scope's own room.
	names slab[string]
	thps  slab[*thunk]
	vals  slab[Value] // the members of tuples and sets of values
	ints  slab[int]   // the events of linearisations
}

const boxChunk = 1024

// slab hands out values of type T from reused chunks; i and j are the
// next free one (chunk i, index j).
type slab[T any] struct {
	chunks [][]T
	i, j   int
}

// slabMark is a point to free a slab back to.
type slabMark struct{ i, j int }

func (s *slab[T]) mark() slabMark   { return slabMark{s.i, s.j} }
func (s *slab[T]) reset(m slabMark) { s.i, s.j = m.i, m.j }

// one returns a value of the slab (not cleared).
func (s *slab[T]) one() *T {
	if s.i == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, boxChunk))
	}
	p := &s.chunks[s.i][s.j]
	if s.j++; s.j == boxChunk {
		s.i, s.j = s.i+1, 0
	}
	return p
}

// many returns room for n values, of length n (not cleared).
func (s *slab[T]) many(n int) []T {
	if n > boxChunk {
		return make([]T, n)
	}
	for {
		if s.i == len(s.chunks) {
			s.chunks = append(s.chunks, make([]T, boxChunk))
		}
		if s.j+n <= boxChunk {
			t := s.chunks[s.i][s.j : s.j+n : s.j+n]
			s.j += n
			return t
		}
		s.i, s.j = s.i+1, 0
	}
}

func (b *boxes) rel() *relV    { return b.rels.one() }
func (b *boxes) set() *setV    { return b.sets.one() }
func (b *boxes) thunk() *thunk { return b.thunks.one() }
func (b *boxes) scope() *scope { return b.scopes.one() }

// tuple returns a tuple of n members (not set).
func (b *boxes) tuple(n int) *tupleV {
	t := b.tups.one()
	*t = b.vals.many(n)
	return t
}

// asTuple returns the members of a tuple value.
func asTuple(v Value) (tupleV, bool) {
	if t, ok := v.(*tupleV); ok {
		return *t, true
	}
	return nil, false
}

// evalMark is a point to free an evaluation's allocations back to.
type evalMark struct {
	al                                                                                      axiom.ArenaMark
	rels, sets, thunks, scopes, lins, prods, tups, closures, prims, names, thps, vals, ints slabMark
}

func (ev *evaluator) mark() evalMark {
	b := &ev.bx
	return evalMark{ev.al.Mark(), b.rels.mark(), b.sets.mark(), b.thunks.mark(), b.scopes.mark(), b.lins.mark(), b.prods.mark(), b.tups.mark(), b.closures.mark(), b.prims.mark(), b.names.mark(), b.thps.mark(), b.vals.mark(), b.ints.mark()}
}

func (ev *evaluator) reset(m evalMark) {
	ev.al.Reset(m.al)
	b := &ev.bx
	b.rels.reset(m.rels)
	b.sets.reset(m.sets)
	b.thunks.reset(m.thunks)
	b.scopes.reset(m.scopes)
	b.lins.reset(m.lins)
	b.prods.reset(m.prods)
	b.tups.reset(m.tups)
	b.closures.reset(m.closures)
	b.prims.reset(m.prims)
	b.names.reset(m.names)
	b.thps.reset(m.thps)
	b.vals.reset(m.vals)
	b.ints.reset(m.ints)
}

// newScope returns an empty scope over parent from the evaluation's
// chunks. Its first bindings use the room the scope has.
func (ev *evaluator) newScope(parent *scope) *scope {
	s := ev.bx.scope()
	*s = scope{parent: parent}
	s.names, s.vals = s.nb[:0], s.vb[:0]
	return s
}

// newScopeCap is newScope with room for n bindings.
func (ev *evaluator) newScopeCap(parent *scope, n int) *scope {
	s := ev.newScope(parent)
	if n > len(s.nb) {
		s.names, s.vals = ev.bx.names.many(n)[:0], ev.bx.thps.many(n)[:0]
	}
	return s
}

// valueThunk is valueThunk(v) from the evaluation's chunks.
func (ev *evaluator) valueThunk(v Value) *thunk {
	th := ev.bx.thunk()
	*th = thunk{v: v, state: 2}
	return th
}

// lazyThunk returns a thunk that evaluates e in sc when forced, from the
// evaluation's chunks.
func (ev *evaluator) lazyThunk(e cat.Expr, sc *scope, file *loadedFile) *thunk {
	th := ev.bx.thunk()
	*th = thunk{expr: e, env: sc, file: file}
	return th
}

func (ev *evaluator) relv(r axiom.Rel) *relV {
	p := ev.bx.rel()
	p.r = r
	return p
}

func (ev *evaluator) setv(s axiom.Set) *setV {
	p := ev.bx.set()
	p.s = s
	return p
}
