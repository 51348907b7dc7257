package main

import (
	"bufio"
	"encoding/json"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The advice of fences --suggest on the cases, text and JSON.
var suggestCases = []struct{ name, file string }{
	{"wfree-mb", "../model/advice/testdata/wfree-mb.litmus"},
	{"mp-mbs", "../model/advice/testdata/mp-mbs.litmus"},
	{"sb-mbs", "../model/advice/testdata/sb-mbs.litmus"},
	{"mp-acquire-rmb", "../model/advice/testdata/mp-acquire-rmb.litmus"},
	{"nospace", "nospace.litmus"},
	{"lb-ctrl", "../model/advice/testdata/lb-ctrl.litmus"},
	{"mp-xchg", "../model/advice/testdata/mp-xchg.litmus"},
}

func TestSuggestGolden(t *testing.T) {
	for _, c := range suggestCases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, "fences", "--suggest", "../../testdata/"+c.file)
			require.Equal(t, exitOK, code, errOut)
			golden(t, "suggest/"+c.name+".txt", out)
			out, errOut, code = run(t, "fences", "--suggest", "--json", "../../testdata/"+c.file)
			require.Equal(t, exitOK, code, errOut)
			golden(t, "suggest/"+c.name+".jsonl", out)
		})
	}
}

// suggestions reads fences --suggest --json into construct -> suggest,
// by line.
func suggestions(t *testing.T, file string) map[int][2]string {
	out, errOut, code := run(t, "fences", "--suggest", "--json", file)
	require.Equal(t, exitOK, code, errOut)
	got := map[int][2]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var rec struct {
			Line      int                         `json:"line"`
			Construct string                      `json:"construct"`
			Suggest   string                      `json:"suggest"`
			Verdicts  map[string]string           `json:"verdicts"`
			Cost      []struct{ Arch, To string } `json:"cost"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		require.Len(t, rec.Verdicts, 6, "a verdict per model")
		got[rec.Line] = [2]string{rec.Construct, rec.Suggest}
	}
	return got
}

// TestSuggestCases: the "done when", read from the JSON records.
func TestSuggestCases(t *testing.T) {
	got := suggestions(t, "../../model/advice/testdata/wfree-mb.litmus")
	require.Equal(t, [2]string{"smp_mb()", "smp_mb__after_atomic()"}, got[32])
	require.Equal(t, [2]string{"smp_mb()", "smp_mb()"}, got[43])
	got = suggestions(t, "../../model/advice/testdata/mp-mbs.litmus")
	require.Equal(t, "smp_wmb()", got[18][1])
	require.Contains(t, []string{"smp_rmb()", "smp_load_acquire(y)"}, got[28][1])
	got = suggestions(t, "../../model/advice/testdata/sb-mbs.litmus")
	require.Equal(t, [2]string{"smp_mb()", "smp_mb()"}, got[19])
	require.Equal(t, [2]string{"smp_mb()", "smp_mb()"}, got[28])
	got = suggestions(t, "../../testdata/nospace.litmus")
	require.Equal(t, [2]string{"smp_mb()", "smp_mb()"}, got[64], "tcp_check_space()'s smp_mb() stays")
	// A control dependency already orders the load before the store.
	got = suggestions(t, "../../model/advice/testdata/lb-ctrl.litmus")
	require.Equal(t, [2]string{"smp_mb()", ""}, got[31])
	out, _, _ := run(t, "fences", "--suggest", "../../model/advice/testdata/lb-ctrl.litmus")
	require.Contains(t, out, "it relies on the control dependency on r1 = READ_ONCE(*y) (line 29)")
	// A fully ordered RMW whose release half is what orders.
	got = suggestions(t, "../../model/advice/testdata/mp-xchg.litmus")
	require.Equal(t, [2]string{"xchg(y, 1)", "xchg_release(y, 1)"}, got[20])
}

func TestSuggestErrors(t *testing.T) {
	_, errOut, code := run(t, "fences", "--json", "../../testdata/nospace.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "--json goes with --suggest")
	_, errOut, code = run(t, "fences", "--suggest", "testdata/in/mp-lisa.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "kernel's C primitives")
}

// TestDiffWeakening: diff on patch 004's barrier removed names the
// construct, the models and architectures that lose the verdict, and the
// state that shows it; x86 keeps it, as its RMW is a full barrier.
func TestDiffWeakening(t *testing.T) {
	out, errOut, code := run(t, "diff", "../../testdata/wfree.litmus", "../../testdata/wfree-no-barrier.litmus")
	require.Equal(t, exitCheck, code, errOut)
	golden(t, "suggest/diff-wfree-no-barrier.txt", out)
	require.Contains(t, out, "P0: smp_mb__after_atomic() (line 57) -> nothing, weaker")
	require.Contains(t, out, "the change breaks the verdict under lkmm, aarch64 (arm64), aarch64-llsc (arm64-llsc), riscv (riscv64), ppc (ppc64); it holds under sc, tso (x86-64), pso")
	require.Contains(t, out, "witness 0:r2=0; 1:r3=2; under lkmm")
}

func TestHolds(t *testing.T) {
	lt, err := litmus.Parse("x.litmus", []byte("C x\n{}\nP0(int *x) { int r0; r0 = READ_ONCE(*x); }\nexists (0:r0=1 /\\ ~(x=2) \\/ 0:r0=0:r0)\n"))
	require.NoError(t, err)
	st := func(r0, x int64) model.State {
		return model.State{Values: []model.LocValue{{Loc: "0:r0", Val: model.Value{Int: r0}}, {Loc: "x", Val: model.Value{Int: x}}}}
	}
	v, ok := holds(lt.Cond.Prop, st(1, 1))
	require.True(t, ok)
	require.True(t, v)
	v, ok = holds(lt.Cond.Prop, st(0, 2))
	require.True(t, ok)
	require.True(t, v, "0:r0=0:r0 holds")
	_, ok = holds(lt.Cond.Prop, model.State{})
	require.False(t, ok)
}

// TestSuggestUnknown: advice against a verdict that is not known is
// refused in words, with exit status 1, never given.
func TestSuggestUnknown(t *testing.T) {
	out, errOut, code := run(t, "fences", "--suggest", "--model", "tso", "--max-states", "3", "../../testdata/nospace.litmus")
	require.Equal(t, exitCheck, code, errOut)
	require.Contains(t, out, "no advice: the test as written is Unknown under tso")
	require.NotContains(t, out, "line ")
}
