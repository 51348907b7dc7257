// Package tsflags is a Go version of the kernel patch "tcp: Don't call
// tcp_update_recv_tstamps() if not needed" (seed 003).
//
// When any socket on the host enables RX timestamps (tcpdump, a PTP daemon)
// or the NIC stamps packets, every TCP packet arrives with has_rxtstamp set,
// and tcp_recvmsg_locked() used to record the stamp and make tcp_recvmsg()
// call tcp_recv_timestamp(), which reads sk->sk_tsflags. sk_tsflags shares
// a cache line with sk_forward_alloc, which the receive path on another CPU
// modifies all the time, so the read pulled a line that bounces. Most
// sockets want no timestamps at all, in which case tcp_recv_timestamp()
// does nothing.
//
// After the patch the receive loop first tests sk_flags for SOCK_RCVTSTAMP
// or SOCK_TIMESTAMPING_ANY (kept equal to "sk_tsflags has a reporting bit"
// by sock_set_timestamping(), commit f0e70409b7eb), which lives in a line
// nobody else writes, and skips the whole timestamp path when neither is
// set. The delivered control messages must not change: that is the property
// the tests check.
//
// Layout (Sock): sk_flags alone in line 0; sk_forward_alloc and sk_tsflags
// together in line 1, the false sharing the patch avoids. Both are atomics:
// another goroutine writes sk_forward_alloc, and setsockopt() may change the
// flags (under the socket lock, which recvmsg also holds).
package tsflags

import (
	"sync"
	"sync/atomic"

	"github.com/litmus-dev/litmus/internal/hw"
)

// Variant selects the receive path.
type Variant int

const (
	// Before records and reports timestamps whenever the packet has one.
	Before Variant = iota
	// After first tests SOCK_RCVTSTAMP | SOCK_TIMESTAMPING_ANY in sk_flags.
	After
	// RcvtstampOnly is After testing SOCK_RCVTSTAMP alone, forgetting
	// SO_TIMESTAMPING users. Deliberately broken, for the tests.
	RcvtstampOnly
)

var variantNames = [...]string{"before", "after", "rcvtstamp-only"}

// String returns the variant's name as the tests and tables print it.
func (v Variant) String() string { return variantNames[v] }

// sk_flags bits (enum sock_flags numbering does not matter here).
const (
	SockRcvTstamp    = 1 << 0 // SOCK_RCVTSTAMP: SO_TIMESTAMP(NS) set
	SockRcvTstampNS  = 1 << 1 // SOCK_RCVTSTAMPNS
	SockTimestampAny = 1 << 2 // SOCK_TIMESTAMPING_ANY
)

// SOF_TIMESTAMPING_* bits of sk_tsflags, with their uapi values.
const (
	SofRxHardware  = 1 << 2
	SofRxSoftware  = 1 << 3
	SofSoftware    = 1 << 4
	SofRawHardware = 1 << 6
	SofOptRxFilter = 1 << 17

	// tsflagsAny is TSFLAGS_ANY: the bits that make tcp_recv_timestamp()
	// report something.
	tsflagsAny = SofSoftware | SofRawHardware
)

// Sock holds the fields of struct sock the receive path reads for
// timestamps, laid out as in the kernel's hot/cold split.
type Sock struct {
	// line 0: sk_flags, read-mostly, on a line tcp_recvmsg() treats as
	// cold but no other CPU writes.
	flags atomic.Uint64
	_     [hw.CacheLine - 8]byte

	// line 1: sk_forward_alloc, written on every skb charge and uncharge
	// under the socket lock, and sk_tsflags beside it.
	forwardAlloc atomic.Int64
	tsflags      atomic.Uint32
	_            [hw.CacheLine - 12]byte

	// line 2
	lock    sync.Mutex // lock_sock()
	variant Variant
	_       [hw.CacheLine - 16]byte
}

// New returns a socket with no timestamp options.
func New(v Variant) *Sock { return &Sock{variant: v} }

// Lock is lock_sock(); setsockopt() and recvmsg() hold it.
func (s *Sock) Lock() { s.lock.Lock() }

// Unlock is release_sock().
func (s *Sock) Unlock() { s.lock.Unlock() }

// SetTimestamp is setsockopt(SO_TIMESTAMP or SO_TIMESTAMPNS): on or off.
// The caller holds the socket lock.
func (s *Sock) SetTimestamp(on, ns bool) {
	f := s.flags.Load() &^ (SockRcvTstamp | SockRcvTstampNS)
	if on {
		f |= SockRcvTstamp
		if ns {
			f |= SockRcvTstampNS
		}
	}
	s.flags.Store(f)
}

// SetTimestamping is setsockopt(SO_TIMESTAMPING) (sock_set_timestamping):
// it stores sk_tsflags and keeps SOCK_TIMESTAMPING_ANY equal to "a
// reporting bit is set". The caller holds the socket lock.
func (s *Sock) SetTimestamping(val uint32) {
	s.tsflags.Store(val)
	f := s.flags.Load() &^ SockTimestampAny
	if val&tsflagsAny != 0 {
		f |= SockTimestampAny
	}
	s.flags.Store(f)
}

// Charge is sk_forward_alloc moving, as the other CPU's receive path does.
func (s *Sock) Charge(n int64) { s.forwardAlloc.Add(n) }

// Skb is a received packet's timestamps: Sw from skb->tstamp (software),
// Hw from skb_hwtstamps(). has_rxtstamp is "either is nonzero".
type Skb struct{ Sw, Hw int64 }

func (skb Skb) hasRxTstamp() bool { return skb.Sw != 0 || skb.Hw != 0 }

// Cmsg is what recvmsg() returns as control messages: SO_TIMESTAMP(NS) and
// the scm_timestamping triple (software in TS[0], raw hardware in TS[2]).
type Cmsg struct {
	Timestamp    int64 // SO_TIMESTAMP(NS) value; 0 when absent
	NS           bool  // SO_TIMESTAMPNS rather than SO_TIMESTAMP
	Timestamping bool  // scm_timestamping present
	TS           [3]int64
}

// wantRxTstamp is tcp_want_rx_tstamp() as the variant has it:
//
//	return TCP_SKB_CB(skb)->has_rxtstamp &&
//		READ_ONCE(sk->sk_flags) & ((1UL << SOCK_RCVTSTAMP) |
//					   (1UL << SOCK_TIMESTAMPING_ANY));
func (s *Sock) wantRxTstamp(skb Skb) bool {
	if !skb.hasRxTstamp() {
		return false
	}
	switch s.variant {
	case Before:
		return true
	case RcvtstampOnly:
		return s.flags.Load()&SockRcvTstamp != 0
	default:
		return s.flags.Load()&(SockRcvTstamp|SockTimestampAny) != 0
	}
}

// Recvmsg is the timestamp part of tcp_recvmsg() for one packet, with the
// socket lock held: tcp_recvmsg_locked() records the stamps
// (tcp_update_recv_tstamps) and sets TCP_CMSG_TS when wanted, and
// tcp_recvmsg() then calls tcp_recv_timestamp().
func (s *Sock) Recvmsg(skb Skb) Cmsg {
	if !s.wantRxTstamp(skb) {
		return Cmsg{}
	}
	tss := [3]int64{skb.Sw, 0, skb.Hw} // tcp_update_recv_tstamps()
	return s.recvTimestamp(tss)
}

// recvTimestamp is tcp_recv_timestamp(): it reads sk_flags and, on the
// shared line, sk_tsflags.
func (s *Sock) recvTimestamp(tss [3]int64) Cmsg {
	var c Cmsg
	flags := s.flags.Load()
	tsflags := s.tsflags.Load()
	if tss[0] != 0 {
		if flags&SockRcvTstamp != 0 {
			c.Timestamp = tss[0]
			c.NS = flags&SockRcvTstampNS != 0
		}
		if tsflags&SofSoftware != 0 &&
			(tsflags&SofRxSoftware != 0 || tsflags&SofOptRxFilter == 0) {
			c.Timestamping = true
			c.TS[0] = tss[0]
		}
	}
	if tss[2] != 0 {
		if tsflags&SofRawHardware != 0 &&
			(tsflags&SofRxHardware != 0 || tsflags&SofOptRxFilter == 0) {
			c.Timestamping = true
			c.TS[2] = tss[2]
		}
	}
	if !c.Timestamping {
		c.TS = [3]int64{}
	}
	return c
}
