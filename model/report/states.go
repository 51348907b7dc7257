package report

import (
	"bytes"
	"hash/maphash"
	"iter"
	"math/bits"
	"slices"
	"strings"
)

// This file keeps final states in their information size. A state is a
// row of codes, one per observed location: the code is the value's rank
// among the distinct values that location takes, in as many bits as
// those values need (a location that always holds the same value takes
// none), and a row is the codes packed big-endian, the first location in
// the highest bits. A 19-register state of one-bit values is then 3
// bytes, and comparing two rows byte by byte compares their codes
// location by location: once codes are ranks, sorting the rows is
// herd's order of the states.

// StateSet collects the distinct final states of one search, over the
// values V an engine computes with (its own value type, so that adding a
// state converts nothing). It holds per state its packed row and 8
// bytes of hash table; Bytes says how much in all.
type StateSet[V comparable] struct {
	dict  []map[V]uint32 // per location: value to code, first seen first
	vals  [][]V          // per location: code to value
	lay   layout
	rows  []byte   // the rows, lay.size bytes each, in the order added
	n     int      // number of rows
	table []uint32 // open addressing over rows: 0 empty, else row+1
	seed  maphash.Seed
	codes []uint32
	row   []byte
}

// NewStateSet returns an empty set of states over cols locations.
func NewStateSet[V comparable](cols int) *StateSet[V] {
	s := &StateSet[V]{dict: make([]map[V]uint32, cols), vals: make([][]V, cols), seed: maphash.MakeSeed(), codes: make([]uint32, cols)}
	for i := range s.dict {
		s.dict[i] = map[V]uint32{}
	}
	s.lay = newLayout(make([]uint8, cols))
	s.table = make([]uint32, 64)
	return s
}

// Len returns the number of distinct states added.
func (s *StateSet[V]) Len() int { return s.n }

// Bytes returns what the set holds, roughly: its rows, its hash table
// and its dictionaries (counted at 64 bytes a value).
func (s *StateSet[V]) Bytes() uint64 {
	n := uint64(cap(s.rows)) + 4*uint64(len(s.table))
	for _, v := range s.vals {
		n += 64 * uint64(len(v))
	}
	return n
}

// Add adds the state whose value at location i is row[i], and reports
// whether it was new.
func (s *StateSet[V]) Add(row []V) bool {
	grow := false
	for i, v := range row {
		c, ok := s.dict[i][v]
		if !ok {
			c = uint32(len(s.vals[i]))
			s.dict[i][v] = c
			s.vals[i] = append(s.vals[i], v)
			if bits.Len32(c) > int(s.lay.width[i]) {
				grow = true
			}
		}
		s.codes[i] = c
	}
	if grow {
		s.relayout()
	}
	s.row = s.lay.pack(s.row[:0], s.codes)
	h := s.hash(s.row)
	mask := uint64(len(s.table) - 1)
	for k := h & mask; ; k = (k + 1) & mask {
		r := s.table[k]
		if r == 0 {
			s.table[k] = uint32(s.n + 1)
			s.rows = append(s.rows, s.row...)
			s.n++
			if 2*s.n > len(s.table) {
				s.rehash(2 * len(s.table))
			}
			return true
		}
		if bytes.Equal(s.at(int(r-1)), s.row) {
			return false
		}
	}
}

// Each calls f with each state added, in the order added (row is
// reused between calls).
func (s *StateSet[V]) Each(f func(row []V)) {
	codes := make([]uint32, len(s.vals))
	row := make([]V, len(s.vals))
	for i := 0; i < s.n; i++ {
		s.lay.unpack(s.at(i), codes)
		for c, code := range codes {
			row[c] = s.vals[c][code]
		}
		f(row)
	}
}

func (s *StateSet[V]) hash(row []byte) uint64 { return maphash.Bytes(s.seed, row) }

func (s *StateSet[V]) at(i int) []byte { return s.rows[i*s.lay.size : (i+1)*s.lay.size] }

// rehash rebuilds the table at size n (a power of two).
func (s *StateSet[V]) rehash(n int) {
	s.table = make([]uint32, n)
	mask := uint64(n - 1)
	for i := 0; i < s.n; i++ {
		k := s.hash(s.at(i)) & mask
		for s.table[k] != 0 {
			k = (k + 1) & mask
		}
		s.table[k] = uint32(i + 1)
	}
}

// relayout widens the codes of the locations whose values no longer fit
// and repacks every row: at most a few dozen times over a search, since
// a width doubles the values it holds.
func (s *StateSet[V]) relayout() {
	w := make([]uint8, len(s.vals))
	for i, v := range s.vals {
		w[i] = uint8(bits.Len32(uint32(len(v) - 1)))
	}
	nl := newLayout(w)
	rows := make([]byte, 0, s.n*nl.size)
	codes := make([]uint32, len(w))
	for i := 0; i < s.n; i++ {
		s.lay.unpack(s.at(i), codes)
		rows = nl.pack(rows, codes)
	}
	s.lay, s.rows = nl, rows
	s.rehash(len(s.table))
}

// States returns the set's states in herd's order, the set's storage
// reused: locs are the locations' names, value gives the printed value
// of a location's value, and less orders two values of one location as
// herd orders them (a strict total order on its distinct values).
func (s *StateSet[V]) States(locs []string, value func(col int, v V) Value, less func(col int, a, b V) bool) States {
	if s.n == 0 {
		return States{}
	}
	cols := len(s.vals)
	rank := make([][]uint32, cols)
	vals := make([][]Value, cols)
	for c, vs := range s.vals {
		order := make([]uint32, len(vs))
		for i := range order {
			order[i] = uint32(i)
		}
		slices.SortFunc(order, func(a, b uint32) int {
			switch {
			case less(c, vs[a], vs[b]):
				return -1
			case less(c, vs[b], vs[a]):
				return 1
			}
			return 0
		})
		rank[c] = make([]uint32, len(vs))
		vals[c] = make([]Value, len(vs))
		for r, code := range order {
			rank[c][code] = uint32(r)
			vals[c][r] = value(c, vs[code])
		}
	}
	codes := make([]uint32, cols)
	for i := 0; i < s.n; i++ {
		row := s.at(i)
		s.lay.unpack(row, codes)
		for c := range codes {
			codes[c] = rank[c][codes[c]]
		}
		clear(row)
		s.lay.pack(row[:0], codes)
	}
	idx := make([]uint32, s.n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	slices.SortFunc(idx, func(a, b uint32) int { return bytes.Compare(s.at(int(a)), s.at(int(b))) })
	rows := make([]byte, 0, len(s.rows))
	for _, i := range idx {
		rows = append(rows, s.at(int(i))...)
	}
	st := States{locs: slices.Clone(locs), vals: vals, lay: s.lay, rows: rows, n: s.n}
	s.rows, s.table, s.dict, s.vals, s.n = nil, nil, nil, nil, 0
	return st
}

// States are final states over the same locations, distinct and in
// herd's order, packed (StateSet). The zero value holds none. Two sets of
// the same states are equal values (reflect.DeepEqual).
type States struct {
	locs []string
	vals [][]Value // per location: the values it takes, in herd's order
	lay  layout
	rows []byte
	n    int
}

// PackStates returns sts (all over the same locations) packed, distinct
// and in the order less gives each location's values.
func PackStates(sts []State, less func(col int, a, b Value) bool) States {
	if len(sts) == 0 {
		return States{}
	}
	locs := make([]string, len(sts[0].Values))
	for i, lv := range sts[0].Values {
		locs[i] = lv.Loc
	}
	set := NewStateSet[Value](len(locs))
	row := make([]Value, len(locs))
	for _, st := range sts {
		for i, lv := range st.Values {
			row[i] = lv.Val
		}
		set.Add(row)
	}
	return set.States(locs, func(_ int, v Value) Value { return v }, less)
}

// Len returns the number of states.
func (s States) Len() int { return s.n }

// Locs returns the locations' names, herd's columns (nil when there is
// no state).
func (s States) Locs() []string { return s.locs }

// Value returns the value of location col in state i.
func (s States) Value(i, col int) Value {
	return s.vals[col][s.lay.code(s.rows[i*s.lay.size:(i+1)*s.lay.size], col)]
}

// At returns state i, unpacked.
func (s States) At(i int) State {
	st := State{Values: make([]LocValue, len(s.locs))}
	for c, l := range s.locs {
		st.Values[c] = LocValue{Loc: l, Val: s.Value(i, c)}
	}
	return st
}

// All yields each state, unpacked, with its index.
func (s States) All() iter.Seq2[int, State] {
	return func(yield func(int, State) bool) {
		for i := 0; i < s.n; i++ {
			if !yield(i, s.At(i)) {
				return
			}
		}
	}
}

// Slice returns the states unpacked (for small sets: tests, reports).
func (s States) Slice() []State {
	out := make([]State, s.n)
	for i := range out {
		out[i] = s.At(i)
	}
	return out
}

// AppendLine appends state i as one herd state line, "0:r0=1; [x]=2;",
// without unpacking it.
func (s States) AppendLine(b []byte, i int) []byte {
	for c, l := range s.locs {
		b = appendBinding(b, c, l, s.Value(i, c))
	}
	return b
}

// Line returns state i as one herd state line.
func (s States) Line(i int) string { return string(s.AppendLine(nil, i)) }

// String prints the states one herd line each.
func (s States) String() string {
	var b strings.Builder
	var line []byte
	for i := 0; i < s.n; i++ {
		line = s.AppendLine(line[:0], i)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// Bytes returns roughly what s holds.
func (s States) Bytes() uint64 {
	n := uint64(len(s.rows))
	for _, v := range s.vals {
		n += 48 * uint64(len(v))
	}
	return n
}

// layout places each location's code in a row: width[i] bits at bit
// offset off[i] from the row's most significant bit.
type layout struct {
	width []uint8
	off   []int
	size  int // bytes per row
}

func newLayout(width []uint8) layout {
	l := layout{width: width, off: make([]int, len(width))}
	n := 0
	for i, w := range width {
		l.off[i] = n
		n += int(w)
	}
	l.size = (n + 7) / 8
	return l
}

// pack appends the row of codes to b.
func (l layout) pack(b []byte, codes []uint32) []byte {
	start := len(b)
	b = append(b, make([]byte, l.size)...)
	row := b[start:]
	for i, c := range codes {
		for k := int(l.width[i]) - 1; k >= 0; k-- {
			if c>>uint(k)&1 != 0 {
				bit := l.off[i] + int(l.width[i]) - 1 - k
				row[bit/8] |= 0x80 >> uint(bit%8)
			}
		}
	}
	return b
}

// unpack reads a row's codes into codes.
func (l layout) unpack(row []byte, codes []uint32) {
	for i := range codes {
		codes[i] = l.code(row, i)
	}
}

// code returns location i's code in row.
func (l layout) code(row []byte, i int) uint32 {
	var c uint32
	for bit, end := l.off[i], l.off[i]+int(l.width[i]); bit < end; bit++ {
		c = c<<1 | uint32(row[bit/8]>>uint(7-bit%8)&1)
	}
	return c
}
