package dstref

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStress runs the softirq side, the user side and route changes on
// goroutines. A sync.RWMutex stands for RCU: the softirq side uses the
// current route inside a read section, and a route change drops the table's
// reference under the write lock, after the readers are gone. At the end
// every route's count must be the table's reference alone (or nothing), and
// nothing may have been held or used at zero.
func TestStress(t *testing.T) {
	packets, reroutes := 200000, 200
	if testing.Short() {
		packets, reroutes = 20000, 40
	}
	for _, v := range []Variant{Before, After} {
		t.Run(v.String(), func(t *testing.T) {
			sk := NewSock(v)
			var (
				rcu    sync.RWMutex
				cur    atomic.Pointer[Dst]
				routes = []*Dst{NewDst(1)}
				wg     sync.WaitGroup
				stop   atomic.Bool
			)
			cur.Store(routes[0])
			ch := make(chan Skb, 256)
			wg.Add(2)
			go func() { // softirq
				defer wg.Done()
				defer close(ch)
				for range packets {
					rcu.RLock()
					skb := sk.Prequeue(cur.Load())
					rcu.RUnlock()
					ch <- skb
				}
			}()
			go func() { // user
				defer wg.Done()
				for skb := range ch {
					sk.Receive(skb)
				}
				stop.Store(true)
			}()
			for i := 0; i < reroutes && !stop.Load(); i++ {
				rcu.Lock()
				nd := Reroute(cur.Load())
				cur.Store(nd)
				routes = append(routes, nd)
				rcu.Unlock()
				for range 100 {
					if stop.Load() {
						break
					}
					rcu.RLock() // let the softirq side run
					rcu.RUnlock()
				}
			}
			wg.Wait()
			sk.Close()
			for i, d := range routes {
				want := int32(0)
				if d == cur.Load() {
					want = 1
				}
				require.Equal(t, want, d.Refcnt(), "route %d of %d", i, len(routes))
				require.Zero(t, d.UseAfterFree(), "route %d", i)
			}
		})
	}
}
