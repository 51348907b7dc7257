package lkmm

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The differential tests of the certification of subtrees (subtree.go):
// the whole Result — verdict, states, herd's Positive and Negative, the
// candidates examined, rejections per check, flags, explanation — is the
// same with it as with every candidate put through the whole model.

// sameAsUncertified checks test both ways, with the model's shortcuts
// (rcu.go) and without, and fails with src when a result differs.
func sameAsUncertified(t require.TestingT, test *litmus.Test, src string) *Result {
	var first *Result
	for _, plain := range []bool{false, true} {
		with, err := Check(context.Background(), test, Options{plainModel: plain})
		require.NoError(t, err, src)
		without, err := Check(context.Background(), test, Options{plainModel: plain, noSubtrees: true})
		require.NoError(t, err, src)
		if !reflect.DeepEqual(with, without) {
			require.Failf(t, "certifying subtrees changes the result", "plain model %v\nwith: %+v\nwithout: %+v\n%s", plain, with, without, src)
		}
		if first == nil {
			first = with
		}
	}
	return first
}

// TestSubtreesCorpus compares the two on every C test of the shared
// LKMM corpus.
func TestSubtreesCorpus(t *testing.T) {
	for _, rel := range corpusTests(t) {
		t.Run(rel, func(t *testing.T) {
			test, err := litmus.ParseFile(filepath.Join(corpusRoot, "lkmm", rel))
			require.NoError(t, err)
			sameAsUncertified(t, test, rel)
		})
	}
}

// TestSubtreesRCURings compares the two on RCU rings of paulmck's
// auto/C-RW-* shape, forbidden and allowed, and on SRCU rings (where the
// certification is off), and checks that it certified nodes on the RCU
// rings, so that the comparison compares something.
func TestSubtreesRCURings(t *testing.T) {
	for _, kinds := range []string{"GR", "GGRR", "GRGR", "GRRG", "GRR", "RRG", "GGRRRR", "GGGRRR", "GGRRRRGG", "GRGRGRGRGR"} {
		src := shapes.RCURing(kinds)
		before := subtreesCertified.Load()
		res := sameAsUncertified(t, mustParse(t, "rcu", src), src)
		require.Equal(t, 1<<len(kinds), res.Candidates, kinds)
		if len(kinds) >= 8 { // smaller ones are split among workers below the nodes tried
			require.Greater(t, subtreesCertified.Load(), before, "no subtree certified on ring %s", kinds)
		}
		if len(kinds) <= 4 {
			src = srcuRing(kinds)
			sameAsUncertified(t, mustParse(t, "srcu", src), src)
		}
	}
}

// genOneWrite draws a test whose locations are each written at most
// once (so that co is fixed and the certification applies), with
// grace periods, RCU read-side sections, fences, acquire and release,
// dependencies and conditionals; sometimes a plain access or an RMW,
// where it must stay off or fall back.
func genOneWrite(t *rapid.T) string {
	var b strings.Builder
	b.WriteString("C gen\n\n{}\n\n")
	nThreads := rapid.IntRange(2, 5).Draw(t, "threads")
	locs := []string{"x", "y", "z", "w", "v"}
	written := map[string]bool{}
	var obs []string
	for i := 0; i < nThreads; i++ {
		fmt.Fprintf(&b, "P%d(int *x, int *y, int *z, int *w, int *v)\n{\n\tint r0 = 0;\n\tint r1 = 0;\n\n", i)
		for j, m := 0, rapid.IntRange(1, 4).Draw(t, "stmts"); j < m; j++ {
			loc := rapid.SampledFrom(locs).Draw(t, "loc")
			reg := fmt.Sprintf("r%d", rapid.IntRange(0, 1).Draw(t, "reg"))
			kind := rapid.SampledFrom([]string{"read", "read", "write", "write", "release", "acquire", "mb", "gp", "gp",
				"rcu", "rcu", "datadep", "ctrl", "plainr", "xchg", "wmb", "rmb"}).Draw(t, "kind")
			if (kind == "write" || kind == "release" || kind == "datadep" || kind == "ctrl" || kind == "xchg") && written[loc] {
				kind = "read"
			}
			var st string
			switch kind {
			case "read":
				st = fmt.Sprintf("%s = READ_ONCE(*%s);", reg, loc)
			case "write":
				st = fmt.Sprintf("WRITE_ONCE(*%s, 1);", loc)
			case "release":
				st = fmt.Sprintf("smp_store_release(%s, 1);", loc)
			case "acquire":
				st = fmt.Sprintf("%s = smp_load_acquire(%s);", reg, loc)
			case "mb":
				st = "smp_mb();"
			case "wmb":
				st = "smp_wmb();"
			case "rmb":
				st = "smp_rmb();"
			case "gp":
				st = "synchronize_rcu();"
			case "rcu":
				l2 := rapid.SampledFrom(locs).Draw(t, "loc2")
				st = fmt.Sprintf("rcu_read_lock(); %s = READ_ONCE(*%s); r1 = READ_ONCE(*%s); rcu_read_unlock();", reg, loc, l2)
			case "datadep":
				st = fmt.Sprintf("WRITE_ONCE(*%s, %s + 1);", loc, reg)
			case "ctrl":
				st = fmt.Sprintf("if (%s == 1) { WRITE_ONCE(*%s, 1); }", reg, loc)
			case "plainr":
				st = fmt.Sprintf("%s = *%s;", reg, loc)
			case "xchg":
				st = fmt.Sprintf("%s = xchg_relaxed(%s, 2);", reg, loc)
			}
			if kind == "write" || kind == "release" || kind == "datadep" || kind == "ctrl" || kind == "xchg" {
				written[loc] = true
			}
			b.WriteString("\t" + st + "\n")
		}
		b.WriteString("}\n\n")
		obs = append(obs, fmt.Sprintf("%d:r0", i), fmt.Sprintf("%d:r1", i))
	}
	fmt.Fprintf(&b, "locations [%s; x; y; z]\nexists (0:r0=1 /\\ 1:r0=0)\n", strings.Join(obs, "; "))
	return b.String()
}

// TestSubtreesProperties compares the two on random tests whose
// locations are written once (the certification's case), and on the
// random RCU tests of TestShortcutsProperties (mostly not).
func TestSubtreesProperties(t *testing.T) {
	before := subtreesCertified.Load()
	rapid.Check(t, func(t *rapid.T) {
		src := genOneWrite(t)
		test, err := litmus.Parse("gen.litmus", []byte(src))
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, src)
		}
		sameAsUncertified(t, test, src)
	})
	require.Greater(t, subtreesCertified.Load(), before, "no subtree certified on the random tests")
}
