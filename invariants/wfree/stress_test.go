package wfree

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// stress sends packets from one goroutine (sleeping in sock_wait_for_wmem
// when the buffer is full) and completes them with sock_wfree() on two
// others, then closes the socket. It returns the socket and whether a lost
// wakeup was detected: the sender asleep with no wake pending, no packet in
// flight and no send since the check began, which nothing can end.
func stress(v Variant, sends int, seed uint64) (*Sock, bool) {
	const sndbuf = 4096
	s := New(v, sndbuf, true)
	ch := make(chan int32, 64)
	var (
		inflight, gen atomic.Int64
		done          atomic.Bool
		wg            sync.WaitGroup
	)
	w := NewWaiter()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range ch {
				s.Wfree(n)
				inflight.Add(-1)
			}
		}()
	}
	go func() {
		defer done.Store(true)
		r := rand.New(rand.NewPCG(seed, 3))
		for range sends {
			if !s.memoryFree() {
				s.WaitForWmem(w)
			}
			n := 2 + r.Int32N(512)
			s.SetOwnerW(n)
			inflight.Add(1)
			gen.Add(1)
			ch <- n
		}
		close(ch)
	}()
	lost := false
	for !done.Load() {
		g := gen.Load()
		if inflight.Load() == 0 && !w.Woken() && w.Sleeping() && s.Writeable() &&
			gen.Load() == g && inflight.Load() == 0 {
			lost = true
			w.Wake()
		}
		runtime.Gosched()
	}
	wg.Wait()
	s.Close()
	return s, lost
}

func TestStress(t *testing.T) {
	sends, rounds := 50000, 6
	if testing.Short() {
		sends, rounds = 5000, 3
	}
	for _, v := range []Variant{Before, After} {
		t.Run(v.String(), func(t *testing.T) {
			for seed := range uint64(rounds) {
				s, lost := stress(v, sends, seed)
				require.False(t, lost, "seed %d: lost wakeup", seed)
				require.Zero(t, s.UseAfterFree(), "seed %d", seed)
				require.Equal(t, int32(1), s.Frees(), "seed %d: __sk_free calls", seed)
				require.True(t, s.Reclaimed(), "seed %d", seed)
				require.Zero(t, s.WmemAlloc(), "seed %d", seed)
			}
		})
	}
}

// TestStressCatchesDoubleDec: the put too many shows without any special
// schedule, as an early free and an underflow.
func TestStressCatchesDoubleDec(t *testing.T) {
	s, _ := stress(DoubleDec, 2000, 1)
	require.Less(t, s.WmemAlloc(), int32(0), "sk_wmem_alloc should underflow")
}
