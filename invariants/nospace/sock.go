// Package nospace is a Go version of the kernel patch "tcp: add
// tp->tcp_nospace" (seed 000): a mirror of SOCK_NOSPACE kept in a tcp_sock
// cache line that the transmit and receive paths already touch, so that
// tcp_check_space(), which runs for every ACK and every sent packet, does not
// pull in the cold struct socket line.
//
// The patch keeps the invariant
//
//	SOCK_NOSPACE set  =>  tp->tcp_nospace set
//
// by writing the mirror first in sk_set_nospace() and last in
// sk_clear_nospace(). The invariant is one-directional: a stale mirror only
// costs a call to __tcp_check_space(), which re-tests the authoritative bit.
//
// The invariant holds among the tasks that hold the socket lock, but
// tcp_poll() sets the flags without it, and an ACK clearing them in between
// its two stores leaves SOCK_NOSPACE set with the mirror clear
// (TestMirrorBreakScript). In this model no wakeup is lost by it, since the
// clearing ACK wakes every registered waiter afterwards; what it costs is
// that tcp_check_space() skips __tcp_check_space(), and with it
// tcp_new_space(), until the next sk_set_nospace(). docs/bench.md has the
// details.
//
// The layout (see TCPSock) puts tcp_nospace in line 0, the
// tcp_sock_write_txrx group, and SOCK_NOSPACE in a separately allocated
// Socket whose flags word has a line of its own, as struct socket does.
package nospace

import (
	"sync"
	"sync/atomic"

	"github.com/litmus-dev/litmus/internal/hw"
	"github.com/litmus-dev/litmus/invariants/waitq"
)

// Variant selects which version of the code a TCPSock runs.
type Variant int

const (
	// Before is the kernel before the patch: tcp_check_space() tests
	// SOCK_NOSPACE in struct socket directly.
	Before Variant = iota
	// After is the patched kernel: tcp_check_space() tests tp->tcp_nospace
	// and __tcp_check_space() re-tests SOCK_NOSPACE.
	After
	// NoRecheck is After with tcp_poll()'s "race breaker" removed: it
	// returns "not writable" right after sk_set_nospace() without testing
	// the write space again. Deliberately broken, for the tests.
	NoRecheck
	// NoBarrier is After with the smp_mb() in tcp_check_space() removed.
	// Go atomics cannot reorder, so the variant performs the load of the
	// mirror before the store that frees the space: exactly the execution a
	// store buffer allows when there is no barrier between them.
	// Deliberately broken, for the tests.
	NoBarrier
)

var variantNames = [...]string{"before", "after", "no-recheck", "no-barrier"}

// String returns the variant's name as the tests and tables print it.
func (v Variant) String() string { return variantNames[v] }

// usesMirror reports whether v maintains and reads tp->tcp_nospace.
func (v Variant) usesMirror() bool { return v != Before }

// sockNospace is SOCK_NOSPACE, bit 2 of socket->flags (enum socket_flags:
// SOCKWQ_ASYNC_NOSPACE, SOCKWQ_ASYNC_WAITDATA, SOCK_NOSPACE, ...).
const sockNospace = 1 << 2

// Socket stands for struct socket. Only its flags word matters here. The
// kernel allocates struct socket with its inode (socket_alloc), far from
// struct sock, and the TCP fast paths touch nothing else in it, so in a large
// working set the line holding flags is cold. The blank field gives flags a
// line of its own.
type Socket struct {
	flags atomic.Uint64
	_     [hw.CacheLine - 8]byte
}

// TCPSock stands for a tcp_sock (with its struct sock) as far as
// tcp_check_space() and its callers see it. It is exactly three cache lines:
//
//	line 0  tcp_sock_write_txrx group: pred_flags, tcp_nospace (the mirror,
//	        in a hole), tcp_clock_cache, tcp_mstamp, rcv_nxt, snd_nxt.
//	        Both the transmit and the receive path write this line.
//	line 1  struct sock fields the same paths read: sk_wmem_queued,
//	        sk_sndbuf, sk_socket, sk_wq.
//	line 2  cold: the socket lock and a counter of slow-path calls.
//
// tcp_nospace is a u8 in the kernel; Go has no 8-bit atomic, so it is a
// uint32 here, in the same line.
type TCPSock struct {
	// line 0
	predFlags  uint32
	nospace    atomic.Uint32 // tp->tcp_nospace
	clockCache uint64
	mstamp     uint64
	rcvNxt     uint32
	sndNxt     uint32
	_          [hw.CacheLine - 32]byte

	// line 1
	wmemQueued atomic.Int64 // sk->sk_wmem_queued
	sndbuf     int64        // sk->sk_sndbuf, fixed after New
	socket     *Socket      // sk->sk_socket
	wq         *WaitQueue   // sk->sk_wq
	variant    Variant
	mptcp      bool // sk_is_mptcp(): an MPTCP subflow
	_          [hw.CacheLine - 41]byte

	// line 2
	newSpace atomic.Int64 // calls of tcp_new_space()
	lock     sync.Mutex   // the socket lock (lock_sock/bh_lock_sock)
	_        [hw.CacheLine - 16]byte
}

// New returns a socket of the given variant with a send buffer of sndbuf
// bytes, nothing queued and SOCK_NOSPACE clear.
func New(v Variant, sndbuf int64) *TCPSock {
	return initSock(new(TCPSock), new(Socket), v, sndbuf)
}

func initSock(tp *TCPSock, s *Socket, v Variant, sndbuf int64) *TCPSock {
	tp.socket = s
	tp.wq = new(WaitQueue)
	tp.variant = v
	tp.sndbuf = sndbuf
	return tp
}

// NewSubflow returns an MPTCP subflow of an MPTCP socket whose struct socket
// and wait queue it shares (parent is the MPTCP-level socket; its own
// tcp_nospace is never used, since sk_is_tcp() is false for it). The
// subflow's sk_set_nospace() and sk_clear_nospace() act on the shared
// SOCK_NOSPACE bit, which its own mirror cannot follow, so
// subflow_ulp_init() pins the mirror:
//
//	tp->tcp_nospace = 1;
//
// and every tcp_check_space() on the subflow reaches __tcp_check_space(),
// as before the patch. With pin false the subflow starts unpinned, the bug
// the pin prevents.
func NewSubflow(parent *TCPSock, sndbuf int64, pin bool) *TCPSock {
	tp := initSock(new(TCPSock), parent.socket, parent.variant, sndbuf)
	tp.wq = parent.wq
	tp.mptcp = true
	if pin && tp.variant.usesMirror() {
		tp.nospace.Store(1)
	}
	return tp
}

// SetNospaceMPTCP is sk_set_nospace() on the MPTCP-level socket: not a TCP
// socket, so only the shared SOCK_NOSPACE bit is set. The caller holds the
// socket lock.
func (tp *TCPSock) SetNospaceMPTCP() { tp.setBit() }

// Lock is lock_sock(); the ACK path and senders hold it, tcp_poll() does not.
func (tp *TCPSock) Lock() { tp.lock.Lock() }

// Unlock is release_sock().
func (tp *TCPSock) Unlock() { tp.lock.Unlock() }

// Queued returns sk_wmem_queued.
func (tp *TCPSock) Queued() int64 { return tp.wmemQueued.Load() }

// Nospace reports whether SOCK_NOSPACE is set.
func (tp *TCPSock) Nospace() bool { return tp.socket.flags.Load()&sockNospace != 0 }

// Mirror reports whether tp->tcp_nospace is set.
func (tp *TCPSock) Mirror() bool { return tp.nospace.Load() != 0 }

// MirrorHolds reports whether the patch's invariant "SOCK_NOSPACE set =>
// tcp_nospace set" holds right now. It is trivially true for Before, which
// has no mirror.
func (tp *TCPSock) MirrorHolds() bool {
	return !tp.variant.usesMirror() || !tp.Nospace() || tp.Mirror()
}

// NewSpaceCalls returns how many times tcp_new_space() ran: the work (send
// buffer expansion, the write-space callback) that tcp_check_space() gates.
func (tp *TCPSock) NewSpaceCalls() int64 { return tp.newSpace.Load() }

// WaitQueue returns the socket's wait queue.
func (tp *TCPSock) WaitQueue() *WaitQueue { return tp.wq }

// memoryFree is __sk_stream_memory_free(): sk_wmem_queued < sk_sndbuf.
func (tp *TCPSock) memoryFree() bool { return tp.wmemQueued.Load() < tp.sndbuf }

// writeable is __sk_stream_is_writeable(sk, 1): the free space is at least
// half the queued amount (sk_stream_wspace >= sk_stream_min_wspace) and
// memory is free. This is stricter than memoryFree on purpose ("do not wake
// up a writer until he can make significant progress"), so a sleeper can
// stay asleep while memoryFree holds, but not while writeable does.
func (tp *TCPSock) writeable() bool {
	q := tp.wmemQueued.Load()
	return tp.sndbuf-q >= q>>1 && q < tp.sndbuf
}

// Writeable reports __sk_stream_is_writeable(sk, 1).
func (tp *TCPSock) Writeable() bool { return tp.writeable() }

// setMirror is tcp_set_nospace(): WRITE_ONCE(tp->tcp_nospace, 1).
func (tp *TCPSock) setMirror() { tp.nospace.Store(1) }

// clearMirror is tcp_clear_nospace(), which leaves an MPTCP subflow's
// pinned mirror alone:
//
//	if (sk_is_tcp(sk) && !sk_is_mptcp(sk))
//		WRITE_ONCE(tcp_sk(sk)->tcp_nospace, 0);
func (tp *TCPSock) clearMirror() {
	if !tp.mptcp {
		tp.nospace.Store(0)
	}
}

// setBit is set_bit(SOCK_NOSPACE, &sock->flags): an atomic RMW.
func (tp *TCPSock) setBit() { tp.socket.flags.Or(sockNospace) }

// clearBit is clear_bit(SOCK_NOSPACE, &sock->flags).
func (tp *TCPSock) clearBit() { tp.socket.flags.And(^uint64(sockNospace)) }

// testBit is test_bit(SOCK_NOSPACE, &sock->flags).
func (tp *TCPSock) testBit() bool { return tp.socket.flags.Load()&sockNospace != 0 }

// setNospace is sk_set_nospace() as one call, for callers holding the
// socket lock: mirror first, so that callers relying on set_bit() +
// smp_mb__after_atomic() also order the mirror store.
func (tp *TCPSock) setNospace() {
	if tp.variant.usesMirror() {
		tp.setMirror()
	}
	tp.setBit()
}

// CheckSpaceBefore is tcp_check_space() before the patch, the fast path only:
//
//	smp_mb();
//	if (sk->sk_socket && test_bit(SOCK_NOSPACE, &sk->sk_socket->flags))
//		__tcp_check_space(sk);
//
// The smp_mb() orders the caller's store that freed space against the load
// of the flag. In Go that ordering comes from the store being an atomic (see
// Ack): sequential consistency forbids the store-buffer outcome, so there is
// no fence here. It reports whether the slow path is needed, which the
// benchmark loop uses to keep the call from being optimised away.
func (tp *TCPSock) CheckSpaceBefore() bool {
	s := tp.socket
	return s != nil && s.flags.Load()&sockNospace != 0
}

// CheckSpaceAfter is tcp_check_space() after the patch, the fast path only:
//
//	smp_mb();
//	if (unlikely(READ_ONCE(tcp_sk(sk)->tcp_nospace)))
//		__tcp_check_space(sk);
//
// It reads line 0 only, which the caller already has.
func (tp *TCPSock) CheckSpaceAfter() bool { return tp.nospace.Load() != 0 }

// WaitQueue and Waiter are the kernel's wait queue and wait_woken()
// protocol, shared with the other patch models (package waitq).
type (
	WaitQueue = waitq.Queue
	Waiter    = waitq.Waiter
)

// NewWaiter returns an unregistered waiter.
func NewWaiter() *Waiter { return waitq.NewWaiter() }
