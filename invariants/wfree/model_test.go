package wfree

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The model: a sender S charges packets to the socket (sleeping in
// sock_wait_for_wmem() when the buffer is full), two completion CPUs run
// sock_wfree() on outstanding packets one access at a time, and the owner
// may close the socket. After every step it checks that the socket is never
// used after it is reclaimed, is freed at most once and never while a
// reference is outstanding, that sk_wmem_alloc equals the references held
// whenever no put is in flight, and that S is never left asleep while the
// socket is writeable and no packet is left whose completion would wake it.

const modelSndbuf = 16

type chooser interface{ intn(label string, n int) int }

type rapidChooser struct{ t *rapid.T }

func (c rapidChooser) intn(label string, n int) int {
	return rapid.IntRange(0, n-1).Draw(c.t, label)
}

type randChooser struct{ r *rand.Rand }

func (c randChooser) intn(_ string, n int) int { return c.r.IntN(n) }

type model struct {
	s       *Sock
	open    bool
	skbs    []int32 // outstanding packets, not yet in sock_wfree()
	cpu     [2]*wfreeOp
	wait    *waitOp
	sleeper *Waiter
	trace   []string
}

func newModel(v Variant) *model {
	return &model{s: New(v, modelSndbuf, true), open: true, sleeper: NewWaiter()}
}

func (m *model) logf(format string, args ...any) {
	m.trace = append(m.trace, fmt.Sprintf(format, args...))
}

type action struct {
	name string
	do   func(c chooser) bool
}

func (m *model) actions() []action {
	return []action{
		{"send", m.send},
		{"sleeper", m.stepSleeper},
		{"cpu0", func(c chooser) bool { return m.complete(c, 0) }},
		{"cpu1", func(c chooser) bool { return m.complete(c, 1) }},
		{"close", m.close},
	}
}

func (m *model) send(c chooser) bool {
	if !m.open || m.wait != nil {
		return false
	}
	if !m.s.memoryFree() {
		m.wait = &waitOp{s: m.s, w: m.sleeper}
		m.logf("S finds sk_wmem_alloc=%d >= sndbuf and waits", m.s.WmemAlloc())
		return true
	}
	n := int32(2 + c.intn("truesize", modelSndbuf/2))
	m.s.SetOwnerW(n)
	m.skbs = append(m.skbs, n)
	m.logf("S sends %d (sk_wmem_alloc %d)", n, m.s.WmemAlloc())
	return true
}

func (m *model) stepSleeper(chooser) bool {
	if m.wait == nil || m.wait.Blocked() {
		return false
	}
	pc := m.wait.pc
	if m.wait.Step() {
		m.wait = nil
		m.logf("S has room")
		return true
	}
	m.logf("S wait step pc=%d -> %d", pc, m.wait.pc)
	return true
}

func (m *model) complete(c chooser, cpu int) bool {
	o := m.cpu[cpu]
	if o == nil {
		if len(m.skbs) == 0 {
			return false
		}
		i := c.intn("skb", len(m.skbs))
		o = &wfreeOp{s: m.s, n: m.skbs[i]}
		m.skbs = append(m.skbs[:i], m.skbs[i+1:]...)
		m.cpu[cpu] = o
		m.logf("cpu%d: sock_wfree(%d)", cpu, o.n)
	}
	pc := o.pc
	done := o.Step()
	m.logf("cpu%d step pc=%d -> %d (sk_wmem_alloc %d)", cpu, pc, o.pc, m.s.WmemAlloc())
	if done {
		m.cpu[cpu] = nil
	}
	return true
}

func (m *model) close(chooser) bool {
	if !m.open || m.wait != nil {
		return false
	}
	m.open = false
	m.s.Close()
	m.logf("owner closes (sk_wmem_alloc %d)", m.s.WmemAlloc())
	return true
}

// held is the number of bytes of references the model's tasks hold.
func (m *model) held() int32 {
	var n int32
	if m.open {
		n = 1
	}
	for _, b := range m.skbs {
		n += b
	}
	for _, o := range m.cpu {
		if o != nil {
			n += o.n // a put in flight still counts until it returns
		}
	}
	return n
}

func (m *model) check() error {
	s := m.s
	if n := s.UseAfterFree(); n > 0 {
		return fmt.Errorf("socket used %d times after it was reclaimed", n)
	}
	if f := s.Frees(); f > 1 {
		return fmt.Errorf("__sk_free ran %d times", f)
	}
	if s.WmemAlloc() < 0 {
		return fmt.Errorf("sk_wmem_alloc underflowed to %d", s.WmemAlloc())
	}
	quiet := m.cpu[0] == nil && m.cpu[1] == nil
	if s.Frees() > 0 && quiet && m.held() > 0 {
		return fmt.Errorf("freed while %d bytes of references are held", m.held())
	}
	if quiet && s.WmemAlloc() != m.held() {
		return fmt.Errorf("sk_wmem_alloc is %d but %d is held", s.WmemAlloc(), m.held())
	}
	// A sender may sleep on past the threshold while packets are still
	// outstanding (Before checks sock_writeable() before its final put of
	// 1, so it can see the count a few bytes high); their completions will
	// wake it. It is lost only when no completion is left to come.
	if quiet && len(m.skbs) == 0 && m.wait != nil && m.wait.pc == 2 && !m.sleeper.Woken() && s.Writeable() {
		return fmt.Errorf("sender asleep while writeable with no packet in flight (sk_wmem_alloc %d, sndbuf %d)", s.WmemAlloc(), modelSndbuf)
	}
	if quiet && !m.open && len(m.skbs) == 0 && s.Frees() != 1 {
		return fmt.Errorf("all references gone but __sk_free ran %d times", s.Frees())
	}
	return nil
}

func search(v Variant, runs, steps int) []string {
	for seed := range uint64(runs) {
		m := newModel(v)
		c := randChooser{rand.New(rand.NewPCG(seed, 0x77667265))}
		acts := m.actions()
		for range steps {
			if !acts[c.intn("", len(acts))].do(c) {
				continue
			}
			if err := m.check(); err != nil {
				return append(m.trace, "=> "+err.Error())
			}
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
				"noop": func(*rapid.T) {},
			}
			for _, a := range m.actions() {
				acts[a.name] = func(t *rapid.T) {
					if !a.do(rapidChooser{t}) {
						t.Skip("not enabled")
					}
				}
			}
			t.Repeat(acts)
		}))
	}
}

func TestCorrectVariantsSurviveSearch(t *testing.T) {
	for _, v := range []Variant{Before, After} {
		if trace := search(v, 3000, 80); trace != nil {
			t.Errorf("%v:\n  %s", v, strings.Join(trace, "\n  "))
		}
	}
}

func TestBrokenVariantsFail(t *testing.T) {
	for v, want := range map[Variant]string{
		DoubleDec: "sk_wmem_alloc is",
		NoRCU:     "used",
		NoBarrier: "asleep while writeable",
	} {
		t.Run(v.String(), func(t *testing.T) {
			trace := search(v, 3000, 80)
			require.NotNil(t, trace, "no schedule of %v broke a property", v)
			require.Contains(t, trace[len(trace)-1], want)
			t.Logf("counterexample:\n  %s", strings.Join(trace, "\n  "))
		})
	}
}

// TestBeforeWakesLate: two completions in flight at once each hold back one
// byte across their write_space call in Before, so both can see the count
// just above sndbuf/2 and neither wakes the sender, although the count ends
// below it; the sender sleeps on until a later packet completes. After
// tests sock_writeable() after the whole put and wakes it at once.
func TestBeforeWakesLate(t *testing.T) {
	run := func(v Variant) *model {
		m := newModel(v)
		for _, n := range []int32{8, 8, 5} {
			m.s.SetOwnerW(n)
			m.skbs = append(m.skbs, n)
		}
		m.wait = &waitOp{s: m.s, w: m.sleeper}
		for m.wait.pc != 2 {
			require.False(t, m.wait.Step())
		}
		a, b := &wfreeOp{s: m.s, n: 8}, &wfreeOp{s: m.s, n: 8}
		m.skbs = m.skbs[2:]
		m.cpu = [2]*wfreeOp{a, b}
		for _, o := range []*wfreeOp{a, a, b, b} { // both puts and both write_space tests
			require.False(t, o.Step())
		}
		for !a.Step() {
		}
		for !b.Step() {
		}
		m.cpu = [2]*wfreeOp{}
		require.NoError(t, m.check())
		require.True(t, m.s.Writeable(), "sk_wmem_alloc %d", m.s.WmemAlloc())
		return m
	}
	require.False(t, run(Before).sleeper.Woken(), "before: nobody woke the sender")
	require.True(t, run(After).sleeper.Woken(), "after: the completion that crossed sndbuf/2 woke it")
}
