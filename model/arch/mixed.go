package arch

import (
	"errors"
	"fmt"
	"sort"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// This file gives mixed-size tests their meaning (herd's -variant mixed):
// a test that accesses a location with several sizes, or at an offset.
// herd splits memory into granules of one size chosen per test; every
// access is the events of the granules it covers, one single-copy-atomic
// access; a read takes the granules it covers from writes chosen access
// by access (smaller writes first), and so do the final values. The
// rules are those of herd 7.58 (docs/arch.md, "Mixed-size").

// MixedError says that a test turned out to be mixed-size while it was
// being given a non-mixed meaning: the caller builds the program again
// with Options.Mixed.
type MixedError struct{ Err error }

func (e *MixedError) Error() string { return e.Err.Error() }
func (e *MixedError) Unwrap() error { return e.Err }

// IsMixed reports whether err says the test is a mixed-size test.
func IsMixed(err error) bool {
	var me *MixedError
	return errors.As(err, &me)
}

// mixedInfo is the granule layout of a mixed-size program.
type mixedInfo struct {
	g       int              // the granule size in bytes
	symbols []string         // the symbols (herd's locations), sorted; an array is one symbol
	size    map[string]int   // each symbol's size: its declared type's, 4 (int) when none; an array's all cells
	gran    map[string][]int // each symbol's granules, as program locations, by address
	symOf   []int            // the symbol of each location
	offOf   []int            // the byte offset of each location in its symbol
	// cells gives, for each cell of an array (x[1]) and for an array's
	// own name (its first cell, as without mixed sizes), the granules of
	// that cell: what the final section observes under that name.
	cells map[string][]int
	// arrays reports whether the test has an array: herd 7.58 then
	// gives the final values granule by granule (all_finals_mixed
	// raises CannotSca on the initial write of an array cell and falls
	// back to all_finals_non_mixed), so finalOK does not apply.
	arrays bool
}

// granule computes herd's granule size for a test: the smallest size
// among the declared types of the locations and the access sizes of the
// instructions (LDAR, LDAPR, LDXR and LDAXR do not count, as in herd);
// half of it when there is only one size; one byte when there is none.
func granule(t *litmus.Test) int {
	sizes := map[int]bool{}
	for _, it := range t.Init {
		if it.Proc < 0 && it.Type != "" {
			sizes[litmus.TypeSize(it.Type, litmus.Herd)] = true
		}
	}
	for _, pr := range t.Procs {
		for _, in := range pr.Code {
			switch in.Mnemonic {
			case "LDAR", "LDAPR", "LDXR", "LDAXR":
				continue
			}
			if s := a64Size(in.Mnemonic, in.Args); s > 0 {
				sizes[s] = true
			}
		}
	}
	var ss []int
	for s := range sizes {
		ss = append(ss, s)
	}
	sort.Ints(ss)
	switch len(ss) {
	case 0:
		return 1
	case 1:
		return max(1, ss[0]/2)
	}
	return ss[0]
}

// mixedUnit is what herd writes initially as one access: a scalar
// symbol, or one cell of an array.
type mixedUnit struct {
	sym       string // the symbol it belongs to
	name      string // its name in the init section: the symbol's, or x[i]
	off, size int    // its byte offset in the symbol and its size
}

// layoutMixed splits the program's locations into granules. An array
// (uint8_t x[128]) is one symbol of all its cells, laid out one after
// the other, as in herd: an access may cover parts of several cells, and
// the cells' bounds only matter to the initial writes, one per cell
// (initwrites_mixed).
func (p *program) layoutMixed(ap *axiom.Program, init map[string]axiom.Val) error {
	t := p.test
	mi := &mixedInfo{g: granule(t), size: map[string]int{}, gran: map[string][]int{}, cells: map[string][]int{}}
	elem := map[string]int{} // each array's element size
	var units []mixedUnit
	for _, n := range p.names {
		if _, ok := p.arrays[p.index[n]]; ok {
			continue
		}
		mi.symbols = append(mi.symbols, n)
		mi.size[n] = 4
	}
	for _, it := range t.Init {
		if it.Proc >= 0 || it.Type == "" {
			continue
		}
		size := litmus.TypeSize(it.Type, litmus.Herd)
		if it.Len > 0 {
			mi.arrays = true
			mi.symbols = append(mi.symbols, it.Name)
			elem[it.Name] = size
			size *= it.Len
		}
		mi.size[it.Name] = size
	}
	sort.Strings(mi.symbols)
	for _, n := range mi.symbols {
		es, ok := elem[n]
		if !ok {
			units = append(units, mixedUnit{sym: n, name: n, size: mi.size[n]})
			continue
		}
		for i := 0; i*es < mi.size[n]; i++ {
			units = append(units, mixedUnit{sym: n, name: fmt.Sprintf("%s[%d]", n, i), off: i * es, size: es})
		}
	}
	var names []string
	index := map[string]int{}
	for si, n := range mi.symbols {
		size := mi.size[n]
		small := size
		if es, ok := elem[n]; ok {
			small = es
		}
		if small < mi.g {
			return fmt.Errorf("%s: location %s (%d bytes) is smaller than the granule of this mixed-size test (%d bytes)", t.Name, n, small, mi.g)
		}
		for off := 0; off < size; off += mi.g {
			if len(names)&4095 == 4095 {
				if err := p.opt.Budget.Err(); err != nil {
					return err // a large array is many granules
				}
			}
			name := n
			if off > 0 {
				name = fmt.Sprintf("%s+%d", n, off)
			}
			index[name] = len(names)
			mi.gran[n] = append(mi.gran[n], len(names))
			mi.symOf = append(mi.symOf, si)
			mi.offOf = append(mi.offOf, off)
			names = append(names, name)
		}
	}
	ap.Names, ap.Index = names, index
	ap.Init = make([]axiom.Val, len(names))
	ap.InitAccess = make([]int, len(names))
	ap.InitSize = make([]int, len(names))
	bits := 8 * uint(mi.g)
	for ui, u := range units {
		v := init[u.name]
		locs := mi.gran[u.sym][u.off/mi.g : (u.off+u.size)/mi.g]
		if u.name != u.sym {
			mi.cells[u.name] = locs
			if u.off == 0 {
				mi.cells[u.sym] = locs
			}
		}
		for k, l := range locs {
			ap.InitAccess[l], ap.InitSize[l] = ui+1, u.size
			if v.IsAddr() {
				ap.Init[l] = v
				continue
			}
			chunk := v.N >> (bits * uint(k))
			if bits < 64 {
				chunk &= 1<<bits - 1
			}
			ap.Init[l] = axiom.Int(chunk)
		}
	}
	ap.Granule = mi.g
	ap.Symbol = func(name string) ([]int, bool) {
		if locs, ok := mi.cells[name]; ok {
			return locs, true
		}
		locs, ok := mi.gran[name]
		return locs, ok
	}
	ap.RFOK = mi.rfOK
	if !mi.arrays {
		ap.FinalOK = mi.finalOK
	}
	p.mixed = mi
	return nil
}

// addrOf returns the address of symbol name (or of an array's cell): its
// first granule.
func (mi *mixedInfo) addrOf(name string) (axiom.Val, bool) {
	locs, ok := mi.cells[name]
	if !ok {
		locs, ok = mi.gran[name]
	}
	if !ok {
		return axiom.Val{}, false
	}
	return axiom.Addr(locs[0]), true
}

// granules returns the locations an access of size bytes at address a
// covers, checking that it is aligned and within its symbol as herd
// requires.
func (m *machine) granules(a axiom.Val, size int) ([]int, bool) {
	mi := m.th.p.mixed
	if !a.IsAddr() {
		m.dead = true
		return nil, false
	}
	first := a.Loc()
	sym := mi.symbols[mi.symOf[first]]
	off := mi.offOf[first] + int(a.N)
	ssize := mi.size[sym]
	if size <= 0 {
		size = mi.g
	}
	if off < 0 || off%size != 0 || off+size > ssize || size < mi.g {
		m.fail(m.in.Pos(), "unaligned or out-of-bound access: %s+%d, %d bytes", sym, off, size)
		return nil, false
	}
	locs := mi.gran[sym]
	var out []int
	for k := off / mi.g; k < (off+size)/mi.g; k++ {
		out = append(out, locs[k])
	}
	return out, true
}

// accessKey names the access an event belongs to: its thread and access
// number, or its symbol's initial access.
type accessKey struct{ thread, access int }

func keyOf(x *axiom.Execution, e int) accessKey {
	ev := x.Ev[e]
	return accessKey{x.Thread[e], ev.Access}
}

// covers returns, for each access of x, the locations it covers.
func covers(x *axiom.Execution) map[accessKey]map[int]bool {
	out := map[accessKey]map[int]bool{}
	for i, e := range x.Ev {
		if e.Kind != axiom.KindW && e.Kind != axiom.KindR {
			continue
		}
		k := keyOf(x, i)
		if out[k] == nil {
			out[k] = map[int]bool{}
		}
		out[k][e.Loc] = true
	}
	return out
}

// rfOK checks herd's choice of writes for each read access: a read
// granule may read from a write access only if every other granule of
// the read that this write covers reads from it too, or from a strictly
// smaller write.
func (mi *mixedInfo) rfOK(x *axiom.Execution, src []int) bool {
	var cov map[accessKey]map[int]bool
	for r, e := range x.Ev {
		if e.Kind != axiom.KindR || src[r] < 0 || e.AccessSize <= mi.g {
			continue
		}
		if cov == nil {
			cov = covers(x)
		}
		w := src[r]
		wk, wsize := keyOf(x, w), x.Ev[w].AccessSize
		for r2, e2 := range x.Ev {
			if r2 == r || e2.Kind != axiom.KindR || e2.Access != e.Access || x.Thread[r2] != x.Thread[r] {
				continue
			}
			if !cov[wk][e2.Loc] {
				continue
			}
			w2 := src[r2]
			if w2 < 0 {
				continue
			}
			if keyOf(x, w2) != wk && x.Ev[w2].AccessSize >= wsize {
				return false
			}
		}
	}
	return true
}

// finalOK checks the same rule for the final writes of each observed
// symbol, as if the whole symbol were read.
func (mi *mixedInfo) finalOK(x *axiom.Execution, fw []int, final []bool) bool {
	var cov map[accessKey]map[int]bool
	for _, sym := range mi.symbols {
		locs := mi.gran[sym]
		if len(locs) < 2 || !final[locs[0]] {
			continue
		}
		if cov == nil {
			cov = covers(x)
		}
		for _, l := range locs {
			w := fw[l]
			wk, wsize := keyOf(x, w), x.Ev[w].AccessSize
			for _, l2 := range locs {
				if l2 == l || !cov[wk][l2] {
					continue
				}
				w2 := fw[l2]
				if keyOf(x, w2) != wk && x.Ev[w2].AccessSize >= wsize {
					return false
				}
			}
		}
	}
	return true
}
