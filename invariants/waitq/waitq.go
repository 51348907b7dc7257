// Package waitq is the kernel's wait queue and wait_woken() protocol in
// sync/atomic Go, shared by the patch models that have a sleeper
// (invariants/nospace, invariants/wfree).
package waitq

import (
	"sync"
	"sync/atomic"
)

// Queue stands for a socket's wait queue (sk->sk_wq->wait).
type Queue struct {
	active  atomic.Int32 // entries; waitqueue_active() reads it locklessly
	mu      sync.Mutex
	entries []*Waiter
}

// Add is add_wait_queue() / prepare_to_wait()'s queueing. The count is an
// atomic store, so a later atomic load of the condition by the same task
// cannot pass it: the sleeper's half of the store-buffer pairing with
// skwq_has_sleeper() (in the kernel, set_current_state()'s smp_mb()).
func (q *Queue) Add(w *Waiter) {
	q.mu.Lock()
	q.entries = append(q.entries, w)
	q.active.Add(1)
	q.mu.Unlock()
}

// Remove is finish_wait() / remove_wait_queue().
func (q *Queue) Remove(w *Waiter) {
	q.mu.Lock()
	for i, e := range q.entries {
		if e == w {
			q.entries = append(q.entries[:i], q.entries[i+1:]...)
			q.active.Add(-1)
			break
		}
	}
	q.mu.Unlock()
}

// Active is waitqueue_active(), and skwq_has_sleeper() (smp_mb();
// waitqueue_active()) too: the atomic load after the waker's atomic store
// of the condition gives the barrier.
func (q *Queue) Active() bool { return q.active.Load() > 0 }

// WakeAll is wake_up_interruptible_poll(): it wakes every registered entry.
func (q *Queue) WakeAll() {
	q.mu.Lock()
	for _, w := range q.entries {
		w.Wake()
	}
	q.mu.Unlock()
}

// Waiter is a wait-queue entry with the WQ_FLAG_WOKEN protocol of
// wait_woken()/woken_wake_function() (poll's pwq->triggered works the same
// way): a wake sets the flag whether or not the task is asleep yet, and the
// task sleeps only while the flag is clear, so a wake that lands between the
// condition check and schedule() is not lost.
type Waiter struct {
	woken    atomic.Bool
	sleeping atomic.Bool
	park     chan struct{}
}

// NewWaiter returns an unregistered waiter.
func NewWaiter() *Waiter { return &Waiter{park: make(chan struct{}, 1)} }

// Wake sets the woken flag and unparks the task if it sleeps.
func (w *Waiter) Wake() {
	w.woken.Store(true)
	select {
	case w.park <- struct{}{}:
	default:
	}
}

// Woken reports whether a wake is pending.
func (w *Waiter) Woken() bool { return w.woken.Load() }

// Consume clears the woken flag and reports whether it was set.
func (w *Waiter) Consume() bool { return w.woken.Swap(false) }

// Sleeping reports whether the task is in Wait with no wake consumed.
func (w *Waiter) Sleeping() bool { return w.sleeping.Load() }

// Wait is wait_woken(): it returns once a wake is pending and consumes it.
func (w *Waiter) Wait() {
	for !w.woken.Load() {
		w.sleeping.Store(true)
		if w.woken.Load() {
			w.sleeping.Store(false)
			break
		}
		<-w.park
		w.sleeping.Store(false)
	}
	// Not sleeping before the wake is consumed, so that an observer
	// reading Woken and then Sleeping never sees a running task as a
	// sleeper with no wake pending.
	w.sleeping.Store(false)
	w.woken.Store(false)
}

// SetSleeping marks the task asleep or awake. It is for models that run a
// sleeper one step at a time (its schedule() is a step that blocks until
// Consume reports a wake) instead of calling Wait.
func (w *Waiter) SetSleeping(v bool) { w.sleeping.Store(v) }
