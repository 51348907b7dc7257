package arch

import (
	"strings"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/internal/x86asm"
)

// X86 (Intel syntax, destination first) and X86_64 (AT&T syntax,
// destination last) follow herd7's x86 semantics (herd/X86Sem.ml,
// X86_64Sem.ml) for their events and tags, and the operational
// compiler (model/op/compile_x86.go, docs/semantics.md) for the instruction
// subset and the values, so that a cat model and the operational
// machines read a test alike:
//
//   - MFENCE, SFENCE and LFENCE are fences of those names; NOP, PAUSE,
//     ENDBR64, PREFETCH, CLFLUSH and CLFLUSHOPT make no event (herd's
//     CLFLUSH event is one that no x86 model orders).
//   - X is herd's set of atomic ("locked") accesses: both accesses of
//     XCHG with memory (locked with or without LOCK, Intel SDM vol. 2;
//     herd's UXCH too) and of LOCK ADD/SUB/AND/OR/XOR/INC/DEC/XADD/CMPXCHG,
//     whose read and write form an rmw pair of one instruction. A LOCK
//     CMPXCHG that fails makes its read only, still in X, as herd's.
//   - NT marks MOVNTI's store (herd's NonTemporal annotation); the
//     models here treat it as an ordinary store, as herd's x86tso does.
//   - Without LOCK, ADD and the like on memory are a plain read then a
//     plain write, not atomic; so is CMPXCHG (herd's X86_64).
//   - Registers: every alias of a register (EAX, eax, ax, al, %eax, rax)
//     is one 64-bit register; values are 64-bit, never truncated to the
//     operand size. X86_64 states print the 64-bit name, X86 states the
//     name as written, as herd does.
//   - Flags follow the Intel SDM, as the operational compiler's do, not
//     herd's (which always clears CF and sets SF to a>b): conditions
//     compare the last result (CMP's difference, TEST's AND, an
//     arithmetic result) with zero; CF is CMP's and SUB's unsigned borrow,
//     ADD's carry, cleared by AND/OR/XOR/TEST, set by NEG of a non-zero
//     value, kept by INC, DEC, NOT and the shifts.
//
// Addresses are symbolic (the address of x plus an offset): adding or
// subtracting an integer, taking the difference of two addresses of one
// location, XOR or SUB of a value with itself, AND or OR of a value with
// itself are exact; other arithmetic on an address is an error. Under
// the operational machines an address is a large positive number, so a
// comparison of an address with an integer finds the address greater.

var x86Vocab = []string{"MFENCE", "SFENCE", "LFENCE", "X", "NT"}

var x86Tags = newTagSet(x86Vocab)

func init() {
	archs[litmus.ArchX86] = func() semantics { return x86Intel{} }
	archs[litmus.ArchX8664] = func() semantics { return x86{att: true} }
}

// x86 is the semantics of both dialects; att reports X86_64's AT&T
// syntax.
type x86 struct{ att bool }

// x86Intel is X86, whose states print registers as written.
type x86Intel struct{ x86 }

func (x86Intel) regsAsWritten() {}

func (x86) vocab() []string { return x86Vocab }

// uncast: final values keep their 64 bits, as in the operational
// machines.
func (x86) uncast() {}

// canon maps every alias of a register to its 64-bit lower-case name.
// As in the operational compiler, any other identifier names a register
// too (rip, cs): one the code never writes holds 0.
func (x86) canon(name string) string {
	n := strings.TrimPrefix(name, "%")
	if n == "" || !isIdentStart(n[0]) {
		return ""
	}
	for i := 1; i < len(n); i++ {
		if !isIdentStart(n[i]) && (n[i] < '0' || n[i] > '9') {
			return ""
		}
	}
	return x86asm.CanonReg(n)
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// x86Path is the flags state of one path.
type x86Path struct {
	flags reg // the last result the flags describe: conditions compare it with 0
	cf    reg // the carry flag, 0 or 1
}

func (m *machine) x86st() *x86Path {
	if m.state == nil {
		m.state = &x86Path{}
	}
	return m.state.(*x86Path)
}

// x86Cond maps a conditional jump to the comparison of the flags' value
// with zero that takes it.
var x86Cond = map[string]string{"je": "==", "jz": "==", "jne": "!=", "jnz": "!=", "jl": "<", "jle": "<=",
	"jg": ">", "jge": ">=", "js": "<", "jns": ">="}

// x86Locked maps the instructions that LOCK makes atomic on memory to
// their operation.
var x86Locked = map[string]string{"add": "+", "sub": "-", "and": "&", "or": "|", "xor": "^", "inc": "+", "dec": "-"}

// x86ArithOp maps the arithmetic mnemonics to their operation (the
// operational compiler shifts right arithmetically for SHR too).
var x86ArithOp = map[string]string{"add": "+", "sub": "-", "and": "&", "or": "|", "xor": "^", "inc": "+", "dec": "-",
	"shl": "<<", "sal": "<<", "shr": ">>", "sar": ">>", "neg": "neg", "not": "not"}

func (s x86) exec(m *machine, in *litmus.Instr) string {
	mn := x86asm.Mnemonic(in.Op, s.att)
	locked := strings.EqualFold(in.Prefix, "lock")
	args := in.Args
	if s.att { // AT&T writes the destination last
		args = make([]*litmus.Operand, len(in.Args))
		for i, a := range in.Args {
			args[len(in.Args)-1-i] = a
		}
	}
	need := func(n int) bool {
		if len(args) != n {
			m.fail(in.Pos(), "%s takes %d operands, found %d", in.Op, n, len(args))
			return false
		}
		return true
	}
	switch mn {
	case "nop", "nopl", "nopw", "endbr64", "pause", "prefetch", "clflush", "clflushopt":
		return ""
	case "mfence":
		m.fence(x86Tags.of("MFENCE"))
	case "sfence":
		m.fence(x86Tags.of("SFENCE"))
	case "lfence":
		m.fence(x86Tags.of("LFENCE"))
	case "ret", "retq":
		return endLabel
	case "jmp", "jmpq":
		if !need(1) {
			return ""
		}
		return x86Label(args[0])
	case "je", "jz", "jne", "jnz", "jl", "jle", "jg", "jge", "js", "jns":
		if !need(1) {
			return ""
		}
		f := m.x86st().flags
		m.branch(f.t, 0)
		if m.x86holds(x86Cond[mn], f.v) {
			return x86Label(args[0])
		}
	case "mov", "movzx", "movsx", "movabs":
		if !need(2) {
			return ""
		}
		m.x86mov(args[0], args[1], 0)
	case "movnti":
		if !need(2) || args[0].Kind != litmus.OpdMem || args[1].Kind != litmus.OpdReg {
			m.fail(in.Pos(), "movnti needs a memory destination and a register source")
			return ""
		}
		m.x86mov(args[0], args[1], x86Tags.of("NT"))
	case "xchg", "uxch":
		if need(2) {
			m.x86xchg(args[0], args[1])
		}
	case "add", "sub", "and", "or", "xor", "inc", "dec", "neg", "not", "shl", "sal", "shr", "sar":
		m.x86arith(mn, args, locked)
	case "xadd":
		if !need(2) {
			return ""
		}
		switch {
		case args[1].Kind != litmus.OpdReg:
			m.fail(in.Pos(), "xadd needs a register source")
		case args[0].Kind != litmus.OpdMem:
			m.fail(in.Pos(), "xadd on registers is not supported")
		case !locked:
			m.fail(in.Pos(), "xadd without LOCK is not supported")
		default:
			m.x86xadd(args[0], args[1])
		}
	case "cmpxchg":
		if !need(2) || args[0].Kind != litmus.OpdMem || args[1].Kind != litmus.OpdReg {
			m.fail(in.Pos(), "cmpxchg needs a memory destination and a register source")
			return ""
		}
		m.x86cmpxchg(args[0], args[1], locked)
	case "cmp", "test":
		if !need(2) {
			return ""
		}
		// Intel cmp a,b (AT&T cmp b,a) sets the flags from a - b.
		x := m.x86read(args[0])
		y := m.x86read(args[1])
		if m.stopped() {
			return ""
		}
		if mn == "test" {
			m.x86flags(m.x86op("&", x, y), reg{v: axiom.Int(0)})
		} else {
			m.x86flags(m.x86diff(x, y), m.x86below(x, y))
		}
	case "cmovc":
		if len(args) != 2 || args[0].Kind != litmus.OpdReg {
			m.fail(in.Pos(), "cmovc needs a register destination and a source")
			return ""
		}
		// The memory source is read either way.
		src := m.x86read(args[1])
		if m.stopped() {
			return ""
		}
		cf := m.x86st().cf
		if cf.v.Truth() {
			m.x86set(args[0], reg{v: src.v, t: src.t.Merge(cf.t)})
		} else {
			r := m.x86get(args[0])
			m.x86set(args[0], reg{v: r.v, t: r.t.Merge(cf.t)})
		}
	case "setnb":
		if !need(1) {
			return ""
		}
		cf := m.x86st().cf
		v := reg{v: axiom.Int(0), t: cf.t}
		if !cf.v.Truth() {
			v.v = axiom.Int(1)
		}
		switch d := args[0]; d.Kind {
		case litmus.OpdReg:
			m.x86set(d, v)
		case litmus.OpdMem:
			m.store(m.x86addr(d), v, 0, -1)
		default:
			m.fail(d.Pos(), "cannot write to %s", d.Text)
		}
	default:
		m.fail(in.Pos(), "unsupported instruction %s", in.Op)
	}
	return ""
}

// x86Label returns the label a jump names.
func x86Label(o *litmus.Operand) string {
	if o.Label != "" {
		return o.Label
	}
	return o.Text
}

// x86get reads a register operand.
func (m *machine) x86get(o *litmus.Operand) reg { return m.get(x86asm.CanonReg(o.Reg)) }

// x86set writes a register operand.
func (m *machine) x86set(o *litmus.Operand, r reg) { m.set(x86asm.CanonReg(o.Reg), r) }

// x86src reads a register, immediate or location-name operand.
func (m *machine) x86src(o *litmus.Operand) reg {
	switch o.Kind {
	case litmus.OpdReg:
		return m.x86get(o)
	case litmus.OpdImm:
		return reg{v: axiom.Int(o.Imm)}
	case litmus.OpdLabel:
		// A bare name as a value: the address of that location.
		if i, ok := m.th.p.index[o.Label]; ok {
			return reg{v: axiom.Addr(i)}
		}
	}
	m.fail(o.Pos(), "unsupported operand %s", o.Text)
	return reg{}
}

// x86read reads an operand, loading a memory operand with a plain read.
func (m *machine) x86read(o *litmus.Operand) reg {
	if o.Kind != litmus.OpdMem {
		return m.x86src(o)
	}
	v, i := m.load(m.x86addr(o), 0)
	if i < 0 {
		return reg{}
	}
	return reg{v: v, t: axiom.Taint{i}}
}

// x86addr computes a memory operand's address: Sym + Disp + Base +
// Index*Scale.
func (m *machine) x86addr(o *litmus.Operand) reg {
	a := reg{v: axiom.Int(o.Disp)}
	if o.Sym != "" {
		i, ok := m.th.p.index[o.Sym]
		if !ok {
			m.fail(o.Pos(), "unknown location %s", o.Sym)
			return reg{}
		}
		a.v = addVal(axiom.Addr(i), o.Disp)
	}
	if o.Base != "" {
		b := m.get(x86asm.CanonReg(o.Base))
		a = reg{v: m.x86op("+", a, b).v, t: a.t.Merge(b.t)}
	}
	if o.Index != "" && o.Scale != 0 {
		x := m.get(x86asm.CanonReg(o.Index))
		if o.Scale != 1 {
			x = m.x86op("*", x, reg{v: axiom.Int(int64(o.Scale))})
		}
		a = reg{v: m.x86op("+", a, x).v, t: a.t.Merge(x.t)}
	}
	if o.Sym == "" && o.Base == "" && (o.Index == "" || o.Scale == 0) {
		m.fail(o.Pos(), "memory operand %s names no location", o.Text)
	}
	if _, inArray := m.th.p.arrays[a.v.Loc()]; a.v.IsAddr() && a.v.N != 0 && !inArray {
		// An offset from a location that is not an array is the
		// address of no location: the operational machines drop the
		// execution, and so does this semantics.
		m.dead = true
	}
	return a
}

// x86mov is MOV (and MOVNTI, with the tag NT on its store).
func (m *machine) x86mov(dst, src *litmus.Operand, tags axiom.Tags) {
	switch {
	case dst.Kind == litmus.OpdMem && src.Kind == litmus.OpdMem:
		m.fail(m.in.Pos(), "mov cannot move memory to memory")
	case dst.Kind == litmus.OpdMem:
		a := m.x86addr(dst)
		v := m.x86src(src)
		if !m.stopped() {
			m.store(a, v, tags, -1)
		}
	case dst.Kind == litmus.OpdReg:
		v := m.x86read(src)
		if !m.stopped() {
			m.x86set(dst, v)
		}
	default:
		m.fail(dst.Pos(), "cannot move into %s", dst.Text)
	}
}

// x86write is the write of an instruction that read the location first
// (read, the index of that read): herd's iico_order puts the read
// before the write, as po does not relate events of one instruction.
// rmw is the read when the two are an atomic pair, else -1.
func (m *machine) x86write(addr, v reg, tags axiom.Tags, rmw, read int) {
	if w := m.store(addr, v, tags, rmw); w >= 0 {
		m.events[w].Order = []int{read}
	}
}

// x86xchg is XCHG: of two registers, a swap; with memory, an atomic
// exchange, locked with or without LOCK.
func (m *machine) x86xchg(a, b *litmus.Operand) {
	mem, r := a, b
	if r.Kind == litmus.OpdMem {
		mem, r = r, mem
	}
	if r.Kind != litmus.OpdReg {
		m.fail(m.in.Pos(), "xchg needs a register operand")
		return
	}
	if mem.Kind == litmus.OpdReg {
		x, y := m.x86get(mem), m.x86get(r)
		m.x86set(mem, y)
		m.x86set(r, x)
		return
	}
	addr, v, old, i, ok := m.x86rmwRead(mem, r)
	if !ok {
		return
	}
	m.x86write(addr, v, x86Tags.of("X"), i, i)
	m.x86set(r, reg{v: old, t: axiom.Taint{i}})
}

// x86rmwRead starts a locked read-modify-write of memory operand mem with
// register r: it returns the address, r's value, and the locked read's
// value and event; ok is false when the path has stopped.
func (m *machine) x86rmwRead(mem, r *litmus.Operand) (addr, v reg, old axiom.Val, i int, ok bool) {
	addr = m.x86addr(mem)
	v = m.x86get(r)
	if m.stopped() {
		return addr, v, old, -1, false
	}
	old, i = m.load(addr, x86Tags.of("X"))
	return addr, v, old, i, i >= 0
}

// x86xadd is LOCK XADD mem,reg: reg takes the old value, memory the sum.
func (m *machine) x86xadd(mem, r *litmus.Operand) {
	addr, v, old, i, ok := m.x86rmwRead(mem, r)
	if !ok {
		return
	}
	o := reg{v: old, t: axiom.Taint{i}}
	sum := m.x86op("+", o, v)
	if m.stopped() {
		return
	}
	m.x86write(addr, sum, x86Tags.of("X"), i, i)
	m.x86set(r, o)
}

// x86cmpxchg is CMPXCHG mem,reg: when memory holds rax it takes reg,
// else rax takes its value; the flags compare rax with the old value.
// With LOCK it is atomic, and a failing one still makes a locked read;
// without, it is a plain read then, on success, a plain write.
func (m *machine) x86cmpxchg(mem, src *litmus.Operand, locked bool) {
	addr := m.x86addr(mem)
	if m.stopped() {
		return
	}
	var tags axiom.Tags
	if locked {
		tags = x86Tags.of("X")
	}
	old, i := m.load(addr, tags)
	if i < 0 {
		return
	}
	o := reg{v: old, t: axiom.Taint{i}}
	rax := m.get("rax")
	m.x86flags(m.x86diff(rax, o), m.x86below(rax, o))
	if m.stopped() {
		return
	}
	if old == rax.v {
		rmw := -1
		if locked {
			rmw = i
		}
		m.x86write(addr, m.x86get(src), tags, rmw, i)
	}
	m.set("rax", o)
}

// x86arith is the one- and two-operand arithmetic instructions.
func (m *machine) x86arith(mn string, args []*litmus.Operand, locked bool) {
	one := mn == "inc" || mn == "dec" || mn == "neg" || mn == "not"
	if (one && len(args) != 1) || (!one && len(args) != 2) {
		m.fail(m.in.Pos(), "%s: wrong number of operands", mn)
		return
	}
	dst := args[0]
	var y reg
	switch {
	case mn == "inc" || mn == "dec":
		y = reg{v: axiom.Int(1)}
	case one:
	case args[1].Kind == litmus.OpdMem && dst.Kind == litmus.OpdMem:
		m.fail(args[1].Pos(), "%s cannot take two memory operands", mn)
		return
	default:
		// ADD EAX,[x]: herd's grammar takes any operand as source.
		y = m.x86read(args[1])
	}
	if m.stopped() {
		return
	}
	op := x86ArithOp[mn]
	switch dst.Kind {
	case litmus.OpdReg:
		old := m.x86get(dst)
		res := m.x86op(op, old, y)
		if m.stopped() {
			return
		}
		m.x86carry(mn, old, y)
		m.x86set(dst, res)
		if mn != "not" {
			m.x86st().flags = res
		}
	case litmus.OpdMem:
		addr := m.x86addr(dst)
		if m.stopped() {
			return
		}
		// With LOCK, one atomic read-modify-write; without, a read then
		// a write, and another thread may write in between.
		var tags axiom.Tags
		if locked {
			if _, ok := x86Locked[mn]; !ok {
				m.fail(m.in.Pos(), "LOCK %s is not supported", mn)
				return
			}
			tags = x86Tags.of("X")
		}
		v, i := m.load(addr, tags)
		if i < 0 {
			return
		}
		old := reg{v: v, t: axiom.Taint{i}}
		res := m.x86op(op, old, y)
		if m.stopped() {
			return
		}
		if !locked || (mn != "inc" && mn != "dec") {
			m.x86carry(mn, old, y)
		}
		rmw := -1
		if locked {
			rmw = i
		}
		m.x86write(addr, res, tags, rmw, i)
		if locked || mn != "not" {
			m.x86st().flags = res
		}
	default:
		m.fail(dst.Pos(), "cannot write to %s", dst.Text)
	}
}

// x86carry sets the carry flag as mn computing old op y does, or keeps
// it when mn keeps it.
func (m *machine) x86carry(mn string, old, y reg) {
	st := m.x86st()
	switch mn {
	case "add":
		st.cf = m.x86below(m.x86op("+", old, y), y)
	case "sub":
		st.cf = m.x86below(old, y)
	case "and", "or", "xor":
		st.cf = reg{v: axiom.Int(0)}
	case "neg":
		st.cf = reg{v: axiom.Int(b2i(old.v != axiom.Int(0))), t: old.t}
	}
}

// x86flags sets the flags from a result and a carry.
func (m *machine) x86flags(res, cf reg) {
	st := m.x86st()
	st.flags, st.cf = res, cf
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// x86op computes a op b on values, with the reads both depend on. op is
// a binary operator, or "neg" or "not" of a alone.
func (m *machine) x86op(op string, a, b reg) reg {
	t := a.t.Merge(b.t)
	x, y := a.v, b.v
	if !x.IsAddr() && !y.IsAddr() {
		var r int64
		switch op {
		case "+":
			r = x.N + y.N
		case "-":
			r = x.N - y.N
		case "*":
			r = x.N * y.N
		case "&":
			r = x.N & y.N
		case "|":
			r = x.N | y.N
		case "^":
			r = x.N ^ y.N
		case "<<":
			r = x.N << uint(y.N&63)
		case ">>":
			r = x.N >> uint(y.N&63)
		case "neg":
			r = -x.N
		case "not":
			r = ^x.N
		}
		return reg{v: axiom.Int(r), t: t}
	}
	switch {
	case op == "+" && x.IsAddr() && !y.IsAddr():
		return reg{v: addVal(x, y.N), t: t}
	case op == "+" && y.IsAddr() && !x.IsAddr():
		return reg{v: addVal(y, x.N), t: t}
	case op == "-" && x.IsAddr() && !y.IsAddr():
		return reg{v: addVal(x, -y.N), t: t}
	case op == "-" && x.IsAddr() && y.IsAddr() && x.Sym == y.Sym:
		return reg{v: axiom.Int(x.N - y.N), t: t}
	case (op == "&" || op == "|") && x == y:
		return reg{v: x, t: t}
	case op == "^" && x == y:
		return reg{v: axiom.Int(0), t: t}
	}
	m.fail(m.in.Pos(), "%s: arithmetic on the address of a location is not supported", instrText(m.in))
	return reg{}
}

// x86diff is the value CMP a,b leaves in the flags: a - b, or, where a
// or b is an address and the difference is no value of ours, a value
// with the same sign and zeroness (an address is a large positive
// number under the operational machines).
func (m *machine) x86diff(a, b reg) reg {
	if !a.v.IsAddr() && b.v.IsAddr() {
		return reg{v: axiom.Int(-1), t: a.t.Merge(b.t)}
	}
	return m.x86op("-", a, b)
}

// x86below is the carry flag of CMP a,b: 1 when a < b as unsigned
// numbers, else 0.
func (m *machine) x86below(a, b reg) reg {
	t := a.t.Merge(b.t)
	x, y := a.v, b.v
	var less bool
	switch {
	case !x.IsAddr() && !y.IsAddr():
		less = uint64(x.N) < uint64(y.N)
	case x.IsAddr() && y.IsAddr():
		if x.Sym != y.Sym {
			m.fail(m.in.Pos(), "%s: comparing the addresses of two locations is not supported", instrText(m.in))
			return reg{}
		}
		less = uint64(x.N) < uint64(y.N)
	case x.IsAddr():
		less = y.N < 0 // a negative integer is a larger unsigned number
	default:
		less = x.N >= 0
	}
	return reg{v: axiom.Int(b2i(less)), t: t}
}

// x86holds reports whether the flags' value f compares with zero as cmp
// says; an address is non-zero and positive.
func (m *machine) x86holds(cmp string, f axiom.Val) bool {
	sign := 1
	if !f.IsAddr() {
		switch {
		case f.N < 0:
			sign = -1
		case f.N == 0:
			sign = 0
		}
	}
	switch cmp {
	case "==":
		return sign == 0
	case "!=":
		return sign != 0
	case "<":
		return sign < 0
	case "<=":
		return sign <= 0
	case ">":
		return sign > 0
	}
	return sign >= 0
}
