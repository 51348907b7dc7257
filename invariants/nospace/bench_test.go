package nospace

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/hw"
)

// BenchmarkCheckSpace times the three loops of the patch's microbenchmark
// on one thread; "before" minus "baseline" is the table's number. The full
// table, one thread per core and median of 11, is MeasureCheckSpace (run by
// cmd/seedbench).
func BenchmarkCheckSpace(b *testing.B) {
	tpn := hw.Calibrate(5 * time.Millisecond)
	for _, n := range []int{1, 256, 4096, 262144} {
		s := newSocketSet(n, 1)
		for mode, name := range []string{"baseline", "before", "after"} {
			b.Run(fmt.Sprintf("sockets=%d/%s", n, name), func(b *testing.B) {
				passes := max(1, b.N/n)
				sink.Add(s.visit(1, mode))
				b.ResetTimer()
				t := s.timeLoop(passes, mode)
				b.ReportMetric(t, "cycles/call")
				b.ReportMetric(t/tpn, "ns/op")
			})
		}
	}
}

func TestMeasureCheckSpaceShape(t *testing.T) {
	rows := MeasureCheckSpace(Config{Sockets: []int{1, 64}, Threads: 2, Runs: 3, Calls: 1 << 10})
	require.Len(t, rows, 2)
	for i, r := range rows {
		require.Equal(t, []int{1, 64}[i], r.Sockets)
		require.Greater(t, r.Base, 0.0, "the baseline loop takes time")
	}
	require.Equal(t, 256, SocketBytes, "the patch's 64 MB for 262144 sockets is 256 bytes a socket")
}
