package waitq

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A wake that lands before the task sleeps is kept: Wait returns at once.
func TestWakeBeforeWaitIsNotLost(t *testing.T) {
	var q Queue
	w := NewWaiter()
	q.Add(w)
	require.True(t, q.Active())
	q.WakeAll()
	w.Wait()
	require.False(t, w.Woken(), "Wait consumes the wake")
	require.False(t, w.Sleeping())
	q.Remove(w)
	require.False(t, q.Active())
}

// A wake from another goroutine ends a Wait that is already asleep.
func TestWakeEndsSleep(t *testing.T) {
	var q Queue
	w := NewWaiter()
	q.Add(w)
	done := make(chan struct{})
	go func() { w.Wait(); close(done) }()
	for !w.Sleeping() {
	}
	q.WakeAll()
	<-done
}
