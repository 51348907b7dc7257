package op

import (
	"fmt"
	"sort"
	"strings"

	"github.com/litmus-dev/litmus/model/internal/randprog"
)

// This file holds the random programs of the property tests and a
// deliberately naive reference enumerator for them. The enumerator shares
// nothing with the engine: it interprets the generator's own program
// representation, keeps its state in plain slices, remembers visited
// states by their printed form, and describes PSO's store ordering
// differently (a generation count per store instead of group marks).

// naive enumerates the final states of p under model m ("sc", "tso",
// "pso"), each printed in herd's format over every location and register.
// A lock is a location: spin_lock waits for an empty buffer and the value
// 0 and sets 1; spin_unlock is a release store of 0; spin_trylock takes a
// free lock atomically (after its buffer is empty) and says whether it
// did. States where threads wait forever are not final and are dropped.
func naive(p *randprog.Prog, m string) []string {
	type bent struct{ Loc, Val, gen int }
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
	s0 := nstate{mem: make([]int, p.Locs), pc: make([]int, len(p.Threads)), gen: make([]int, len(p.Threads))}
	for i := range p.Threads {
		s0.regs = append(s0.regs, make([]int, p.NRegs[i]))
		s0.buf = append(s0.buf, nil)
	}
	seen := map[string]bool{}
	finals := map[string]bool{}
	read := func(s nstate, t, l int) int {
		for k := len(s.buf[t]) - 1; k >= 0; k-- {
			if s.buf[t][k].Loc == l {
				return s.buf[t][k].Val
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
		for t, ops := range p.Threads {
			if s.pc[t] < len(ops) || len(s.buf[t]) > 0 {
				done = false
			}
		}
		if done {
			var parts []string
			for i := range p.Threads {
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
		for t, ops := range p.Threads {
			// Drains.
			for k, e := range s.buf[t] {
				ok := true
				for _, f := range s.buf[t][:k] {
					if m == "tso" || f.Loc == e.Loc || f.gen < e.gen {
						ok = false
					}
				}
				if ok {
					c := copyS(s)
					c.mem[e.Loc] = e.Val
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
			switch o.Kind {
			case "store":
				write(&c, t, o.Loc, o.Val)
			case "release":
				c.gen[t]++
				write(&c, t, o.Loc, o.Val)
			case "unlock":
				c.gen[t]++
				write(&c, t, o.Loc, 0)
			case "lock":
				if !empty || c.mem[o.Loc] != 0 {
					continue
				}
				c.mem[o.Loc] = 1
			case "trylock":
				if !empty {
					continue
				}
				c.regs[t][o.Reg] = 0
				if c.mem[o.Loc] == 0 {
					c.mem[o.Loc], c.regs[t][o.Reg] = 1, 1
				}
			case "wmb":
				c.gen[t]++
			case "load", "acquire":
				c.regs[t][o.Reg] = read(s, t, o.Loc)
			case "mb":
				if !empty {
					continue
				}
			case "xchg", "add", "cmpxchg":
				if !empty {
					continue
				}
				old := c.mem[o.Loc]
				switch o.Kind {
				case "xchg":
					c.mem[o.Loc] = o.Val
				case "add":
					c.mem[o.Loc] = old + o.Val
				case "cmpxchg":
					if old == o.Val {
						c.mem[o.Loc] = o.Val2
					}
				}
				if o.Kind != "add" {
					c.regs[t][o.Reg] = old
				}
			case "ifstore":
				if s.regs[t][o.Reg] == o.Val2 {
					write(&c, t, o.Loc, o.Val)
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
