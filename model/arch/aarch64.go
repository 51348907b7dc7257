package arch

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
)

// AArch64 follows herd7 7.58's AArch64 semantics (herd/AArch64Sem.ml) for
// the user-level instruction set, explicit accesses only, as
// docs/semantics.md describes instruction by instruction.
//
// Tags are herd's annotation sets: X (every exclusive and atomic access,
// NoRet reads included), A (acquire: LDAR, LDAXR, the A forms of the
// atomics), Q (acquire-PC: LDAPR), L (release: STLR, STLXR, the L forms),
// NoRet (the read of an atomic whose result goes to the zero register),
// the barrier sets DMB.<opt>, DSB.<opt>, ISB, Exp (explicit accesses:
// every access here), and BCC (conditional branches).
//
// Dependencies follow aarch64deps.cat: herd computes them in the model
// from register events; here every register carries two sets of reads,
// its dtrm taint (addr, data, ctrl) and its pick-dtrm taint (the pick-*
// relations, which also follow CAS comparisons, CSEL and the exclusive
// reservation), and a read also depends on what flowed into the
// thread's last write of its location (herd's lrs).

var aarch64Barriers = strings.Fields("SY ST LD ISH ISHST ISHLD OSH OSHST OSHLD NSH NSHST NSHLD")

var aarch64Vocab = func() []string {
	v := []string{"A", "Q", "L", "X", "NoRet", "Exp", "BCC", "ISB"}
	for _, b := range aarch64Barriers {
		v = append(v, "DMB."+b, "DSB."+b)
	}
	return v
}()

var aarch64Tags = newTagSet(aarch64Vocab)

var (
	tagExp   = aarch64Tags.of("Exp")
	tagX     = aarch64Tags.of("X")
	tagA     = aarch64Tags.of("A")
	tagQ     = aarch64Tags.of("Q")
	tagL     = aarch64Tags.of("L")
	tagNoRet = aarch64Tags.of("NoRet")
	tagBCC   = aarch64Tags.of("BCC")
)

func init() { archs[litmus.ArchAArch64] = func() semantics { return aarch64{} } }

type aarch64 struct{}

func (aarch64) vocab() []string { return aarch64Vocab }

// canon maps W0/X0/w0 to X0, WZR/XZR to XZR, SP/WSP to SP.
func (aarch64) canon(name string) string {
	n := strings.ToUpper(name)
	switch n {
	case "WZR", "XZR":
		return "XZR"
	case "SP", "WSP":
		return "SP"
	}
	if len(n) >= 2 && (n[0] == 'W' || n[0] == 'X') {
		num := n[1:]
		for _, c := range num {
			if c < '0' || c > '9' {
				return ""
			}
		}
		return "X" + num
	}
	return ""
}

// aarch64Path is the architecture state of one path.
type aarch64Path struct {
	// The reservation of the last exclusive load: herd's RES register
	// (the address, with its taints) and lx_sz (the access size; 0 when
	// an exclusive store reset it).
	res     reg
	resSize int
	// exclRead is the last exclusive load's read, lastAtomic the last
	// event in herd's X set: a successful exclusive store pairs with
	// exclRead in rmw only when no atomic event came between.
	exclRead, lastAtomic int
	nzcv                 flagsVal
}

// flagsVal is NZCV as the last flag-setting instruction left it.
type flagsVal struct {
	n, z, c, v bool
	r          reg // the taints, and whether the value is known
}

func (m *machine) a64() *aarch64Path {
	if m.state == nil {
		m.state = &aarch64Path{exclRead: -1, lastAtomic: -1}
	}
	return m.state.(*aarch64Path)
}

// a64reg reads a register operand: the zero register reads 0 and carries
// nothing; a W register gives its low 32 bits.
func (m *machine) a64reg(r *litmus.Register) reg {
	if r.Name == "XZR" {
		return reg{known: true}
	}
	v := m.get(r.Name)
	if r.Width == 32 && !v.v.IsAddr() {
		v.v = axiom.Int(int64(uint32(v.v.N)))
	}
	return v
}

// a64full reads a whole 64-bit register whatever the operand's width
// (CBZ, TBZ: herd tests all 64 bits).
func (m *machine) a64full(r *litmus.Register) reg {
	if r.Name == "XZR" {
		return reg{known: true}
	}
	return m.get(r.Name)
}

// a64set writes a register operand; writing a W register clears the
// upper 32 bits.
func (m *machine) a64set(r *litmus.Register, v reg) {
	if r.Name == "XZR" {
		return
	}
	if r.Width == 32 && !v.v.IsAddr() {
		v.v = axiom.Int(int64(uint32(v.v.N)))
	}
	m.set(r.Name, v)
}

// a64setRaw writes a register without the W-register masking (herd's
// MOVN and SBFM on W registers).
func (m *machine) a64setRaw(r *litmus.Register, v reg) {
	if r.Name != "XZR" {
		m.set(r.Name, v)
	}
}

// join merges the taints of registers read together.
func join(rs ...reg) reg {
	out := reg{known: true}
	for _, r := range rs {
		out.t = out.t.Merge(r.t)
		out.p = out.p.Merge(r.p)
		out.known = out.known && r.known
	}
	return out
}

// a64operand reads a register, shifted register, extended register or
// immediate operand.
func (m *machine) a64operand(o *litmus.Operand, width int) reg {
	switch o.Kind {
	case litmus.OpdImm:
		v := o.Imm
		if o.Shift == "LSL" {
			v <<= uint(o.Amount)
		}
		return reg{v: axiom.Int(v), known: true}
	case litmus.OpdReg:
		return m.a64reg(o.R)
	case litmus.OpdShiftedReg, litmus.OpdExtendedReg:
		r := m.a64reg(o.R)
		if r.v.IsAddr() {
			if o.Amount == 0 && (o.Shift == "LSL" || o.Shift == "UXTX" || o.Shift == "SXTX") {
				return r
			}
			m.dead = true
			return reg{}
		}
		r.v = axiom.Int(shiftExtend(r.v.N, o.Shift, o.Amount, width))
		return r
	}
	m.fail(o.Pos(), "unexpected operand %s", o.Text)
	return reg{}
}

// shiftExtend applies an AArch64 shift or extension to x.
func shiftExtend(x int64, op string, amount int64, width int) int64 {
	switch op {
	case "LSL":
		x <<= uint(amount)
	case "LSR":
		if width == 32 {
			x = int64(uint32(x) >> uint(amount))
		} else {
			x = int64(uint64(x) >> uint(amount))
		}
	case "ASR":
		if width == 32 {
			x = int64(int32(x) >> uint(amount))
		} else {
			x >>= uint(amount)
		}
	case "ROR":
		a := uint(amount)
		if width == 32 {
			u := uint32(x)
			x = int64(u>>(a&31) | u<<((32-a)&31))
		} else {
			u := uint64(x)
			x = int64(u>>(a&63) | u<<((64-a)&63))
		}
	case "UXTB":
		x = int64(uint8(x)) << uint(amount)
	case "UXTH":
		x = int64(uint16(x)) << uint(amount)
	case "UXTW":
		x = int64(uint32(x)) << uint(amount)
	case "UXTX", "SXTX":
		x <<= uint(amount)
	case "SXTB":
		x = int64(int8(x)) << uint(amount)
	case "SXTH":
		x = int64(int16(x)) << uint(amount)
	case "SXTW":
		x = int64(int32(x)) << uint(amount)
	}
	return x
}

// a64address computes a memory operand's address, with the taints of
// the registers it reads, and applies its writeback (the base keeps its
// own taints).
func (m *machine) a64address(o *litmus.Operand) reg {
	mem := o.Mem
	base := m.a64reg(&mem.Base)
	a := base
	switch {
	case mem.Index != nil:
		idx := m.a64reg(mem.Index)
		off := idx.v.N
		if idx.v.IsAddr() {
			if a.v.IsAddr() {
				m.dead = true
				return reg{}
			}
			off = a.v.N
			a.v = idx.v
		} else if mem.Extend != "" {
			off = shiftExtend(off, mem.Extend, mem.Amount, 64)
		} else {
			off <<= uint(mem.Amount)
		}
		a = reg{v: addVal(a.v, off), t: base.t.Merge(idx.t), p: base.p.Merge(idx.p)}
	case mem.Mode != litmus.AddrPostIndex:
		a.v = addVal(a.v, mem.Offset)
	}
	if mem.Mode != litmus.AddrOffset {
		m.a64set(&mem.Base, reg{v: addVal(base.v, mem.Offset), t: base.t, p: base.p})
	}
	return a
}

func addVal(v axiom.Val, off int64) axiom.Val {
	v.N += off
	return v
}

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

// mask keeps the low size bytes of an integer (herd's loads and stores
// of size bytes).
func mask(v axiom.Val, size int) axiom.Val {
	if v.IsAddr() || size == 0 || size >= 8 {
		return v
	}
	return axiom.Int(v.N & (1<<(8*uint(size)) - 1))
}

func (aarch64) exec(m *machine, in *litmus.Instr) string {
	op := in.Mnemonic
	args := in.Args
	st := m.a64()
	m.size = a64Size(op, args)
	switch {
	case op == "NOP" || op == "HINT":
		return ""
	case op == "B":
		return args[0].Label
	case strings.HasPrefix(op, "B."):
		f := st.nzcv
		m.pbranch(f.r, tagBCC)
		m.count = !f.r.known
		if condHolds(op[2:], f) {
			return args[0].Label
		}
		return ""
	case op == "CBZ" || op == "CBNZ":
		r := m.a64full(args[0].R)
		m.pbranch(r, tagBCC)
		m.count = !r.known
		zero := !r.v.Truth()
		if zero == (op == "CBZ") {
			return args[1].Label
		}
		return ""
	case op == "TBZ" || op == "TBNZ":
		r := m.a64full(args[0].R)
		m.pbranch(r, tagBCC)
		m.count = !r.known
		bit := !r.v.IsAddr() && r.v.N>>uint(args[1].Imm)&1 != 0
		if !bit == (op == "TBZ") {
			return args[2].Label
		}
		return ""
	case op == "DMB" || op == "DSB":
		m.fence(aarch64Tags.of(op + "." + args[0].Barrier))
		return ""
	case op == "ISB":
		m.fence(aarch64Tags.of("ISB"))
		return ""
	}
	if m.a64memory(op, args, st) {
		return ""
	}
	if m.a64data(op, args, st) {
		return ""
	}
	m.fail(in.Pos(), "%s is not supported by the AArch64 semantics", in.Op)
	return ""
}

// condHolds evaluates a condition code on the flags.
// herdInverse is herd 7.58's inverse_cond (lib/AArch64Base.ml), with
// which its parser reads CSET, CSETM and CINC as CSEL forms: the inverse
// of AL is AL (so CINC Rd,Rn,AL is Rn and CSET Rd,AL is 0), and the
// inverse of GE is GT, not LT.
func herdInverse(cond string) string {
	switch cond {
	case "NE":
		return "EQ"
	case "EQ":
		return "NE"
	case "LE":
		return "GT"
	case "LT":
		return "GE"
	case "GE":
		return "GT"
	case "GT":
		return "LE"
	case "CS", "HS":
		return "CC"
	case "CC", "LO":
		return "CS"
	case "MI":
		return "PL"
	case "PL":
		return "MI"
	case "VS":
		return "VC"
	case "VC":
		return "VS"
	case "HI":
		return "LS"
	case "LS":
		return "HI"
	}
	return "AL"
}

func condHolds(cond string, f flagsVal) bool {
	switch cond {
	case "EQ":
		return f.z
	case "NE":
		return !f.z
	case "CS", "HS":
		return f.c
	case "CC", "LO":
		return !f.c
	case "MI":
		return f.n
	case "PL":
		return !f.n
	case "VS":
		return f.v
	case "VC":
		return !f.v
	case "HI":
		return f.c && !f.z
	case "LS":
		return !f.c || f.z
	case "GE":
		return f.n == f.v
	case "LT":
		return f.n != f.v
	case "GT":
		return !f.z && f.n == f.v
	case "LE":
		return f.z || f.n != f.v
	case "AL", "NV":
		return true
	}
	return false
}

// a64memory executes loads, stores, exclusives and atomics.
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

// a64data executes moves, arithmetic, comparisons and selections.
func (m *machine) a64data(op string, args []*litmus.Operand, st *aarch64Path) bool {
	width := 64
	if len(args) > 0 && args[0].R != nil {
		width = args[0].R.Width
	}
	trunc := func(x int64) int64 {
		if width == 32 {
			return int64(uint32(x))
		}
		return x
	}
	setFlags := func(r int64, t reg, carry, overflow bool) {
		r = trunc(r)
		st.nzcv = flagsVal{n: r>>(uint(width)-1)&1 != 0, z: r == 0, c: carry, v: overflow, r: t}
	}
	switch op {
	case "MOV":
		v := m.a64operand(args[1], width)
		m.a64set(args[0].R, v)
		return true
	case "MOVZ", "MOVN":
		v := args[1].Imm << uint(args[1].Amount)
		if op == "MOVN" {
			// herd does not mask MOVN's result to a W register.
			m.a64setRaw(args[0].R, reg{v: axiom.Int(^v), known: true})
			return true
		}
		m.a64set(args[0].R, reg{v: axiom.Int(trunc(v)), known: true})
		return true
	case "MOVK":
		old := m.a64reg(args[0].R)
		sh := uint(args[1].Amount)
		v := old.v.N&^(0xffff<<sh) | (args[1].Imm&0xffff)<<sh
		old.v = axiom.Int(trunc(v))
		m.a64set(args[0].R, old)
		return true
	case "ADR":
		m.a64set(args[0].R, reg{v: axiom.Int(0), known: true})
		return true
	case "SXTW":
		r := m.a64reg(args[1].R)
		if !r.v.IsAddr() {
			r.v = axiom.Int(int64(int32(r.v.N)))
		}
		m.a64set(args[0].R, r)
		return true
	case "MVN", "NEG", "NEGS":
		r := m.a64operand(args[1], width)
		if r.v.IsAddr() {
			m.dead = true
			return true
		}
		v := ^r.v.N
		if op != "MVN" {
			v = -r.v.N
		}
		out := r
		out.v = axiom.Int(trunc(v))
		m.a64set(args[0].R, out)
		if op == "NEGS" {
			c, o := subCarry(0, r.v.N, width)
			setFlags(-r.v.N, r, c, o)
		}
		return true
	case "CMP", "CMN", "TST":
		a := m.a64reg(args[0].R)
		b := m.a64operand(args[1], width)
		t := join(a, b)
		switch {
		case op == "TST":
			setFlags(a.v.N&b.v.N, t, false, false)
		case a.v.IsAddr() || b.v.IsAddr():
			st.nzcv = flagsVal{z: a.v == b.v, c: true, r: t}
		case op == "CMN":
			c, o := subCarry(a.v.N, -b.v.N, width)
			setFlags(a.v.N+b.v.N, t, c, o)
		default:
			c, o := subCarry(a.v.N, b.v.N, width)
			setFlags(a.v.N-b.v.N, t, c, o)
		}
		return true
	case "CSEL", "CSINC", "CSINV", "CSNEG":
		// Only the chosen source is read: its taint, plus the flags'
		// as a pick dependency.
		f := st.nzcv
		var src reg
		if condHolds(args[3].Cond, f) {
			src = m.a64reg(args[1].R)
		} else {
			src = m.a64reg(args[2].R)
			if !src.v.IsAddr() {
				switch op {
				case "CSINC":
					src.v = axiom.Int(trunc(src.v.N + 1))
				case "CSINV":
					src.v = axiom.Int(trunc(^src.v.N))
				case "CSNEG":
					src.v = axiom.Int(trunc(-src.v.N))
				}
			}
		}
		m.a64set(args[0].R, reg{v: src.v, t: src.t, p: src.p.Merge(f.r.p), known: false})
		return true
	case "CSET", "CSETM":
		// herd reads CSET Rd,cond as CSEL Rd,ZR,ZR,inverse(cond) with
		// an increment (CSETM: an inversion), its inverse_cond's quirks
		// included (herdInverse).
		f := st.nzcv
		v := int64(0)
		if !condHolds(herdInverse(args[1].Cond), f) {
			v = 1
			if op == "CSETM" {
				v = trunc(-1)
			}
		}
		m.a64set(args[0].R, reg{v: axiom.Int(v), p: f.r.p, known: false})
		return true
	case "CINC":
		// CINC Rd,Rn,cond is herd's CSINC Rd,Rn,Rn,inverse(cond).
		a := m.a64reg(args[1].R)
		f := st.nzcv
		if !condHolds(herdInverse(args[2].Cond), f) && !a.v.IsAddr() {
			a.v = axiom.Int(trunc(a.v.N + 1))
		}
		m.a64set(args[0].R, reg{v: a.v, t: a.t, p: a.p.Merge(f.r.p), known: false})
		return true
	}
	if len(args) != 3 {
		return false
	}
	a := m.a64reg(args[1].R)
	var b reg
	if args[2].Kind == litmus.OpdReg && args[1].R != nil && args[2].R.Name == args[1].R.Name {
		b = a // the same register, read once
	} else {
		b = m.a64operand(args[2], width)
	}
	t := join(a, b)
	var v axiom.Val
	switch op {
	case "ADD", "ADDS":
		switch {
		case a.v.IsAddr() && !b.v.IsAddr():
			v = addVal(a.v, b.v.N)
		case b.v.IsAddr() && !a.v.IsAddr():
			v = addVal(b.v, a.v.N)
		case a.v.IsAddr():
			m.dead = true
			return true
		default:
			v = axiom.Int(trunc(a.v.N + b.v.N))
		}
		if op == "ADDS" {
			c, o := addCarry(a.v.N, b.v.N, width)
			setFlags(a.v.N+b.v.N, t, c, o)
		}
	case "SUB", "SUBS":
		switch {
		case a.v.IsAddr() && b.v.IsAddr() && a.v.Sym == b.v.Sym:
			v = axiom.Int(a.v.N - b.v.N)
		case a.v.IsAddr() && !b.v.IsAddr():
			v = addVal(a.v, -b.v.N)
		case a.v.IsAddr() || b.v.IsAddr():
			m.dead = true
			return true
		default:
			v = axiom.Int(trunc(a.v.N - b.v.N))
		}
		if op == "SUBS" {
			c, o := subCarry(a.v.N, b.v.N, width)
			setFlags(a.v.N-b.v.N, t, c, o)
		}
	default:
		if a.v.IsAddr() || b.v.IsAddr() {
			// herd computes x EOR x = 0 on a symbolic address too.
			if a.v == b.v && (op == "EOR" || op == "SUB") {
				v = axiom.Int(0)
				break
			}
			m.dead = true
			return true
		}
		x, y := a.v.N, b.v.N
		var r int64
		switch op {
		case "EOR":
			r = x ^ y
		case "EON":
			r = x ^ ^y
		case "ORR":
			r = x | y
		case "ORN":
			r = x | ^y
		case "AND", "ANDS":
			r = x & y
		case "BIC", "BICS":
			r = x &^ y
		case "LSL", "LSLV":
			// herd shifts on 64 bits by the amount masked to the
			// register's width, then masks a W result.
			r = x << uint(y&int64(width-1)&63)
		case "LSR", "LSRV":
			r = int64(uint64(x) >> uint(y&int64(width-1)&63))
		case "ASR", "ASRV":
			if width == 32 {
				r = int64(int32(x) >> uint(y&31))
			} else {
				r = x >> uint(y&63)
			}
		case "ROR", "RORV":
			r = shiftExtend(x, "ROR", y&int64(width-1), width)
		case "MUL":
			r = x * y
		case "MNEG":
			r = -(x * y)
		default:
			return false
		}
		v = axiom.Int(trunc(r))
		if op == "ANDS" || op == "BICS" {
			setFlags(r, t, false, false)
		}
	}
	t.v = v
	m.a64set(args[0].R, t)
	return true
}

// subCarry returns the carry and overflow of a - b on width bits.
// addCarry returns the C and V flags of a + b on width bits, as the Arm
// ARM's AddWithCarry computes them with carry-in 0: C is the unsigned
// carry out, V the signed overflow. (Not subCarry(a, -b): that gives C
// wrong when b is 0 and V wrong when b is the most negative value.)
func addCarry(a, b int64, width int) (carry, overflow bool) {
	if width == 32 {
		x, y := uint32(a), uint32(b)
		r := x + y
		return r < x, (int32(x) < 0) == (int32(y) < 0) && (int32(r) < 0) != (int32(x) < 0)
	}
	x, y := uint64(a), uint64(b)
	r := x + y
	return r < x, (int64(x) < 0) == (int64(y) < 0) && (int64(r) < 0) != (int64(x) < 0)
}

func subCarry(a, b int64, width int) (carry, overflow bool) {
	if width == 32 {
		x, y := uint32(a), uint32(b)
		r := x - y
		return x >= y, (int32(x) < 0) != (int32(y) < 0) && (int32(r) < 0) != (int32(x) < 0)
	}
	x, y := uint64(a), uint64(b)
	r := x - y
	return x >= y, (int64(x) < 0) != (int64(y) < 0) && (int64(r) < 0) != (int64(x) < 0)
}
