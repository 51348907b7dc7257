package lkmm

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
)

// sbRing returns the store-buffering ring of n threads: thread i writes
// x_i then reads x_{i+1}; the condition asks that every read sees 0.
func sbRing(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C SB-ring-%d\n\n{}\n\n", n)
	var cond []string
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		fmt.Fprintf(&b, "P%d(int *x%d, int *x%d)\n{\n\tint r0;\n\n\tWRITE_ONCE(*x%d, 1);\n\tr0 = READ_ONCE(*x%d);\n}\n\n", i, i, j, i, j)
		cond = append(cond, fmt.Sprintf("%d:r0=0", i))
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// iriw returns IRIW with k readers: two writers, and readers that read x
// then y (even readers) or y then x (odd readers); the condition asks
// that the two groups see the writes in opposite orders.
func iriw(k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C IRIW-%d\n\n{}\n\n", k)
	b.WriteString("P0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\n\nP1(int *y)\n{\n\tWRITE_ONCE(*y, 1);\n}\n\n")
	var cond []string
	for i := 0; i < k; i++ {
		a, c := "x", "y"
		if i%2 == 1 {
			a, c = "y", "x"
		}
		fmt.Fprintf(&b, "P%d(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n\tr0 = READ_ONCE(*%s);\n\tr1 = READ_ONCE(*%s);\n}\n\n", i+2, a, c)
		cond = append(cond, fmt.Sprintf("%d:r0=1 /\\ %d:r1=0", i+2, i+2))
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

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
		res, err := Check(context.Background(), mustParse(t, "sb", sbRing(n)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Sometimes || res.Positive != 1 || res.Positive+res.Negative != 1<<n {
			t.Errorf("SB ring %d: %v P=%d N=%d, want Sometimes 1 %d", n, res.Verdict, res.Positive, res.Negative, 1<<n-1)
		}
	}
	for _, k := range []int{2, 3} {
		res, err := Check(context.Background(), mustParse(t, "iriw", iriw(k)), Options{})
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
		t := mustParse(b, "sb", sbRing(n))
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
		t := mustParse(b, "iriw", iriw(k))
		b.Run(fmt.Sprintf("readers=%d", k), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Check(context.Background(), t, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
