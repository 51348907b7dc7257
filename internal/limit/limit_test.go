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
	require.ErrorContains(t, b.Err(), "memory cap: the process holds ")
	require.ErrorContains(t, b.Err(), ", over its 1.0 MiB cap")

	b = New(context.Background(), 0, Held()+64<<20)
	require.NoError(t, b.Err())
	require.NoError(t, b.Reserve(1<<20, "a block"))
	err := b.Reserve(128<<20, "the big block")
	require.ErrorContains(t, err, "memory cap: the big block would take 128.0 MiB more, and the process already holds ")
}

func TestBytes(t *testing.T) {
	for n, want := range map[uint64]string{10: "10 bytes", 2048: "2 KiB", 1536 << 20: "1536.0 MiB", 4191 << 30: "4191 GiB"} {
		require.Equal(t, want, Bytes(n))
	}
}
