package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/litmus"
)

// herdRISCV is herd 7.58's stock riscv.cat in the shared corpus.
const herdRISCV = "../../shared/corpus/arch/riscv/herd/libdir/riscv.cat"

// TestOneEventAMO: herd's own riscv.cat, read from files, sees a RISC-V
// AMO as herd makes it, one event both read and write, so that a fence
// r,r after it orders the AMO's write too: on the store-buffering shape
// below herd7 answers Never 0 3. With the AMO as two events the file
// answered Sometimes 1 3 (#27).
func TestOneEventAMO(t *testing.T) {
	if _, err := os.Stat(herdRISCV); err != nil {
		t.Skip("no shared corpus")
	}
	m, err := LoadCat(herdRISCV, CatOptions{})
	require.NoError(t, err)
	require.Equal(t, "riscv.cat", m.String(), "a model from files is not named as the built-in riscv")
	test, err := litmus.Parse("sb.litmus", []byte(`RISCV SB+amo-fence.rr
{
0:x6=x; 0:x8=y; 0:x7=1; 1:x6=x; 1:x8=y;
}
 P0                   | P1           ;
 amoswap.w x5,x7,(x6) | li x9,1      ;
 fence r,r            | sw x9,0(x8)  ;
 lw x10,0(x8)         | fence rw,rw  ;
                      | lw x11,0(x6) ;
exists (0:x10=0 /\ 1:x11=0)
`))
	require.NoError(t, err)
	for _, mm := range []Model{m, RISCV} {
		r, err := Check(context.Background(), test, mm, Options{})
		require.NoError(t, err)
		require.Equal(t, Never, r.Verdict, mm.String())
		require.Equal(t, [2]int{0, 3}, [2]int{r.Positive, r.Negative}, mm.String())
	}
	// herd's -variant SplittedRMW keeps the two events: the file then
	// answers as it did.
	split, err := LoadCat(herdRISCV, CatOptions{Variants: []string{"SplittedRMW"}})
	require.NoError(t, err)
	r, err := Check(context.Background(), test, split, Options{})
	require.NoError(t, err)
	require.Equal(t, Sometimes, r.Verdict)
}

// TestOneEventAMODifferential compares, on every RISC-V test of the
// classic two-thread shapes (SB, MP, LB, S, R, 2+2W) in which each
// access is a plain one or an AMO and each program-order gap one of six
// fences or none, herd's riscv.cat (one-event AMOs) with the built-in
// riscv model (two events, its global order taken over the graph in
// which they are one node): two independent readings of the same model
// must allow the same final states. Then random ones with the AMOs'
// .aq and .rl forms.
func TestOneEventAMODifferential(t *testing.T) {
	if _, err := os.Stat(herdRISCV); err != nil {
		t.Skip("no shared corpus")
	}
	herd, err := LoadCat(herdRISCV, CatOptions{})
	require.NoError(t, err)
	compare := func(t require.TestingT, src string) {
		test, err := litmus.Parse("gen.litmus", []byte(src))
		require.NoError(t, err, src)
		want, err := Check(context.Background(), test, RISCV, Options{})
		require.NoError(t, err, src)
		got, err := Check(context.Background(), test, herd, Options{})
		require.NoError(t, err, src)
		require.Equal(t, statesText(want), statesText(got), "%s: built-in riscv and herd's riscv.cat allow different states", src)
		require.Equal(t, want.Verdict, got.Verdict, src)
	}
	fences := []string{"", "fence r,r", "fence w,w", "fence r,w", "fence w,r", "fence rw,rw"}
	n := 0
	for _, shape := range amoShapes {
		for kinds := 0; kinds < 16; kinds++ {
			for f := 0; f < len(fences)*len(fences); f++ {
				var ops [4]string
				for k := range ops {
					if kinds&(1<<k) != 0 {
						ops[k] = "amoswap.w"
					}
				}
				compare(t, amoShapeTest(shape, ops, [2]string{fences[f%len(fences)], fences[f/len(fences)]}))
				n++
			}
		}
	}
	t.Logf("%d shapes compared", n)
	amos := []string{"", "amoadd.w", "amoswap.w.aq", "amoswap.w.rl", "amoswap.w.aq.rl", "amoor.w.aq.rl"}
	all := append(fences, "fence r,rw", "fence rw,w", "fence rw,r", "fence w,rw", "fence.tso")
	rapid.Check(t, func(rt *rapid.T) {
		shape := amoShapes[rapid.IntRange(0, len(amoShapes)-1).Draw(rt, "shape")]
		var ops [4]string
		for k := range ops {
			ops[k] = rapid.SampledFrom(amos).Draw(rt, "op")
		}
		compare(rt, amoShapeTest(shape, ops, [2]string{rapid.SampledFrom(all).Draw(rt, "fence"), rapid.SampledFrom(all).Draw(rt, "fence")}))
	})
}

// amoAccess is one access of a shape: a write or a read, of x (x6) or y
// (x8).
type amoAccess struct {
	write bool
	loc   string
}

// amoShapes are SB, MP, LB, S, R and 2+2W: two threads of two accesses.
var amoShapes = [][2][2]amoAccess{
	{{{true, "x6"}, {false, "x8"}}, {{true, "x8"}, {false, "x6"}}},
	{{{true, "x6"}, {true, "x8"}}, {{false, "x8"}, {false, "x6"}}},
	{{{false, "x6"}, {true, "x8"}}, {{false, "x8"}, {true, "x6"}}},
	{{{true, "x6"}, {true, "x8"}}, {{false, "x8"}, {true, "x6"}}},
	{{{true, "x6"}, {true, "x8"}}, {{true, "x8"}, {false, "x6"}}},
	{{{true, "x6"}, {true, "x8"}}, {{true, "x8"}, {true, "x6"}}},
}

// amoShapeTest writes shape as a RISC-V test: access k is the AMO
// ops[k] ("" for a plain lw or sw), fences[th] between thread th's two
// accesses ("" for none). The condition observes everything.
func amoShapeTest(shape [2][2]amoAccess, ops [4]string, fences [2]string) string {
	var regs []string
	var threads [2][]string
	for th, accs := range shape {
		for i, a := range accs {
			if i == 1 && fences[th] != "" {
				threads[th] = append(threads[th], fences[th])
			}
			rd := fmt.Sprintf("x%d", 10+i)
			switch op := ops[2*th+i]; {
			case op != "":
				threads[th] = append(threads[th], fmt.Sprintf("li x9,%d", 10*th+i+1), fmt.Sprintf("%s %s,x9,(%s)", op, rd, a.loc))
				regs = append(regs, fmt.Sprintf("%d:%s", th, rd))
			case a.write:
				threads[th] = append(threads[th], fmt.Sprintf("li x9,%d", 10*th+i+1), fmt.Sprintf("sw x9,0(%s)", a.loc))
			default:
				threads[th] = append(threads[th], fmt.Sprintf("lw %s,0(%s)", rd, a.loc))
				regs = append(regs, fmt.Sprintf("%d:%s", th, rd))
			}
		}
	}
	var b strings.Builder
	b.WriteString("RISCV gen\n{\n0:x6=x; 0:x8=y; 1:x6=x; 1:x8=y;\n}\n P0 | P1 ;\n")
	for i := 0; i < max(len(threads[0]), len(threads[1])); i++ {
		var cells []string
		for _, c := range threads {
			cell := ""
			if i < len(c) {
				cell = c[i]
			}
			cells = append(cells, cell)
		}
		b.WriteString(" " + strings.Join(cells, " | ") + " ;\n")
	}
	obs := []string{"x=0", "y=0"}
	for _, r := range regs {
		obs = append(obs, r+"=0")
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(obs, " /\\ "))
	return b.String()
}

func statesText(r *Result) []string {
	var out []string
	for _, s := range r.States.All() {
		var vs []string
		for _, v := range s.Values {
			vs = append(vs, fmt.Sprintf("%s=%v", v.Loc, v.Val))
		}
		out = append(out, strings.Join(vs, " "))
	}
	return out
}

// TestXCHGOwnWrite: a read never takes its value from the write its own
// instruction makes after it, whatever the model (herd7's candidate
// generation, -optace iico). Under a model whose axioms do not imply SC
// per location, such as herd's sc.cat (po | (com;sm), po leaving out
// the events of one instruction), an XCHG read its own write before
// (#27: Sometimes where herd7 says Never).
func TestXCHGOwnWrite(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "sc-sm.cat")
	require.NoError(t, os.WriteFile(cat, []byte("SC\ninclude \"cos.cat\"\nempty rmw & (fre;coe) as atom\nacyclic po | ((fr | rf | co);sm) as sc\n"), 0o644))
	m, err := LoadCat(cat, CatOptions{})
	require.NoError(t, err)
	for _, src := range []string{
		"X86 XCHG-self\n{ x=0; }\n P0           ;\n MOV EAX,$1   ;\n XCHG [x],EAX ;\nexists (0:EAX=1)\n",
		"X86 XCHG-own\n{ x=0; }\n P0           | P1           ;\n MOV EAX,$1   | MOV EBX,$2   ;\n XCHG [x],EAX | XCHG [x],EBX ;\nexists (0:EAX=1 \\/ 1:EBX=2)\n",
	} {
		test, err := litmus.Parse("t.litmus", []byte(src))
		require.NoError(t, err)
		r, err := Check(context.Background(), test, m, Options{})
		require.NoError(t, err)
		require.Equal(t, Never, r.Verdict, test.Name)
	}
}
