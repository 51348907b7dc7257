package nospace

// The kernel functions of the patch, each split at its accesses to shared
// memory so that tests can interleave them step by step. Step performs
// exactly one access (or none, when a variant has no such access) and
// reports whether the function has returned. The ordinary entry points
// (Poll, Ack, Send, WaitMemory) run the same steps to completion.

// op is a kernel function in progress.
type op interface {
	// Step performs the next access and reports whether the function
	// has returned.
	Step() (done bool)
	// Locked reports whether the next step runs under the socket lock.
	Locked() bool
	// Blocked reports whether the function is asleep and cannot step
	// until it is woken.
	Blocked() bool
}

// pollOp is the write-space half of tcp_poll(), which runs without the
// socket lock:
//
//	if (__sk_stream_is_writeable(sk, 1)) {
//		mask |= EPOLLOUT | EPOLLWRNORM;
//	} else {
//		sk_set_bit(SOCKWQ_ASYNC_NOSPACE, sk);
//		sk_set_nospace(sk);           // mirror, then set_bit
//		/* Race breaker. If space is freed after wspace test but
//		 * before the flags are set, IO signal will be lost. */
//		smp_mb__after_atomic();
//		if (__sk_stream_is_writeable(sk, 1))
//			mask |= EPOLLOUT | EPOLLWRNORM;
//	}
//
// The caller registered its wait entry (poll_wait) before the call.
type pollOp struct {
	tp   *TCPSock
	pc   int
	mask bool // EPOLLOUT
}

func (p *pollOp) Locked() bool  { return false }
func (p *pollOp) Blocked() bool { return false }

func (p *pollOp) Step() bool {
	tp := p.tp
	switch p.pc {
	case 0:
		if tp.writeable() {
			p.mask = true
			return true
		}
		p.pc = 2
		if tp.variant.usesMirror() {
			p.pc = 1
		}
	case 1:
		tp.setMirror() // sk_set_nospace(): tcp_set_nospace() first
		p.pc = 2
	case 2:
		tp.setBit() // sk_set_nospace(): set_bit(SOCK_NOSPACE)
		p.pc = 3
		return tp.variant == NoRecheck
	default:
		// smp_mb__after_atomic(): the Or above is a sequentially
		// consistent RMW, so this load cannot pass it.
		p.mask = tp.writeable()
		return true
	}
	return false
}

// ackOp is the ACK path under the socket lock: tcp_clean_rtx_queue() frees
// n acknowledged bytes, then tcp_check_space() runs:
//
//	smp_mb();                               /* pairs with tcp_poll() */
//	if (unlikely(READ_ONCE(tp->tcp_nospace)))   /* before: test_bit */
//		__tcp_check_space(sk);
//
//	__tcp_check_space():                    /* after the patch */
//		if (!sock || !test_bit(SOCK_NOSPACE, &sock->flags))
//			return;
//		tcp_new_space(sk);                  /* -> sk_stream_write_space() */
//
//	sk_stream_write_space():
//		if (__sk_stream_is_writeable(sk, 1) && sock) {
//			sk_clear_nospace(sk);          /* clear_bit, then mirror */
//			if (skwq_has_sleeper(wq))
//				wake_up_interruptible_poll(&wq->wait, EPOLLOUT ...);
//		}
type ackOp struct {
	tp    *TCPSock
	n     int64
	pc    int
	early bool // NoBarrier: the mirror value loaded before the free
}

func (a *ackOp) Locked() bool  { return true }
func (a *ackOp) Blocked() bool { return false }

func (a *ackOp) Step() bool {
	tp := a.tp
	switch a.pc {
	case 0:
		a.pc = 1
		if tp.variant == NoBarrier {
			// The load the missing smp_mb() lets a store buffer
			// perform before the free becomes visible.
			a.early = tp.Mirror()
			return false
		}
		tp.wmemQueued.Add(-a.n)
		return false
	case 1:
		a.pc = 2
		switch tp.variant {
		case NoBarrier:
			tp.wmemQueued.Add(-a.n)
			return !a.early
		case Before:
			// smp_mb() comes from the atomic Add above.
			if !tp.testBit() {
				return true
			}
			a.pc = 3 // before the patch there is no re-test
			return false
		default:
			return !tp.Mirror()
		}
	case 2:
		a.pc = 3
		// tp->tcp_nospace is only a hint, SOCK_NOSPACE is authoritative.
		return !tp.testBit()
	case 3:
		tp.newSpace.Add(1) // tcp_new_space(): sndbuf expansion would go here
		if !tp.writeable() {
			return true
		}
		a.pc = 4
		return false
	case 4:
		tp.clearBit() // sk_clear_nospace(): clear_bit first
		a.pc = 5
		if tp.variant.usesMirror() {
			return false
		}
		a.pc = 6
		return false
	case 5:
		// Mirror last: a stale mirror only costs a slow path, while a
		// stale SOCK_NOSPACE would cost a missed EPOLLOUT.
		tp.clearMirror()
		a.pc = 6
		return false
	case 6:
		a.pc = 7
		return !tp.wq.Active()
	default:
		tp.wq.WakeAll()
		return true
	}
}

// waitOp is the sleeping half of sk_stream_wait_memory(), entered by a
// sender that found the send buffer full; it starts and ends holding the
// socket lock:
//
//	add_wait_queue(sk_sleep(sk), &wait);
//	while (1) {
//		if (sk_stream_memory_free(sk))
//			break;
//		sk_set_nospace(sk);             /* mirror, then set_bit */
//		sk_wait_event(sk, &timeo, sk_stream_memory_free(sk), &wait);
//	}
//	remove_wait_queue(sk_sleep(sk), &wait);
//
// sk_wait_event() releases the lock, tests the condition without it and
// calls wait_woken() if it is false, then takes the lock again.
type waitOp struct {
	tp *TCPSock
	w  *Waiter
	pc int
}

func (o *waitOp) Locked() bool  { return o.pc <= 2 }
func (o *waitOp) Blocked() bool { return o.pc == 4 && !o.w.Woken() }

func (o *waitOp) Step() bool {
	tp := o.tp
	switch o.pc {
	case 0:
		if tp.memoryFree() {
			tp.wq.Remove(o.w)
			return true
		}
		o.pc = 2
		if tp.variant.usesMirror() {
			o.pc = 1
		}
	case 1:
		tp.setMirror()
		o.pc = 2
	case 2:
		tp.setBit()
		o.pc = 3 // release_sock()
	case 3:
		if tp.memoryFree() {
			o.pc = 0 // lock_sock() and loop
			return false
		}
		o.w.SetSleeping(true)
		o.pc = 4
	default:
		// wait_woken(): asleep until a wake is pending.
		if !o.w.Consume() {
			return false
		}
		o.w.SetSleeping(false)
		o.pc = 0
	}
	return false
}

func (tp *TCPSock) startWait(w *Waiter) *waitOp {
	w.Consume() // a fresh wait: no stale wake
	tp.wq.Add(w)
	return &waitOp{tp: tp, w: w}
}

// Poll runs the write-space half of tcp_poll() and reports whether it
// returns EPOLLOUT. It takes no lock, as in the kernel.
func (tp *TCPSock) Poll() bool {
	p := &pollOp{tp: tp}
	for !p.Step() {
	}
	return p.mask
}

// Ack frees n acknowledged bytes and runs tcp_check_space(). The caller
// holds the socket lock.
func (tp *TCPSock) Ack(n int64) {
	a := &ackOp{tp: tp, n: n}
	for !a.Step() {
	}
}

// Send queues n bytes if sk_stream_memory_free() and reports whether it
// did; otherwise the caller is expected to WaitMemory. The caller holds the
// socket lock.
func (tp *TCPSock) Send(n int64) bool {
	if !tp.memoryFree() {
		return false
	}
	tp.wmemQueued.Add(n)
	return true
}

// WaitMemory is sk_stream_wait_memory() without timeout or signals: it
// returns, with the socket lock held again, once memory is free. The caller
// holds the socket lock and owns w. It runs waitOp's steps, releasing and
// retaking the lock where sk_wait_event() does, and blocks in step 4 (the
// wait_woken() of the split version) instead of polling it.
func (tp *TCPSock) WaitMemory(w *Waiter) {
	o := tp.startWait(w)
	locked := true
	for {
		switch {
		case o.Locked() && !locked:
			tp.Lock()
			locked = true
		case !o.Locked() && locked:
			tp.Unlock()
			locked = false
		}
		if o.pc == 4 {
			w.Wait()
			o.pc = 0
			continue
		}
		if o.Step() {
			return
		}
	}
}
