package dstref

import "testing"

// BenchmarkPrequeue moves b.N packets from CPU 0 to CPU 1, before and after.
func BenchmarkPrequeue(b *testing.B) {
	for _, v := range []Variant{Before, After} {
		b.Run(v.String(), func(b *testing.B) {
			pps := run(v, max(b.N, batch))
			b.ReportMetric(pps/1e6, "Mpps")
		})
	}
}

func TestMeasurePrequeueShape(t *testing.T) {
	r := MeasurePrequeue(1, 10000)
	if r.Before <= 0 || r.After <= 0 {
		t.Fatalf("throughput must be positive: %+v", r)
	}
}
