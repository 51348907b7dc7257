package nospace

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkCheckSpace reproduces each row of the patch's table on one
// thread with MeasureCheckSpace's method (interleaved blocks, the smp_mb()
// in both variants): before and after are cycles per call above the
// baseline, diff is after - before sample by sample (medians). The full
// table, one thread per core, is cmd/seedbench's.
func BenchmarkCheckSpace(b *testing.B) {
	for _, n := range []int{1, 256, 4096, 262144} {
		b.Run(fmt.Sprintf("sockets=%d", n), func(b *testing.B) {
			s := newSocketSet(n, 1)
			sink.Add(s.visit(0, n, 1, modeBaseline))
			var ss []sample
			for b.Loop() {
				ss = append(ss, s.samples(1, nil)...)
			}
			r := summarize(n, ss, false, "")
			b.ReportMetric(r.Before, "before-cycles/call")
			b.ReportMetric(r.After, "after-cycles/call")
			b.ReportMetric(r.Diff.Median, "diff-cycles/call")
			b.ReportMetric(r.Base, "baseline-cycles/call")
		})
	}
}

func TestMeasureCheckSpaceShape(t *testing.T) {
	rows := MeasureCheckSpace(Config{Sockets: []int{1, 64, 3 * blockSockets}, Threads: 2, Runs: 3, Calls: 1 << 10})
	require.Len(t, rows, 3)
	for i, r := range rows {
		require.Equal(t, []int{1, 64, 3 * blockSockets}[i], r.Sockets)
		require.Greater(t, r.Base, 0.0, "the baseline loop takes time")
		require.Positive(t, r.Diff.N, "samples were taken")
		require.Equal(t, r.Diff.N, r.Cheaper+r.Dearer+(r.Diff.N-r.Cheaper-r.Dearer), "the sign counts are of the samples")
		require.LessOrEqual(t, r.Diff.Q1, r.Diff.Median)
		require.LessOrEqual(t, r.Diff.Median, r.Diff.Q3)
		if r.MissesWhy == "" {
			require.GreaterOrEqual(t, r.Misses[modeBefore], 0.0)
		}
	}
	require.Equal(t, 256, SocketBytes, "the patch's 64 MB for 262144 sockets is 256 bytes a socket")
}

// Every mode of a sample visits as many sockets, and a pass of a large set
// visits every socket once, each block in one mode.
func TestSamplesCoverTheSet(t *testing.T) {
	n := 9 * blockSockets
	s := newSocketSet(n, 1)
	ss := s.samples(1, nil)
	require.Len(t, ss, 3, "one triple per three blocks")
	small := newSocketSet(10, 1)
	require.Len(t, small.samples(4, nil), 4, "a small set gives a triple per pass")
}

// Layout, which seedbench prints, reads the offsets TestLayout holds.
func TestLayoutPrinted(t *testing.T) {
	lines := map[string]int{}
	for _, f := range Layout() {
		lines[f.Kernel] = f.Line
	}
	require.Equal(t, 0, lines["tp->tcp_nospace"])
	require.Equal(t, lines["tp->tcp_nospace"], lines["tp->tcp_mstamp"], "tcp_nospace is in the line tcp_mstamp's write brings in")
	require.Equal(t, 1, lines["sk->sk_socket"])
	require.Equal(t, lines["sk->sk_socket"], lines["sk->sk_wmem_queued"], "sk_socket is in the line the callers read")
}
