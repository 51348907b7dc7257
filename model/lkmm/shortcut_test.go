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

// The differential tests of the model's shortcuts (Options.plainModel):
// the whole Result — verdict, states, herd's Positive and Negative
// counts, the candidates examined, rejections per check, flags and the
// explanation — is the same with them as with the model computed as the
// cat files say.

// sameAsPlain checks test both ways and fails with src when they differ.
// The shortcut's rcu-order is also compared with the plain one on every
// candidate (crossCheckRCU), where a difference need not change a
// verdict.
func sameAsPlain(t require.TestingT, test *litmus.Test, src string) *Result {
	crossCheckRCU = true
	defer func() { crossCheckRCU = false }()
	fast, err := Check(context.Background(), test, Options{})
	require.NoError(t, err, src)
	plain, err := Check(context.Background(), test, Options{plainModel: true})
	require.NoError(t, err, src)
	if !reflect.DeepEqual(fast, plain) {
		require.Failf(t, "the shortcuts change the result", "with: %+v\nplain: %+v\n%s", fast, plain, src)
	}
	return fast
}

// TestShortcutsCorpus compares the two on every C test of the shared
// LKMM corpus (its RCU tests among them).
func TestShortcutsCorpus(t *testing.T) {
	for _, rel := range corpusTests(t) {
		t.Run(rel, func(t *testing.T) {
			test, err := litmus.ParseFile(filepath.Join(corpusRoot, "lkmm", rel))
			require.NoError(t, err)
			sameAsPlain(t, test, rel)
		})
	}
}

// TestShortcutsRCURings compares the two on RCU rings of paulmck's
// auto/C-RW-* shape, forbidden (as many grace periods as readers) and
// allowed.
func TestShortcutsRCURings(t *testing.T) {
	for _, kinds := range []string{"GR", "GGRR", "GRGR", "GRRG", "GRR", "RRG", "GGRRRR", "GGGRRR"} {
		src := shapes.RCURing(kinds)
		res := sameAsPlain(t, mustParse(t, "rcu", src), src)
		require.Equal(t, 1<<len(kinds), res.Candidates, kinds)
		if len(kinds) <= 4 { // each srcu_read_lock reads s: many more candidates
			src = srcuRing(kinds)
			sameAsPlain(t, mustParse(t, "srcu", src), src)
		}
	}
}

// srcuRing is shapes.RCURing with SRCU: 'G' threads call
// synchronize_srcu(s), 'R' threads read inside srcu_read_lock(s).
func srcuRing(kinds string) string {
	src := shapes.RCURing(kinds)
	src = strings.ReplaceAll(src, "synchronize_rcu();", "synchronize_srcu(s);")
	src = strings.ReplaceAll(src, "\trcu_read_lock();", "\tint r9 = srcu_read_lock(s);")
	src = strings.ReplaceAll(src, "rcu_read_unlock();", "srcu_read_unlock(s, r9);")
	for i := range kinds {
		j := (i + 1) % len(kinds)
		src = strings.Replace(src, fmt.Sprintf("P%d(int *x%d, int *x%d)", i, i, j), fmt.Sprintf("P%d(int *x%d, int *x%d, struct srcu_struct *s)", i, i, j), 1)
	}
	return src
}

// genRCUStmt draws one statement of a random thread over x and y, with
// RCU and SRCU (two domains) read-side critical sections and grace periods, plain
// accesses, fences and RMWs; registers are r0..r3.
func genRCUStmt(t *rapid.T, depth int) string {
	loc := rapid.SampledFrom([]string{"x", "y"}).Draw(t, "loc")
	reg := fmt.Sprintf("r%d", rapid.IntRange(0, 3).Draw(t, "reg"))
	val := rapid.IntRange(1, 2).Draw(t, "val")
	srcu := rapid.SampledFrom([]string{"s", "s", "u"}).Draw(t, "srcu")
	kinds := []string{"write", "read", "plainw", "plainr", "release", "acquire", "xchg", "mb", "gp", "sgp", "rcu", "srcu"}
	if depth == 0 {
		kinds = append(kinds, "if")
	}
	switch rapid.SampledFrom(kinds).Draw(t, "kind") {
	case "write":
		return fmt.Sprintf("WRITE_ONCE(*%s, %d);", loc, val)
	case "read":
		return fmt.Sprintf("%s = READ_ONCE(*%s);", reg, loc)
	case "plainw":
		return fmt.Sprintf("*%s = %d;", loc, val)
	case "plainr":
		return fmt.Sprintf("%s = *%s;", reg, loc)
	case "release":
		return fmt.Sprintf("smp_store_release(%s, %d);", loc, val)
	case "acquire":
		return fmt.Sprintf("%s = smp_load_acquire(%s);", reg, loc)
	case "xchg":
		return fmt.Sprintf("%s = xchg_relaxed(%s, %d);", reg, loc, val)
	case "mb":
		return "smp_mb();"
	case "gp":
		return "synchronize_rcu();"
	case "sgp":
		return fmt.Sprintf("synchronize_srcu(%s);", srcu)
	case "rcu":
		// Sometimes unbalanced: the unmatched-rcu-* flags.
		switch rapid.IntRange(0, 5).Draw(t, "rcuend") {
		case 0:
			return "rcu_read_lock();"
		case 1:
			return "rcu_read_unlock();"
		}
		return fmt.Sprintf("rcu_read_lock(); %s rcu_read_unlock();", genRCUStmt(t, 1))
	case "srcu":
		return fmt.Sprintf("r4 = srcu_read_lock(%s); %s srcu_read_unlock(%s, r4);", srcu, genRCUStmt(t, 1), srcu)
	default: // if
		return fmt.Sprintf("if (%s == %d) { %s }", reg, val, genRCUStmt(t, 1))
	}
}

// TestShortcutsProperties compares the two on random RCU tests.
func TestShortcutsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString("C gen\n\n{}\n\n")
		var obs []string
		for i, n := 0, rapid.IntRange(2, 4).Draw(t, "threads"); i < n; i++ {
			fmt.Fprintf(&b, "P%d(int *x, int *y, struct srcu_struct *s, struct srcu_struct *u)\n{\n\tint r0 = 0;\n\tint r1 = 0;\n\tint r2 = 0;\n\tint r3 = 0;\n\tint r4 = 0;\n\n", i)
			for j, m := 0, rapid.IntRange(1, 4).Draw(t, "stmts"); j < m; j++ {
				b.WriteString("\t" + genRCUStmt(t, 0) + "\n")
			}
			b.WriteString("}\n\n")
			obs = append(obs, fmt.Sprintf("%d:r0", i), fmt.Sprintf("%d:r1", i))
		}
		fmt.Fprintf(&b, "locations [%s; x; y]\nexists (0:r0=1 /\\ 1:r0=0)\n", strings.Join(obs, "; "))
		src := b.String()
		test, err := litmus.Parse("gen.litmus", []byte(src))
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, src)
		}
		sameAsPlain(t, test, src)
	})
}
