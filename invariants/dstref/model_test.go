package dstref

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The model: the softirq side prequeues packets routed by the current
// route, the user side receives them in order, and routes change. After
// every action each route's __refcnt must equal its holders (the routing
// table while current, sk_rx_dst, and queued packets holding a forced
// reference), nothing may be held or used at count zero, and no action may
// panic.

type model struct {
	sk     *Sock
	route  *Dst
	routes []*Dst
	queue  []Skb
	trace  []string
}

func newModel(v Variant) *model {
	r := NewDst(1)
	return &model{sk: NewSock(v), route: r, routes: []*Dst{r}}
}

func (m *model) logf(format string, args ...any) {
	m.trace = append(m.trace, fmt.Sprintf(format, args...))
}

// do runs one action by name, turning a panic into an error.
func (m *model) do(name string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v", name, r)
		}
	}()
	switch name {
	case "rx":
		skb := m.sk.Prequeue(m.route)
		m.queue = append(m.queue, skb)
		m.logf("rx: packet queued with dst=%v ref=%v", skb.Dst != nil, skb.Ref)
	case "user":
		if len(m.queue) == 0 {
			return errSkip
		}
		skb := m.queue[0]
		m.queue = m.queue[1:]
		d := m.sk.Receive(skb)
		m.logf("user: received, sk_rx_dst set=%v", d != nil)
	case "reroute":
		m.route = Reroute(m.route)
		m.routes = append(m.routes, m.route)
		m.logf("reroute")
	}
	return nil
}

var errSkip = fmt.Errorf("not enabled")

var actionNames = []string{"rx", "user", "reroute"}

func (m *model) check() error {
	for i, d := range m.routes {
		var want int32
		if d == m.route {
			want++
		}
		if m.sk.RxDst() == d {
			want++
		}
		for _, skb := range m.queue {
			if skb.Ref && skb.Dst == d {
				want++
			}
		}
		if got := d.Refcnt(); got != want {
			return fmt.Errorf("route %d: __refcnt %d but %d holders", i, got, want)
		}
		if n := d.UseAfterFree(); n > 0 {
			return fmt.Errorf("route %d: %d uses after free", i, n)
		}
	}
	return nil
}

func TestModel(t *testing.T) {
	for _, v := range []Variant{Before, After} {
		t.Run(v.String(), rapid.MakeCheck(func(t *rapid.T) {
			m := newModel(v)
			acts := map[string]func(*rapid.T){
				"": func(t *rapid.T) {
					if err := m.check(); err != nil {
						t.Fatalf("%v\ntrace:\n  %s", err, strings.Join(m.trace, "\n  "))
					}
				},
			}
			for _, name := range actionNames {
				acts[name] = func(t *rapid.T) {
					err := m.do(name)
					if err == errSkip {
						t.Skip(err)
					}
					if err != nil {
						t.Fatalf("%v\ntrace:\n  %s", err, strings.Join(m.trace, "\n  "))
					}
				}
			}
			t.Repeat(acts)
		}))
	}
}

func search(v Variant, runs, steps int) []string {
	for seed := range uint64(runs) {
		m := newModel(v)
		r := rand.New(rand.NewPCG(seed, 0x647374))
		for range steps {
			err := m.do(actionNames[r.IntN(len(actionNames))])
			if err == errSkip {
				continue
			}
			if err == nil {
				err = m.check()
			}
			if err != nil {
				return append(m.trace, "=> "+err.Error())
			}
		}
	}
	return nil
}

func TestBrokenVariantsFail(t *testing.T) {
	for v, want := range map[Variant]string{
		NoGuard:       "panicked",
		DoubleRelease: "__refcnt",
	} {
		t.Run(v.String(), func(t *testing.T) {
			trace := search(v, 500, 40)
			require.NotNil(t, trace, "no schedule broke %v", v)
			require.Contains(t, trace[len(trace)-1], want)
			t.Logf("counterexample:\n  %s", strings.Join(trace, "\n  "))
		})
	}
}

func TestCorrectVariantsSurviveSearch(t *testing.T) {
	for _, v := range []Variant{Before, After} {
		if trace := search(v, 500, 40); trace != nil {
			t.Errorf("%v:\n  %s", v, strings.Join(trace, "\n  "))
		}
	}
}

// TestGuardScript is the race the patch's NULL check is for: tcp_prequeue()
// drops the dst because sk_rx_dst is set, the route changes, and by the time
// the user side runs, dst_check() has reset sk_rx_dst, so
// inet_sk_rx_dst_set() sees a packet without a dst.
func TestGuardScript(t *testing.T) {
	for _, v := range []Variant{After, NoGuard} {
		m := newModel(v)
		for _, a := range []string{"rx", "user"} { // install sk_rx_dst
			require.NoError(t, m.do(a))
		}
		require.NotNil(t, m.sk.RxDst())
		require.NoError(t, m.do("rx"))
		require.Nil(t, m.queue[0].Dst, "%v: tcp_prequeue dropped the dst", v)
		require.NoError(t, m.do("reroute"))
		err := m.do("user")
		if v == NoGuard {
			require.ErrorContains(t, err, "panicked")
			continue
		}
		require.NoError(t, err)
		require.Nil(t, m.sk.RxDst(), "no route to cache from this packet")
		require.NoError(t, m.check())
		require.NoError(t, m.do("rx"))
		require.True(t, m.queue[0].Ref, "with sk_rx_dst unset the next packet forces a reference")
	}
}

// TestAfterTouchesNoRefcount: in steady state (route cached) the patched
// path leaves __refcnt alone on both sides.
func TestAfterTouchesNoRefcount(t *testing.T) {
	for v, want := range map[Variant]int{Before: 100, After: 0} {
		m := newModel(v)
		require.NoError(t, m.do("rx"))
		require.NoError(t, m.do("user"))
		forced := 0
		for range 100 {
			require.NoError(t, m.do("rx"))
			if m.queue[0].Ref {
				forced++
			}
			require.NoError(t, m.do("user"))
		}
		require.Equal(t, want, forced, "%v: forced references in steady state", v)
	}
}
