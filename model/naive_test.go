package model

import (
	"fmt"
	"sort"
	"strings"

	"pgregory.net/rapid"
)

// This file holds the random programs of the property tests and a
// deliberately naive reference enumerator for them. The enumerator shares
// nothing with the engine: it interprets the generator's own program
// representation, keeps its state in plain slices, remembers visited
// states by their printed form, and describes PSO's store ordering
// differently (a generation count per store instead of group marks).

// gop is one operation of a random program.
type gop struct {
	kind string // store, load, mb, wmb, release, acquire, xchg, add, cmpxchg, ifstore
	loc  int
	val  int
	val2 int // cmpxchg's new value; ifstore's compared value
	reg  int // destination register (load, acquire, xchg, cmpxchg); ifstore's tested register
}

type gprog struct {
	locs    int
	threads [][]gop
	nregs   []int
}

var gopKinds = []string{"store", "store", "load", "load", "mb", "wmb", "release", "acquire", "xchg", "add", "cmpxchg", "ifstore", "lock", "unlock", "trylock"}

// genProg draws a program of 2-4 threads with 1-4 operations each over
// 2-3 locations.
func genProg(t *rapid.T, maxThreads, maxOps int) *gprog {
	p := &gprog{locs: rapid.IntRange(2, 3).Draw(t, "locs")}
	n := rapid.IntRange(2, maxThreads).Draw(t, "threads")
	for i := 0; i < n; i++ {
		var ops []gop
		nregs := 0
		k := rapid.IntRange(1, maxOps).Draw(t, "ops")
		for j := 0; j < k; j++ {
			o := gop{kind: rapid.SampledFrom(gopKinds).Draw(t, "kind"), loc: rapid.IntRange(0, p.locs-1).Draw(t, "loc"), val: rapid.IntRange(1, 2).Draw(t, "val")}
			switch o.kind {
			case "cmpxchg":
				o.val = rapid.IntRange(0, 2).Draw(t, "expected")
				o.val2 = rapid.IntRange(1, 3).Draw(t, "new")
			case "ifstore":
				if nregs == 0 {
					o.kind = "load"
				} else {
					o.reg = rapid.IntRange(0, nregs-1).Draw(t, "tested")
					o.val2 = rapid.IntRange(0, 2).Draw(t, "compared")
				}
			}
			switch o.kind {
			case "load", "acquire", "xchg", "cmpxchg", "trylock":
				o.reg = nregs
				nregs++
			}
			ops = append(ops, o)
		}
		p.threads = append(p.threads, ops)
		p.nregs = append(p.nregs, nregs)
	}
	return p
}

// source prints the program as a C litmus test that observes every
// location and register.
func (p *gprog) source() string {
	var b strings.Builder
	b.WriteString("C random\n\n{}\n\n")
	var params []string
	for l := 0; l < p.locs; l++ {
		params = append(params, fmt.Sprintf("int *x%d", l))
	}
	for i, ops := range p.threads {
		fmt.Fprintf(&b, "P%d(%s)\n{\n", i, strings.Join(params, ", "))
		for r := 0; r < p.nregs[i]; r++ {
			fmt.Fprintf(&b, "\tint r%d;\n", r)
		}
		for _, o := range ops {
			b.WriteString("\t" + o.c() + "\n")
		}
		b.WriteString("}\n\n")
	}
	var locs []string
	for l := 0; l < p.locs; l++ {
		locs = append(locs, fmt.Sprintf("x%d", l))
	}
	for i, n := range p.nregs {
		for r := 0; r < n; r++ {
			locs = append(locs, fmt.Sprintf("%d:r%d", i, r))
		}
	}
	fmt.Fprintf(&b, "locations [%s]\nexists (x0=0)\n", strings.Join(locs, "; "))
	return b.String()
}

func (o gop) c() string {
	x := fmt.Sprintf("x%d", o.loc)
	switch o.kind {
	case "store":
		return fmt.Sprintf("WRITE_ONCE(*%s, %d);", x, o.val)
	case "load":
		return fmt.Sprintf("r%d = READ_ONCE(*%s);", o.reg, x)
	case "mb":
		return "smp_mb();"
	case "wmb":
		return "smp_wmb();"
	case "release":
		return fmt.Sprintf("smp_store_release(%s, %d);", x, o.val)
	case "acquire":
		return fmt.Sprintf("r%d = smp_load_acquire(%s);", o.reg, x)
	case "xchg":
		return fmt.Sprintf("r%d = xchg(%s, %d);", o.reg, x, o.val)
	case "add":
		return fmt.Sprintf("atomic_add(%d, %s);", o.val, x)
	case "cmpxchg":
		return fmt.Sprintf("r%d = cmpxchg(%s, %d, %d);", o.reg, x, o.val, o.val2)
	case "ifstore":
		return fmt.Sprintf("if (r%d == %d) WRITE_ONCE(*%s, %d);", o.reg, o.val2, x, o.val)
	case "lock":
		return fmt.Sprintf("spin_lock(%s);", x)
	case "unlock":
		return fmt.Sprintf("spin_unlock(%s);", x)
	case "trylock":
		return fmt.Sprintf("r%d = spin_trylock(%s);", o.reg, x)
	}
	panic(o.kind)
}

// withoutOp returns a copy of the program without operation j of thread i.
func (p *gprog) withoutOp(i, j int) *gprog {
	q := *p
	q.threads = append([][]gop(nil), p.threads...)
	q.threads[i] = append(append([]gop(nil), p.threads[i][:j]...), p.threads[i][j+1:]...)
	return &q
}

// fenced returns a copy with smp_mb() after every store.
func (p *gprog) fenced() *gprog {
	q := *p
	q.threads = nil
	for _, ops := range p.threads {
		var out []gop
		for _, o := range ops {
			out = append(out, o)
			if o.kind == "store" || o.kind == "release" || o.kind == "ifstore" || o.kind == "unlock" {
				out = append(out, gop{kind: "mb"})
			}
		}
		q.threads = append(q.threads, out)
	}
	return &q
}

// naive enumerates the final states of p under model m ("sc", "tso",
// "pso"), each printed in herd's format over every location and register.
// A lock is a location: spin_lock waits for an empty buffer and the value
// 0 and sets 1; spin_unlock is a release store of 0; spin_trylock takes a
// free lock atomically (after its buffer is empty) and says whether it
// did. States where threads wait forever are not final and are dropped.
func naive(p *gprog, m string) []string {
	type bent struct{ loc, val, gen int }
	type nstate struct {
		mem  []int
		pc   []int
		regs [][]int
		buf  [][]bent
		gen  []int
	}
	copyS := func(s nstate) nstate {
		c := nstate{mem: append([]int(nil), s.mem...), pc: append([]int(nil), s.pc...), gen: append([]int(nil), s.gen...)}
		for i := range s.regs {
			c.regs = append(c.regs, append([]int(nil), s.regs[i]...))
			c.buf = append(c.buf, append([]bent(nil), s.buf[i]...))
		}
		return c
	}
	s0 := nstate{mem: make([]int, p.locs), pc: make([]int, len(p.threads)), gen: make([]int, len(p.threads))}
	for i := range p.threads {
		s0.regs = append(s0.regs, make([]int, p.nregs[i]))
		s0.buf = append(s0.buf, nil)
	}
	seen := map[string]bool{}
	finals := map[string]bool{}
	read := func(s nstate, t, l int) int {
		for k := len(s.buf[t]) - 1; k >= 0; k-- {
			if s.buf[t][k].loc == l {
				return s.buf[t][k].val
			}
		}
		return s.mem[l]
	}
	write := func(s *nstate, t, l, v int) {
		if m == "sc" {
			s.mem[l] = v
			return
		}
		s.buf[t] = append(s.buf[t], bent{l, v, s.gen[t]})
	}
	var visit func(s nstate)
	visit = func(s nstate) {
		key := fmt.Sprint(s)
		if seen[key] {
			return
		}
		seen[key] = true
		done := true
		for t, ops := range p.threads {
			if s.pc[t] < len(ops) || len(s.buf[t]) > 0 {
				done = false
			}
		}
		if done {
			var parts []string
			for i := range p.threads {
				for r, v := range s.regs[i] {
					parts = append(parts, fmt.Sprintf("%d:r%d=%d;", i, r, v))
				}
			}
			for l, v := range s.mem {
				parts = append(parts, fmt.Sprintf("[x%d]=%d;", l, v))
			}
			finals[strings.Join(parts, " ")] = true
			return
		}
		for t, ops := range p.threads {
			// Drains.
			for k, e := range s.buf[t] {
				ok := true
				for _, f := range s.buf[t][:k] {
					if m == "tso" || f.loc == e.loc || f.gen < e.gen {
						ok = false
					}
				}
				if ok {
					c := copyS(s)
					c.mem[e.loc] = e.val
					c.buf[t] = append(c.buf[t][:k:k], s.buf[t][k+1:]...)
					visit(c)
				}
			}
			if s.pc[t] >= len(ops) {
				continue
			}
			o := ops[s.pc[t]]
			empty := len(s.buf[t]) == 0
			c := copyS(s)
			c.pc[t]++
			switch o.kind {
			case "store":
				write(&c, t, o.loc, o.val)
			case "release":
				c.gen[t]++
				write(&c, t, o.loc, o.val)
			case "unlock":
				c.gen[t]++
				write(&c, t, o.loc, 0)
			case "lock":
				if !empty || c.mem[o.loc] != 0 {
					continue
				}
				c.mem[o.loc] = 1
			case "trylock":
				if !empty {
					continue
				}
				c.regs[t][o.reg] = 0
				if c.mem[o.loc] == 0 {
					c.mem[o.loc], c.regs[t][o.reg] = 1, 1
				}
			case "wmb":
				c.gen[t]++
			case "load", "acquire":
				c.regs[t][o.reg] = read(s, t, o.loc)
			case "mb":
				if !empty {
					continue
				}
			case "xchg", "add", "cmpxchg":
				if !empty {
					continue
				}
				old := c.mem[o.loc]
				switch o.kind {
				case "xchg":
					c.mem[o.loc] = o.val
				case "add":
					c.mem[o.loc] = old + o.val
				case "cmpxchg":
					if old == o.val {
						c.mem[o.loc] = o.val2
					}
				}
				if o.kind != "add" {
					c.regs[t][o.reg] = old
				}
			case "ifstore":
				if s.regs[t][o.reg] == o.val2 {
					write(&c, t, o.loc, o.val)
				}
			}
			visit(c)
		}
	}
	visit(s0)
	var out []string
	for f := range finals {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}
