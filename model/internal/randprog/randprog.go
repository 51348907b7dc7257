// Package randprog draws random C litmus programs for the property and
// fuzz tests of the operational core and of the engines compared with it:
// straight-line threads of READ_ONCE, WRITE_ONCE, barriers, release and
// acquire, atomic RMWs, a conditional store and spinlocks, over two or
// three locations, printed as a C test that observes every location and
// register.
package randprog

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// Op is one operation of a random program.
type Op struct {
	Kind string // store, load, mb, wmb, release, acquire, xchg, add, cmpxchg, ifstore, lock, unlock, trylock
	Loc  int
	Val  int
	Val2 int // cmpxchg's new value; ifstore's compared value
	Reg  int // destination register (load, acquire, xchg, cmpxchg, trylock); ifstore's tested register
}

// Prog is a random program: Threads[i] are thread i's operations over
// locations x0..x(Locs-1), with NRegs[i] registers.
type Prog struct {
	Locs    int
	Threads [][]Op
	NRegs   []int
}

var opKinds = []string{"store", "store", "load", "load", "mb", "wmb", "release", "acquire", "xchg", "add", "cmpxchg", "ifstore", "lock", "unlock", "trylock"}

// Gen draws a program of 2-4 threads with 1-4 operations each over
// 2-3 locations.
func Gen(t *rapid.T, maxThreads, maxOps int) *Prog {
	p := &Prog{Locs: rapid.IntRange(2, 3).Draw(t, "locs")}
	n := rapid.IntRange(2, maxThreads).Draw(t, "threads")
	for i := 0; i < n; i++ {
		var ops []Op
		nregs := 0
		k := rapid.IntRange(1, maxOps).Draw(t, "ops")
		for j := 0; j < k; j++ {
			o := Op{Kind: rapid.SampledFrom(opKinds).Draw(t, "kind"), Loc: rapid.IntRange(0, p.Locs-1).Draw(t, "loc"), Val: rapid.IntRange(1, 2).Draw(t, "val")}
			switch o.Kind {
			case "cmpxchg":
				o.Val = rapid.IntRange(0, 2).Draw(t, "expected")
				o.Val2 = rapid.IntRange(1, 3).Draw(t, "new")
			case "ifstore":
				if nregs == 0 {
					o.Kind = "load"
				} else {
					o.Reg = rapid.IntRange(0, nregs-1).Draw(t, "tested")
					o.Val2 = rapid.IntRange(0, 2).Draw(t, "compared")
				}
			}
			switch o.Kind {
			case "load", "acquire", "xchg", "cmpxchg", "trylock":
				o.Reg = nregs
				nregs++
			}
			ops = append(ops, o)
		}
		p.Threads = append(p.Threads, ops)
		p.NRegs = append(p.NRegs, nregs)
	}
	return p
}

// Source prints the program as a C litmus test that observes every
// location and register.
func (p *Prog) Source() string {
	var b strings.Builder
	b.WriteString("C random\n\n{}\n\n")
	var params []string
	for l := 0; l < p.Locs; l++ {
		params = append(params, fmt.Sprintf("int *x%d", l))
	}
	for i, ops := range p.Threads {
		fmt.Fprintf(&b, "P%d(%s)\n{\n", i, strings.Join(params, ", "))
		for r := 0; r < p.NRegs[i]; r++ {
			fmt.Fprintf(&b, "\tint r%d;\n", r)
		}
		for _, o := range ops {
			b.WriteString("\t" + o.C() + "\n")
		}
		b.WriteString("}\n\n")
	}
	var locs []string
	for l := 0; l < p.Locs; l++ {
		locs = append(locs, fmt.Sprintf("x%d", l))
	}
	for i, n := range p.NRegs {
		for r := 0; r < n; r++ {
			locs = append(locs, fmt.Sprintf("%d:r%d", i, r))
		}
	}
	fmt.Fprintf(&b, "locations [%s]\nexists (x0=0)\n", strings.Join(locs, "; "))
	return b.String()
}

// C returns the operation as a C statement.
func (o Op) C() string {
	x := fmt.Sprintf("x%d", o.Loc)
	switch o.Kind {
	case "store":
		return fmt.Sprintf("WRITE_ONCE(*%s, %d);", x, o.Val)
	case "load":
		return fmt.Sprintf("r%d = READ_ONCE(*%s);", o.Reg, x)
	case "mb":
		return "smp_mb();"
	case "wmb":
		return "smp_wmb();"
	case "release":
		return fmt.Sprintf("smp_store_release(%s, %d);", x, o.Val)
	case "acquire":
		return fmt.Sprintf("r%d = smp_load_acquire(%s);", o.Reg, x)
	case "xchg":
		return fmt.Sprintf("r%d = xchg(%s, %d);", o.Reg, x, o.Val)
	case "add":
		return fmt.Sprintf("atomic_add(%d, %s);", o.Val, x)
	case "cmpxchg":
		return fmt.Sprintf("r%d = cmpxchg(%s, %d, %d);", o.Reg, x, o.Val, o.Val2)
	case "ifstore":
		return fmt.Sprintf("if (r%d == %d) WRITE_ONCE(*%s, %d);", o.Reg, o.Val2, x, o.Val)
	case "lock":
		return fmt.Sprintf("spin_lock(%s);", x)
	case "unlock":
		return fmt.Sprintf("spin_unlock(%s);", x)
	case "trylock":
		return fmt.Sprintf("r%d = spin_trylock(%s);", o.Reg, x)
	}
	panic(o.Kind)
}

// WithoutOp returns a copy of the program without operation j of thread i.
func (p *Prog) WithoutOp(i, j int) *Prog {
	q := *p
	q.Threads = append([][]Op(nil), p.Threads...)
	q.Threads[i] = append(append([]Op(nil), p.Threads[i][:j]...), p.Threads[i][j+1:]...)
	return &q
}

// Fenced returns a copy with smp_mb() after every store.
func (p *Prog) Fenced() *Prog {
	q := *p
	q.Threads = nil
	for _, ops := range p.Threads {
		var out []Op
		for _, o := range ops {
			out = append(out, o)
			if o.Kind == "store" || o.Kind == "release" || o.Kind == "ifstore" || o.Kind == "unlock" {
				out = append(out, Op{Kind: "mb"})
			}
		}
		q.Threads = append(q.Threads, out)
	}
	return &q
}

// Subset returns an element of a that b lacks, and false; or "", true.
func Subset(a, b []string) (string, bool) {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	for _, s := range a {
		if !in[s] {
			return s, false
		}
	}
	return "", true
}
