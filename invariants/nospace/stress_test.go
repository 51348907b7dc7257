package nospace

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// stress runs a sender W, the ACK path A and an epoll task E on real
// goroutines for sends iterations and returns a description of the first
// lost wakeup it detected, or "".
//
// A lost wakeup is detected without timing: a task that is asleep with no
// wake pending, while the buffer is empty and no other task can free space
// or wake it, will never run again. A checks this for W whenever the queue
// is empty; the main goroutine checks E once W and A have finished.
func stress(v Variant, sends int, seed uint64) string {
	const sndbuf = 64
	tp := New(v, sndbuf)
	var (
		wDone, stop atomic.Bool
		lost        atomic.Value
		wg          sync.WaitGroup
	)
	ww, we := NewWaiter(), NewWaiter()

	wg.Add(1)
	go func() { // W: tcp_sendmsg()
		defer wg.Done()
		defer wDone.Store(true)
		r := rand.New(rand.NewPCG(seed, 1))
		for range sends {
			n := 1 + r.Int64N(sndbuf/2)
			tp.Lock()
			for !tp.Send(n) {
				if stop.Load() {
					tp.Unlock()
					return
				}
				tp.WaitMemory(ww)
			}
			tp.Unlock()
		}
	}()

	wg.Add(1)
	go func() { // A: ACKs under the socket lock
		defer wg.Done()
		r := rand.New(rand.NewPCG(seed, 2))
		for {
			done := wDone.Load() // before the queue is read: W sends no more
			tp.Lock()
			q := tp.Queued()
			if q > 0 {
				tp.Ack(1 + r.Int64N(q))
			}
			tp.Unlock()
			if q > 0 {
				continue
			}
			if done {
				return
			}
			if !ww.Woken() && ww.Sleeping() && tp.Queued() == 0 {
				lost.CompareAndSwap(nil, "W asleep in sk_stream_wait_memory with an empty send queue")
				stop.Store(true)
				ww.Wake()
				return
			}
			runtime.Gosched()
		}
	}()

	var eDone atomic.Bool
	go func() { // E: epoll_wait() loop on tcp_poll()
		defer eDone.Store(true)
		tp.wq.Add(we)
		defer tp.wq.Remove(we)
		for {
			we.Consume()
			if tp.Poll() {
				if stop.Load() {
					return
				}
				runtime.Gosched()
				continue
			}
			we.Wait()
		}
	}()

	wg.Wait()
	stop.Store(true)
	// If A gave up on a lost W, W may have queued more before it saw
	// stop; free it so that E can finish.
	tp.Lock()
	if q := tp.Queued(); q > 0 {
		tp.Ack(q)
	}
	tp.Unlock()
	for !eDone.Load() {
		if !we.Woken() && we.Sleeping() {
			lost.CompareAndSwap(nil, "E asleep without EPOLLOUT on an idle writeable socket")
			we.Wake()
		}
		runtime.Gosched()
	}
	if s, ok := lost.Load().(string); ok {
		return s
	}
	return ""
}

func TestStress(t *testing.T) {
	sends, rounds := 20000, 8
	if testing.Short() {
		sends, rounds = 2000, 4
	}
	for _, v := range []Variant{Before, After} {
		t.Run(v.String(), func(t *testing.T) {
			for seed := range uint64(rounds) {
				require.Empty(t, stress(v, sends, seed), "seed %d", seed)
			}
		})
	}
}
