package tsflags

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/internal/hw"
)

func TestLayout(t *testing.T) {
	var s Sock
	line := func(off uintptr) uintptr { return off / hw.CacheLine }
	require.Equal(t, uintptr(0), line(unsafe.Offsetof(s.flags)))
	require.Equal(t, uintptr(1), line(unsafe.Offsetof(s.forwardAlloc)))
	require.Equal(t, uintptr(1), line(unsafe.Offsetof(s.tsflags)), "sk_tsflags shares sk_forward_alloc's line")
	require.Equal(t, uintptr(3*hw.CacheLine), unsafe.Sizeof(s))
}

// op is one step applied to both sockets of a pair.
type op struct {
	name string
	on   bool
	ns   bool
	val  uint32
	skb  Skb
}

func (o op) String() string {
	switch o.name {
	case "timestamp":
		return fmt.Sprintf("SO_TIMESTAMP on=%v ns=%v", o.on, o.ns)
	case "timestamping":
		return fmt.Sprintf("SO_TIMESTAMPING %#x", o.val)
	default:
		return fmt.Sprintf("recv sw=%d hw=%d", o.skb.Sw, o.skb.Hw)
	}
}

// apply runs o on s and returns the control messages of a receive.
func (o op) apply(s *Sock) Cmsg {
	s.Lock()
	defer s.Unlock()
	switch o.name {
	case "timestamp":
		s.SetTimestamp(o.on, o.ns)
	case "timestamping":
		s.SetTimestamping(o.val)
	default:
		return s.Recvmsg(o.skb)
	}
	return Cmsg{}
}

// tsBits are the SO_TIMESTAMPING bits the generators mix.
var tsBits = []uint32{SofRxHardware, SofRxSoftware, SofSoftware, SofRawHardware, SofOptRxFilter, 1 << 0, 1 << 1}

func genOp(intn func(string, int) int) op {
	switch intn("op", 3) {
	case 0:
		return op{name: "timestamp", on: intn("on", 2) == 1, ns: intn("ns", 2) == 1}
	case 1:
		var v uint32
		for i, b := range tsBits {
			if intn(fmt.Sprint("bit", i), 2) == 1 {
				v |= b
			}
		}
		return op{name: "timestamping", val: v}
	default:
		stamp := func(l string) int64 { return int64(intn(l, 3)) * 1000 } // 0 means none
		return op{name: "recv", skb: Skb{Sw: stamp("sw"), Hw: stamp("hw")}}
	}
}

// TestSameCmsgs: whatever the options, After delivers exactly the control
// messages Before delivers.
func TestSameCmsgs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		before, after := New(Before), New(After)
		var trace []string
		intn := func(l string, n int) int { return rapid.IntRange(0, n-1).Draw(t, l) }
		t.Repeat(map[string]func(*rapid.T){
			"step": func(t *rapid.T) {
				o := genOp(intn)
				trace = append(trace, o.String())
				if b, a := o.apply(before), o.apply(after); b != a {
					t.Fatalf("before %+v, after %+v\ntrace:\n  %s", b, a, strings.Join(trace, "\n  "))
				}
			},
		})
	})
}

// TestBrokenVariantDiffers: testing SOCK_RCVTSTAMP alone loses the
// SO_TIMESTAMPING users' messages, and the property sees it.
func TestBrokenVariantDiffers(t *testing.T) {
	for seed := range uint64(1000) {
		r := rand.New(rand.NewPCG(seed, 0x7473))
		before, broken := New(Before), New(RcvtstampOnly)
		var trace []string
		for range 20 {
			o := genOp(func(_ string, n int) int { return r.IntN(n) })
			trace = append(trace, o.String())
			if b, x := o.apply(before), o.apply(broken); b != x {
				t.Logf("counterexample (seed %d):\n  %s\n  => before %+v, broken %+v", seed, strings.Join(trace, "\n  "), b, x)
				return
			}
		}
	}
	t.Fatal("no sequence told rcvtstamp-only from before")
}

// TestStress: setsockopt on one goroutine, recvmsg on another (both under
// the socket lock, as in the kernel) and sk_forward_alloc written without
// it by a third; the pair must agree on every receive.
func TestStress(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 10000
	}
	before, after := New(Before), New(After)
	var mu sync.Mutex // makes each op apply to both sockets at once
	var wg sync.WaitGroup
	var stop atomic.Bool
	var mismatch atomic.Value
	wg.Add(3)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			before.Charge(int64(i%3 - 1))
			after.Charge(int64(i%3 - 1))
		}
	}()
	run := func(seed uint64, only string) {
		defer wg.Done()
		r := rand.New(rand.NewPCG(seed, 1))
		for range n {
			o := genOp(func(_ string, k int) int { return r.IntN(k) })
			if (o.name == "recv") != (only == "recv") {
				continue
			}
			mu.Lock()
			b, a := o.apply(before), o.apply(after)
			mu.Unlock()
			if b != a {
				mismatch.CompareAndSwap(nil, fmt.Sprintf("%v: before %+v after %+v", o, b, a))
			}
		}
	}
	go run(1, "recv")
	go func() { run(2, "setsockopt"); stop.Store(true) }()
	wg.Wait()
	require.Nil(t, mismatch.Load())
}
