// Package invariants holds Go versions of four Linux kernel networking
// patches, each in its own package with a "before" and an "after" variant,
// property tests (rapid state machines and race-detector stress tests) and
// hardware benchmarks reproducing the patch's own measurement:
//
//   - nospace: "tcp: add tp->tcp_nospace", a mirror of SOCK_NOSPACE in a hot
//     tcp_sock cache line, the tcp_poll()/tcp_check_space() store-buffer
//     pairing and the cycles-per-call table.
//   - dstref: "tcp: remove dst refcount false sharing for prequeue mode".
//   - tsflags: "tcp: Don't call tcp_update_recv_tstamps() if not needed",
//     testing sk_flags instead of sk_tsflags, which shares a line with
//     sk_forward_alloc.
//   - wfree: "UDP sock_wfree optimisations", one atomic instead of two and
//     smp_mb() replaced by smp_mb__after_atomic().
//
// How the Go constructs stand for the kernel ones, once for all packages:
//
//   - Every field that two CPUs touch is a sync/atomic value. A plain Go
//     field written by one goroutine and read by another is a data race
//     (the race detector reports it and the compiler may cache or tear it);
//     the kernel's READ_ONCE/WRITE_ONCE become atomic Load/Store.
//   - Go's sync/atomic operations are sequentially consistent. An atomic
//     Store followed by an atomic Load on another variable therefore cannot
//     be reordered: the pair gives the store-buffer ordering the kernel buys
//     with smp_mb(). On amd64 the compiler emits XCHG for the store, which is
//     itself a full barrier, so the cost moves into the store.
//   - set_bit/clear_bit are atomic Or/And; refcount_sub_and_test and
//     atomic_dec_and_test are atomic Add and a test of the result. A Go RMW
//     is sequentially consistent too, so smp_mb__after_atomic() after it is
//     nothing at all in Go (as it is on x86, where LOCK-prefixed RMWs are
//     full barriers).
//   - Where a benchmark must pay for a kernel smp_mb() that Go does not need
//     for correctness, hw.Mb issues the same LOCK-prefixed add on a stack
//     slot that the kernel's x86 smp_mb() uses.
//   - Layouts pad to 64-byte lines with blank fields; each package has a
//     test that checks the offsets with unsafe.Offsetof, so a field moved
//     into the wrong line fails a test rather than silently changing a
//     benchmark.
//   - To test interleavings deterministically, the kernel functions whose
//     accesses race (nospace: tcp_poll, the ACK path, sk_stream_wait_memory;
//     wfree: sock_wfree, sock_wait_for_wmem) are written as operations split
//     at their shared-memory accesses (Step performs exactly one access).
//     The ordinary Go functions run the same steps to completion, so the
//     state-machine tests and the concurrent stress tests exercise the same
//     code. In dstref and tsflags the functions run under a lock or per
//     packet, so the models interleave whole calls.
package invariants
