package model

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kcomp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// compiledModels are the architecture models that check C tests compiled
// by model/kcomp.
var compiledModels = []Model{AArch64, AArch64LLSC, RISCV, PPC}

// primCall writes a call of primitive p on location loc (a pointer
// parameter) with value operands from vals, assigning its result to reg
// when it returns one: one C statement.
func primCall(p *litmus.Primitive, loc, reg string, vals []int) string {
	var args []string
	k := 0
	for _, a := range p.Args {
		switch a {
		case litmus.ArgPtr:
			args = append(args, loc)
		case litmus.ArgLval:
			args = append(args, "*"+loc)
		case litmus.ArgBit:
			args = append(args, "0")
		default:
			args = append(args, fmt.Sprint(vals[k%len(vals)]))
			k++
		}
	}
	call := p.Name + "(" + strings.Join(args, ", ") + ")"
	if p.Ret != litmus.RetNone {
		return reg + " = " + call + ";"
	}
	return call + ";"
}

// drawCompiledTest draws a C test of 2-3 threads with 1-3 statements each
// over x and y: any primitive of litmus's table, plain accesses, and
// conditionals around them.
func drawCompiledTest(t *rapid.T) string {
	prims := litmus.Primitives()
	var b strings.Builder
	b.WriteString("C random\n\n{}\n\n")
	var obs []string
	stmt := func(depth int) string {
		loc := rapid.SampledFrom([]string{"x", "y"}).Draw(t, "loc")
		reg := fmt.Sprintf("r%d", rapid.IntRange(0, 2).Draw(t, "reg"))
		val := rapid.IntRange(0, 2).Draw(t, "val")
		switch rapid.IntRange(0, 9).Draw(t, "form") {
		case 0:
			return fmt.Sprintf("*%s = %d;", loc, val)
		case 1:
			return fmt.Sprintf("%s = *%s;", reg, loc)
		default:
			p := rapid.SampledFrom(prims).Draw(t, "prim")
			return primCall(p, loc, reg, []int{val, rapid.IntRange(0, 2).Draw(t, "val2")})
		}
	}
	n := rapid.IntRange(2, 3).Draw(t, "threads")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "P%d(int *x, int *y)\n{\n\tint r0 = 0;\n\tint r1 = 0;\n\tint r2 = 0;\n\n", i)
		for j, m := 0, rapid.IntRange(1, 3).Draw(t, "stmts"); j < m; j++ {
			s := stmt(0)
			if rapid.IntRange(0, 5).Draw(t, "if") == 0 {
				s = fmt.Sprintf("if (r%d == %d) { %s }", rapid.IntRange(0, 2).Draw(t, "tested"), rapid.IntRange(0, 1).Draw(t, "cmp"), stmt(1))
			}
			b.WriteString("\t" + s + "\n")
		}
		b.WriteString("}\n\n")
		for r := 0; r < 3; r++ {
			obs = append(obs, fmt.Sprintf("%d:r%d", i, r))
		}
	}
	fmt.Fprintf(&b, "locations [%s; x; y]\nexists (x=1 /\\ y=1)\n", strings.Join(obs, "; "))
	return b.String()
}

// TestCompiledModelsNeverPanic: random C tests over every primitive of
// litmus's table compile and check under every compiled architecture
// model without a panic; a test the mapping cannot compile (an RCU grace
// period) is a *kcomp.NotCompiledError with its file:line:col, any other
// error fails; a test that compiles gets a complete verdict, or Unknown
// with the time limit's words (logged: a test the cat interpreter is slow
// on).
func TestCompiledModelsNeverPanic(t *testing.T) {
	var skipped, notCompiled, checked int
	var slow []string
	rapid.Check(t, func(t *rapid.T) {
		src := drawCompiledTest(t)
		test, err := parseSrc("random.litmus", src)
		if err != nil {
			// A primitive whose parameters the generator does not type
			// (srcu on an int): not the compiler's concern.
			skipped++
			t.Skipf("does not parse: %v", err)
		}
		for _, m := range compiledModels {
			res, err := Check(context.Background(), test, m, Options{Timeout: 5 * time.Second})
			if err != nil {
				if kcomp.IsNotCompiled(err) {
					if !strings.HasPrefix(err.Error(), "random.litmus:") {
						t.Fatalf("%s: a not-compiled error without its position: %v\n%s", m, err, src)
					}
					notCompiled++
					continue
				}
				t.Fatalf("%s: %v\n%s", m, err, src)
			}
			if res.Verdict == Unknown && res.Reason == "timed out after 5s" {
				// The limit held; the test is slow for the cat
				// interpreter, which is no failure of the compiler.
				slow = append(slow, m.String()+":\n"+src)
				continue
			}
			if res.Verdict == Unknown {
				t.Fatalf("%s: Unknown (%s)\n%s", m, res.Reason, src)
			}
			checked++
		}
	})
	t.Logf("%d checks of a compiled test, %d not compiled, %d timed out, %d drawn tests did not parse", checked, notCompiled, len(slow), skipped)
	for _, s := range slow {
		t.Logf("timed out under %s", s)
	}
	require.Greater(t, checked, 3*(notCompiled+skipped), "the generator mostly draws tests that are not checked")
}

// TestCompiledBadInputs: a C test the compiler cannot take is an error
// with its position, never a panic, under every compiled model.
func TestCompiledBadInputs(t *testing.T) {
	many, err := parseSrc("many.litmus", manyThreads(65))
	require.NoError(t, err)
	// A read-side section that a branch opens: the toy RCU counts the
	// nesting in the program text (model/kcomp/rcu.go).
	rcu, err := parseSrc("rcu.litmus", "C rcu\n{}\nP0(int *x)\n{\n\tif (READ_ONCE(*x)) rcu_read_lock();\n\tsynchronize_rcu();\n}\nexists (x=0)\n")
	require.NoError(t, err)
	for _, m := range compiledModels {
		_, err := Check(context.Background(), many, m, Options{})
		require.Error(t, err, m.String())
		require.Contains(t, err.Error(), "many.litmus:1:1: 65 threads; at most 64 are supported", m.String())
		_, err = Check(context.Background(), rcu, m, Options{})
		require.Error(t, err, m.String())
		require.True(t, kcomp.IsNotCompiled(err), m.String())
		require.Contains(t, err.Error(), "rcu.litmus:5:21: not compiled to ", m.String())
		require.Contains(t, err.Error(), "an RCU read-side critical section that a branch or a loop opens or closes", m.String())
	}
}
