package nospace

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/litmus-dev/litmus/internal/hw"
)

func TestLayout(t *testing.T) {
	var tp TCPSock
	require.Equal(t, uintptr(3*hw.CacheLine), unsafe.Sizeof(tp), "tcp_sock model must be three lines")
	require.Equal(t, uintptr(hw.CacheLine), unsafe.Sizeof(Socket{}), "struct socket flags must own a line")
	line := func(off uintptr) uintptr { return off / hw.CacheLine }
	require.Equal(t, uintptr(0), line(unsafe.Offsetof(tp.nospace)), "tcp_nospace belongs in the txrx line")
	require.Equal(t, uintptr(0), line(unsafe.Offsetof(tp.mstamp)))
	require.Equal(t, uintptr(1), line(unsafe.Offsetof(tp.wmemQueued)))
	require.Equal(t, uintptr(1), line(unsafe.Offsetof(tp.socket)), "sk_socket is read by the callers already")
	require.Equal(t, uintptr(2), line(unsafe.Offsetof(tp.newSpace)))
	for _, n := range []int{1, 4, 4096} {
		socks := hw.Lines[TCPSock](n)
		for i := range socks {
			require.Zero(t, uintptr(unsafe.Pointer(&socks[i]))%hw.CacheLine, "socket %d of %d not line aligned", i, n)
		}
	}
}

// TestMirrorHoldsAmongLockHolders: with only the tasks that hold the socket
// lock (the sender's sk_stream_wait_memory and the ACK path), no
// interleaving breaks "SOCK_NOSPACE set => tcp_nospace set".
func TestMirrorHoldsAmongLockHolders(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newModel(After)
		m.runRapid(t, func() error {
			if err := m.mirror(); err != nil {
				return err
			}
			return m.lostWakeup()
		}, map[string]bool{"epoll": true, "poll0": true})
	})
}

// TestMirrorSearchFindsBreak: once tcp_poll(), which sets the flags without
// the socket lock, joins in, the invariant can break.
func TestMirrorSearchFindsBreak(t *testing.T) {
	trace := search(After, (*model).mirror, 2000, 60)
	require.NotNil(t, trace, "expected a schedule where lockless tcp_poll breaks the mirror invariant")
	t.Logf("counterexample:\n  %s", strings.Join(trace, "\n  "))
}

// mustStep steps o and fails the test if the lock or a sleep forbids it.
func mustStep(t *testing.T, m *model, o op, what string) bool {
	t.Helper()
	done, ok := m.step(o)
	require.True(t, ok, "%s could not step", what)
	return done
}

// TestMirrorBreakScript is the break as a fixed interleaving, and what it
// costs afterwards.
//
//  1. W fills the buffer and sleeps; both flags are set.
//  2. E's tcp_poll() finds no space and writes the mirror (already 1).
//  3. A frees everything; tcp_check_space() sees the mirror and the bit,
//     tcp_new_space() runs, sk_clear_nospace() clears the bit ...
//  4. ... E's set_bit() sets it again ...
//  5. ... and A clears the mirror: SOCK_NOSPACE set, tcp_nospace clear.
//
// No wakeup is lost: A wakes every registered entry after clearing the
// mirror, so E re-polls and W re-checks. The cost is quieter: until some
// task calls sk_set_nospace() again, tcp_check_space() skips
// __tcp_check_space() although SOCK_NOSPACE is set, so tcp_new_space()
// (send-buffer expansion, the SNDBUF_LIMITED chrono) does not run. The
// same script on Before runs it.
func TestMirrorBreakScript(t *testing.T) {
	run := func(v Variant) *model {
		m := newModel(v)
		require.True(t, m.tp.Send(modelSndbuf))
		m.w = m.tp.startWait(m.wWtr)
		for m.w.pc != 4 {
			mustStep(t, m, m.w, "W")
		}
		require.True(t, m.tp.Nospace())

		m.poll = &pollOp{tp: m.tp}
		mustStep(t, m, m.poll, "E check") // not writeable
		if v.usesMirror() {
			mustStep(t, m, m.poll, "E mirror")
		}
		require.Equal(t, 2, m.poll.pc, "E is about to set_bit")

		m.ack = &ackOp{tp: m.tp, n: modelSndbuf}
		for m.ack.pc != 5 && m.ack.pc != 6 { // up to and including clear_bit
			require.False(t, mustStep(t, m, m.ack, "A"))
		}
		require.False(t, m.tp.Nospace())
		mustStep(t, m, m.poll, "E set_bit")
		for !mustStep(t, m, m.ack, "A") { // mirror clear, wakes
		}
		require.True(t, mustStep(t, m, m.poll, "E recheck"))
		require.True(t, m.poll.mask, "E's race breaker sees the space")
		require.True(t, m.wWtr.Woken(), "W was woken")
		require.NoError(t, m.lostWakeup())
		return m
	}

	after := run(After)
	require.True(t, after.tp.Nospace())
	require.False(t, after.tp.Mirror(), "the invariant is broken")
	require.Error(t, after.mirror())

	before := run(Before)
	require.True(t, before.tp.Nospace())

	// The buffer fills and drains once more with SOCK_NOSPACE still set.
	for _, m := range []*model{after, before} {
		require.True(t, m.tp.Send(modelSndbuf))
		n := m.tp.NewSpaceCalls()
		m.tp.Ack(modelSndbuf)
		m.logf("calls of tcp_new_space: %d -> %d", n, m.tp.NewSpaceCalls())
	}
	require.Equal(t, int64(1), after.tp.NewSpaceCalls(), "after: tcp_check_space skipped __tcp_check_space")
	require.Equal(t, int64(2), before.tp.NewSpaceCalls(), "before: tcp_new_space ran")
	require.False(t, before.tp.Nospace(), "before: sk_stream_write_space cleared the bit")
	require.True(t, after.tp.Nospace(), "after: the stale bit survives the ACK")
}

// TestMPTCPSubflowPin: an MPTCP writer waits on the MPTCP socket, whose
// SOCK_NOSPACE the subflows share but cannot mirror. An ACK on a subflow
// must still reach __tcp_check_space() and wake it: the pin in
// subflow_ulp_init() does that, and an unpinned subflow skips it.
func TestMPTCPSubflowPin(t *testing.T) {
	for _, pin := range []bool{true, false} {
		msk := New(After, modelSndbuf)
		ssk := NewSubflow(msk, modelSndbuf, pin)
		w := NewWaiter()
		msk.WaitQueue().Add(w)
		require.True(t, ssk.Send(modelSndbuf), "the subflow's queue fills")
		msk.SetNospaceMPTCP() // the MPTCP writer found no space and sleeps
		require.Equal(t, pin, ssk.Mirror(), "subflow_ulp_init pins the mirror")

		ssk.Lock()
		ssk.Ack(modelSndbuf)
		ssk.Unlock()
		if pin {
			require.Equal(t, int64(1), ssk.NewSpaceCalls(), "pinned: tcp_new_space ran")
			require.True(t, w.Woken(), "pinned: the MPTCP writer was woken")
			require.False(t, msk.Nospace(), "pinned: the shared bit was cleared")
			require.True(t, ssk.Mirror(), "tcp_clear_nospace leaves the pin")
		} else {
			require.Zero(t, ssk.NewSpaceCalls(), "unpinned: tcp_check_space skipped __tcp_check_space")
			require.False(t, w.Woken(), "unpinned: the MPTCP writer sleeps on with space free")
		}
	}
}
