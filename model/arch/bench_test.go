package arch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/internal/shapes"
)

// The benchmarks of the architecture models: each shared AArch64, RISC-V
// and POWER test under its architecture's model, and two scale families
// per architecture, the store-buffering ring (thread i writes x_i then
// reads x_{i+1}) and IRIW with k readers (two writers, readers reading the
// two locations in alternating orders). One iteration is one complete
// Check (events, domains, candidates, the cat model), as litmus check runs
// it. docs/performance.md records them beside herd7 7.58 on the same
// files: with LITMUS_BENCH_DIR set, the generated tests are written there
// for herd (docs/run-herd-bench.sh).

// archFamily is one architecture's benchmarks.
type archFamily struct {
	name    string // the corpus folder name and Check model
	model   model.Model
	dirs    []string
	dialect shapes.Dialect // how the dialect writes the scale families
}

var archFamilies = []archFamily{
	{name: "aarch64", model: model.AArch64, dirs: []string{"arch/aarch64/herd/catalogue", "arch/aarch64/dat3m"}, dialect: shapes.AArch64},
	{name: "riscv", model: model.RISCV, dirs: []string{"arch/riscv/dat3m"}, dialect: shapes.RISCV},
	{name: "ppc", model: model.PPC, dirs: []string{"arch/ppc/dat3m"}, dialect: shapes.PPC},
}

// benchTests checks tests once per iteration under m.
func benchTests(b *testing.B, m model.Model, tests []*litmus.Test) {
	b.Helper()
	b.ResetTimer()
	measureCPU(b)
	for i := 0; i < b.N; i++ {
		for _, t := range tests {
			r, err := model.Check(context.Background(), t, m, model.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if r.Verdict == model.Unknown {
				b.Fatalf("%s: Unknown: %s", t.Name, r.Reason)
			}
		}
	}
}

// corpusTests parses (once) every non-mixed test of f's corpus folders
// that the model answers: herd answers every one of them but one, which
// both reject.
func (f archFamily) corpusTests() []*litmus.Test {
	archCorpusOnce.Lock()
	defer archCorpusOnce.Unlock()
	if ts, ok := archCorpusTests[f.name]; ok {
		return ts
	}
	var tests []*litmus.Test
	for _, d := range f.dirs {
		filepath.Walk(filepath.Join(corpus, d), func(p string, fi os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, ".litmus") && !strings.Contains(p, "/mixed/") {
				if src, err := os.ReadFile(p); err == nil {
					if t, err := litmus.Parse(p, src); err == nil {
						if _, err := model.Check(context.Background(), t, f.model, model.Options{}); err == nil {
							tests = append(tests, t)
						}
					}
				}
			}
			return nil
		})
	}
	archCorpusTests[f.name] = tests
	return tests
}

var (
	archCorpusOnce  sync.Mutex
	archCorpusTests = map[string][]*litmus.Test{}
)

// measureCPU reports, besides the wall-clock time per operation, the CPU
// time per operation (cpu-ns/op), which varies much less with the load of
// a shared machine. Call it after ResetTimer.
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

// writeForHerd saves a generated test where LITMUS_BENCH_DIR says.
func writeForHerd(b *testing.B, arch, name, src string) {
	dir := os.Getenv("LITMUS_BENCH_DIR")
	if dir == "" {
		return
	}
	d := filepath.Join(dir, arch)
	if err := os.MkdirAll(d, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, name+".litmus"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkArch(b *testing.B) {
	for _, f := range archFamilies {
		b.Run(f.name+"/corpus", func(b *testing.B) {
			tests := f.corpusTests()
			if len(tests) == 0 {
				b.Skip("no shared corpus")
			}
			benchTests(b, f.model, tests)
		})
		for _, n := range []int{4, 6, 8, 10} {
			src := f.dialect.SBRing(n)
			writeForHerd(b, f.name, fmt.Sprintf("SB-ring-%d", n), src)
			t, err := litmus.Parse("sb.litmus", []byte(src))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/SBring%d", f.name, n), func(b *testing.B) { benchTests(b, f.model, []*litmus.Test{t}) })
		}
		for _, k := range []int{2, 3, 4} {
			src := f.dialect.IRIW(k)
			writeForHerd(b, f.name, fmt.Sprintf("IRIW-%d", k), src)
			t, err := litmus.Parse("iriw.litmus", []byte(src))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/IRIW%d", f.name, k), func(b *testing.B) { benchTests(b, f.model, []*litmus.Test{t}) })
		}
	}
}
