package arch_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// Generated tests: small X86 and C programs, each run by a cat model of
// the library and by the operational machine of the same model. Both
// must find the same final states over every register and location, and
// the same verdict.

// x86Regs are the registers a generated thread uses, as Intel and AT&T
// write them.
var x86Regs = [][2]string{{"EAX", "%eax"}, {"EBX", "%ebx"}, {"ECX", "%ecx"}}

// x86Prog builds one X86 (Intel) or X86_64 (AT&T) test.
type x86Prog struct {
	att   bool
	locs  []string
	code  [][]string
	label int
	rws   int // instructions that read then write memory so far
	adds  int // additions to memory among them
}

func (g *x86Prog) reg(i int) string {
	if g.att {
		return x86Regs[i][1]
	}
	return x86Regs[i][0]
}

func (g *x86Prog) mem(l string) string {
	if g.att {
		return "(" + l + ")"
	}
	return "[" + l + "]"
}

// ins writes an instruction of Intel operands dst, src in the dialect's
// order; att is the AT&T mnemonic (with its size suffix).
func (g *x86Prog) ins(intel, att string, ops ...string) string {
	op := intel
	if g.att {
		op = att
		for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
			ops[i], ops[j] = ops[j], ops[i]
		}
	}
	if len(ops) == 0 {
		return op
	}
	return op + " " + strings.Join(ops, ",")
}

// fresh sets register r to an immediate and returns the instruction:
// the values a generated test writes stay few (the axiomatic core
// enumerates the values of each location, and a value written back
// after arithmetic on values read makes ever more of them).
func (g *x86Prog) fresh(t *rapid.T, r string) string {
	return g.ins("MOV", "movl", r, fmt.Sprintf("$%d", rapid.IntRange(1, 2).Draw(t, "val")))
}

// genX86Instrs draws the instructions of one step of a thread.
func (g *x86Prog) genX86Instrs(t *rapid.T) []string {
	l := g.mem(rapid.SampledFrom(g.locs).Draw(t, "loc"))
	r := g.reg(rapid.IntRange(0, len(x86Regs)-1).Draw(t, "reg"))
	v := fmt.Sprintf("$%d", rapid.IntRange(1, 2).Draw(t, "val"))
	switch rapid.IntRange(0, 17).Draw(t, "op") {
	case 0, 1:
		return []string{g.ins("MOV", "movl", l, v)}
	case 2:
		return []string{g.fresh(t, r), g.ins("MOV", "movq", l, r)}
	case 3, 4:
		return []string{g.ins("MOV", "movl", r, l)}
	case 5:
		return []string{g.fence(t)}
	case 6:
		return g.rw(false, g.store(l), g.fresh(t, r), g.ins("XCHG", "xchgl", l, r))
	case 7:
		return g.rw(true, g.store(l), "LOCK "+g.ins("ADD", "addl", l, v))
	case 8:
		return g.rw(true, g.store(l), "LOCK "+g.ins(rapid.SampledFrom([]string{"INC", "DEC"}).Draw(t, "incdec"), "incl", l))
	case 9:
		return g.rw(true, g.store(l), g.fresh(t, r), "LOCK "+g.ins("XADD", "xaddl", l, r))
	case 10:
		return g.rw(false, g.store(l), g.cmpxchg(t, l, rapid.Bool().Draw(t, "locked"))...)
	case 11:
		return g.rw(true, g.store(l), g.ins("ADD", "addl", l, v))
	case 12:
		return []string{g.ins("ADD", "addl", r, l)}
	case 13:
		return g.rw(false, g.store(l), g.fresh(t, r), "LOCK "+g.ins("XOR", "xorl", l, r))
	case 14:
		// A forward conditional branch over one store.
		g.label++
		lab := fmt.Sprintf("L%d", g.label)
		jump := rapid.SampledFrom([]string{"JNE", "JE", "JL", "JGE"}).Draw(t, "jcc")
		return []string{g.ins("CMP", "cmpl", r, v), g.ins(jump, strings.ToLower(jump), lab),
			g.ins("MOV", "movl", l, "$3"), lab + ":"}
	case 15:
		return []string{g.ins("CMP", "cmpl", r, v), g.ins("CMOVC", "cmovcl", r, l)}
	case 16:
		return []string{g.ins("CMP", "cmpl", r, v), g.ins("SETNB", "setnb", l)}
	default:
		return []string{g.fresh(t, r)}
	}
}

// rw returns instrs, an instruction that reads then writes memory (an
// addition when add is set), or fallback when the test has three such
// instructions already, or two additions. The candidate executions grow
// fast with them (the reads' values, the orders of the writes), and so
// does the cat interpreter's time: a test of three threads with four
// each can take a minute. An addition also makes the values of its
// location more, and the axiomatic core enumerates the values of each
// read (six additions make ten million combinations of paths).
func (g *x86Prog) rw(add bool, fallback string, instrs ...string) []string {
	if g.rws >= 3 || (add && g.adds >= 2) {
		return []string{fallback}
	}
	g.rws++
	if add {
		g.adds++
	}
	return instrs
}

// store is a plain store to l.
func (g *x86Prog) store(l string) string { return g.ins("MOV", "movl", l, "$1") }

// fence draws a fence, or a locked instruction on a location of the
// thread's own (s0, s1, ...), which orders as MFENCE does.
func (g *x86Prog) fence(t *rapid.T) string {
	switch rapid.IntRange(0, 5).Draw(t, "fence") {
	case 0, 1:
		return "MFENCE"
	case 2:
		return "SFENCE"
	case 3:
		return "LFENCE"
	}
	return "LOCK " + g.ins("OR", "orl", g.mem(fmt.Sprintf("s%d", len(g.code))), "$1")
}

// cmpxchg is a CMPXCHG of l that expects 0 or 1.
func (g *x86Prog) cmpxchg(t *rapid.T, l string, locked bool) []string {
	cas := g.ins("CMPXCHG", "cmpxchgl", l, g.reg(1))
	if locked {
		cas = "LOCK " + cas
	}
	return []string{g.ins("MOV", "movl", g.reg(0), fmt.Sprintf("$%d", rapid.IntRange(0, 1).Draw(t, "expect"))), g.fresh(t, g.reg(1)), cas}
}

// access draws one access of l: a write (plain, exchanged, locked or
// not) or a read (plain, or the read of a locked instruction).
func (g *x86Prog) access(t *rapid.T, write bool, loc string) []string {
	l := g.mem(loc)
	r := g.reg(rapid.IntRange(1, len(x86Regs)-1).Draw(t, "reg"))
	if write {
		switch rapid.IntRange(0, 5).Draw(t, "write") {
		case 0:
			return g.rw(false, g.store(l), g.fresh(t, r), g.ins("XCHG", "xchgl", l, r))
		case 1:
			return g.rw(true, g.store(l), "LOCK "+g.ins("ADD", "addl", l, "$1"))
		case 2:
			return g.rw(true, g.store(l), g.fresh(t, r), "LOCK "+g.ins("XADD", "xaddl", l, r))
		case 3:
			return g.rw(false, g.store(l), g.cmpxchg(t, l, true)...)
		case 4:
			return g.rw(true, g.store(l), g.ins("ADD", "addl", l, "$1"))
		}
		return []string{g.ins("MOV", "movl", l, fmt.Sprintf("$%d", rapid.IntRange(1, 2).Draw(t, "val")))}
	}
	load := g.ins("MOV", "movl", r, l)
	switch rapid.IntRange(0, 3).Draw(t, "read") {
	case 0:
		return g.rw(false, load, g.ins("MOV", "movl", r, "$0"), "LOCK "+g.ins("XADD", "xaddl", l, r))
	case 1:
		return g.rw(false, load, g.cmpxchg(t, l, true)...)
	}
	return []string{load}
}

// genX86 draws a test of 2 or 3 threads on 2 or 3 locations: either any
// instructions, or (in the manner of diy's cycles) two accesses of
// different locations per thread, each drawn among the instructions
// that write or read, with a fence or not between them.
func genX86(t *rapid.T) *x86Prog {
	g := &x86Prog{att: rapid.Bool().Draw(t, "att")}
	n := rapid.IntRange(2, 3).Draw(t, "threads")
	g.locs = []string{"x", "y", "z"}[:rapid.IntRange(2, 3).Draw(t, "locs")]
	dense := rapid.Bool().Draw(t, "dense")
	for i := 0; i < n; i++ {
		var code []string
		if dense {
			a := rapid.IntRange(0, len(g.locs)-1).Draw(t, "first")
			b := (a + rapid.IntRange(1, len(g.locs)-1).Draw(t, "second")) % len(g.locs)
			w1 := rapid.Bool().Draw(t, "w1")
			code = append(code, g.access(t, w1, g.locs[a])...)
			if w1 && rapid.Bool().Draw(t, "rfi") {
				// Read the write back: from the store buffer under TSO.
				code = append(code, g.ins("MOV", "movl", g.reg(0), g.mem(g.locs[a])))
			}
			if rapid.IntRange(0, 3).Draw(t, "fenced") > 0 {
				code = append(code, g.fence(t))
			}
			code = append(code, g.access(t, rapid.Bool().Draw(t, "w2"), g.locs[b])...)
		} else {
			// Few steps: the candidate executions, and the cat
			// interpreter's time, grow exponentially with them (three
			// threads of two steps can make a million candidates).
			most := 3
			if n == 3 {
				most = 2 - min(i, 1) // 2, 1, 1
			}
			for s := rapid.IntRange(1, most).Draw(t, "steps"); s > 0; s-- {
				code = append(code, g.genX86Instrs(t)...)
			}
		}
		g.code = append(g.code, code)
	}
	return g
}

func (g *x86Prog) source() string {
	var b strings.Builder
	if g.att {
		b.WriteString("X86_64 gen\n{ }\n")
	} else {
		b.WriteString("X86 gen\n{ }\n")
	}
	rows := 0
	for i, c := range g.code {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "P%d", i)
		rows = max(rows, len(c))
	}
	b.WriteString(" ;\n")
	for r := 0; r < rows; r++ {
		for i, c := range g.code {
			if i > 0 {
				b.WriteString(" | ")
			}
			if r < len(c) {
				b.WriteString(c[r])
			}
		}
		b.WriteString(" ;\n")
	}
	var locs []string
	for i := range g.code {
		for _, r := range x86Regs {
			name := r[0]
			if g.att {
				name = strings.TrimPrefix(r[1], "%")
			}
			locs = append(locs, fmt.Sprintf("%d:%s", i, name))
		}
	}
	locs = append(locs, g.locs...)
	fmt.Fprintf(&b, "locations [%s;]\nexists (%s=1)\n", strings.Join(locs, ";"), g.locs[0])
	return b.String()
}

// compareGenerated parses src and checks that the cat model on the
// program made by build and the operational model give the same answer.
func compareGenerated(t *rapid.T, src string, m model.Model, cm *interp.Model, build func(*litmus.Test) (*axiom.Program, error)) {
	test, err := litmus.Parse("gen.litmus", []byte(src))
	require.NoError(t, err, src)
	op, err := runOp(t, test, m)
	require.NoError(t, err, src)
	p, err := build(test)
	require.NoError(t, err, src)
	got := runCat(t, cm, p)
	require.NotContains(t, op.verdict, "Unknown", src)
	require.Equal(t, op.String(), got.String(), "%s: cat against operational\n%s", m, src)
}

func buildArch(test *litmus.Test) (*axiom.Program, error) { return arch.Program(test, arch.Options{}) }

// TestX86GeneratedTSO: x86tso.cat gives the operational TSO machine's
// answer on generated X86 tests.
func TestX86GeneratedTSO(t *testing.T) {
	tso := libModel(t, "x86tso.cat")
	rapid.Check(t, func(t *rapid.T) {
		compareGenerated(t, genX86(t).source(), model.TSO, tso, buildArch)
	})
}

// TestX86GeneratedSC: sc.cat gives the operational SC machine's answer
// on generated X86 tests.
func TestX86GeneratedSC(t *testing.T) {
	sc := libModel(t, "sc.cat")
	rapid.Check(t, func(t *rapid.T) {
		compareGenerated(t, genX86(t).source(), model.SC, sc, buildArch)
	})
}

// cProg builds one C test with marked accesses, spinlocks and RCU.
type cProg struct {
	locs    []string
	threads [][]string
	regs    []int // registers used by each thread
}

// genCStmts draws the statements of one step of thread th.
func (g *cProg) genCStmts(t *rapid.T, th int, depth int) []string {
	l := rapid.SampledFrom(g.locs).Draw(t, "loc")
	v := rapid.IntRange(1, 2).Draw(t, "val")
	newReg := func() string {
		g.regs[th]++
		return fmt.Sprintf("r%d", g.regs[th]-1)
	}
	block := func(open, close string) []string {
		out := []string{open}
		for s := rapid.IntRange(1, 2).Draw(t, "inner"); s > 0; s-- {
			out = append(out, g.genCStmts(t, th, depth+1)...)
		}
		return append(out, close)
	}
	max := 13
	if depth > 0 {
		max = 9 // no nested critical sections or grace periods
	}
	switch rapid.IntRange(0, max).Draw(t, "stmt") {
	case 0, 1:
		return []string{fmt.Sprintf("WRITE_ONCE(*%s, %d);", l, v)}
	case 2:
		return []string{fmt.Sprintf("smp_store_release(%s, %d);", l, v)}
	case 3, 4:
		return []string{fmt.Sprintf("%s = READ_ONCE(*%s);", newReg(), l)}
	case 5:
		return []string{fmt.Sprintf("%s = smp_load_acquire(%s);", newReg(), l)}
	case 6:
		return []string{rapid.SampledFrom([]string{"smp_mb();", "smp_wmb();", "smp_rmb();"}).Draw(t, "fence")}
	case 7:
		return []string{fmt.Sprintf("%s = xchg(%s, %d);", newReg(), l, v)}
	case 8:
		return []string{fmt.Sprintf("%s = cmpxchg(%s, %d, %d);", newReg(), l, rapid.IntRange(0, 1).Draw(t, "old"), v)}
	case 9:
		return []string{fmt.Sprintf("%s = spin_is_locked(lk);", newReg())}
	case 10, 11:
		return block("spin_lock(lk);", "spin_unlock(lk);")
	case 12:
		return block("rcu_read_lock();", "rcu_read_unlock();")
	default:
		return []string{"synchronize_rcu();"}
	}
}

// cAccess draws one marked access of a location of g.
func (g *cProg) cAccess(t *rapid.T, th int) string {
	l := rapid.SampledFrom(g.locs).Draw(t, "loc")
	v := rapid.IntRange(1, 2).Draw(t, "val")
	r := fmt.Sprintf("r%d", g.regs[th])
	switch rapid.IntRange(0, 6).Draw(t, "access") {
	case 0:
		return fmt.Sprintf("WRITE_ONCE(*%s, %d);", l, v)
	case 1:
		return fmt.Sprintf("smp_store_release(%s, %d);", l, v)
	case 2:
		g.regs[th]++
		return fmt.Sprintf("%s = smp_load_acquire(%s);", r, l)
	case 3:
		g.regs[th]++
		return fmt.Sprintf("%s = xchg(%s, %d);", r, l, v)
	case 4:
		g.regs[th]++
		return fmt.Sprintf("%s = cmpxchg(%s, %d, %d);", r, l, rapid.IntRange(0, 1).Draw(t, "old"), v)
	}
	g.regs[th]++
	return fmt.Sprintf("%s = READ_ONCE(*%s);", r, l)
}

// cShape draws one thread of a dense C test: a read-side critical
// section, accesses around a grace period, a critical section of the
// spinlock (taken by spin_lock or spin_trylock, or never released), or
// two accesses with a fence or not between.
func (g *cProg) cShape(t *rapid.T, th int) []string {
	a := func() string { return g.cAccess(t, th) }
	switch rapid.IntRange(0, 6).Draw(t, "shape") {
	case 0:
		return []string{"rcu_read_lock();", a(), a(), "rcu_read_unlock();"}
	case 1:
		return []string{"rcu_read_lock();", a(), "rcu_read_lock();", a(), "rcu_read_unlock();", a(), "rcu_read_unlock();"}
	case 2:
		return []string{a(), "synchronize_rcu();", a()}
	case 3:
		return []string{"spin_lock(lk);", a(), a(), "spin_unlock(lk);"}
	case 4:
		r := fmt.Sprintf("r%d", g.regs[th])
		g.regs[th]++
		return []string{fmt.Sprintf("%s = spin_trylock(lk);", r), fmt.Sprintf("if (%s) {", r), a(), "spin_unlock(lk);", "}", a()}
	case 5:
		return []string{a(), "spin_lock(lk);", a()}
	}
	out := []string{a()}
	if rapid.Bool().Draw(t, "fenced") {
		out = append(out, rapid.SampledFrom([]string{"smp_mb();", "smp_wmb();", "smp_rmb();"}).Draw(t, "fence"))
	}
	return append(out, a())
}

// genC draws a C test: 2 or 3 threads of any statements, or (dense) 2
// to 4 threads of one or two shapes each.
func genC(t *rapid.T) *cProg {
	dense := rapid.Bool().Draw(t, "dense")
	n := rapid.IntRange(2, 3).Draw(t, "threads")
	if dense {
		n = rapid.IntRange(2, 4).Draw(t, "threads")
	}
	g := &cProg{locs: []string{"x", "y"}, regs: make([]int, n)}
	for i := 0; i < n; i++ {
		var body []string
		if dense {
			body = g.cShape(t, i)
			if n < 4 && rapid.IntRange(0, 3).Draw(t, "second shape") == 0 {
				body = append(body, g.cShape(t, i)...)
			}
		} else {
			for s := rapid.IntRange(1, 3).Draw(t, "steps"); s > 0; s-- {
				body = append(body, g.genCStmts(t, i, 0)...)
			}
		}
		g.threads = append(g.threads, body)
	}
	return g
}

func (g *cProg) source() string {
	var b strings.Builder
	b.WriteString("C gen\n{ }\n")
	var locs []string
	for i, body := range g.threads {
		fmt.Fprintf(&b, "P%d(int *x, int *y, spinlock_t *lk) {\n", i)
		for r := 0; r < g.regs[i]; r++ {
			fmt.Fprintf(&b, "  int r%d;\n", r)
			locs = append(locs, fmt.Sprintf("%d:r%d", i, r))
		}
		for _, s := range body {
			b.WriteString("  " + s + "\n")
		}
		b.WriteString("}\n")
	}
	locs = append(locs, g.locs...)
	fmt.Fprintf(&b, "locations [%s;]\nexists (x=1)\n", strings.Join(locs, ";"))
	return b.String()
}

// TestCGeneratedSC: sc.cat, over model/lkmm's events, gives the
// operational SC machine's answer on generated C tests with marked
// accesses, spinlocks and RCU.
func TestCGeneratedSC(t *testing.T) {
	sc := libModel(t, "sc.cat")
	rapid.Check(t, func(t *rapid.T) {
		compareGenerated(t, genC(t).source(), model.SC, sc, func(test *litmus.Test) (*axiom.Program, error) {
			return lkmm.Program(test, 0)
		})
	})
}
