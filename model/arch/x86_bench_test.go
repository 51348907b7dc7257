package arch_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/internal/shapes"
)

// BenchmarkX86Corpus checks every shared X86 test once per iteration,
// under x86tso.cat and sc.cat run by the cat interpreter (building the
// events included) and under the operational TSO and SC machines
// (compiling included, no witness).
func BenchmarkX86Corpus(b *testing.B) {
	var tests []*litmus.Test
	for _, f := range corpusTests(b, "x86") {
		tests = append(tests, parseFile(b, f))
	}
	benchX86(b, tests)
}

// BenchmarkX86SBRing is the store-buffering ring of n threads, each
// writing its location then reading the next one's; N=12 is the TSO row
// of docs/performance.md's table beside herd7 (docs/run-herd-arch.sh
// writes it with LITMUS_BENCH_DIR).
func BenchmarkX86SBRing(b *testing.B) {
	for _, n := range []int{2, 4, 6, 12} {
		src := shapes.X86SBRing(n)
		writeForHerd(b, "x86", fmt.Sprintf("SB-ring-%d", n), src)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			t, err := litmus.Parse("sb.litmus", []byte(src))
			if err != nil {
				b.Fatal(err)
			}
			benchX86(b, []*litmus.Test{t})
		})
	}
}

func benchX86(b *testing.B, tests []*litmus.Test) {
	for _, c := range []struct {
		name string
		cat  string // the cat model, or "" for op
		op   model.Model
	}{{"cat-x86tso", "x86tso.cat", model.Model{}}, {"op-tso", "", model.TSO}, {"cat-sc", "sc.cat", model.Model{}}, {"op-sc", "", model.SC}} {
		b.Run(c.name, func(b *testing.B) {
			var m *interp.Model
			if c.cat != "" {
				m = libModel(b, c.cat)
			}
			ctx := context.Background()
			b.ResetTimer()
			measureCPU(b)
			for i := 0; i < b.N; i++ {
				for _, t := range tests {
					if m == nil {
						if _, err := model.Check(ctx, t, c.op, model.Options{NoWitness: true}); err != nil {
							b.Fatal(err)
						}
						continue
					}
					p, err := arch.Program(t, arch.Options{})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := m.Check(ctx, p, interp.CheckOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
