package lkmm

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"

	"pgregory.net/rapid"
)

// This file checks two properties of the engine on random straight-line
// tests of ONCE reads and writes, against a brute-force enumeration of
// sequentially consistent interleavings:
//
//   - the LKMM is weaker than SC: every SC final state is an LKMM final
//     state;
//   - with smp_mb() between every two accesses of a thread the LKMM is SC:
//     the two sets of final states are equal.

type scAccess struct {
	write bool
	xchg  bool  // xchg_relaxed: reads into reg and writes val atomically
	loc   int   // 0 = x, 1 = y
	val   int64 // written value
	reg   int   // register read into
}

type scTest struct {
	threads [][]scAccess
}

var scLocs = []string{"x", "y"}

func genSCTest(t *rapid.T) scTest {
	nth := rapid.IntRange(2, 3).Draw(t, "threads")
	var st scTest
	val := int64(0)
	for i := 0; i < nth; i++ {
		n := rapid.IntRange(1, 3).Draw(t, fmt.Sprintf("len%d", i))
		var th []scAccess
		for j := 0; j < n; j++ {
			kind := rapid.IntRange(0, 2).Draw(t, "kind")
			a := scAccess{write: kind == 1, xchg: kind == 2, loc: rapid.IntRange(0, 1).Draw(t, "loc"), reg: j}
			if a.write || a.xchg {
				val++
				a.val = val
			}
			th = append(th, a)
		}
		st.threads = append(st.threads, th)
	}
	return st
}

// source prints the test in the C dialect, with smp_mb() between the
// accesses when fenced.
func (st scTest) source(fenced bool) string {
	var b strings.Builder
	b.WriteString("C rapid\n\n{}\n\n")
	var obs []string
	for i, th := range st.threads {
		fmt.Fprintf(&b, "P%d(int *x, int *y)\n{\n", i)
		for j, a := range th {
			if j > 0 && fenced {
				b.WriteString("\tsmp_mb();\n")
			}
			switch {
			case a.xchg:
				fmt.Fprintf(&b, "\tint r%d = xchg_relaxed(%s, %d);\n", a.reg, scLocs[a.loc], a.val)
				obs = append(obs, fmt.Sprintf("%d:r%d", i, a.reg))
			case a.write:
				fmt.Fprintf(&b, "\tWRITE_ONCE(*%s, %d);\n", scLocs[a.loc], a.val)
			default:
				fmt.Fprintf(&b, "\tint r%d = READ_ONCE(*%s);\n", a.reg, scLocs[a.loc])
				obs = append(obs, fmt.Sprintf("%d:r%d", i, a.reg))
			}
		}
		b.WriteString("}\n\n")
	}
	obs = append(obs, "x", "y")
	fmt.Fprintf(&b, "locations [%s]\nexists (x=0)\n", strings.Join(obs, "; "))
	return b.String()
}

// scStates enumerates every interleaving and returns the final states in
// herd's format, sorted.
func (st scTest) scStates() []string {
	set := map[string]bool{}
	pcs := make([]int, len(st.threads))
	mem := []int64{0, 0}
	regs := make([]map[int]int64, len(st.threads))
	for i := range regs {
		regs[i] = map[int]int64{}
	}
	var rec func()
	rec = func() {
		done := true
		for i, th := range st.threads {
			if pcs[i] == len(th) {
				continue
			}
			done = false
			a := th[pcs[i]]
			pcs[i]++
			old, hadOld := regs[i][a.reg]
			oldMem := mem[a.loc]
			if !a.write {
				regs[i][a.reg] = mem[a.loc]
			}
			if a.write || a.xchg {
				mem[a.loc] = a.val
			}
			rec()
			mem[a.loc] = oldMem
			if !a.write {
				if hadOld {
					regs[i][a.reg] = old
				} else {
					delete(regs[i], a.reg)
				}
			}
			pcs[i]--
		}
		if done {
			var parts []string
			for i, th := range st.threads {
				for _, a := range th {
					if !a.write { // reads and xchgs
						parts = append(parts, fmt.Sprintf("%d:r%d=%d;", i, a.reg, regs[i][a.reg]))
					}
				}
			}
			parts = append(parts, fmt.Sprintf("[x]=%d;", mem[0]), fmt.Sprintf("[y]=%d;", mem[1]))
			set[strings.Join(parts, " ")] = true
		}
	}
	rec()
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func lkmmStates(t *rapid.T, src string) []string {
	test, err := litmus.Parse("rapid.litmus", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	res, err := Check(context.Background(), test, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var out []string
	for _, s := range res.States.All() {
		out = append(out, s.String())
	}
	sort.Strings(out)
	return out
}

func TestSCProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := genSCTest(t)
		sc := st.scStates()
		weak := lkmmStates(t, st.source(false))
		have := map[string]bool{}
		for _, s := range weak {
			have[s] = true
		}
		for _, s := range sc {
			if !have[s] {
				t.Fatalf("SC state %q is not an LKMM state\n%s", s, st.source(false))
			}
		}
		fenced := lkmmStates(t, st.source(true))
		if strings.Join(fenced, "\n") != strings.Join(sc, "\n") {
			t.Fatalf("with smp_mb everywhere the LKMM states differ from SC:\nLKMM:\n%s\nSC:\n%s\n%s",
				strings.Join(fenced, "\n"), strings.Join(sc, "\n"), st.source(true))
		}
	})
}
