package advice

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

func parse(t testing.TB, path string) (*litmus.Test, []byte) {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	lt, err := litmus.Parse(path, src)
	require.NoError(t, err)
	return lt, src
}

// adviceTests are the tests the advice is checked on: the seed tests and
// testdata.
func adviceTests(t testing.TB) []string {
	files, err := filepath.Glob("testdata/*.litmus")
	require.NoError(t, err)
	return append(files, "../../testdata/nospace.litmus", "../../testdata/wfree.litmus", "../../testdata/dstref.litmus", "../../testdata/tsflags.litmus")
}

// resolved is lt resolved, as a command resolves a test before checking.
func resolved(t require.TestingT, lt *litmus.Test) *model.Program {
	p, err := model.Resolve(lt, model.ResolveOptions{})
	require.NoError(t, err)
	return p
}

func suggest(t testing.TB, lt *litmus.Test) *Report {
	t.Helper()
	rep, err := Suggest(context.Background(), resolved(t, lt), Options{})
	require.NoError(t, err)
	require.Empty(t, rep.Unknown)
	return rep
}

// find returns the advice for the construct at line.
func find(t *testing.T, rep *Report, line int) Advice {
	t.Helper()
	for _, a := range rep.Advice {
		if a.Pos.Line == line {
			return a
		}
	}
	t.Fatalf("no advice at line %d", line)
	return Advice{}
}

func archCostOf(t *testing.T, a Advice, arch string) ArchCost {
	for _, c := range a.Costs {
		if string(c.Arch) == arch {
			return c
		}
	}
	t.Fatalf("no cost on %s", arch)
	return ArchCost{}
}

// The cases: patch 004's smp_mb() is advised back to
// smp_mb__after_atomic(), free on x86 and a DMB ISH elsewhere; MP's two
// smp_mb() become a write barrier and an acquire (or a read barrier);
// SB keeps both; 000's smp_mb() in tcp_check_space() stays.
func TestSeedAdvice(t *testing.T) {
	lt, _ := parse(t, "testdata/wfree-mb.litmus")
	rep := suggest(t, lt)
	a := find(t, rep, 32)
	require.Equal(t, "smp_mb()", a.Construct)
	require.Equal(t, "smp_mb__after_atomic()", a.Suggest)
	require.Equal(t, "nothing", archCostOf(t, a, "x86-64").To)
	require.Equal(t, "cheaper", archCostOf(t, a, "x86-64").Relation)
	require.Equal(t, "same", archCostOf(t, a, "arm64").Relation)
	require.True(t, find(t, rep, 43).Keep, "the sleeper's smp_mb() stays")

	lt, _ = parse(t, "testdata/mp-mbs.litmus")
	rep = suggest(t, lt)
	require.Equal(t, "smp_wmb()", find(t, rep, 18).Suggest)
	reader := find(t, rep, 28)
	require.Contains(t, []string{"smp_rmb()", "smp_load_acquire(y)"}, reader.Suggest)

	lt, _ = parse(t, "testdata/sb-mbs.litmus")
	rep = suggest(t, lt)
	require.True(t, find(t, rep, 19).Keep)
	require.True(t, find(t, rep, 28).Keep)

	lt, _ = parse(t, "../../testdata/nospace.litmus")
	rep = suggest(t, lt)
	a = find(t, rep, 64)
	require.Equal(t, "smp_mb()", a.Construct)
	require.True(t, a.Keep, "tcp_check_space()'s smp_mb() stays")
}

// TestCombination: in mp-acquire-rmb the reader's acquire and its
// smp_rmb() are each redundant while the other stays, and the two
// weakenings together break the verdict; the advice weakens one only.
func TestCombination(t *testing.T) {
	lt, _ := parse(t, "testdata/mp-acquire-rmb.litmus")
	var acq, rmb *candidate
	for _, k := range constructs(lt) {
		switch k.text {
		case "smp_load_acquire(y)":
			acq = firstWeaker(k)
		case "smp_rmb()":
			rmb = firstWeaker(k)
		}
	}
	require.NotNil(t, acq)
	require.NotNil(t, rmb)
	verdict := func(edits []edit) model.Verdict {
		r, err := model.Check(context.Background(), variant(lt, edits), model.LKMM, model.Options{})
		require.NoError(t, err)
		return r.Verdict
	}
	require.Equal(t, model.Never, verdict(nil))
	require.Equal(t, model.Never, verdict(acq.edits), "the acquire alone is redundant")
	require.Equal(t, model.Never, verdict(rmb.edits), "the smp_rmb() alone is redundant")
	require.Equal(t, model.Sometimes, verdict(append(append([]edit(nil), acq.edits...), rmb.edits...)), "both together break the verdict")

	rep := suggest(t, lt)
	weakened := 0
	for _, a := range rep.Advice {
		if a.Thread == 1 && !a.Keep {
			weakened++
		}
	}
	require.Equal(t, 1, weakened, "the advice weakens one of the two, not both")
	require.Contains(t, find(t, rep, 26).Alone, "alone keeps the verdict")
}

// applyText applies the report's edits to the source as text, the way a
// reader would, independently of the edits the search applied to the
// syntax tree.
func applyText(t *testing.T, src []byte, rep *Report) []byte {
	lines := strings.Split(string(src), "\n")
	for _, a := range rep.Advice {
		for _, e := range a.Edits {
			l := lines[e.Line-1]
			require.Contains(t, l, e.From, "line %d", e.Line)
			lines[e.Line-1] = strings.Replace(l, e.From, e.To, 1)
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// TestSuggestedSetHolds: every suggestion applied at once, as source
// text, keeps every model's verdict, and the caller's tree is left as it
// was.
func TestSuggestedSetHolds(t *testing.T) {
	for _, f := range adviceTests(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			lt, src := parse(t, f)
			before := string(litmus.Format(lt))
			rep := suggest(t, lt)
			require.Equal(t, before, string(litmus.Format(lt)), "Suggest edited the caller's test")
			edited, err := litmus.Parse(f, applyText(t, src, rep))
			require.NoError(t, err)
			for i, m := range rep.Models {
				r, err := model.Check(context.Background(), edited, m, model.Options{})
				require.NoError(t, err)
				require.Equal(t, rep.Baseline[i].Verdict, r.Verdict, "%s under %s", f, m)
				require.Equal(t, rep.Final[i].Verdict, r.Verdict)
			}
		})
	}
}

// TestRejectedBreak: a primitive reported as not enough names the models
// whose verdict it changes, and re-checked there it does change it.
func TestRejectedBreak(t *testing.T) {
	lt, _ := parse(t, "testdata/sb-mbs.litmus")
	rep := suggest(t, lt)
	for _, a := range rep.Advice {
		require.NotEmpty(t, a.Rejected)
		for _, r := range a.Rejected {
			require.NotEmpty(t, r.Broken, "%s at line %d", r.Label, a.Pos.Line)
			src, err := os.ReadFile("testdata/sb-mbs.litmus")
			require.NoError(t, err)
			lines := strings.Split(string(src), "\n")
			to := r.Suggest
			if to != "" {
				to += ";"
			}
			lines[a.Pos.Line-1] = strings.Replace(lines[a.Pos.Line-1], a.Construct+";", to, 1)
			weak, err := litmus.Parse("sb.litmus", []byte(strings.Join(lines, "\n")))
			require.NoError(t, err)
			res, err := model.Check(context.Background(), weak, r.Broken[0], model.Options{})
			require.NoError(t, err)
			require.Equal(t, model.Sometimes, res.Verdict, "%s at line %d under %s", r.Label, a.Pos.Line, r.Broken[0])
		}
	}
}

func TestNotC(t *testing.T) {
	lt, err := litmus.Parse("x.litmus", []byte("X86 x\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n"))
	require.NoError(t, err)
	_, err = Suggest(context.Background(), resolved(t, lt), Options{})
	require.ErrorContains(t, err, "kernel's C primitives")
}

// TestShortcut: the verdicts taken from the compiled code being the same
// (runOn) are those the checks give: the advice with every model
// checked is the same.
func TestShortcut(t *testing.T) {
	for _, f := range adviceTests(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			lt, _ := parse(t, f)
			fast, err := Suggest(context.Background(), resolved(t, lt), Options{})
			require.NoError(t, err)
			plain, err := Suggest(context.Background(), resolved(t, lt), Options{noShortcut: true})
			require.NoError(t, err)
			require.LessOrEqual(t, fast.Checks, plain.Checks)
			fast.Checks, plain.Checks = 0, 0
			require.Equal(t, plain, fast)
		})
	}
}
