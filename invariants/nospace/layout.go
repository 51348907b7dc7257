package nospace

import (
	"unsafe"

	"github.com/litmus-dev/litmus/internal/hw"
)

// Field is one field of TCPSock as the benchmark lays it out: its kernel
// name, its byte offset, and the cache line it is in.
type Field struct {
	Kernel string
	Offset uintptr
	Line   int
}

// Layout lists the fields of TCPSock that the benchmark touches, in
// offset order, for seedbench to print beside the kernel's groups. The
// kernel keeps tcp_nospace, pred_flags, tcp_clock_cache, tcp_mstamp,
// rcv_nxt and snd_nxt in the tcp_sock_write_txrx group
// (Documentation/networking/net_cachelines/tcp_sock.rst, the patch's
// hunk), the line both the transmit and the receive path write; the
// sk_wmem_queued, sk_sndbuf and sk_socket of struct sock are read by
// every tcp_check_space() caller; struct socket's flags are elsewhere.
func Layout() []Field {
	var tp TCPSock
	f := func(name string, off uintptr) Field {
		return Field{Kernel: name, Offset: off, Line: int(off / hw.CacheLine)}
	}
	return []Field{
		f("tp->pred_flags", unsafe.Offsetof(tp.predFlags)),
		f("tp->tcp_nospace", unsafe.Offsetof(tp.nospace)),
		f("tp->tcp_clock_cache", unsafe.Offsetof(tp.clockCache)),
		f("tp->tcp_mstamp", unsafe.Offsetof(tp.mstamp)),
		f("tp->rcv_nxt", unsafe.Offsetof(tp.rcvNxt)),
		f("tp->snd_nxt", unsafe.Offsetof(tp.sndNxt)),
		f("sk->sk_wmem_queued", unsafe.Offsetof(tp.wmemQueued)),
		f("sk->sk_sndbuf", unsafe.Offsetof(tp.sndbuf)),
		f("sk->sk_socket", unsafe.Offsetof(tp.socket)),
	}
}
