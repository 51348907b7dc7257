package advice

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/model"
)

// five are the models of the runtime target: advice under five
// models within 10x of one check of the test under the same five.
var five = []model.Model{model.LKMM, model.TSO, model.AArch64, model.RISCV, model.PPC}

// BenchmarkAdvice times, on the seed tests, Suggest under five models
// (suggest) and one check of the test under each of them (check), the
// test resolved once as the check command does. BenchmarkAdviceRatio
// gives their ratio, the figure docs/performance.md records.
func BenchmarkAdvice(b *testing.B) {
	for _, f := range []string{"testdata/wfree-mb.litmus", "../../testdata/nospace.litmus", "testdata/mp-mbs.litmus"} {
		lt, _ := parse(b, f)
		name := strings.TrimSuffix(filepath.Base(f), ".litmus")
		opt := model.Options{NoWitness: true}
		b.Run(name+"/check", func(b *testing.B) {
			for b.Loop() {
				p := resolved(b, lt)
				for _, m := range five {
					if _, err := p.Check(context.Background(), m, opt); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(name+"/suggest", func(b *testing.B) {
			checks := 0
			for b.Loop() {
				rep, err := Suggest(context.Background(), resolved(b, lt), Options{Models: five, Check: opt})
				if err != nil {
					b.Fatal(err)
				}
				checks = rep.Checks
			}
			b.ReportMetric(float64(checks), "checks/op")
		})
	}
}

// BenchmarkAdviceRatio times one Suggest and one check under the same
// five models in turn in each iteration and reports the ratio of their
// sums (x-check): on a loaded machine the two drift together, so the
// ratio is steadier than the two timings taken apart.
func BenchmarkAdviceRatio(b *testing.B) {
	for _, f := range []string{"testdata/wfree-mb.litmus", "../../testdata/nospace.litmus"} {
		lt, _ := parse(b, f)
		opt := model.Options{NoWitness: true}
		b.Run(strings.TrimSuffix(filepath.Base(f), ".litmus"), func(b *testing.B) {
			var check, suggest time.Duration
			for b.Loop() {
				start := time.Now()
				p := resolved(b, lt)
				for _, m := range five {
					if _, err := p.Check(context.Background(), m, opt); err != nil {
						b.Fatal(err)
					}
				}
				mid := time.Now()
				if _, err := Suggest(context.Background(), resolved(b, lt), Options{Models: five, Check: opt}); err != nil {
					b.Fatal(err)
				}
				check, suggest = check+mid.Sub(start), suggest+time.Since(mid)
			}
			b.ReportMetric(float64(suggest)/float64(check), "x-check")
		})
	}
}
