package op

import (
	"encoding/binary"
	"hash/maphash"
)

// mstate is one state of a machine: shared memory and every thread. It is
// a value: apply copies it before changing anything (exec.go), and the
// visited set keeps only its compact encoding.
type mstate struct {
	mem []val
	th  []tstate
}

// tstate is one thread's part of a state.
type tstate struct {
	pc   int
	regs []val
	// buf is the thread's store buffer, oldest first. TSO drains only the
	// head; PSO drains the oldest entry of any location, up to the first
	// store-fence boundary (entry.fenced).
	buf []entry
	// fencePending (PSO) records a store fence executed while the buffer
	// was not empty: the next store starts a new group.
	fencePending bool
	rcu          []uint8 // read-side nesting depth per RCU domain
	// active has bit d set while a read-side critical section of domain d
	// counts as running for grace periods: from its outermost lock until
	// its outermost unlock reaches memory (exec.go, rcuEnd).
	active uint64
	wait   uint64 // grace period in progress: the threads it still waits for
}

// entry is one buffered store.
type entry struct {
	loc    int
	v      val
	fenced bool // PSO: a store fence separates it from every earlier entry
}

func (s *mstate) clone() *mstate {
	c := &mstate{}
	copyState(c, s)
	return c
}

// copyState makes dst a deep copy of src, reusing dst's storage.
func copyState(dst, src *mstate) {
	dst.mem = append(dst.mem[:0], src.mem...)
	if cap(dst.th) < len(src.th) {
		dst.th = make([]tstate, len(src.th))
	}
	dst.th = dst.th[:len(src.th)]
	for i := range src.th {
		d, s := &dst.th[i], &src.th[i]
		d.pc = s.pc
		d.regs = append(d.regs[:0], s.regs...)
		d.buf = append(d.buf[:0], s.buf...)
		d.fencePending = s.fencePending
		d.rcu = append(d.rcu[:0], s.rcu...)
		d.active = s.active
		d.wait = s.wait
	}
}

// encode appends the canonical encoding of s to b. Two states that behave
// the same have the same encoding: nothing else is stored.
func encode(b []byte, s *mstate) []byte {
	for _, v := range s.mem {
		b = binary.AppendVarint(b, v)
	}
	for i := range s.th {
		t := &s.th[i]
		b = binary.AppendUvarint(b, uint64(t.pc))
		for _, v := range t.regs {
			b = binary.AppendVarint(b, v)
		}
		n := uint64(len(t.buf)) << 1
		if t.fencePending {
			n |= 1
		}
		b = binary.AppendUvarint(b, n)
		for _, e := range t.buf {
			l := uint64(e.loc) << 1
			if e.fenced {
				l |= 1
			}
			b = binary.AppendUvarint(b, l)
			b = binary.AppendVarint(b, e.v)
		}
		b = append(b, t.rcu...)
		b = binary.AppendUvarint(b, t.active)
		b = binary.AppendUvarint(b, t.wait)
	}
	return b
}

// decode reads an encoding made by encode into s, whose shape (number of
// locations, threads, registers and domains) must already be set.
func decode(b []byte, s *mstate) {
	for i := range s.mem {
		v, n := binary.Varint(b)
		s.mem[i], b = v, b[n:]
	}
	for i := range s.th {
		t := &s.th[i]
		pc, n := binary.Uvarint(b)
		t.pc, b = int(pc), b[n:]
		for j := range t.regs {
			v, n := binary.Varint(b)
			t.regs[j], b = v, b[n:]
		}
		ln, n := binary.Uvarint(b)
		b = b[n:]
		t.fencePending = ln&1 != 0
		t.buf = t.buf[:0]
		for k := uint64(0); k < ln>>1; k++ {
			l, n := binary.Uvarint(b)
			b = b[n:]
			v, n := binary.Varint(b)
			b = b[n:]
			t.buf = append(t.buf, entry{loc: int(l >> 1), v: v, fenced: l&1 != 0})
		}
		copy(t.rcu, b[:len(t.rcu)])
		b = b[len(t.rcu):]
		a, n := binary.Uvarint(b)
		t.active, b = a, b[n:]
		w, n := binary.Uvarint(b)
		t.wait, b = w, b[n:]
	}
}

// stateSet is the visited set: every state's encoding in an arena of
// fixed-size chunks, an open-addressing table of state numbers, and
// equality on the bytes. A state's number is its insertion order, which
// for a breadth-first search is also non-decreasing depth order.
//
// The arena grows a chunk at a time rather than by copying one ever
// larger array: a copy would hold the old and the new array at once, and
// the memory cap (internal/limit) could not stop a search before such a
// jump.
type stateSet struct {
	seed   maphash.Seed
	chunks [][]byte
	// pos[i] locates state i: its chunk in the high 32 bits, its offset
	// there in the low ones. The encoding is stored after its length, a
	// uvarint.
	pos   []uint64
	table []uint32 // 0 empty, else state number + 1
	mask  uint64
	bytes int64 // of the chunks
}

// Arena chunks start small, double up to maxChunk and stay there; an
// encoding longer than a chunk gets a chunk of its own.
const (
	firstChunk = 1 << 10
	maxChunk   = 4 << 20
)

func newStateSet() *stateSet {
	s := &stateSet{seed: maphash.MakeSeed()}
	s.table = make([]uint32, 1<<10)
	s.mask = uint64(len(s.table) - 1)
	return s
}

// Len returns the number of states.
func (s *stateSet) Len() int { return len(s.pos) }

// get returns the encoding of state i.
func (s *stateSet) get(i int) []byte {
	p := s.pos[i]
	c := s.chunks[p>>32][p&(1<<32-1):]
	n, k := binary.Uvarint(c)
	return c[k : k+int(n)]
}

// add stores key in the arena and returns its position.
func (s *stateSet) add(key []byte) uint64 {
	need := binary.MaxVarintLen64 + len(key)
	last := len(s.chunks) - 1
	if last < 0 || cap(s.chunks[last])-len(s.chunks[last]) < need {
		size := firstChunk
		if last >= 0 {
			size = min(2*cap(s.chunks[last]), maxChunk)
		}
		s.chunks = append(s.chunks, make([]byte, 0, max(size, need)))
		last++
		s.bytes += int64(cap(s.chunks[last]))
	}
	c := s.chunks[last]
	p := uint64(last)<<32 | uint64(len(c))
	c = binary.AppendUvarint(c, uint64(len(key)))
	s.chunks[last] = append(c, key...)
	return p
}

// insert adds the encoding key and returns its state number and whether
// it was new.
func (s *stateSet) insert(key []byte) (int, bool) {
	h := maphash.Bytes(s.seed, key)
	for i := h & s.mask; ; i = (i + 1) & s.mask {
		e := s.table[i]
		if e == 0 {
			id := s.Len()
			s.pos = append(s.pos, s.add(key))
			s.table[i] = uint32(id + 1)
			if uint64(s.Len())*4 > uint64(len(s.table))*3 {
				s.grow()
			}
			return id, true
		}
		if string(s.get(int(e-1))) == string(key) {
			return int(e - 1), false
		}
	}
}

func (s *stateSet) grow() {
	t := make([]uint32, len(s.table)*2)
	mask := uint64(len(t) - 1)
	for id := 0; id < s.Len(); id++ {
		h := maphash.Bytes(s.seed, s.get(id))
		i := h & mask
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = uint32(id + 1)
	}
	s.table, s.mask = t, mask
}

// growBytes returns the bytes that inserting one more new state may
// allocate at once: a bigger position array, a bigger table.
func (s *stateSet) growBytes() uint64 {
	g := growth(len(s.pos), cap(s.pos), 8)
	if uint64(s.Len()+1)*4 > uint64(len(s.table))*3 {
		g += uint64(len(s.table)) * 2 * 4
	}
	return g
}

// growth returns the bytes of the new array that appending one element
// to a slice of length n and capacity c, with elements of sz bytes,
// allocates (about a quarter more than c, as append grows large
// slices), or 0 when the element fits.
func growth(n, c, sz int) uint64 {
	if n < c {
		return 0
	}
	return uint64(c+c/4+256) * uint64(sz)
}

// size returns the memory the set holds.
func (s *stateSet) size() int64 {
	return s.bytes + int64(cap(s.pos))*8 + int64(cap(s.table))*4
}
