package arch

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// a64locs returns the locations an access of m.size bytes at address a
// covers: one, or in a mixed-size test its granules.
func (m *machine) a64locs(a axiom.Val) []int {
	if m.th.p.mixed != nil {
		locs, ok := m.granules(a, m.size)
		if !ok {
			return nil
		}
		return locs
	}
	loc, ok := m.location(a)
	if !ok || !m.access(loc, m.size) {
		return nil
	}
	return []int{loc}
}

// a64load emits the read of an access at address a (one event per
// granule in a mixed-size test): its value, the index of its first
// event, and the taint its destination register gets ({its reads} ∪ the
// address ∪ what flowed into the thread's last write of each location).
func (m *machine) a64load(a reg, tags axiom.Tags) (axiom.Val, int, reg) {
	locs := m.a64locs(a.v)
	if locs == nil {
		return axiom.Val{}, -1, reg{}
	}
	id, g := 0, 0
	if mi := m.th.p.mixed; mi != nil {
		m.nacc++
		id, g = m.nacc, mi.g
	}
	first := -1
	var out reg
	var val axiom.Val
	for k, loc := range locs {
		d := m.dom[loc]
		c := m.choose(len(d))
		if c < 0 {
			return axiom.Val{}, -1, reg{}
		}
		v := d[c]
		if g == 0 {
			v = mask(v, m.size)
		}
		in := memTaint{d: a.t, p: a.p}
		if w, ok := m.lastW[loc]; ok {
			in.d, in.p = in.d.Merge(w.d), in.p.Merge(w.p)
		}
		i := m.emit(axiom.Event{Kind: axiom.KindR, Tags: tags | tagExp, Loc: loc, Val: v, RMW: -1,
			Addr: a.t, Pick: &axiom.PickDeps{Addr: a.p, Dep: in.p}, Access: id, AccessSize: m.size})
		m.atomic(tags, i)
		if first < 0 {
			first = i
		}
		self := axiom.Taint{i}
		out.t = out.t.Merge(self.Merge(in.d))
		out.p = out.p.Merge(self.Merge(in.p))
		switch {
		case g == 0 || len(locs) == 1:
			val = v
		case v.IsAddr():
			m.fail(m.in.Pos(), "a mixed-size access reads an address from part of a location")
			return axiom.Val{}, -1, reg{}
		default:
			val.N |= v.N << (8 * uint(g*k))
		}
	}
	return val, first, out
}

// a64store emits the write of v at address a (one event per granule in
// a mixed-size test, each paired in rmw with the read granule of the
// same location when rmw is the first read of an atomic). data and pdata
// are the dependencies of its value, in what flows into the write (with
// its address). It returns the index of its first event, or -1.
func (m *machine) a64store(a reg, v axiom.Val, data, pdata axiom.Taint, in memTaint, tags axiom.Tags, rmw int) int {
	locs := m.a64locs(a.v)
	if locs == nil {
		return -1
	}
	id, g := 0, 0
	if mi := m.th.p.mixed; mi != nil {
		m.nacc++
		id, g = m.nacc, mi.g
	}
	first := -1
	for k, loc := range locs {
		chunk := mask(v, m.size)
		if g > 0 && len(locs) > 1 {
			if v.IsAddr() {
				m.fail(m.in.Pos(), "a mixed-size access writes an address to part of a location")
				return -1
			}
			chunk = mask(axiom.Int(v.N>>(8*uint(g*k))), g)
		}
		pair := -1
		if rmw >= 0 {
			pair = rmw + k
		}
		i := m.emit(axiom.Event{Kind: axiom.KindW, Tags: tags | tagExp, Loc: loc, Val: chunk, RMW: pair,
			Addr: a.t, Data: data, Pick: &axiom.PickDeps{Addr: a.p, Data: pdata, Dep: in.p}, Access: id, AccessSize: m.size})
		m.lastW[loc] = in
		m.atomic(tags, i)
		if first < 0 {
			first = i
		}
	}
	return first
}

// atomic records the last event in herd's X set.
func (m *machine) atomic(tags axiom.Tags, i int) {
	if tags&(tagX|tagNoRet) != 0 {
		m.a64().lastAtomic = i
	}
}

// a64memory executes the loads and stores (pairs included), and hands
// the exclusives and atomics to a64atomic.
func (m *machine) a64memory(op string, args []*litmus.Operand, st *aarch64Path) bool {
	switch op {
	case "LDR", "LDRB", "LDRH", "LDRSB", "LDRSH", "LDRSW", "LDUR", "LDAR", "LDARB", "LDARH", "LDAPR", "LDAPRB", "LDAPRH":
		var tags axiom.Tags
		switch {
		case strings.HasPrefix(op, "LDAR"):
			tags = tagA
		case strings.HasPrefix(op, "LDAPR"):
			tags = tagQ
		}
		a := m.a64address(args[1])
		if m.stopped() {
			return true
		}
		v, i, t := m.a64load(a, tags)
		if i < 0 {
			return true
		}
		t.v = loadExtend(op, v, args[0].R.Width)
		m.a64set(args[0].R, t)
		return true
	case "STR", "STRB", "STRH", "STLR", "STLRB", "STLRH":
		var tags axiom.Tags
		if strings.HasPrefix(op, "STLR") {
			tags = tagL
		}
		v := m.a64reg(args[0].R)
		a := m.a64address(args[1])
		if m.stopped() {
			return true
		}
		m.a64store(a, v.v, v.t, v.p, memTaint{a.t.Merge(v.t), a.p.Merge(v.p)}, tags, -1)
		return true
	case "LDP", "LDNP", "LDPSW", "LDIAPP":
		var tags axiom.Tags
		if op == "LDIAPP" {
			tags = tagQ
		}
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		size := int64(m.size)
		v1, i1, t1 := m.a64load(a, tags)
		if i1 < 0 {
			return true
		}
		v2, i2, t2 := m.a64load(reg{v: addVal(a.v, size), t: a.t, p: a.p}, tags)
		if i2 < 0 {
			return true
		}
		if op == "LDIAPP" {
			m.events[i2].Order = []int{i1}
		}
		t1.v, t2.v = loadExtend(op, v1, args[0].R.Width), loadExtend(op, v2, args[1].R.Width)
		m.a64set(args[0].R, t1)
		m.a64set(args[1].R, t2)
		return true
	case "STP", "STNP", "STILP":
		var tags axiom.Tags
		if op == "STILP" {
			tags = tagL
		}
		v1, v2 := m.a64reg(args[0].R), m.a64reg(args[1].R)
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		size := int64(m.size)
		w1 := m.a64store(a, v1.v, v1.t, v1.p, memTaint{a.t.Merge(v1.t), a.p.Merge(v1.p)}, tags, -1)
		if w1 < 0 {
			return true
		}
		w2 := m.a64store(reg{v: addVal(a.v, size), t: a.t, p: a.p}, v2.v, v2.t, v2.p, memTaint{a.t.Merge(v2.t), a.p.Merge(v2.p)}, tags, -1)
		if op == "STILP" && w2 >= 0 {
			if args[2].Mem.Mode == litmus.AddrPreIndex {
				m.events[w1].Order = []int{w2}
			} else {
				m.events[w2].Order = []int{w1}
			}
		}
		return true
	}
	return m.a64atomic(op, args, st)
}

// a64atomic executes the exclusives (LDXR, STXR), SWP, CAS and the LSE
// atomics (LDADD and the rest, ST forms included).
func (m *machine) a64atomic(op string, args []*litmus.Operand, st *aarch64Path) bool {
	switch op {
	case "LDXR", "LDXRB", "LDXRH", "LDAXR", "LDAXRB", "LDAXRH":
		tags := tagX
		if strings.HasPrefix(op, "LDAX") {
			tags |= tagA
		}
		a := m.a64address(args[1])
		if m.stopped() {
			return true
		}
		v, i, t := m.a64load(a, tags)
		if i < 0 {
			return true
		}
		st.exclRead, st.res, st.resSize = i, a, m.size
		t.v = v
		m.a64set(args[0].R, t)
		return true
	case "STXR", "STXRB", "STXRH", "STLXR", "STLXRB", "STLXRH":
		tags := tagX
		if strings.HasPrefix(op, "STLX") {
			tags |= tagL
		}
		v := m.a64reg(args[1].R)
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		// It succeeds (status 0) or fails (status 1, no write); success
		// needs the reservation of the last exclusive load, of the same
		// size and address. The status carries no dependency.
		res := st.res
		if st.resSize == m.size && res.v == a.v && m.choose(2) == 0 {
			if m.stopped() {
				return true
			}
			pair := -1
			if st.exclRead >= 0 && st.lastAtomic == st.exclRead {
				pair = st.exclRead
			}
			m.a64store(a, v.v, v.t, v.p, memTaint{a.t.Merge(v.t), a.p.Merge(v.p).Merge(res.p)}, tags, pair)
			m.a64set(args[0].R, reg{v: axiom.Int(0), known: false})
		} else {
			if m.stopped() {
				return true
			}
			m.a64set(args[0].R, reg{v: axiom.Int(1), known: false})
		}
		st.res, st.resSize, st.exclRead = reg{p: res.p}, 0, -1
		return true
	case "SWP", "SWPA", "SWPL", "SWPAL", "SWPB", "SWPAB", "SWPLB", "SWPALB", "SWPH", "SWPAH", "SWPLH", "SWPALH":
		rs, rt := args[0].R, args[1].R
		rtags, wtags := atomicOrder(op[3:], rt)
		s := m.a64reg(rs)
		a := m.a64address(args[2])
		if m.stopped() {
			return true
		}
		old, i, t := m.a64load(a, rtags)
		if i < 0 {
			return true
		}
		w := m.a64store(a, s.v, s.t, s.p, memTaint{a.t.Merge(s.t), a.p.Merge(s.p)}, wtags, i)
		if w >= 0 {
			// herd's iico_order: the read (every granule) before the write.
			var reads []int
			for k := i; k < w; k++ {
				reads = append(reads, k)
			}
			for k := w; k < len(m.events); k++ {
				m.events[k].Order = reads
			}
		}
		t.v = old
		m.a64set(rt, t)
		return true
	}
	if strings.HasPrefix(op, "CAS") && !strings.HasPrefix(op, "CASP") {
		m.a64cas(op, args, st)
		return true
	}
	if o, ord, ok := lseOp(op); ok {
		rs := args[0].R
		rt := &litmus.Register{Name: "XZR", Width: rs.Width}
		memArg := args[1]
		if strings.HasPrefix(op, "LD") {
			rt, memArg = args[1].R, args[2]
		}
		rtags, wtags := atomicOrder(ord, rt)
		s := m.a64reg(rs)
		a := m.a64address(memArg)
		if m.stopped() {
			return true
		}
		old, i, t := m.a64load(a, rtags)
		if i < 0 {
			return true
		}
		// The write's value depends on the read (herd's iico_data).
		in := memTaint{a.t.Merge(s.t).Merge(t.t), a.p.Merge(s.p).Merge(t.p)}
		m.a64store(a, lseApply(o, old, s.v, m.size), s.t, s.p, in, wtags, i)
		t.v = old
		m.a64set(rt, t)
		return true
	}
	return false
}

// a64cas executes CAS Rs, Rt, [Rn]: herd's five alternatives (two of
// success, which differ in what Rs depends on; failure with a writeback;
// two failures without one), each a candidate of its own.
func (m *machine) a64cas(op string, args []*litmus.Operand, st *aarch64Path) {
	rs, rt := args[0].R, args[1].R
	suffix := strings.TrimSuffix(strings.TrimSuffix(op[3:], "B"), "H")
	acq, rel := strings.Contains(suffix, "A"), strings.Contains(suffix, "L")
	noret := rs.Name == "XZR"
	expect := m.a64reg(rs)
	nv := m.a64reg(rt)
	a := m.a64address(args[2])
	if m.stopped() {
		return
	}
	// The read first (herd's annotations depend on the alternative, set
	// below); the alternative is chosen with its value: success needs it
	// equal to Rs.
	savedAtomic := st.lastAtomic
	old, i, read := m.a64load(a, tagX)
	if i < 0 {
		return
	}
	success := old == mask(expect.v, m.size)
	var alt int
	switch {
	case success && noret:
		alt = 0
	case success:
		alt = m.choose(2) // 0: RRs, 1: Rx
	case noret:
		alt = 2 + m.choose(2) // 2: fail with writeback, 3: without
	default:
		alt = 2 + m.choose(3) // 2: writeback, 3: no writeback ctrl, 4: noctrl
	}
	if m.stopped() {
		return
	}
	rtags := tagX
	wtags := tagX
	if rel {
		wtags |= tagL
	}
	switch {
	case noret:
		rtags = tagX | tagNoRet
	case alt >= 3:
		// A failed CAS without writeback reads as a plain or acquire
		// access, not an atomic one.
		rtags = 0
		if acq {
			rtags = tagA
		}
		st.lastAtomic = savedAtomic
	case acq:
		rtags |= tagA
	}
	for k := i; k < len(m.events); k++ {
		m.events[k].Tags = rtags | tagExp
	}
	switch alt {
	case 0, 1: // success
		w := memTaint{a.t.Merge(nv.t), a.p.Merge(nv.p).Merge(expect.p).Merge(read.p)}
		m.a64store(a, nv.v, nv.t, nv.p.Merge(expect.p), w, wtags, i)
	case 2: // failure, writing back the value read
		w := memTaint{a.t, a.p.Merge(expect.p).Merge(read.p)}
		m.a64store(a, old, nil, expect.p, w, wtags, i)
	}
	if noret {
		return
	}
	switch alt {
	case 0: // success, Rs keeps its own value and taint
		m.a64set(rs, reg{v: old, t: expect.t, p: expect.p.Merge(read.p)})
	case 3: // failure without writeback, ctrl: Rs also depends on itself
		m.a64set(rs, reg{v: old, t: read.t, p: read.p.Merge(expect.p)})
	default:
		m.a64set(rs, reg{v: old, t: read.t, p: read.p})
	}
}

// atomicOrder returns the tags of an atomic's read and write from its
// ordering suffix ("", "A", "L", "AL", then an optional B or H): herd
// puts every such access in X; a read whose result goes to the zero
// register is NoRet and never acquire.
func atomicOrder(suffix string, dst *litmus.Register) (axiom.Tags, axiom.Tags) {
	suffix = strings.TrimSuffix(strings.TrimSuffix(suffix, "B"), "H")
	r, w := tagX, tagX
	if strings.Contains(suffix, "A") {
		r |= tagA
	}
	if strings.Contains(suffix, "L") {
		w |= tagL
	}
	if dst.Name == "XZR" {
		r = tagX | tagNoRet
	}
	return r, w
}

var lseOps = []string{"ADD", "CLR", "EOR", "SET", "SMAX", "SMIN", "UMAX", "UMIN"}

// lseOp splits an LSE mnemonic (LDADDAL, STSETLB, ...) into its
// operation and ordering suffix.
func lseOp(op string) (string, string, bool) {
	if !strings.HasPrefix(op, "LD") && !strings.HasPrefix(op, "ST") {
		return "", "", false
	}
	rest := op[2:]
	for _, o := range lseOps {
		if strings.HasPrefix(rest, o) {
			suffix := rest[len(o):]
			switch strings.TrimSuffix(strings.TrimSuffix(suffix, "B"), "H") {
			case "", "A", "L", "AL":
				return o, suffix, true
			}
		}
	}
	return "", "", false
}

// lseApply computes an LSE operation on 64-bit values, SMAX and SMIN
// sign-extending both operands from the access size first.
func lseApply(op string, old, s axiom.Val, size int) axiom.Val {
	if old.IsAddr() || s.IsAddr() {
		if op == "ADD" && !s.IsAddr() {
			return addVal(old, s.N)
		}
		return old
	}
	a, b := old.N, s.N
	sext := func(x int64) int64 {
		switch size {
		case 1:
			return int64(int8(x))
		case 2:
			return int64(int16(x))
		case 4:
			return int64(int32(x))
		}
		return x
	}
	var r int64
	switch op {
	case "ADD":
		r = a + b
	case "CLR":
		r = a &^ b
	case "EOR":
		r = a ^ b
	case "SET":
		r = a | b
	case "SMAX":
		r = max(sext(a), sext(b))
	case "SMIN":
		r = min(sext(a), sext(b))
	case "UMAX":
		if uint64(mask(old, size).N) > uint64(mask(s, size).N) {
			r = a
		} else {
			r = b
		}
	case "UMIN":
		if uint64(mask(old, size).N) < uint64(mask(s, size).N) {
			r = a
		} else {
			r = b
		}
	}
	return axiom.Int(r)
}

// loadExtend applies a load's sign extension to the register width.
func loadExtend(op string, v axiom.Val, width int) axiom.Val {
	if v.IsAddr() {
		return v
	}
	var x int64
	switch op {
	case "LDRSB":
		x = int64(int8(v.N))
	case "LDRSH":
		x = int64(int16(v.N))
	case "LDRSW", "LDPSW":
		x = int64(int32(v.N))
	default:
		return v
	}
	if width == 32 {
		x = int64(uint32(x))
	}
	return axiom.Int(x)
}

// a64Size returns the size in bytes of a memory instruction's accesses:
// from a B or H suffix, else from the width of its data register.
func a64Size(op string, args []*litmus.Operand) int {
	mem := -1
	for i, a := range args {
		if a.Kind == litmus.OpdMem {
			mem = i
		}
	}
	if mem <= 0 {
		return 0
	}
	switch {
	case op == "LDRSB" || strings.HasSuffix(op, "B"):
		return 1
	case op == "LDRSH" || strings.HasSuffix(op, "H"):
		return 2
	case op == "LDRSW" || op == "LDPSW":
		return 4
	}
	// The data register: the one just before the memory operand.
	if r := args[mem-1].R; r != nil {
		return r.Width / 8
	}
	return 0
}
