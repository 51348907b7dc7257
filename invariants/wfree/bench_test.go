package wfree

import (
	"testing"

	"github.com/litmus-dev/litmus/internal/hw"
)

// BenchmarkWfree is skb_set_owner_w() + sock_wfree() on one socket, before
// and after, on one goroutine and on GOMAXPROCS goroutines sharing it.
func BenchmarkWfree(b *testing.B) {
	for _, v := range []Variant{Before, After} {
		b.Run(v.String(), func(b *testing.B) {
			s := initSock(&hw.Lines[Sock](1)[0], v, 1<<30, false)
			for b.Loop() {
				s.SetOwnerW(truesize)
				s.Wfree(truesize)
			}
		})
		b.Run(v.String()+"/parallel", func(b *testing.B) {
			s := initSock(&hw.Lines[Sock](1)[0], v, 1<<30, false)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					s.SetOwnerW(truesize)
					s.Wfree(truesize)
				}
			})
		})
	}
}

func TestMeasureWfreeShape(t *testing.T) {
	rs := MeasureWfree(2, 1, 1000)
	if len(rs) != 2 || rs[0].Threads != 1 || rs[1].Threads != 2 {
		t.Fatalf("want rows for 1 and 2 threads, got %+v", rs)
	}
	for _, r := range rs {
		if r.Before <= 0 || r.After <= 0 {
			t.Fatalf("throughput must be positive: %+v", r)
		}
	}
}
