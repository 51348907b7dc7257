package limit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTimeoutReason(t *testing.T) {
	b := New(context.Background(), time.Nanosecond, 0)
	time.Sleep(time.Millisecond)
	err := b.Err()
	var ex *Exceeded
	require.True(t, errors.As(err, &ex))
	require.Equal(t, "timed out after 1ns", ex.Reason)
	require.Same(t, err, b.Err(), "the first limit hit stays the answer")
}

func TestCancelReasons(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.EqualError(t, New(ctx, 0, 0).Err(), "cancelled before the search finished")

	ctx, cancel = context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	require.EqualError(t, New(ctx, 0, 0).Err(), "timed out (the caller's deadline passed)")
}

func TestMemoryCap(t *testing.T) {
	b := New(context.Background(), 0, 1<<20)
	h := b.Hold()
	require.NoError(t, b.Err())
	h.Set(2 << 20)
	require.EqualError(t, b.Err(), "memory cap: the test holds 2.0 MiB, over its 1.0 MiB cap")

	b = New(context.Background(), 0, 64<<20)
	h = b.Hold()
	h.Set(1 << 20)
	require.NoError(t, b.Reserve(1<<20, "a block"))
	err := b.Reserve(128<<20, "the big block")
	require.EqualError(t, err, "memory cap: the big block would take 128.0 MiB more, and the test already holds 1.0 MiB of its 64.0 MiB cap")
}

// TestHoldsAreTheSearchs: what a search holds is the sum of its Holds,
// its forks' included, whatever else the process holds; a Hold set back
// gives its bytes back.
func TestHoldsAreTheSearchs(t *testing.T) {
	b := New(context.Background(), 0, 8<<20)
	big := make([]byte, 64<<20) // the process holds more than the cap
	h, f := b.Hold(), b.Fork().Hold()
	h.Set(3 << 20)
	f.Set(4 << 20)
	require.Equal(t, uint64(7<<20), b.Held())
	require.NoError(t, b.Err(), "the process's other memory is not the test's")
	f.Set(6 << 20)
	h.Set(1 << 20)
	require.Equal(t, uint64(7<<20), b.Held())
	f.Set(0)
	require.Equal(t, uint64(1<<20), b.Held())
	require.Equal(t, uint64(0), New(context.Background(), 0, 0).Held(), "a new search holds nothing")
	var nilBudget *Budget
	nilBudget.Hold().Set(1 << 30)
	require.NoError(t, nilBudget.Err())
	_ = big[len(big)-1]
}

// TestProcessBackstop: past the process-wide backstop a search stops
// whatever it accounts, saying that the process holds too much.
func TestProcessBackstop(t *testing.T) {
	old := processCap.Load()
	defer SetProcessCap(old)
	SetProcessCap(1 << 20)
	err := New(context.Background(), 0, 1<<40).Err()
	require.ErrorContains(t, err, "memory cap: the process holds ")
	require.ErrorContains(t, err, "over the 1.0 MiB backstop")
	SetProcessCap(0)
	require.NoError(t, New(context.Background(), 0, 1<<40).Err())
}

func TestBytes(t *testing.T) {
	for n, want := range map[uint64]string{10: "10 bytes", 2048: "2 KiB", 1536 << 20: "1536.0 MiB", 4191 << 30: "4191 GiB"} {
		require.Equal(t, want, Bytes(n))
	}
}
