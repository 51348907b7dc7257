package wfree

import (
	"runtime"
	"time"

	"github.com/litmus-dev/litmus/internal/hw"
)

// PatchReqPerSec is the series' own measurement: UDP over a dummy netdev,
// requests per second before and after (about +3%).
var PatchReqPerSec = [2]float64{2038491, 2099071}

// Result is one measurement of sock_wfree() on this machine.
type Result struct {
	Threads int     // threads completing packets of one socket
	Before  float64 // median million (skb_set_owner_w + sock_wfree) per second, all threads
	After   float64
	// Cycles per iteration on one thread (Threads == 1 only).
	BeforeCycles, AfterCycles float64
	// The spreads of the runs, which alternate before and after, and the
	// change of each pair of runs in percent ((after/before - 1) * 100),
	// the unit of the patch's +3%.
	BeforeSpread, AfterSpread, Change hw.Spread
}

// truesize is the charge of one benchmark packet.
const truesize = 768

// loop charges and frees iters packets on s, as a sender that completes its
// own packets does; it returns the ticks taken.
func loop(s *Sock, iters int) uint64 {
	t0 := hw.Ticks()
	for range iters {
		s.SetOwnerW(truesize)
		s.Wfree(truesize)
	}
	return hw.Ticks() - t0
}

// MeasureWfree runs the sock_wfree() loop before and after the series on 1
// thread and on threads threads sharing one socket (the sk_wmem_alloc line
// then bounces between cores, as when TX completions run on a CPU other
// than the sender's), runs times each, and reports medians. iters is per
// thread per run.
func MeasureWfree(threads, runs, iters int) []Result {
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	tpn := hw.Calibrate(10 * time.Millisecond)
	var out []Result
	for _, nt := range []int{1, threads} {
		r := Result{Threads: nt}
		var mops, cyc [2][]float64
		var change []float64
		for range runs {
			for vi, v := range []Variant{Before, After} {
				s := initSock(&hw.Lines[Sock](1)[0], v, 1<<30, false)
				ticks := make([]uint64, nt)
				hw.Pinned(nt, func(th int) {
					loop(s, iters/10) // warm
				}, func(th int) {
					ticks[th] = loop(s, iters)
				})
				var worst uint64
				for _, t := range ticks {
					worst = max(worst, t)
				}
				ns := float64(worst) / tpn
				mops[vi] = append(mops[vi], float64(nt*iters)/ns*1e3)
				cyc[vi] = append(cyc[vi], float64(ticks[0])/float64(iters))
			}
			change = append(change, (mops[1][len(mops[1])-1]/mops[0][len(mops[0])-1]-1)*100)
		}
		r.BeforeSpread, r.AfterSpread, r.Change = hw.SpreadOf(mops[0]), hw.SpreadOf(mops[1]), hw.SpreadOf(change)
		r.Before, r.After = r.BeforeSpread.Median, r.AfterSpread.Median
		r.BeforeCycles, r.AfterCycles = hw.Median(cyc[0]), hw.Median(cyc[1])
		if nt != 1 {
			r.BeforeCycles, r.AfterCycles = 0, 0
		}
		out = append(out, r)
		if threads == 1 {
			break
		}
	}
	return out
}
