package model

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
)

var updateCode = flag.Bool("update-code", false, "rewrite testdata/code.golden")

// codeTwins are the bundled code tests (kernel C with a prelude, issue
// #21) and their hand-flattened twins.
var codeTwins = []struct{ code, twin string }{
	{"../testdata/code/nospace-code.litmus", "../testdata/nospace.litmus"},
	{"../testdata/code/nospace-no-mb-code.litmus", "../testdata/nospace-no-mb.litmus"},
	{"../testdata/code/wfree-code.litmus", "../testdata/wfree.litmus"},
	{"../testdata/code/wfree-no-barrier-code.litmus", "../testdata/wfree-no-barrier.litmus"},
	{"../testdata/code/dstref-code.litmus", "../testdata/dstref.litmus"},
	{"../testdata/code/tsflags-code.litmus", "../testdata/tsflags.litmus"},
	{"../testdata/code/spinwait-code.litmus", "../testdata/code/spinwait-flat.litmus"},
	{"../testdata/code/spinwait-once-code.litmus", "../testdata/code/spinwait-once-flat.litmus"},
	{"../testdata/code/seqcount-code.litmus", "../testdata/code/seqcount-flat.litmus"},
	{"../testdata/code/cmpxchg-inc-code.litmus", "../testdata/code/cmpxchg-inc-flat.litmus"},
	// Objects with addresses computed at run time (ptr_add).
	{"../testdata/code/rcu-publish-code.litmus", "../testdata/code/rcu-publish-flat.litmus"},
	{"../testdata/code/rcu-publish-once-code.litmus", "../testdata/code/rcu-publish-once-flat.litmus"},
	{"../testdata/code/ring-acquire-code.litmus", "../testdata/code/ring-acquire-flat.litmus"},
	{"../testdata/code/ring-dep-code.litmus", "../testdata/code/ring-dep-flat.litmus"},
	{"../testdata/code/ring-ctrl-code.litmus", "../testdata/code/ring-ctrl-flat.litmus"},
	{"../testdata/code/rcu-container-code.litmus", "../testdata/code/rcu-container-flat.litmus"},
	// An ops table of function pointers, an out-parameter, try_cmpxchg.
	{"../testdata/code/ops-code.litmus", "../testdata/code/ops-flat.litmus"},
	{"../testdata/code/trycmpxchg-code.litmus", "../testdata/code/trycmpxchg-flat.litmus"},
	{"../testdata/code/condload-code.litmus", "../testdata/code/condload-flat.litmus"},
	{"../testdata/code/claim-code.litmus", "../testdata/code/claim-flat.litmus"},
	{"../testdata/code/slots-code.litmus", "../testdata/code/slots-flat.litmus"},
}

func allModels() []Model { return append(Models(), ArchModels()...) }

func verdictOf(t *testing.T, test *litmus.Test, m Model) string {
	t.Helper()
	r, err := Check(context.Background(), test, m, Options{})
	require.NoError(t, err, "%s under %s", test.Name, m)
	return r.Verdict.String()
}

// TestCodeTwins checks that each code test, its flattened form (the
// output of compile --model lkmm, parsed back as a plain test) and its
// hand-flattened twin have one verdict under each of the eight models,
// and records the verdicts in testdata/code.golden.
func TestCodeTwins(t *testing.T) {
	var golden strings.Builder
	for _, tw := range codeTwins {
		code, err := litmus.ParseFile(tw.code)
		require.NoError(t, err)
		require.NotNil(t, code.Code, "%s is a code test", tw.code)
		twin, err := litmus.ParseFile(tw.twin)
		require.NoError(t, err)
		flat, err := litmus.Parse(tw.code+".flat", litmus.Format(code))
		require.NoError(t, err, "the flattened %s parses as a plain test", tw.code)
		require.Nil(t, flat.Code)
		for _, m := range allModels() {
			got := verdictOf(t, code, m)
			require.Equal(t, verdictOf(t, twin, m), got, "%s vs its twin %s under %s", tw.code, tw.twin, m)
			require.Equal(t, got, verdictOf(t, flat, m), "%s vs its flattened form under %s", tw.code, m)
			fmt.Fprintf(&golden, "%s %s %s\n", filepath.Base(tw.code), m, got)
		}
	}
	path := "testdata/code.golden"
	if *updateCode {
		require.NoError(t, os.WriteFile(path, []byte(golden.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), golden.String(), "verdicts differ from %s (-update-code rewrites it)", path)
}

// BenchmarkCodeTwin measures a code test against its hand-flattened
// twin: parsing (with the lowering) and checking, under SC and the LKMM.
func BenchmarkCodeTwin(b *testing.B) {
	for _, name := range []string{"../testdata/code/wfree-code.litmus", "../testdata/wfree.litmus", "../testdata/code/nospace-code.litmus", "../testdata/nospace.litmus", "../testdata/code/ring-dep-code.litmus", "../testdata/code/ring-dep-flat.litmus"} {
		src, err := os.ReadFile(name)
		require.NoError(b, err)
		for _, m := range []Model{SC, LKMM} {
			b.Run(filepath.Base(name)+"/"+m.String(), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					test, err := litmus.Parse(name, src)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := Check(context.Background(), test, m, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
