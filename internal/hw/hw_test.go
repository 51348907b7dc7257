package hw

import (
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func TestMedian(t *testing.T) {
	require.Equal(t, 0.0, Median(nil))
	require.Equal(t, 2.0, Median([]float64{3, 1, 2}))
	require.Equal(t, 2.5, Median([]float64{4, 1, 3, 2}))
	xs := []float64{3, 1, 2}
	Median(xs)
	require.Equal(t, []float64{3, 1, 2}, xs, "Median must not reorder its input")
}

func TestTicksAdvance(t *testing.T) {
	a := Ticks()
	time.Sleep(time.Millisecond)
	b := Ticks()
	require.Greater(t, b, a, "%s counter did not advance over 1ms", TickUnit)
}

func TestCalibratePositive(t *testing.T) {
	f := Calibrate(2 * time.Millisecond)
	require.Greater(t, f, 0.0, "ticks per ns must be positive")
}

func TestPin(t *testing.T) {
	unpin, _ := Pin(0)
	Mb()
	unpin()
}

type line3 struct {
	p *int
	_ [3*CacheLine - 8]byte
}

func TestLinesAligned(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1000} {
		s := Lines[line3](n)
		require.Len(t, s, n)
		for i := range s {
			require.Zero(t, uintptr(unsafe.Pointer(&s[i]))%CacheLine, "element %d of %d", i, n)
		}
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{"48K": 48 << 10, "260M": 260 << 20, "1G": 1 << 30, "512": 512} {
		got, ok := parseSize(s)
		require.True(t, ok, s)
		require.Equal(t, want, got, s)
	}
	_, ok := parseSize("lots")
	require.False(t, ok)
	require.Equal(t, "260M", FormatBytes(266240<<10))
	require.Equal(t, "1536K", FormatBytes(1536<<10))
	require.Equal(t, "260M", FormatBytes(260<<20))
}

func TestMachine(t *testing.T) {
	require.NotEmpty(t, CPUModel())
	require.NotEmpty(t, AllowedCPUs())
	if len(Caches()) > 0 {
		require.Positive(t, LLCBytes())
	}
	require.Contains(t, Describe(), "CPUs")
}

func TestPinned(t *testing.T) {
	var setups, bodies atomic.Int32
	var released atomic.Bool
	t0 := Pinned(3, func(i int) {
		require.False(t, released.Load(), "a body ran before every setup was done")
		setups.Add(1)
	}, func(i int) {
		released.Store(true)
		require.Equal(t, int32(3), setups.Load())
		bodies.Add(1)
	})
	require.Equal(t, int32(3), bodies.Load())
	require.False(t, t0.IsZero())
	require.Equal(t, AllowedCPUs(), AllowedCPUs())
}
