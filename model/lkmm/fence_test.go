package lkmm

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"pgregory.net/rapid"
)

// genStmt draws one statement of a random thread over x, y and the lock
// l; registers are r0..r3.
func genStmt(t *rapid.T, depth int) string {
	loc := rapid.SampledFrom([]string{"x", "y"}).Draw(t, "loc")
	reg := fmt.Sprintf("r%d", rapid.IntRange(0, 3).Draw(t, "reg"))
	val := rapid.IntRange(1, 2).Draw(t, "val")
	kinds := []string{"write", "read", "release", "acquire", "xchg", "cmpxchg", "inc", "addret", "wmb", "rmb", "lock"}
	if depth == 0 {
		kinds = append(kinds, "if")
	}
	switch rapid.SampledFrom(kinds).Draw(t, "kind") {
	case "write":
		return fmt.Sprintf("WRITE_ONCE(*%s, %d);", loc, val)
	case "read":
		return fmt.Sprintf("%s = READ_ONCE(*%s);", reg, loc)
	case "release":
		return fmt.Sprintf("smp_store_release(%s, %d);", loc, val)
	case "acquire":
		return fmt.Sprintf("%s = smp_load_acquire(%s);", reg, loc)
	case "xchg":
		return fmt.Sprintf("%s = xchg_relaxed(%s, %d);", reg, loc, val)
	case "cmpxchg":
		return fmt.Sprintf("%s = cmpxchg(%s, 0, %d);", reg, loc, val)
	case "inc":
		return fmt.Sprintf("atomic_inc(%s);", loc)
	case "addret":
		return fmt.Sprintf("%s = atomic_add_return(1, %s);", reg, loc)
	case "wmb":
		return "smp_wmb();"
	case "rmb":
		return "smp_rmb();"
	case "lock":
		return fmt.Sprintf("spin_lock(l); WRITE_ONCE(*%s, %d); spin_unlock(l);", loc, val)
	default: // if
		return fmt.Sprintf("if (%s == %d) { %s }", reg, val, genStmt(t, 1))
	}
}

type genTest struct{ threads [][]string }

func drawGenTest(t *rapid.T) genTest {
	var g genTest
	for i, n := 0, rapid.IntRange(2, 3).Draw(t, "threads"); i < n; i++ {
		var th []string
		for j, m := 0, rapid.IntRange(1, 3).Draw(t, "stmts"); j < m; j++ {
			th = append(th, genStmt(t, 0))
		}
		g.threads = append(g.threads, th)
	}
	return g
}

func (g genTest) source(fenced bool) string {
	var b strings.Builder
	b.WriteString("C gen\n\n{}\n\n")
	var obs []string
	for i, th := range g.threads {
		fmt.Fprintf(&b, "P%d(int *x, int *y, spinlock_t *l)\n{\n\tint r0 = 0;\n\tint r1 = 0;\n\tint r2 = 0;\n\tint r3 = 0;\n\n", i)
		for j, s := range th {
			if j > 0 && fenced {
				b.WriteString("\tsmp_mb();\n")
			}
			b.WriteString("\t" + s + "\n")
		}
		b.WriteString("}\n\n")
		for r := 0; r < 4; r++ {
			obs = append(obs, fmt.Sprintf("%d:r%d", i, r))
		}
	}
	fmt.Fprintf(&b, "locations [%s; x; y]\nexists (x=1 /\\ y=1)\n", strings.Join(obs, "; "))
	return b.String()
}

func checkSrc(t *rapid.T, src string) *Result {
	test, err := litmus.Parse("gen.litmus", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	res, err := Check(context.Background(), test, Options{})
	if err != nil {
		t.Fatalf("check: %v\n%s", err, src)
	}
	return res
}

// TestFenceProperties checks, on random tests mixing marked accesses,
// RMWs, fences, locks and conditionals, that the engine answers without
// error, that two runs give the same result, and that adding smp_mb()
// between all statements never adds a final state.
func TestFenceProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGenTest(t)
		src := g.source(false)
		a := checkSrc(t, src)
		b := checkSrc(t, src)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("two runs differ:\n%+v\n%+v\n%s", a, b, src)
		}
		if a.Verdict == Unknown {
			t.Fatalf("unknown: %s\n%s", a.Reason, src)
		}
		have := map[string]bool{}
		for _, s := range a.States.All() {
			have[s.String()] = true
		}
		fenced := checkSrc(t, g.source(true))
		for _, s := range fenced.States.All() {
			if !have[s.String()] {
				t.Fatalf("smp_mb() added the state %s\n%s", s, g.source(true))
			}
		}
	})
}
