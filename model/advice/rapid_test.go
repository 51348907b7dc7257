package advice

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

// genTest draws a two-thread C test of two locations: each thread two
// accesses (a load or a store, marked, acquire/release or plain) with a
// fence or none between them, and an exists clause over the loads.
func genTest(t *rapid.T) string {
	var b strings.Builder
	b.WriteString("C gen\n{\n\tx = 0;\n\ty = 0;\n}\n\n")
	var conds []string
	for p := 0; p < 2; p++ {
		fmt.Fprintf(&b, "P%d(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n\tr0 = 0;\n\tr1 = 0;\n", p)
		locs := []string{"x", "y"}
		if p == 1 {
			locs = []string{"y", "x"}
		}
		for i, loc := range locs {
			if i == 1 {
				if f := rapid.SampledFrom([]string{"", "smp_mb", "smp_wmb", "smp_rmb", "smp_mb__before_atomic"}).Draw(t, "fence"); f != "" {
					fmt.Fprintf(&b, "\t%s();\n", f)
				}
			}
			r := fmt.Sprintf("r%d", i)
			switch rapid.IntRange(0, 4).Draw(t, "access") {
			case 0:
				fmt.Fprintf(&b, "\t%s = READ_ONCE(*%s);\n", r, loc)
				conds = append(conds, fmt.Sprintf("%d:%s=%d", p, r, rapid.IntRange(0, 1).Draw(t, "v")))
			case 1:
				fmt.Fprintf(&b, "\t%s = smp_load_acquire(%s);\n", r, loc)
				conds = append(conds, fmt.Sprintf("%d:%s=%d", p, r, rapid.IntRange(0, 1).Draw(t, "v")))
			case 2:
				fmt.Fprintf(&b, "\tWRITE_ONCE(*%s, 1);\n", loc)
			case 3:
				fmt.Fprintf(&b, "\tsmp_store_release(%s, 1);\n", loc)
			case 4:
				fmt.Fprintf(&b, "\t%s = xchg(%s, 1);\n", r, loc)
				conds = append(conds, fmt.Sprintf("%d:%s=%d", p, r, rapid.IntRange(0, 1).Draw(t, "v")))
			}
		}
		b.WriteString("}\n\n")
	}
	if len(conds) == 0 {
		conds = []string{"x=1"}
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(conds, " /\\ "))
	return b.String()
}

// TestSuggestProperties: on random small tests, the advice leaves the
// caller's test as it was; every suggestion is no dearer than the
// construct on any architecture; and the suggestions applied at once, as
// source text, keep every model's verdict.
func TestSuggestProperties(t *testing.T) {
	models := []model.Model{model.LKMM, model.TSO, model.AArch64}
	rapid.Check(t, func(rt *rapid.T) {
		src := genTest(rt)
		lt, err := litmus.Parse("gen.litmus", []byte(src))
		require.NoError(rt, err, src)
		before := string(litmus.Format(lt))
		rep, err := Suggest(context.Background(), resolved(rt, lt), Options{Models: models})
		require.NoError(rt, err, src)
		require.Equal(rt, before, string(litmus.Format(lt)), "the caller's test was edited")
		if rep.Unknown != "" {
			return
		}
		lines := strings.Split(src, "\n")
		for _, a := range rep.Advice {
			for _, c := range a.Costs {
				require.NotEqual(rt, "dearer", c.Relation, "%s -> %s on %s\n%s", a.Construct, a.Label, c.Arch, src)
				require.NotEqual(rt, "incomparable", c.Relation, "%s -> %s on %s\n%s", a.Construct, a.Label, c.Arch, src)
			}
			for _, e := range a.Edits {
				l := lines[e.Line-1]
				require.Contains(rt, l, e.From, src)
				lines[e.Line-1] = strings.Replace(l, e.From, e.To, 1)
			}
		}
		edited, err := litmus.Parse("gen.litmus", []byte(strings.Join(lines, "\n")))
		require.NoError(rt, err)
		for i, m := range models {
			r, err := model.Check(context.Background(), edited, m, model.Options{})
			require.NoError(rt, err)
			require.Equal(rt, rep.Baseline[i].Verdict, r.Verdict, "under %s\n%s\nedited:\n%s", m, src, strings.Join(lines, "\n"))
		}
	})
}
