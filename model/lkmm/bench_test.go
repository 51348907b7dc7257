package lkmm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/internal/shapes"
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
// iteration, in one process: 126 tests, herd7 one process per file.
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
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, t := range tests {
			if _, err := Check(context.Background(), t, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, start)
}

func BenchmarkSBRing(b *testing.B) {
	for _, n := range []int{4, 8, 12, 14} {
		src := shapes.SBRing(n)
		saveBench(b, fmt.Sprintf("SB-ring-%d", n), src)
		t := mustParse(b, "sb", src)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, err := Check(context.Background(), t, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

func BenchmarkIRIW(b *testing.B) {
	for _, k := range []int{2, 4, 6, 8} {
		src := shapes.IRIW(k)
		saveBench(b, fmt.Sprintf("IRIW-%d", k), src)
		t := mustParse(b, "iriw", src)
		b.Run(fmt.Sprintf("readers=%d", k), func(b *testing.B) {
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, err := Check(context.Background(), t, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkRCURing checks the RCU rings of paulmck's auto/C-RW-* (two
// grace periods, then readers, repeated), 2^n candidates each: the
// figures say what a candidate and a final state cost.
func BenchmarkRCURing(b *testing.B) {
	for _, kinds := range []string{"GGRRRRGG", "GGRRRRGGGGRR", "GGRRRRGGGGRRRRGG", "GGRRRRGGGGRRRRGGRRR"} {
		src := shapes.RCURing(kinds)
		saveBench(b, "RCU-ring-"+kinds, src)
		t := mustParse(b, "rcu", src)
		for _, off := range []bool{false, true} {
			name := fmt.Sprintf("N=%d", len(kinds))
			if off {
				// Every candidate through the whole model, as before
				// subtree.go: the figure it saves.
				name += "/subtrees=off"
			}
			b.Run(name, func(b *testing.B) {
				var res *Result
				start := cpuTime()
				for i := 0; i < b.N; i++ {
					r, err := Check(context.Background(), t, Options{noSubtrees: off})
					if err != nil {
						b.Fatal(err)
					}
					res = r
				}
				reportCPU(b, start)
				b.ReportMetric(float64(res.Candidates), "candidates")
				b.ReportMetric(float64(res.States.Len()), "finals")
				b.ReportMetric(float64(res.States.Bytes())/float64(res.States.Len()), "B/final")
			})
		}
	}
}

// saveBench writes a generated test of the benchmarks to
// $LITMUS_BENCH_DIR, when set, for docs/run-herd-lkmm.sh to time herd7 on
// the same files.
func saveBench(b *testing.B, name, src string) {
	if dir := os.Getenv("LITMUS_BENCH_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name+".litmus"), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// isaChain returns the ISA2 chain of n threads: P0 writes x0 and then
// releases x1; each middle thread acquires x_i and releases x_{i+1}; the
// last acquires x_{n-1} and reads x0. The condition (every acquire sees
// the release, the last read misses x0) is forbidden: release-acquire
// chains are cumulative. Each of the n reads has two sources: 2^n
// candidates, all allowed but the one the condition asks for.
func isaChain(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C ISA-chain-%d\n\n{}\n\n", n)
	fmt.Fprintf(&b, "P0(int *x0, int *x1)\n{\n\tWRITE_ONCE(*x0, 1);\n\tsmp_store_release(x1, 1);\n}\n\n")
	var cond []string
	for i := 1; i < n-1; i++ {
		fmt.Fprintf(&b, "P%d(int *x%d, int *x%d)\n{\n\tint r0;\n\n\tr0 = smp_load_acquire(x%d);\n\tsmp_store_release(x%d, 1);\n}\n\n", i, i, i+1, i, i+1)
		cond = append(cond, fmt.Sprintf("%d:r0=1", i))
	}
	fmt.Fprintf(&b, "P%d(int *x0, int *x%d)\n{\n\tint r0;\n\tint r1;\n\n\tr0 = smp_load_acquire(x%d);\n\tr1 = READ_ONCE(*x0);\n}\n\n", n-1, n-1, n-1)
	cond = append(cond, fmt.Sprintf("%d:r0=1 /\\ %d:r1=0", n-1, n-1))
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// BenchmarkISAChain checks ISA2 chains of 4 and 8 threads.
func BenchmarkISAChain(b *testing.B) {
	for _, n := range []int{4, 8} {
		src := isaChain(n)
		saveBench(b, fmt.Sprintf("ISA-chain-%d", n), src)
		t := mustParse(b, "isa", src)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, err := Check(context.Background(), t, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// TestISAChain checks the chain the benchmark runs: forbidden, with every
// other combination of the reads allowed.
func TestISAChain(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		res, err := Check(context.Background(), mustParse(t, "isa", isaChain(n)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Never || res.Negative != 1<<n-1 {
			t.Errorf("ISA chain %d: %v P=%d N=%d, want Never 0 %d", n, res.Verdict, res.Positive, res.Negative, 1<<n-1)
		}
	}
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start, beside the
// wall time the benchmark reports: on the shared project machine the
// wall time of a run includes the time other jobs had the cores.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
