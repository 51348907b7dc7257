//go:build linux && (amd64 || arm64)

package harness

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/hw"
	"github.com/litmus-dev/litmus/litmus"
)

func parseTest(t testing.TB, file string) *litmus.Test {
	t.Helper()
	tt, err := litmus.ParseFile(file)
	require.NoError(t, err)
	return tt
}

// newRunner compiles file and sets up a runner without starting a batch.
func newRunner(t *testing.T, file string, o Options) *runner {
	t.Helper()
	tt := parseTest(t, file)
	o = o.withDefaults()
	o.CPUs = []int{0}
	arch, err := HostArch("")
	require.NoError(t, err)
	p, err := compile(tt, arch, o)
	require.NoError(t, err)
	r := &runner{p: p, o: o, res: &Result{}}
	require.NoError(t, r.setup())
	t.Cleanup(r.teardown)
	return r
}

// TestBarrierGivesUp runs one thread of a two-thread test alone: its
// partner never reaches the barrier, and the thread must give up the batch
// after the wait limit instead of spinning for ever.
func TestBarrierGivesUp(t *testing.T) {
	if !Supported() {
		t.Skip("needs amd64 or arm64")
	}
	file := "testdata/SB.litmus"
	if arch, _ := HostArch(""); arch != "x86-64" {
		file = "testdata/c-spin.litmus"
	}
	r := newRunner(t, file, Options{Iterations: 10, Size: 10})
	r.initInstances(10)
	c := r.tm[0].ctx
	*r.ctl.u64(c + ctxN) = 10
	*r.ctl.u64(c + ctxI) = 0
	*r.ctl.u64(c + ctxIter0) = 0
	*r.ctl.u64(c + ctxWaitMax) = uint64(20 * float64(time.Millisecond) * ticksPerNs())
	done := make(chan struct{})
	go func() {
		callJIT(r.entry[0], r.ctl.addr()+uintptr(c))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the thread did not give up waiting for its partner")
	}
	require.Equal(t, uint64(0), *r.ctl.u64(c + ctxI), "no instance can have completed")
}

// TestCollectDoesNotAllocate checks that counting an instance whose state
// was seen before allocates nothing: the garbage collector is off during a
// run.
func TestCollectDoesNotAllocate(t *testing.T) {
	if !Supported() {
		t.Skip("needs amd64 or arm64")
	}
	r := newRunner(t, "testdata/c-spin.litmus", Options{Iterations: 100, Size: 100})
	r.initInstances(100)
	r.collect(100) // the first time creates the states
	allocs := testing.AllocsPerRun(10, func() { r.collect(100) })
	require.Zero(t, allocs)
}

func TestRunTimeout(t *testing.T) {
	if !Supported() {
		t.Skip("needs amd64 or arm64")
	}
	tt := parseTest(t, "testdata/c-spin.litmus")
	res, err := Run(context.Background(), tt, Options{Iterations: 1 << 40, Size: 100, Timeout: 200 * time.Millisecond})
	require.NoError(t, err)
	require.Equal(t, "timeout", res.Stopped)
	require.Positive(t, res.Instances)
}

// TestRunLeavesAffinityAlone checks that the pinned threads do not go back
// to Go's pool of threads still pinned to one CPU.
func TestRunLeavesAffinityAlone(t *testing.T) {
	if !Supported() {
		t.Skip("needs amd64 or arm64")
	}
	before := hw.AllowedCPUs()
	tt := parseTest(t, "testdata/c-spin.litmus")
	for range 3 {
		_, err := Run(context.Background(), tt, Options{Iterations: 200, Size: 100})
		require.NoError(t, err)
		require.Equal(t, before, hw.AllowedCPUs())
	}
}
