package nospace

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The model interleaves three tasks on one socket, one step (one shared
// access) at a time, honouring the socket lock:
//
//   - a writer W (under the lock) queues bytes and, when the buffer is full,
//     sleeps in sk_stream_wait_memory();
//   - an epoll task E, whose entry is registered on the wait queue for good
//     (as EPOLL_CTL_ADD leaves it), calls tcp_poll() without the lock and
//     sleeps until woken when it returns no EPOLLOUT;
//   - the ACK path A (under the lock) frees bytes and runs tcp_check_space();
//   - a nonblocking poller P calls tcp_poll() with no wait entry (poll(2)
//     with a zero timeout): it never sleeps, but its lockless flag stores
//     interleave with everyone else's.
//
// The property is the one the barrier pairing exists for: once nothing is
// in flight, no task is asleep without a pending wake while the socket is
// writeable.

const modelSndbuf = 8

// chooser is where the model gets its choices: rapid while shrinking, a
// seeded math/rand in the searches over broken variants.
type chooser interface {
	intn(label string, n int) int
}

type rapidChooser struct{ t *rapid.T }

func (c rapidChooser) intn(label string, n int) int {
	return rapid.IntRange(0, n-1).Draw(c.t, label)
}

type randChooser struct{ r *rand.Rand }

func (c randChooser) intn(_ string, n int) int { return c.r.IntN(n) }

type model struct {
	tp     *TCPSock
	holder op // socket lock holder, nil when free

	w    *waitOp // W's sk_stream_wait_memory(), nil while W runs
	wWtr *Waiter

	e       *Waiter
	poll    *pollOp
	eAsleep bool

	ack *ackOp

	p *pollOp // P's tcp_poll() in flight

	trace []string
}

func newModel(v Variant) *model {
	m := &model{tp: New(v, modelSndbuf), wWtr: NewWaiter(), e: NewWaiter()}
	m.tp.wq.Add(m.e) // EPOLL_CTL_ADD: E's entry stays registered
	return m
}

func (m *model) logf(format string, args ...any) {
	m.trace = append(m.trace, fmt.Sprintf(format, args...))
}

// step advances o by one step if the lock allows it, taking and releasing
// the lock around locked steps. It reports whether o returned and whether a
// step happened.
func (m *model) step(o op) (done, ok bool) {
	if o.Blocked() {
		return false, false
	}
	if o.Locked() {
		if m.holder != nil && m.holder != o {
			return false, false
		}
		m.holder = o
	}
	done = o.Step()
	if m.holder == o && (done || !o.Locked()) {
		m.holder = nil
	}
	return done, true
}

// actions lists the model's moves in a fixed order; each reports whether it
// was enabled.
func (m *model) actions() []struct {
	name string
	do   func(c chooser) bool
} {
	return []struct {
		name string
		do   func(c chooser) bool
	}{
		{"send", m.send},
		{"writer", m.writer},
		{"ack", m.doAck},
		{"epoll", m.epoll},
		{"poll0", m.poll0},
	}
}

// send is W writing: it queues bytes under the lock, or enters
// sk_stream_wait_memory() when memory is not free.
func (m *model) send(c chooser) bool {
	if m.w != nil || m.holder != nil {
		return false
	}
	n := int64(1 + c.intn("bytes", modelSndbuf))
	if m.tp.Send(n) {
		m.logf("W sends %d (queued %d)", n, m.tp.Queued())
		return true
	}
	m.w = m.tp.startWait(m.wWtr)
	m.logf("W finds the buffer full and waits")
	return true
}

func (m *model) writer(chooser) bool {
	if m.w == nil {
		return false
	}
	pc := m.w.pc
	done, ok := m.step(m.w)
	if !ok {
		return false
	}
	m.logf("W wait step pc=%d -> %d", pc, m.w.pc)
	if done {
		m.logf("W has memory and returns")
		m.w = nil
	}
	return true
}

func (m *model) doAck(c chooser) bool {
	if m.ack == nil {
		q := m.tp.Queued()
		if q == 0 || m.holder != nil {
			return false
		}
		n := int64(1 + c.intn("acked", int(q)))
		m.ack = &ackOp{tp: m.tp, n: n}
		m.logf("A acks %d of %d", n, q)
	}
	pc := m.ack.pc
	done, ok := m.step(m.ack)
	if !ok {
		return false
	}
	m.logf("A step pc=%d -> %d (queued %d nospace=%v mirror=%v)", pc, m.ack.pc, m.tp.Queued(), m.tp.Nospace(), m.tp.Mirror())
	if done {
		m.ack = nil
	}
	return true
}

func (m *model) epoll(chooser) bool {
	switch {
	case m.poll != nil:
		pc := m.poll.pc
		done, _ := m.step(m.poll)
		m.logf("E poll step pc=%d -> %d", pc, m.poll.pc)
		if done {
			m.eAsleep = !m.poll.mask
			m.logf("E poll returns EPOLLOUT=%v", m.poll.mask)
			m.poll = nil
		}
	case m.eAsleep:
		if !m.e.Consume() {
			return false
		}
		m.eAsleep = false
		m.logf("E woken")
	default:
		m.e.Consume() // epoll_wait harvests the ready list, then polls
		m.poll = &pollOp{tp: m.tp}
		m.logf("E polls")
	}
	return true
}

func (m *model) poll0(chooser) bool {
	if m.p == nil {
		m.p = &pollOp{tp: m.tp}
		m.logf("P polls (no wait entry)")
	}
	pc := m.p.pc
	done, _ := m.step(m.p)
	m.logf("P poll step pc=%d -> %d (nospace=%v mirror=%v)", pc, m.p.pc, m.tp.Nospace(), m.tp.Mirror())
	if done {
		m.logf("P poll returns EPOLLOUT=%v", m.p.mask)
		m.p = nil
	}
	return true
}

// quiescent reports whether no task is between steps of a function that
// could still wake someone or go to sleep.
func (m *model) quiescent() bool {
	return m.ack == nil && m.poll == nil && (m.w == nil || m.w.pc == 4)
}

// lostWakeup returns an error when a task sleeps with no wake pending while
// the socket is writeable and nothing is in flight.
func (m *model) lostWakeup() error {
	if !m.quiescent() || !m.tp.Writeable() {
		return nil
	}
	if m.eAsleep && !m.e.Woken() {
		return fmt.Errorf("E asleep without EPOLLOUT while writeable (queued %d of %d)", m.tp.Queued(), modelSndbuf)
	}
	if m.w != nil && !m.wWtr.Woken() {
		return fmt.Errorf("W asleep in sk_stream_wait_memory while writeable (queued %d of %d)", m.tp.Queued(), modelSndbuf)
	}
	return nil
}

// mirror returns an error when SOCK_NOSPACE is set with the mirror clear.
func (m *model) mirror() error {
	if !m.tp.MirrorHolds() {
		return fmt.Errorf("SOCK_NOSPACE set but tcp_nospace clear")
	}
	return nil
}

// runRapid drives m from rapid, checking check after every action.
func (m *model) runRapid(t *rapid.T, check func() error, skip map[string]bool) {
	acts := map[string]func(*rapid.T){
		"": func(t *rapid.T) {
			if err := check(); err != nil {
				t.Fatalf("%v\ntrace:\n  %s", err, strings.Join(m.trace, "\n  "))
			}
		},
	}
	for _, a := range m.actions() {
		if skip[a.name] {
			continue
		}
		acts[a.name] = func(t *rapid.T) {
			if !a.do(rapidChooser{t}) {
				t.Skip("not enabled")
			}
		}
	}
	acts["noop"] = func(*rapid.T) {} // keeps a stuck model from running out of moves
	t.Repeat(acts)
}

// search runs seeded random schedules of m's actions and returns the trace
// of the first one that makes check fail, or nil.
func search(v Variant, check func(*model) error, runs, steps int) []string {
	for seed := range uint64(runs) {
		m := newModel(v)
		c := randChooser{rand.New(rand.NewPCG(seed, 0x6e6f7370))}
		acts := m.actions()
		for range steps {
			a := acts[c.intn("", len(acts))]
			if !a.do(c) {
				continue
			}
			if err := check(m); err != nil {
				return append(m.trace, "=> "+err.Error())
			}
		}
	}
	return nil
}

func TestNoLostWakeup(t *testing.T) {
	for _, v := range []Variant{Before, After} {
		t.Run(v.String(), rapid.MakeCheck(func(t *rapid.T) {
			m := newModel(v)
			m.runRapid(t, m.lostWakeup, nil)
		}))
	}
}

func TestBrokenVariantsLoseWakeups(t *testing.T) {
	for _, v := range []Variant{NoRecheck, NoBarrier} {
		t.Run(v.String(), func(t *testing.T) {
			trace := search(v, (*model).lostWakeup, 2000, 60)
			if trace == nil {
				t.Fatalf("no schedule of %v lost a wakeup; the property does not catch the bug", v)
			}
			t.Logf("counterexample:\n  %s", strings.Join(trace, "\n  "))
		})
	}
}

func TestCorrectVariantsSurviveSearch(t *testing.T) {
	// The same search that breaks the broken variants, as a control.
	for _, v := range []Variant{Before, After} {
		if trace := search(v, (*model).lostWakeup, 2000, 60); trace != nil {
			t.Errorf("%v lost a wakeup:\n  %s", v, strings.Join(trace, "\n  "))
		}
	}
}
