package tsflags

import (
	"sync/atomic"

	"github.com/litmus-dev/litmus/internal/hw"
)

// PatchGain is the patch's own measurement: tcp_rr -T 128 -F 10000 gains
// about 3% throughput on an AMD EPYC 7B12 (2 sockets, 256 vCPUs).
const PatchGain = 0.03

// Result is one measurement of the receive loop.
type Result struct {
	Writer        bool    // another CPU writes sk_forward_alloc meanwhile
	Before, After float64 // median cycles per received packet
	// The spreads of the runs, which alternate before and after, and the
	// speedup before/after of each pair of runs.
	BeforeSpread, AfterSpread, Speedup hw.Spread
}

// perLock is how many packets a recvmsg() call handles under one
// lock_sock(), so that the lock does not swamp what is measured.
const perLock = 64

// recvLoop receives packets packets on s, stamped (the host has RX
// timestamps on) but on a socket that asked for none, and returns the ticks
// per packet.
func recvLoop(s *Sock, packets int) float64 {
	skb := Skb{Sw: 1700000000}
	var n int
	t0 := hw.Ticks()
	for i := 0; i < packets; i += perLock {
		s.Lock()
		for range perLock {
			if s.Recvmsg(skb).Timestamping {
				n++
			}
		}
		s.Unlock()
	}
	t := hw.Ticks() - t0
	sink.Add(int64(n))
	return float64(t) / float64(packets)
}

var sink atomic.Int64

// MeasureRecv runs the receive loop on CPU 0, with and without a goroutine
// on CPU 1 writing sk_forward_alloc, runs times per case, and reports the
// median cycles per packet.
func MeasureRecv(runs, packets int) []Result {
	var out []Result
	for _, writer := range []bool{false, true} {
		r := Result{Writer: writer}
		var xs [2][]float64
		var speedup []float64
		for range runs {
			for vi, v := range []Variant{Before, After} {
				xs[vi] = append(xs[vi], recvRun(v, writer, packets))
			}
			speedup = append(speedup, xs[0][len(xs[0])-1]/xs[1][len(xs[1])-1])
		}
		r.BeforeSpread, r.AfterSpread, r.Speedup = hw.SpreadOf(xs[0]), hw.SpreadOf(xs[1]), hw.SpreadOf(speedup)
		r.Before, r.After = r.BeforeSpread.Median, r.AfterSpread.Median
		out = append(out, r)
	}
	return out
}

// recvRun is one run: packets received by a variant's socket, with or
// without a writer of sk_forward_alloc on another CPU; ticks per packet.
func recvRun(v Variant, writer bool, packets int) float64 {
	s := &hw.Lines[Sock](1)[0]
	s.variant = v
	var stop atomic.Bool
	var x float64
	n := 1
	if writer {
		n = 2
	}
	hw.Pinned(n, nil, func(cpu int) {
		if cpu == 1 { // the writer on another CPU
			for i := int64(0); !stop.Load(); i++ {
				s.Charge(i&1*2 - 1) // sk_mem_charge / uncharge
			}
			return
		}
		recvLoop(s, packets/10)
		x = recvLoop(s, packets)
		stop.Store(true)
	})
	return x
}
