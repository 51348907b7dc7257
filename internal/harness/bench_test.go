//go:build linux && (amd64 || arm64)

package harness

import (
	"context"
	"testing"
)

// BenchmarkRun measures instances per second of litmus run's defaults (and
// SB's relaxed outcomes per second) on the bundled tests. One b.N is one
// instance.
func BenchmarkRun(b *testing.B) {
	arch, err := HostArch("")
	if err != nil {
		b.Skip(err)
	}
	files := []string{"testdata/c-spin.litmus"}
	if arch == "x86-64" {
		files = []string{"testdata/SB.litmus", "testdata/MP.litmus", "testdata/SB+mfences.litmus", "testdata/IRIW.litmus"}
	}
	for _, f := range files {
		tt := parseTest(b, f)
		b.Run(tt.Name, func(b *testing.B) {
			n := max(int64(b.N), 1000)
			b.ResetTimer()
			res, err := Run(context.Background(), tt, Options{Iterations: n})
			if err != nil {
				b.Fatal(err)
			}
			s := res.Elapsed.Seconds()
			b.ReportMetric(float64(n)/s, "instances/s")
			b.ReportMetric(float64(res.Positive)/s, "positive/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}
