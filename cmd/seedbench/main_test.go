package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/hw"
	"github.com/litmus-dev/litmus/invariants/dstref"
	"github.com/litmus-dev/litmus/invariants/nospace"
	"github.com/litmus-dev/litmus/invariants/tsflags"
	"github.com/litmus-dev/litmus/invariants/wfree"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-only", "nosuch"}, {"extra"}, {"-bogus"}} {
		var out, errb bytes.Buffer
		require.Equal(t, 2, run(args, &out, &errb), "args %q", args)
		require.NotEmpty(t, errb.String())
	}
}

// fake is a results value with the patch's own numbers, so the printers and
// plots can be checked without measuring anything.
func fake() results {
	return results{
		nospace: append(slices.Clone(nospace.PatchTable), nospace.Row{Sockets: 1 << 20, Before: 99, After: 1}),
		wfree: []wfree.Result{{Threads: 1, Before: 10, After: 12, BeforeCycles: 100, AfterCycles: 80, Change: hw.Spread{Median: 20, Q1: 18, Q3: 22}},
			{Threads: 2, Before: 5, After: 9, Change: hw.Spread{Median: 80}}},
		dstref: &dstref.Result{Before: 6, After: 9, Change: hw.Spread{Median: 50, Q1: 45, Q3: 55}},
		tsflags: []tsflags.Result{{Before: 30, After: 20, Speedup: hw.Spread{Median: 1.5}},
			{Writer: true, Before: 90, After: 20, Speedup: hw.Spread{Median: 4.5, Q1: 4.4, Q3: 4.6}}},
	}
}

func TestTables(t *testing.T) {
	r := fake()
	var b bytes.Buffer
	printNospace(&b, r.nospace)
	printWfree(&b, r.wfree)
	printDstref(&b, *r.dstref)
	printTsflags(&b, r.tsflags)
	s := b.String()
	for _, want := range []string{
		"262144 (64 MB)", "+48.4", "-0.8", "256 (64 KB)", "1048576 (256 MB)",
		"1 thread(s), one socket", "+20.0%",
		"this machine", "+50.0%",
		"another CPU writes sk_forward_alloc", "4.50x [0.20]", "+20.0% [  4.0]",
	} {
		require.True(t, strings.Contains(s, want), "output lacks %q:\n%s", want, s)
	}
}

func TestPlots(t *testing.T) {
	dir := t.TempDir()
	files, err := writePlots(dir, fake())
	require.NoError(t, err)
	require.Len(t, files, 4)
	for _, f := range files {
		st, err := os.Stat(f)
		require.NoError(t, err)
		require.Greater(t, st.Size(), int64(1000), "%s is too small to be a plot", filepath.Base(f))
	}
}

func TestSocketSizes(t *testing.T) {
	// This project's machines: 260 MB of L3, 2 threads: 260 MB a thread.
	got := socketSizes(266240<<10, 2)
	require.Equal(t, append(slices.Clone(patchSizes), 1064960), got)
	require.GreaterOrEqual(t, int64(got[4]*nospace.SocketBytes*2), int64(2*266240<<10), "the last row is beyond the LLC")
	// The patch's machine: 32 MB of L3, 64 threads: the 64 MB row is already far beyond.
	require.Equal(t, patchSizes, socketSizes(32<<20, 64))
	// Unknown LLC.
	require.Equal(t, append(slices.Clone(patchSizes), 1<<20), socketSizes(0, 2))
}
