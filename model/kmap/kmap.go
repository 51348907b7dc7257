// Package kmap is the Linux kernel's mapping of its memory-model primitives
// to machine instructions: for each architecture, one row per primitive
// giving the instruction sequence the kernel emits for it and the header it
// was read from. It is data. `litmus run` (internal/harness) assembles the
// rows to run C litmus tests on real cores, and the rows are meant to be
// printed in docs/semantics.md and compiled to each architecture's events
// by the model side, so that "what the kernel does" is written down once.
//
// A row's Code is a sequence of instructions in the GNU assembler syntax of
// its architecture (AT&T for x86-64, as the kernel's inline assembly is
// written; Arm's syntax for arm64; the RISC-V and POWER syntaxes, with
// register names xN and rN), separated by ';'. An instruction may
// start with a numeric local label "1:"; branches name them "1b" (the
// nearest such label before) or "1f" (after), as in the kernel's asm. The
// operands the C code supplies are placeholders:
//
//	{addr}  the accessed location: on x86-64 a memory operand; elsewhere
//	        a register holding its address, written "[{addr}]" (arm64),
//	        "0({addr})" or "({addr})" (riscv64, ppc64), or as the base
//	        of an X-form access "r0, {addr}" (ppc64)
//	{v}     the first value operand (on x86-64 a register or an immediate
//	        "$n"; on arm64 an X register)
//	{w}     the second value operand (cmpxchg's new value, add_unless's
//	        limit)
//	{nr}    a bitop's bit number (x86-64: "$n" or a register)
//	{mask}  a bitop's mask, 1<<nr (arm64: an X register)
//	{ret}   the register receiving the primitive's value
//
// Everything else is written literally: the scratch registers (x86-64:
// %rax, %rcx; arm64: x14-x17 and their w halves; riscv64: x28-x31;
// ppc64: r28-r31) belong to the row.
// Two rules make a row safe to paste between arbitrary C statements: {ret}
// appears only in the last instruction, as its destination, so the inputs
// are all read before it is written; and a row writes no register but its
// scratch registers and {ret}. kmap_test.go checks both.
//
// Every location is one word of one size, so each table uses one form:
// the 64-bit forms on x86-64, arm64 and riscv64 (addq, x registers, .d),
// the 32-bit forms of atomic_t on ppc64 (lwarx/stwcx., which herd 7.58's
// PPC front end reads, where it does not read ldarx/stdcx.). The kernel
// uses the other size's forms of the same instructions for the other
// types, which order memory the same way for aligned accesses of one size.
//
// Some instructions are hints with no memory effect (a prefetch, a spin
// hint); Hint names them, and model/kcomp leaves them out of the litmus
// tests it writes, since herd's dialects do not have them.
package kmap

import (
	"fmt"
	"sort"
	"strings"
)

// Arch is a target of the mapping.
type Arch string

// The architectures. ARM64 is the kernel on a CPU with the LSE atomics
// (ARMv8.1 and later: the kernel patches its LL/SC sequences to LSE
// instructions at boot when the CPU has them); ARM64LLSC is the kernel on
// a CPU without them, or built without CONFIG_ARM64_LSE_ATOMICS.
const (
	X86_64    Arch = "x86-64"
	ARM64     Arch = "arm64"
	ARM64LLSC Arch = "arm64-llsc"
	RISCV64   Arch = "riscv64"
	PPC64     Arch = "ppc64"
)

// Arches returns every architecture of the mapping.
func Arches() []Arch { return []Arch{X86_64, ARM64, ARM64LLSC, RISCV64, PPC64} }

// Hint reports whether in is a hint of architecture a: an instruction
// with no memory access and no ordering (arm64's PRFM and YIELD, RISC-V's
// PAUSE, POWER's priority nops "or 1,1,1" and "or 2,2,2").
func Hint(a Arch, in Insn) bool {
	switch a {
	case ARM64, ARM64LLSC:
		return in.Op == "prfm" || in.Op == "yield"
	case RISCV64:
		return in.Op == "pause"
	case PPC64:
		return in.Op == "or" && len(in.Args) == 3 && (in.Args[0] == "1" || in.Args[0] == "2") && in.Args[1] == in.Args[0] && in.Args[2] == in.Args[0]
	}
	return false
}

// Row is how the kernel compiles one primitive on one architecture.
type Row struct {
	// Prim is the primitive's name as litmus tests write it
	// ("atomic_fetch_add_relaxed"), or one of the pseudo-primitives
	// PlainLoad and PlainStore for C's own accesses "*p" and "*p = v".
	Prim string
	// Code is the instruction sequence; "" for a primitive that is only a
	// compiler barrier on this architecture.
	Code string
	// Src names the kernel header and function the row was read from, with
	// the kernel version.
	Src string
	// Note says what else a reader needs: what the C wrapper around the
	// instructions does, a simplification, a configuration it assumes.
	Note string
}

// Gap is a primitive the mapping cannot express, with the reason.
type Gap struct {
	Prim string
	Why  string
}

// The pseudo-primitives for C's plain accesses.
const (
	PlainLoad  = "(plain load)"
	PlainStore = "(plain store)"
	// NullAssign is rcu_assign_pointer(p, NULL) with a literal NULL (0):
	// the kernel then skips the release (include/linux/rcupdate.h,
	// rcu_assign_pointer: "if (__builtin_constant_p(v) && (v) == NULL)
	// WRITE_ONCE(...)").
	NullAssign = "rcu_assign_pointer(NULL)"
)

// rowList collects an architecture's rows as its file lists them.
type rowList []Row

// add appends the row of prim.
func (l *rowList) add(prim, code, src, note string) {
	*l = append(*l, Row{Prim: prim, Code: code, Src: src, Note: note})
}

// addAll appends a row for each of prims, with the same code, source and
// note.
func (l *rowList) addAll(prims []string, code, src, note string) {
	for _, p := range prims {
		l.add(p, code, src, note)
	}
}

// addAccesses appends the rows of the once and the plain accesses, in
// the order every architecture's file lists them: READ_ONCE and its
// family (onceLoad, the source), the plain load and store (plainLoad and
// plainStore say what they compile to), WRITE_ONCE and its family
// (onceStore).
func (l *rowList) addAccesses(load, store, onceLoad, plainLoad, plainStore, onceStore string) {
	l.addAll(onceLoads, load, onceLoad, "")
	l.add(PlainLoad, load, plainLoad, "")
	l.add(PlainStore, store, plainStore, "")
	l.addAll(onceStores, store, onceStore, "")
}

// addEmpty appends the rows that compile to nothing on every
// architecture (arch names it in the source of smp_read_barrier_depends):
// smp_mb__after_srcu_read_unlock, barrier (unless the file has listed it
// with its other compiler barriers), smp_read_barrier_depends and RCU's
// read side.
func (l *rowList) addEmpty(arch string, barrier bool) {
	l.add("smp_mb__after_srcu_read_unlock", "", srcuH+": empty, __srcu_read_unlock has its own smp_mb()", "")
	if barrier {
		l.add("barrier", "", "include/linux/compiler.h (v6.x): a compiler barrier", "")
	}
	l.add("smp_read_barrier_depends", "", "removed in v5.9; was empty on "+arch, "")
	l.addAll(rcuReadSide, "", rcupdate+": preempt_disable()/preempt_enable(), compiler barriers in a non-preemptible kernel", "RCU's guarantees come from grace periods; a test without synchronize_rcu has none")
}

// The families of primitives that every architecture's file maps alike,
// one row each with the same code.
var (
	// onceLoads are READ_ONCE and the reads that are READ_ONCE.
	onceLoads = []string{"READ_ONCE", "rcu_dereference", "lockless_dereference", "atomic_read", "atomic_long_read", "refcount_read"}
	// onceStores are WRITE_ONCE and the writes that are WRITE_ONCE.
	onceStores = []string{"WRITE_ONCE", "atomic_set", "atomic_long_set", "refcount_set"}
	// acquireLoads are smp_load_acquire and its atomic_t forms.
	acquireLoads = []string{"smp_load_acquire", "atomic_read_acquire", "atomic_long_read_acquire"}
	// releaseStores are smp_store_release, its atomic_t forms and
	// rcu_assign_pointer.
	releaseStores = []string{"smp_store_release", "atomic_set_release", "atomic_long_set_release", "rcu_assign_pointer"}
	// rcuReadSide are RCU's read-side critical section's bounds.
	rcuReadSide = []string{"rcu_read_lock", "rcu_read_unlock"}
	// atomicBarriers are smp_mb__before_atomic and smp_mb__after_atomic.
	atomicBarriers = []string{"smp_mb__before_atomic", "smp_mb__after_atomic"}
)

type table struct {
	rows map[string]Row
	gaps map[string]string
}

var tables = map[Arch]*table{}

func register(a Arch, rows []Row, gaps []Gap) {
	t := &table{rows: map[string]Row{}, gaps: map[string]string{}}
	for _, r := range rows {
		if _, dup := t.rows[r.Prim]; dup {
			panic("kmap: duplicate row " + string(a) + " " + r.Prim)
		}
		t.rows[r.Prim] = r
	}
	for _, g := range gaps {
		if _, dup := t.rows[g.Prim]; dup {
			panic("kmap: " + g.Prim + " is both a row and a gap")
		}
		t.gaps[g.Prim] = g.Why
	}
	tables[a] = t
}

// Lookup returns the row of prim on a. When there is none, ok is false and
// why says why the mapping leaves it out (or that it is unknown).
func Lookup(a Arch, prim string) (r Row, why string, ok bool) {
	t := tables[a]
	if t == nil {
		return Row{}, fmt.Sprintf("no mapping for architecture %s", a), false
	}
	if r, ok := t.rows[prim]; ok {
		return r, "", true
	}
	if why, ok := t.gaps[prim]; ok {
		return Row{}, why, false
	}
	return Row{}, fmt.Sprintf("%s has no %s mapping", prim, a), false
}

// Rows returns every row of a, sorted by primitive.
func Rows(a Arch) []Row {
	t := tables[a]
	if t == nil {
		return nil
	}
	out := make([]Row, 0, len(t.rows))
	for _, r := range t.rows {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Prim < out[j].Prim })
	return out
}

// Gaps returns every primitive a's mapping leaves out, sorted.
func Gaps(a Arch) []Gap {
	t := tables[a]
	if t == nil {
		return nil
	}
	out := make([]Gap, 0, len(t.gaps))
	for p, why := range t.gaps {
		out = append(out, Gap{p, why})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Prim < out[j].Prim })
	return out
}

// Insn is one instruction of a row's Code.
type Insn struct {
	Label  string   // "1" for a line "1: ...", else ""
	Prefix string   // "lock" (x86-64), else ""
	Op     string   // the mnemonic, lower case: "xaddq", "ldaddal", "b.ne"
	Args   []string // the operands as written, trimmed: "%rax", "{addr}", "[{addr}]", "#1"
}

// String prints the instruction as it is written in a row.
// IsLabelRef reports whether a is a reference to a numeric local label:
// "1b" (the nearest definition of 1 before), "2f" (the nearest after).
func IsLabelRef(a string) bool {
	if len(a) < 2 || (a[len(a)-1] != 'b' && a[len(a)-1] != 'f') {
		return false
	}
	for _, r := range a[:len(a)-1] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// LabelTarget returns the index in insns of the instruction that defines
// the local label ref names from instruction at ("Nb": the nearest
// definition of N at or before at; "Nf": the nearest after), and whether
// the branch goes back.
func LabelTarget(insns []Insn, at int, ref string) (int, bool, error) {
	name, back := ref[:len(ref)-1], ref[len(ref)-1] == 'b'
	if back {
		for j := at; j >= 0; j-- {
			if insns[j].Label == name {
				return j, true, nil
			}
		}
	} else {
		for j := at + 1; j < len(insns); j++ {
			if insns[j].Label == name {
				return j, false, nil
			}
		}
	}
	return 0, back, fmt.Errorf("no label %s", ref)
}

func (in Insn) String() string {
	var b strings.Builder
	if in.Label != "" {
		b.WriteString(in.Label + ": ")
	}
	if in.Prefix != "" {
		b.WriteString(in.Prefix + " ")
	}
	b.WriteString(in.Op)
	if len(in.Args) > 0 {
		b.WriteString(" " + strings.Join(in.Args, ", "))
	}
	return b.String()
}

// Uses reports whether an operand of insns names placeholder ph
// ("{addr}", "{v}"): whether the code reads that operand of the
// primitive.
func Uses(insns []Insn, ph string) bool {
	for _, in := range insns {
		for _, a := range in.Args {
			if strings.Contains(a, ph) {
				return true
			}
		}
	}
	return false
}

// Parse splits a row's Code into instructions. A label alone ("2:") is an
// instruction with an empty Op.
func Parse(code string) ([]Insn, error) {
	var out []Insn
	if strings.TrimSpace(code) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(code, ";") {
		s := strings.TrimSpace(part)
		if s == "" {
			return nil, fmt.Errorf("empty instruction in %q", code)
		}
		var in Insn
		if i := strings.IndexByte(s, ':'); i > 0 && isDigits(s[:i]) {
			in.Label = s[:i]
			s = strings.TrimSpace(s[i+1:])
		}
		if s == "" {
			out = append(out, in)
			continue
		}
		op, rest, _ := strings.Cut(s, " ")
		op = strings.ToLower(op)
		if op == "lock" {
			in.Prefix = op
			rest = strings.TrimSpace(rest)
			op, rest, _ = strings.Cut(rest, " ")
			op = strings.ToLower(op)
		}
		in.Op = op
		rest = strings.TrimSpace(rest)
		if rest != "" {
			args, err := splitArgs(rest)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", s, err)
			}
			in.Args = args
		}
		out = append(out, in)
	}
	return out, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// splitArgs splits operands at the commas outside brackets, parentheses
// and braces.
func splitArgs(s string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced %q", s)
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced %q", s)
	}
	out = append(out, strings.TrimSpace(s[start:]))
	for _, a := range out {
		if a == "" {
			return nil, fmt.Errorf("empty operand in %q", s)
		}
	}
	return out, nil
}

// placeholders lists the placeholders a row may use.
var placeholders = []string{"{addr}", "{v}", "{w}", "{nr}", "{mask}", "{ret}"}
