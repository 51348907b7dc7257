package op

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/internal/randprog"
	"github.com/litmus-dev/litmus/model/report"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// outcomes runs p under m and returns its sorted final states.
func outcomes(t require.TestingT, p *randprog.Prog, m Machine, plain bool) []string {
	test, err := parseSrc("random.litmus", p.Source())
	require.NoError(t, err, "%s", p.Source())
	res, err := Check(context.Background(), test, m, report.Options{Plain: plain, NoWitness: true})
	require.NoError(t, err)
	require.NotEqual(t, report.Unknown, res.Verdict, res.Reason)
	out := stateLines(res)
	sorted := append([]string(nil), out...)
	sort.Strings(sorted)
	return sorted
}

// TestPropNaive: the engine, reduced and plain, finds exactly the final
// states of the naive reference enumerator, under every model.
func TestPropNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := randprog.Gen(t, 3, 3)
		for _, m := range []Machine{SC, TSO, PSO} {
			want := naive(p, m.String())
			for _, plain := range []bool{false, true} {
				got := outcomes(t, p, m, plain)
				require.Equal(t, want, got, "%s plain=%v\n%s", m, plain, p.Source())
			}
		}
	})
}

// TestPropReducedEqualsPlain: the reduced search finds the plain search's
// final states, on bigger programs than the naive enumerator can take.
func TestPropReducedEqualsPlain(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := randprog.Gen(t, 4, 4)
		for _, m := range []Machine{SC, TSO, PSO} {
			require.Equal(t, outcomes(t, p, m, true), outcomes(t, p, m, false), "%s\n%s", m, p.Source())
		}
	})
}

// TestPropInclusion: SC ⊆ TSO ⊆ PSO.
func TestPropInclusion(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := randprog.Gen(t, 4, 3)
		sc, tso, pso := outcomes(t, p, SC, false), outcomes(t, p, TSO, false), outcomes(t, p, PSO, false)
		if s, ok := randprog.Subset(sc, tso); !ok {
			t.Fatalf("SC state %q not in TSO\n%s", s, p.Source())
		}
		if s, ok := randprog.Subset(tso, pso); !ok {
			t.Fatalf("TSO state %q not in PSO\n%s", s, p.Source())
		}
	})
}

// TestPropFencedIsSC: a full fence after every store makes TSO and PSO
// equal to SC.
func TestPropFencedIsSC(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := randprog.Gen(t, 4, 3).Fenced()
		sc := outcomes(t, p, SC, false)
		require.Equal(t, sc, outcomes(t, p, TSO, false), "TSO\n%s", p.Source())
		require.Equal(t, sc, outcomes(t, p, PSO, false), "PSO\n%s", p.Source())
	})
}

// TestPropFenceRemoval: removing a fence never removes outcomes.
func TestPropFenceRemoval(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := randprog.Gen(t, 3, 4)
		var fences [][2]int
		for i, ops := range p.Threads {
			for j, o := range ops {
				if o.Kind == "mb" || o.Kind == "wmb" {
					fences = append(fences, [2]int{i, j})
				}
			}
		}
		if len(fences) == 0 {
			t.Skip("no fence")
		}
		f := rapid.SampledFrom(fences).Draw(t, "fence")
		q := p.WithoutOp(f[0], f[1])
		for _, m := range []Machine{SC, TSO, PSO} {
			if s, ok := randprog.Subset(outcomes(t, p, m, false), outcomes(t, q, m, false)); !ok {
				t.Fatalf("%s: removing the fence P%d:%d loses %q\n%s", m, f[0], f[1], s, p.Source())
			}
		}
	})
}

func parseSrc(name, src string) (*litmus.Test, error) { return litmus.Parse(name, []byte(src)) }

// TestPropWitnessReplays: replaying a witness step by step on the machine
// reaches a final state that satisfies the condition, and every load in it
// reads the value the trace says.
func TestPropWitnessReplays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := randprog.Gen(t, 3, 3)
		test, err := parseSrc("random.litmus", p.Source())
		require.NoError(t, err)
		m := rapid.SampledFrom([]Machine{SC, TSO, PSO}).Draw(t, "model")
		plain := rapid.Bool().Draw(t, "plain")
		res, err := Check(context.Background(), test, m, report.Options{Plain: plain})
		require.NoError(t, err)
		if res.Witness == nil {
			require.Zero(t, res.Positive, "exists holds in some state, so a witness exists")
			return
		}
		prog, err := compile(test)
		require.NoError(t, err)
		mc := &machine{p: prog, mm: newMemModel(m)}
		s, next := mc.initial(), mc.blank()
		var eff effect
		for i, st := range res.Witness.Steps {
			a := execAct(st.Thread)
			if st.Kind == report.StepDrain {
				a = drainAct(st.Thread, prog.byName[st.Loc])
			}
			require.True(t, contains(mc.enabled(s, nil), a), "step %d (%s) is not enabled\n%s", i, st, res.Witness)
			require.NoError(t, mc.apply(s, a, next, &eff))
			if st.Read != nil {
				require.Equal(t, st.Read.Int, eff.read, "step %d", i)
			}
			s, next = next, s
		}
		require.True(t, mc.final(s), "the witness ends in a final state")
		cond, err := prog.compileProp(test.Cond.Prop)
		require.NoError(t, err)
		require.True(t, cond.eval(s), "the witness's final state satisfies the condition")
	})
}

func contains(as []action, a action) bool {
	for _, b := range as {
		if a == b {
			return true
		}
	}
	return false
}

// wide pads a random program past one word of the reduction's sets: 100
// unused locations declared first (so that the program's own are numbered
// from 100 on) and empty threads after its own up to 64 (so that its
// threads' buffers are agents 64 and up). The padding adds no state.
func wide(src string) string {
	var init strings.Builder
	init.WriteString("{")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&init, " d%d=0;", i)
	}
	init.WriteString(" }")
	src = strings.Replace(src, "{}", init.String(), 1)
	n := strings.Count(src, "\nP")
	var pad strings.Builder
	for i := n; i < 64; i++ {
		fmt.Fprintf(&pad, "P%d(int *d%d)\n{\n}\n\n", i, i)
	}
	at := strings.Index(src, "locations [")
	return src[:at] + pad.String() + src[at:]
}

// TestPropReducedEqualsPlainWide: past 64 locations and 32 threads the
// reduction still applies (multi-word sets, por.go; it used to turn
// itself off there) and finds the plain search's final states.
func TestPropReducedEqualsPlainWide(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := wide(randprog.Gen(t, 4, 3).Source())
		test, err := parseSrc("wide.litmus", src)
		require.NoError(t, err, "%s", src)
		var got [2][]string
		for _, m := range []Machine{SC, TSO, PSO} {
			for i, plain := range []bool{true, false} {
				res, err := Check(context.Background(), test, m, report.Options{Plain: plain, NoWitness: true})
				require.NoError(t, err)
				require.NotEqual(t, report.Unknown, res.Verdict, res.Reason)
				if !plain {
					require.Equal(t, "reduced", res.Stats.Engine, "%s: the reduction applies", m)
				}
				got[i] = stateLines(res)
				sort.Strings(got[i])
			}
			require.Equal(t, got[0], got[1], "%s\n%s", m, src)
		}
	})
}

// TestManyWritersReduced: 33 and 64 independent writers are one state
// per thread for the reduction (33 used to time out, the reduction off).
func TestManyWritersReduced(t *testing.T) {
	for _, n := range []int{33, 64} {
		for _, m := range []Machine{SC, TSO, PSO} {
			res := run(t, writers(n), m, report.Options{Timeout: 20 * time.Second})
			require.Equal(t, report.Always, res.Verdict, "%s %d: %s", m, n, res.Reason)
			require.Equal(t, "reduced", res.Stats.Engine)
			require.Equal(t, 1, res.States.Len())
		}
	}
}
