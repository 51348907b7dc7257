package lkmm

import (
	"context"
	"fmt"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"path/filepath"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
)

func mustParse(tb testing.TB, name, src string) *litmus.Test {
	tb.Helper()
	t, err := litmus.Parse(name, []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// TestGenerated checks the generated shapes the benchmarks run: the SB
// ring and IRIW are allowed by the LKMM with ONCE accesses.
func TestGenerated(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		res, err := Check(context.Background(), mustParse(t, "sb", shapes.SBRing(n)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Sometimes || res.Positive != 1 || res.Positive+res.Negative != 1<<n {
			t.Errorf("SB ring %d: %v P=%d N=%d, want Sometimes 1 %d", n, res.Verdict, res.Positive, res.Negative, 1<<n-1)
		}
	}
	for _, k := range []int{2, 3} {
		res, err := Check(context.Background(), mustParse(t, "iriw", shapes.IRIW(k)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Sometimes || res.Positive+res.Negative != 1<<(2*k) {
			t.Errorf("IRIW %d: %v P=%d N=%d, want Sometimes with %d executions", k, res.Verdict, res.Positive, res.Negative, 1<<(2*k))
		}
	}
}

// BenchmarkCorpus checks every C test of the shared LKMM corpus once per
// iteration, in one process.
func BenchmarkCorpus(b *testing.B) {
	var paths []string
	for _, rel := range corpusTests(b) {
		paths = append(paths, filepath.Join(corpusRoot, "lkmm", rel))
	}
	benchTests(b, paths)
}

// BenchmarkKernelTests checks the 35 tests of the kernel's
// tools/memory-model/litmus-tests, the set herd7 takes 1.09 s for.
func BenchmarkKernelTests(b *testing.B) {
	dir := filepath.Join(corpusRoot, "lkmm", "tools", "memory-model", "litmus-tests")
	files, _ := filepath.Glob(filepath.Join(dir, "*.litmus"))
	if len(files) == 0 {
		b.Skip("corpus not found")
	}
	benchTests(b, files)
}

// benchTests parses the files, then checks them all once per iteration.
func benchTests(b *testing.B, paths []string) {
	var tests []*litmus.Test
	for _, f := range paths {
		t, err := litmus.ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		tests = append(tests, t)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range tests {
			if _, err := Check(context.Background(), t, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkSBRing(b *testing.B) {
	for _, n := range []int{4, 8, 12, 14} {
		t := mustParse(b, "sb", shapes.SBRing(n))
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Check(context.Background(), t, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkIRIW(b *testing.B) {
	for _, k := range []int{2, 4, 6, 8} {
		t := mustParse(b, "iriw", shapes.IRIW(k))
		b.Run(fmt.Sprintf("readers=%d", k), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Check(context.Background(), t, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRCURing checks the RCU rings of paulmck's auto/C-RW-* (two
// grace periods, then readers, repeated), 2^n candidates each: the
// figures say what a candidate and a final state cost.
func BenchmarkRCURing(b *testing.B) {
	for _, kinds := range []string{"GGRRRRGG", "GGRRRRGGGGRR"} {
		t := mustParse(b, "rcu", shapes.RCURing(kinds))
		b.Run(fmt.Sprintf("N=%d", len(kinds)), func(b *testing.B) {
			var res *Result
			for i := 0; i < b.N; i++ {
				r, err := Check(context.Background(), t, Options{})
				if err != nil {
					b.Fatal(err)
				}
				res = r
			}
			b.ReportMetric(float64(res.Candidates), "candidates")
			b.ReportMetric(float64(res.States.Len()), "finals")
			b.ReportMetric(float64(res.States.Bytes())/float64(res.States.Len()), "B/final")
		})
	}
}
