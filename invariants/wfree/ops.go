package wfree

import "github.com/litmus-dev/litmus/internal/hw"

// wfreeOp is sock_wfree() split at its shared accesses (see the package
// comment for the two versions). Step performs one access and reports
// whether sock_wfree() has returned.
type wfreeOp struct {
	s     *Sock
	n     int32
	pc    int
	free  bool // the put reached zero
	early bool // NoBarrier: waitqueue_active() read before the put
}

func (o *wfreeOp) Step() bool {
	s := o.s
	switch o.pc {
	case 0:
		switch s.variant {
		case Before:
			// WARN_ON(refcount_sub_and_test(len - 1, ...)): the
			// reference kept back holds the socket alive.
			if s.wmemAlloc.Add(-(o.n - 1)) == 0 {
				panic("wfree: sk_wmem_alloc reached zero with a reference held")
			}
			o.pc = 1
		case NoBarrier:
			s.rcuLock()
			o.early = s.wq.Active() // the load a store buffer lets pass the put
			o.pc = 5
		default:
			if s.variant != NoRCU {
				s.rcuLock()
			}
			o.free = s.wmemAlloc.Add(-o.n) == 0
			o.pc = 1
		}
	case 5: // NoBarrier's put, after its early load
		o.free = s.wmemAlloc.Add(-o.n) == 0
		o.pc = 1
	case 1:
		s.touch()
		o.pc = 4
		if s.writeable() { // sock_writeable()
			o.pc = 2
		}
	case 2:
		s.touch()
		o.pc = 4
		var active bool
		switch s.variant {
		case Before:
			hw.Mb() // skwq_has_sleeper(): smp_mb(); waitqueue_active()
			active = s.wq.Active()
		case NoBarrier:
			active = o.early
		default:
			// smp_mb__after_atomic(): the put above was a
			// sequentially consistent RMW; nothing to do in Go.
			active = s.wq.Active()
		}
		if active {
			o.pc = 3
		}
	case 3:
		s.touch()
		s.wq.WakeAll()
		o.pc = 4
	default:
		switch s.variant {
		case Before:
			if s.wmemAlloc.Add(-1) == 0 {
				s.skFree()
			}
			return true
		case DoubleDec:
			if s.wmemAlloc.Add(-1) == 0 { // the put too many
				o.free = true
			}
		}
		if s.variant != NoRCU {
			s.rcuUnlock()
		}
		if o.free {
			s.skFree()
		}
		return true
	}
	return false
}

// waitOp is sock_wait_for_wmem() split at its shared accesses.
type waitOp struct {
	s  *Sock
	w  *Waiter
	pc int
}

// Blocked reports whether the sleeper cannot step until it is woken.
func (o *waitOp) Blocked() bool { return o.pc == 2 && !o.w.Woken() }

func (o *waitOp) Step() bool {
	switch o.pc {
	case 0:
		o.w.Consume()   // a fresh wait: no stale wake
		o.s.wq.Add(o.w) // prepare_to_wait(): queue, then set_current_state()
		o.pc = 1
	case 1:
		if o.s.memoryFree() {
			o.s.wq.Remove(o.w)
			return true
		}
		o.w.SetSleeping(true)
		o.pc = 2
	default:
		if o.w.Consume() {
			o.w.SetSleeping(false)
			o.pc = 1
		}
	}
	return false
}
