// Package wfree is a Go version of the kernel series "UDP sock_wfree
// optimisations" (seed 004): sock_wfree() puts sk_wmem_alloc once instead of
// twice for SOCK_RCU_FREE sockets, keeping the socket alive across
// sock_def_write_space() with an RCU read section instead of an extra
// reference, and sock_def_write_space_wfree() replaces the smp_mb() of
// skwq_has_sleeper() by smp_mb__after_atomic(), relying on the refcount RMW
// that precedes it.
//
// Before (sock_wfree for a socket without SOCK_USE_WRITE_QUEUE):
//
//	WARN_ON(refcount_sub_and_test(len - 1, &sk->sk_wmem_alloc));
//	sk->sk_write_space(sk);           /* sock_def_write_space: smp_mb() */
//	if (refcount_sub_and_test(1, &sk->sk_wmem_alloc))
//		__sk_free(sk);
//
// After (SOCK_RCU_FREE and the default write_space):
//
//	rcu_read_lock();
//	free = refcount_sub_and_test(len, &sk->sk_wmem_alloc);
//	sock_def_write_space_wfree(sk);   /* smp_mb__after_atomic() */
//	rcu_read_unlock();
//	if (unlikely(free))
//		__sk_free(sk);
//
// In Go the refcount is an atomic.Int32; refcount_sub_and_test is Add(-n)
// and a test for zero. Add is a sequentially consistent RMW, so the later
// load of the wait queue cannot pass it: smp_mb__after_atomic() is nothing,
// exactly as on x86. The Before variant still pays for its smp_mb() with
// hw.Mb, the same LOCK-prefixed add the kernel's x86 smp_mb() executes.
//
// Freeing is modelled, since Go has a garbage collector: __sk_free marks the
// socket dead (at once, or after the RCU readers leave when the variant
// relies on RCU), and every later access by a sock_wfree() in flight is
// counted as a use after free.
package wfree

import (
	"sync/atomic"

	"github.com/litmus-dev/litmus/internal/hw"
	"github.com/litmus-dev/litmus/invariants/waitq"
)

// Variant selects the version of sock_wfree().
type Variant int

const (
	// Before puts sk_wmem_alloc twice around sock_def_write_space().
	Before Variant = iota
	// After puts it once, under an RCU read section, and uses
	// smp_mb__after_atomic().
	After
	// DoubleDec is After that also keeps the old final put of 1: one put
	// too many per packet. Deliberately broken, for the tests.
	DoubleDec
	// NoRCU is After without the RCU read section: __sk_free() reclaims at
	// once, so a concurrent sock_wfree() that has already put its
	// reference may still be inside write_space. Deliberately broken.
	NoRCU
	// NoBarrier is After with the wait-queue test performed before the
	// put becomes visible, the reordering a store buffer allows without
	// the barrier. Deliberately broken.
	NoBarrier
)

var variantNames = [...]string{"before", "after", "double-dec", "no-rcu", "no-barrier"}

// String returns the variant's name as the tests and tables print it.
func (v Variant) String() string { return variantNames[v] }

// Socket lifetime states.
const (
	live int32 = iota
	freePending
	reclaimed
)

// Sock stands for the parts of struct sock that sock_wfree() touches. Line 0
// is sk_wmem_alloc, the counter every packet's completion writes (usually
// on a CPU other than the sender's); line 1 is what write_space reads;
// line 2 is bookkeeping for the tests.
type Sock struct {
	// line 0
	wmemAlloc atomic.Int32 // sk->sk_wmem_alloc
	_         [hw.CacheLine - 4]byte

	// line 1
	sndbuf  int32      // sk->sk_sndbuf
	variant Variant    // which sock_wfree
	track   bool       // keep the lifetime bookkeeping of line 2
	wq      *WaitQueue // sk->sk_wq
	_       [hw.CacheLine - 32]byte

	// line 2: lifetime bookkeeping (tests only; untouched when !track)
	state   atomic.Int32 // live, freePending, reclaimed
	readers atomic.Int32 // tasks inside rcu_read_lock()
	frees   atomic.Int32 // calls of __sk_free()
	uaf     atomic.Int32 // accesses after reclaim
	_       [hw.CacheLine - 16]byte
}

// New returns a live socket holding its own base reference
// (sk_wmem_alloc starts at 1), with a send buffer of sndbuf bytes. With
// track set it keeps the lifetime bookkeeping the tests read.
func New(v Variant, sndbuf int32, track bool) *Sock {
	return initSock(new(Sock), v, sndbuf, track)
}

func initSock(s *Sock, v Variant, sndbuf int32, track bool) *Sock {
	s.wmemAlloc.Store(1)
	s.sndbuf = sndbuf
	s.variant = v
	s.track = track
	s.wq = new(WaitQueue)
	return s
}

// WmemAlloc returns sk_wmem_alloc.
func (s *Sock) WmemAlloc() int32 { return s.wmemAlloc.Load() }

// Frees returns how many times __sk_free() ran.
func (s *Sock) Frees() int32 { return s.frees.Load() }

// Reclaimed reports whether the memory of the socket is gone.
func (s *Sock) Reclaimed() bool { return s.state.Load() == reclaimed }

// UseAfterFree returns how many accesses happened after reclaim.
func (s *Sock) UseAfterFree() int32 { return s.uaf.Load() }

// WaitQueue returns the socket's wait queue.
func (s *Sock) WaitQueue() *WaitQueue { return s.wq }

// touch records an access to the socket by a task that no longer holds a
// reference, which is a use after free if the memory is gone.
func (s *Sock) touch() {
	if s.track && s.state.Load() == reclaimed {
		s.uaf.Add(1)
	}
}

// writeable is sock_writeable(): sk_wmem_alloc < sk_sndbuf / 2.
func (s *Sock) writeable() bool { return s.wmemAlloc.Load() < s.sndbuf>>1 }

// Writeable reports sock_writeable().
func (s *Sock) Writeable() bool { return s.writeable() }

// memoryFree is the sleeper's condition in sock_wait_for_wmem():
// sk_wmem_alloc < sk_sndbuf.
func (s *Sock) memoryFree() bool { return s.wmemAlloc.Load() < s.sndbuf }

// rcuLock is rcu_read_lock().
func (s *Sock) rcuLock() {
	if s.track {
		s.readers.Add(1)
	}
}

// rcuUnlock is rcu_read_unlock(); the last reader out ends the grace period
// of a pending free.
func (s *Sock) rcuUnlock() {
	if s.track && s.readers.Add(-1) == 0 {
		s.state.CompareAndSwap(freePending, reclaimed)
	}
}

// skFree is __sk_free(). For a SOCK_RCU_FREE socket the memory goes after a
// grace period (call_rcu); the other variants free at once, which Before
// can afford because nobody touches the socket after the last put.
func (s *Sock) skFree() {
	if !s.track {
		return
	}
	s.frees.Add(1)
	if s.variant == After || s.variant == NoBarrier || s.variant == DoubleDec {
		s.state.CompareAndSwap(live, freePending)
		if s.readers.Load() == 0 {
			s.state.CompareAndSwap(freePending, reclaimed)
		}
		return
	}
	s.state.Store(reclaimed)
}

// SetOwnerW is skb_set_owner_w(): charge n bytes of a new packet to the
// socket. The caller holds a reference (the socket is open).
func (s *Sock) SetOwnerW(n int32) { s.wmemAlloc.Add(n) }

// Close is sk_free() from the socket's owner: it drops the base reference.
func (s *Sock) Close() {
	if s.wmemAlloc.Add(-1) == 0 {
		s.skFree()
	}
}

// Wfree is sock_wfree() for a packet of n bytes, as the variant does it.
func (s *Sock) Wfree(n int32) {
	o := wfreeOp{s: s, n: n}
	for !o.Step() {
	}
}

// WaitQueue and Waiter are the kernel's wait queue and wait_woken()
// protocol, shared with the other patch models (package waitq).
type (
	WaitQueue = waitq.Queue
	Waiter    = waitq.Waiter
)

// NewWaiter returns an unregistered waiter.
func NewWaiter() *Waiter { return waitq.NewWaiter() }

// WaitForWmem is sock_wait_for_wmem() without timeout or signals: it
// returns once sk_wmem_alloc < sk_sndbuf.
//
//	for (;;) {
//		prepare_to_wait(sk_sleep(sk), &wait, TASK_INTERRUPTIBLE);
//		if (refcount_read(&sk->sk_wmem_alloc) < READ_ONCE(sk->sk_sndbuf))
//			break;
//		schedule_timeout(timeo);
//	}
//	finish_wait(sk_sleep(sk), &wait);
//
// prepare_to_wait() queues the entry and sets the task state with a full
// barrier; in Go the queueing is an atomic Add and the test an atomic Load,
// which cannot be reordered. It runs waitOp's steps and blocks in step 2
// instead of polling it.
func (s *Sock) WaitForWmem(w *Waiter) {
	o := &waitOp{s: s, w: w}
	for {
		if o.pc == 2 {
			w.Wait()
			o.pc = 1
			continue
		}
		if o.Step() {
			return
		}
	}
}
