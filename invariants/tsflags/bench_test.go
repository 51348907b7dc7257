package tsflags

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/litmus-dev/litmus/internal/hw"
)

// BenchmarkRecv is the receive loop for a socket that wants no timestamps,
// with another goroutine writing sk_forward_alloc meanwhile.
func BenchmarkRecv(b *testing.B) {
	for _, v := range []Variant{Before, After} {
		b.Run(v.String(), func(b *testing.B) {
			s := &hw.Lines[Sock](1)[0]
			s.variant = v
			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := int64(0); !stop.Load(); i++ {
					s.Charge(i&1*2 - 1)
				}
			}()
			b.ResetTimer()
			c := recvLoop(s, max(b.N, perLock))
			b.StopTimer()
			b.ReportMetric(c, "cycles/pkt")
			stop.Store(true)
			wg.Wait()
		})
	}
}

func TestMeasureRecvShape(t *testing.T) {
	rs := MeasureRecv(1, 6400)
	if len(rs) != 2 || rs[0].Writer || !rs[1].Writer {
		t.Fatalf("want rows without and with writer, got %+v", rs)
	}
}
