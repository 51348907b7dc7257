package interp

import (
	"context"
	"fmt"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"os"
	"path/filepath"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// measureCPU reports, besides the wall-clock time per operation, the CPU
// time per operation (cpu-ns/op): on a machine shared with other work the
// wall clock also counts the time the benchmark waits for a core, and
// varies with the load; the CPU time varies much less. Call it after
// ResetTimer; it reports when the benchmark ends.
func measureCPU(b *testing.B) {
	start, ok := cpuTime()
	if !ok {
		return
	}
	b.Cleanup(func() {
		if end, ok := cpuTime(); ok && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	})
}

func benchCat(b *testing.B, m *Model, src string) {
	test, err := litmus.Parse("bench.litmus", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	measureCPU(b)
	for i := 0; i < b.N; i++ {
		p, err := lkmm.Program(test, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Check(context.Background(), p, CheckOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchNative(b *testing.B, src string) {
	test, err := litmus.Parse("bench.litmus", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	measureCPU(b)
	for i := 0; i < b.N; i++ {
		if _, err := lkmm.Check(context.Background(), test, lkmm.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLKMM compares linux-kernel.cat run by the interpreter with
// the native engine on the scale families and the corpus.
//
// With LITMUS_BENCH_DIR set, the generated tests are also written there,
// as SB-ring-N.litmus and IRIW-K.litmus, for docs/run-herd-lkmm-bench.sh
// to time herd7 on the same files.
func BenchmarkLKMM(b *testing.B) {
	m := corpusLKMM(b)
	dir := os.Getenv("LITMUS_BENCH_DIR")
	save := func(name, src string) {
		if dir != "" {
			if err := os.WriteFile(filepath.Join(dir, name+".litmus"), []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, n := range []int{6, 8, 10, 12} {
		src := shapes.SBRing(n)
		save(fmt.Sprintf("SB-ring-%d", n), src)
		b.Run(fmt.Sprintf("SBring%d/cat", n), func(b *testing.B) { benchCat(b, m, src) })
		b.Run(fmt.Sprintf("SBring%d/native", n), func(b *testing.B) { benchNative(b, src) })
	}
	for _, k := range []int{2, 4} {
		src := shapes.IRIW(k)
		save(fmt.Sprintf("IRIW-%d", k), src)
		b.Run(fmt.Sprintf("IRIW%d/cat", k), func(b *testing.B) { benchCat(b, m, src) })
		b.Run(fmt.Sprintf("IRIW%d/native", k), func(b *testing.B) { benchNative(b, src) })
	}
	files := corpusCTests(b)
	var tests []*litmus.Test
	for _, f := range files {
		src, _ := os.ReadFile(f)
		if t, err := litmus.Parse(f, src); err == nil {
			tests = append(tests, t)
		}
	}
	b.Run("corpus/cat", func(b *testing.B) {
		measureCPU(b)
		for i := 0; i < b.N; i++ {
			for _, t := range tests {
				p, err := lkmm.Program(t, 0)
				if err != nil {
					continue
				}
				m.Check(context.Background(), p, CheckOptions{})
			}
		}
	})
	b.Run("corpus/native", func(b *testing.B) {
		measureCPU(b)
		for i := 0; i < b.N; i++ {
			for _, t := range tests {
				lkmm.Check(context.Background(), t, lkmm.Options{})
			}
		}
	})
}
