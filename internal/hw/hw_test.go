package hw

import (
	"runtime"
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

func TestQuantileAndSpread(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	s := SpreadOf(xs)
	require.Equal(t, 3.0, s.Median)
	require.Equal(t, 2.0, s.Q1)
	require.Equal(t, 4.0, s.Q3)
	require.Equal(t, 2.0, s.IQR())
	require.Equal(t, []float64{5, 1, 4, 2, 3}, xs, "not reordered")
	require.Equal(t, 1.5, Quantile([]float64{1, 2}, 0.5))
}

func TestSignTest(t *testing.T) {
	// 10 of 10 positive: p = 2 * 2^-10.
	ds := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	pos, neg, p := SignTest(ds)
	require.Equal(t, 10, pos)
	require.Equal(t, 0, neg)
	require.InDelta(t, 2.0/1024, p, 1e-12)
	// Balanced signs: p = 1; zeros are left out.
	_, _, p = SignTest([]float64{1, -1, 0, 2, -2})
	require.InDelta(t, 1.0, p, 1e-12)
	// The normal approximation agrees with the exact test near its switch.
	big := make([]float64, 1001)
	for i := range big {
		big[i] = 1
		if i%2 == 0 && i < 900 {
			big[i] = -1
		}
	}
	_, _, approx := SignTest(big)    // 1001 non-zero: normal approximation
	_, _, exact := SignTest(big[1:]) // 1000: exact binomial, 449 negative
	require.InDelta(t, exact, approx, 0.3*exact, "exact %g, approximation %g", exact, approx)
	require.Less(t, approx, 0.01)
}

// A counter either counts or says why it cannot (a VM hides the PMU).
func TestCounter(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c, err := OpenCounter(LLCReadMisses)
	if err != nil {
		t.Logf("no hardware counter on this machine: %v", err)
		return
	}
	defer c.Close()
	buf := make([]byte, 64<<20)
	before := c.Read()
	for i := 0; i < len(buf); i += CacheLine {
		buf[i]++
	}
	require.Greater(t, c.Read(), before, "64 MB of reads miss the LLC at least once")
}
