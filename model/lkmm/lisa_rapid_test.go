package lkmm

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// lisaCOp is one operation of a random straight-line test, written both in
// LISA and in the C dialect with the primitive linux-kernel.def gives the
// same events.
type lisaCOp struct{ lisa, c string }

// drawLISACOp draws an operation of thread-local step j; regs are the
// registers already read, which a write may store (a data dependency).
func drawLISACOp(t *rapid.T, j int, regs []string) (lisaCOp, string) {
	loc := rapid.SampledFrom([]string{"x", "y"}).Draw(t, "loc")
	reg := fmt.Sprintf("r%d", j)
	val := fmt.Sprint(rapid.IntRange(1, 2).Draw(t, "val"))
	if len(regs) > 0 && rapid.Bool().Draw(t, "data") {
		val = rapid.SampledFrom(regs).Draw(t, "src")
	}
	switch rapid.IntRange(0, 11).Draw(t, "kind") {
	case 0:
		return lisaCOp{"r[once] " + reg + " " + loc, reg + " = READ_ONCE(*" + loc + ");"}, reg
	case 1:
		return lisaCOp{"r[acquire] " + reg + " " + loc, reg + " = smp_load_acquire(" + loc + ");"}, reg
	case 2:
		return lisaCOp{"r[] " + reg + " " + loc, reg + " = *" + loc + ";"}, reg
	case 3:
		return lisaCOp{"w[once] " + loc + " " + val, "WRITE_ONCE(*" + loc + ", " + val + ");"}, ""
	case 4:
		return lisaCOp{"w[release] " + loc + " " + val, "smp_store_release(" + loc + ", " + val + ");"}, ""
	case 5:
		return lisaCOp{"w[] " + loc + " " + val, "*" + loc + " = " + val + ";"}, ""
	case 6:
		return lisaCOp{"f[mb]", "smp_mb();"}, ""
	case 7:
		return lisaCOp{"f[rmb]", "smp_rmb();"}, ""
	case 8:
		return lisaCOp{"f[wmb]", "smp_wmb();"}, ""
	case 9:
		ord := rapid.SampledFrom([]string{"mb", "once", "acquire", "release"}).Draw(t, "ord")
		fn := map[string]string{"mb": "xchg", "once": "xchg_relaxed", "acquire": "xchg_acquire", "release": "xchg_release"}[ord]
		return lisaCOp{"rmw[" + ord + "] " + reg + " " + val + " " + loc, reg + " = " + fn + "(" + loc + ", " + val + ");"}, reg
	case 10:
		ord := rapid.SampledFrom([]string{"mb", "once"}).Draw(t, "ord")
		fn := map[string]string{"mb": "atomic_fetch_add", "once": "atomic_fetch_add_relaxed"}[ord]
		return lisaCOp{"rmw[" + ord + "] " + reg + " (add " + reg + " 1) " + loc, reg + " = " + fn + "(1, " + loc + ");"}, reg
	default:
		return lisaCOp{"f[rcu-lock]", "rcu_read_lock();"}, ""
	}
}

var symName = regexp.MustCompile(`=S[0-9]+;`)

// TestLISAMatchesC checks, on random straight-line tests, that a LISA test
// and the C test made of the primitives its annotations stand for get the
// same final states, counts and flags: the two front ends produce the same
// events and dependencies. (Branches are left out on purpose: a LISA
// branch makes every later event control dependent, a C if only its arms.)
func TestLISAMatchesC(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var lisa, c strings.Builder
		var obs []string
		nth := rapid.IntRange(2, 3).Draw(t, "threads")
		cols := make([][]string, nth)
		c.WriteString("C rapid\n\n{}\n\n")
		for i := 0; i < nth; i++ {
			fmt.Fprintf(&c, "P%d(int *x, int *y)\n{\n\tint r0, r1, r2, r3;\n\n", i)
			var regs []string
			for j, n := 0, rapid.IntRange(1, 4).Draw(t, "len"); j < n; j++ {
				op, reg := drawLISACOp(t, j, regs)
				cols[i] = append(cols[i], op.lisa)
				fmt.Fprintf(&c, "\t%s\n", op.c)
				if reg != "" {
					regs = append(regs, reg)
					obs = append(obs, fmt.Sprintf("%d:%s", i, reg))
				}
			}
			if strings.Contains(strings.Join(cols[i], " "), "rcu-lock") {
				cols[i] = append(cols[i], "f[rcu-unlock]")
				c.WriteString("\trcu_read_unlock();\n")
			}
			c.WriteString("}\n\n")
		}
		lisa.WriteString("LISA rapid\n{}\n")
		rows := 0
		for _, col := range cols {
			rows = max(rows, len(col))
		}
		for r := -1; r < rows; r++ {
			var cells []string
			for i, col := range cols {
				switch {
				case r < 0:
					cells = append(cells, fmt.Sprintf("P%d", i))
				case r < len(col):
					cells = append(cells, col[r])
				default:
					cells = append(cells, "")
				}
			}
			lisa.WriteString(" " + strings.Join(cells, " | ") + " ;\n")
		}
		final := fmt.Sprintf("locations [%s]\nexists (x=1 /\\ y=1)\n", strings.Join(append(obs, "x", "y"), "; "))
		lisa.WriteString(final)
		c.WriteString(final)
		a, b := checkSrc(t, lisa.String()), checkSrc(t, c.String())
		if a.Verdict == Unknown || b.Verdict == Unknown {
			t.Fatalf("unknown: %s / %s", a.Reason, b.Reason)
		}
		// A cycle of copies gets a symbolic value named after herd's
		// variables, which the two dialects number differently (C
		// reads its registers through variables, LISA does not): the
		// names are not compared, only where they are.
		var as, bs []string
		for _, s := range a.States.All() {
			as = append(as, symName.ReplaceAllString(s.String(), "=S;"))
		}
		for _, s := range b.States.All() {
			bs = append(bs, symName.ReplaceAllString(s.String(), "=S;"))
		}
		// The numbering decides where symbolic states sort, so the
		// renamed states are compared as sets.
		sort.Strings(as)
		sort.Strings(bs)
		if strings.Join(as, "\n") != strings.Join(bs, "\n") || a.Positive != b.Positive || a.Negative != b.Negative ||
			strings.Join(a.Flags, ",") != strings.Join(b.Flags, ",") {
			t.Fatalf("LISA and C differ\nLISA: %v P%d N%d %v\nC:    %v P%d N%d %v\n%s\n%s",
				as, a.Positive, a.Negative, a.Flags, bs, b.Positive, b.Negative, b.Flags, lisa.String(), c.String())
		}
	})
}
