// Package dstref is a Go version of the kernel patch "tcp: remove dst
// refcount false sharing for prequeue mode" (seed 002).
//
// In prequeue mode the softirq CPU queues a packet for a user thread
// blocked in recvmsg() on another CPU. The packet escapes the RCU section,
// so before the patch tcp_prequeue() forced a reference on its route
// (skb_dst_force: an atomic increment of dst->__refcnt on the softirq CPU)
// and the user thread dropped it (dst_release: an atomic decrement on its
// CPU). The refcount shares a cache line with fields every packet's routing
// reads (dst->input, dst->dev, dst->obsolete), so the line bounced between
// the two CPUs twice per packet.
//
// The only later use of the packet's dst is IP early demux, which needs it
// only when the socket has no cached input route (sk->sk_rx_dst) yet. After
// the patch tcp_prequeue() drops the dst (no atomic: it was a noref dst)
// when sk_rx_dst is set, and forces a reference only otherwise. Because
// that test is optimistic, the socket's cached route can be reset in the
// meantime, so inet_sk_rx_dst_set() and inet6_sk_rx_dst_set() must accept a
// packet with no dst: the hunk in the patch.
//
// In Go the refcount is an atomic.Int32 and sk_rx_dst an atomic.Pointer,
// since the softirq side reads it while the user side changes it. A dst is
// "freed" when its count reaches zero; holding or using it afterwards is
// counted as a use after free (Go's collector would otherwise hide it).
package dstref

import (
	"sync/atomic"

	"github.com/litmus-dev/litmus/internal/hw"
)

// Variant selects the version of tcp_prequeue() and inet_sk_rx_dst_set().
type Variant int

const (
	// Before forces a reference on every prequeued packet's dst.
	Before Variant = iota
	// After forces one only when sk_rx_dst is unset, and guards
	// inet_sk_rx_dst_set() against a packet without dst.
	After
	// NoGuard is After without the NULL check in inet_sk_rx_dst_set().
	// Deliberately broken, for the tests.
	NoGuard
	// DoubleRelease releases the packet's dst twice when it frees the
	// packet. Deliberately broken, for the tests.
	DoubleRelease
)

var variantNames = [...]string{"before", "after", "no-guard", "double-release"}

// String returns the variant's name as the tests and tables print it.
func (v Variant) String() string { return variantNames[v] }

// Dst stands for struct dst_entry. Line 0 holds __refcnt with the fields
// the receive path reads for every packet; that sharing is the false
// sharing the patch removes. Line 1 is bookkeeping for the tests.
type Dst struct {
	// line 0
	refcnt   atomic.Int32 // __refcnt
	obsolete atomic.Int32 // dst->obsolete, set when the route goes away
	dev      int32        // dst->dev (an ifindex here), read-only
	input    int32        // dst->input (a handler number here), read-only
	_        [hw.CacheLine - 16]byte

	// line 1
	uaf atomic.Int32 // holds or uses after the count reached zero
	_   [hw.CacheLine - 4]byte
}

// NewDst returns a route with one reference, the routing table's.
func NewDst(dev int32) *Dst {
	d := new(Dst)
	d.refcnt.Store(1)
	d.dev = dev
	d.input = 1
	return d
}

// Refcnt returns __refcnt.
func (d *Dst) Refcnt() int32 { return d.refcnt.Load() }

// UseAfterFree returns how many holds or uses found the count at zero.
func (d *Dst) UseAfterFree() int32 { return d.uaf.Load() }

// Hold is dst_hold(): taking a reference on a dst whose count is zero is a
// use after free.
func (d *Dst) Hold() {
	if d.refcnt.Add(1) == 1 {
		d.uaf.Add(1)
	}
}

// Release is dst_release().
func (d *Dst) Release() {
	if d.refcnt.Add(-1) < 0 {
		d.uaf.Add(1)
	}
}

// use reads the line as the routing of a packet does (dst->input, dst->dev)
// and records a use after free if the dst is gone.
func (d *Dst) use() int32 {
	if d.refcnt.Load() <= 0 {
		d.uaf.Add(1)
	}
	return d.input + d.dev
}

// Skb is the part of a packet that matters: its dst and whether the packet
// holds a reference on it (a forced dst) or not (noref or dropped).
type Skb struct {
	Dst *Dst
	Ref bool
}

// Sock holds the socket's cached input route, sk->sk_rx_dst, which the
// softirq side reads and the user side sets and resets.
type Sock struct {
	rxDst   atomic.Pointer[Dst]
	variant Variant
	_       [hw.CacheLine - 16]byte
}

// NewSock returns a socket with no cached route.
func NewSock(v Variant) *Sock { return &Sock{variant: v} }

// RxDst returns sk_rx_dst.
func (s *Sock) RxDst() *Dst { return s.rxDst.Load() }

// Prequeue is the softirq side for one packet routed by route (a noref dst
// valid for the RCU section): it reads the route as the input path does and
// returns the packet as tcp_prequeue() leaves it.
//
// Before:
//
//	skb_dst_force(skb);
//
// After:
//
//	if (likely(sk->sk_rx_dst))
//		skb_dst_drop(skb);
//	else
//		skb_dst_force_safe(skb);
func (s *Sock) Prequeue(route *Dst) Skb {
	route.use()
	if s.variant != Before && s.rxDst.Load() != nil {
		return Skb{} // skb_dst_drop() of a noref dst: no atomic
	}
	route.Hold()
	return Skb{Dst: route, Ref: true}
}

// Receive is the user side for one prequeued packet: tcp_v4_do_rcv()'s
// check of the cached route, inet_sk_rx_dst_set() when there is none, and
// kfree_skb()'s release of the packet's dst. It returns the route the
// packet was delivered with (nil when the socket has none).
func (s *Sock) Receive(skb Skb) *Dst {
	if d := s.rxDst.Load(); d != nil {
		d.use()
		if d.obsolete.Load() != 0 { // dst_check() fails
			s.rxDst.Store(nil)
			d.Release()
		}
	}
	if s.rxDst.Load() == nil {
		s.rxDstSet(skb)
	}
	if skb.Ref {
		skb.Dst.Release()
		if s.variant == DoubleRelease {
			skb.Dst.Release()
		}
	}
	return s.rxDst.Load()
}

// rxDstSet is inet_sk_rx_dst_set(). After the patch:
//
//	struct dst_entry *dst = skb_dst(skb);
//	if (dst && dst_hold_safe(dst)) {
//		sk->sk_rx_dst = dst;
//		...
//	}
//
// Without the check (NoGuard) a packet whose dst tcp_prequeue() dropped
// dereferences NULL: in Go, a nil-pointer panic, the kernel's oops.
func (s *Sock) rxDstSet(skb Skb) {
	d := skb.Dst
	if s.variant != NoGuard && d == nil {
		return
	}
	d.Hold()
	s.rxDst.Store(d)
}

// Close releases the socket's cached route (inet_sock_destruct).
func (s *Sock) Close() {
	if d := s.rxDst.Swap(nil); d != nil {
		d.Release()
	}
}

// Reroute is a route change: the old route becomes obsolete and the table
// drops its reference; the new route starts with the table's reference.
func Reroute(old *Dst) *Dst {
	nd := NewDst(old.dev)
	old.obsolete.Store(1)
	old.Release()
	return nd
}
