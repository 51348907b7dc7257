package model

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/stretchr/testify/require"
)

// FuzzLimits checks that the limits hold on hostile inputs, under every
// model: deep loop and branch nests, long straight lines, many threads,
// generated from the fuzzer's numbers, each checked with a small time
// limit and memory cap. It asserts that the check stops within 1.5 times
// the time limit plus a second, by the clock or in CPU time (measured
// generously: this checks that a limit holds, not speed, on a machine
// other work may load), that it stops at all within ten times that, and
// that the process stays under the cap with the documented 32 MiB margin. go test runs its seeds; a longer run:
//
//	go test ./model -run '^$' -fuzz FuzzLimits -fuzztime 10m -parallel 1
//
// docs/testing.md records the runs made.
func FuzzLimits(f *testing.F) {
	models := allModels()
	for i := range hostileShapes {
		f.Add(uint8(i), uint16(60), uint8(2), uint8(i%len(models)))
		f.Add(uint8(i), uint16(200), uint8(1), uint8((i+3)%len(models)))
		f.Add(uint8(i), uint16(40), uint8(0), uint8(3)) // the LKMM
	}
	f.Add(uint8(3), uint16(399), uint8(0), uint8(4)) // 2,000 lines under aarch64
	f.Add(uint8(4), uint16(1), uint8(36), uint8(0))  // a 37-thread ring under SC
	f.Add(uint8(4), uint16(1), uint8(31), uint8(3))  // a 32-thread ring under the LKMM
	f.Fuzz(func(t *testing.T, shape uint8, size uint16, threads uint8, mi uint8) {
		m := models[int(mi)%len(models)]
		src := hostile(int(shape), int(size), int(threads))
		test, err := parseSrc("hostile.litmus", src)
		if err != nil {
			// The parser's bound on nesting: an error at its place.
			require.Contains(t, err.Error(), "hostile.litmus:", "%v", err)
			return
		}
		if !m.Applies(test.Arch) {
			return
		}
		const d = 100 * time.Millisecond
		debug.FreeOSMemory() // what earlier inputs and tests took
		capBytes := limit.ProcessHeld() + 128<<20
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(capBytes)))
		peak := watchPeak()
		bound := (d*3/2 + time.Second) * raceSlowdown
		done := make(chan error, 1)
		var res *Result
		start, cpu0 := time.Now(), cpuTime()
		go func() {
			var err error
			res, err = Check(context.Background(), test, m, Options{Timeout: d, MaxMemory: capBytes, NoWitness: true})
			if err == nil {
				// The result is printed, as the command prints it:
				// the printing is under the limits too.
				err = res.WriteHerd(io.Discard)
			}
			done <- err
		}()
		select {
		case err = <-done:
		case <-time.After(10 * bound):
			t.Fatalf("%s on %s (shape %d, size %d, %d threads): not stopped after %s with a %s limit", m, test.Name, shape, size, threads, 10*bound, d)
		}
		// The machine may be loaded by other work: a check fails the
		// bound when it took longer than it both by the clock and in
		// CPU time (a limit not polled burns CPU; a wait for a core
		// does not).
		wall, cpu := time.Since(start), cpuTime()-cpu0
		if wall > bound && cpu > bound {
			t.Fatalf("%s on %s (shape %d, size %d, %d threads): stopped after %s (%s of CPU) with a %s limit", m, test.Name, shape, size, threads, wall, cpu, d)
		}
		held := peak()
		if err != nil {
			// An input error (a thread that needs more registers than
			// the architecture has) is an answer too.
			require.NotContains(t, err.Error(), "internal error", "%s", m)
		}
		require.LessOrEqual(t, held, capBytes+32<<20, "%s: the process held %s with a %s cap", m, limit.Bytes(held), limit.Bytes(capBytes))
	})
}

// watchPeak samples the memory the process holds until the function it
// returns is called, which returns the largest figure seen.
func watchPeak() func() uint64 {
	var mu sync.Mutex
	peak := limit.ProcessHeld()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			h := limit.ProcessHeld()
			mu.Lock()
			peak = max(peak, h)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// hostileShapes make one thread's body of a hostile test: i is the
// thread, n the size (a nest's depth, a line's length).
var hostileShapes = []func(i, n int) string{
	// loops on a read, nested
	func(i, n int) string {
		return strings.Repeat("while (READ_ONCE(*x) == 0) {\n", n) + "WRITE_ONCE(*y, 1);\n" + strings.Repeat("}\n", n)
	},
	// loops that run twice and emit nothing, nested
	func(i, n int) string {
		n = min(n, 16) // a register each
		var b strings.Builder
		for j := 0; j < n; j++ {
			fmt.Fprintf(&b, "for (r%d = 0; r%d < 2; r%d++) {\n", j, j, j)
		}
		return b.String() + "r0 = r0;\n" + strings.Repeat("}\n", n) + "WRITE_ONCE(*x, 1);\n"
	},
	// branches on reads, nested
	func(i, n int) string {
		return strings.Repeat("if (READ_ONCE(*x) == 0) {\n", n) + "WRITE_ONCE(*y, 1);\n" + strings.Repeat("}\n", n)
	},
	// a long straight line of barriers, stores and loads
	func(i, n int) string {
		var b strings.Builder
		for j := 0; j < n*5; j++ {
			switch j % 3 {
			case 0:
				fmt.Fprintf(&b, "WRITE_ONCE(*x, %d);\n", j%5)
			case 1:
				b.WriteString("smp_mb();\n")
			default:
				b.WriteString("r0 = READ_ONCE(*y);\n")
			}
		}
		return b.String()
	},
	// one store and one load per thread: with many threads, a ring
	func(i, n int) string {
		return "WRITE_ONCE(*x, 1);\nsmp_mb();\nr0 = READ_ONCE(*y);\n"
	},
	// loops that never run, nested
	func(i, n int) string {
		return strings.Repeat("while (0) {\n", n) + "WRITE_ONCE(*y, 1);\n" + strings.Repeat("}\n", n)
	},
}

// hostile returns a test of threads+1 threads (at most 64) whose bodies
// are shape's with size n (at most 400, and 8,000 over all threads). With the ring shape thread i
// stores to its own location and loads the next thread's.
func hostile(shape, n, threads int) string {
	body := hostileShapes[shape%len(hostileShapes)]
	nt := 1 + threads%64
	// At most 8,000 nesting levels or 40,000 lines in all: an input
	// the fuzzer runs takes a few seconds at most, parsing included,
	// on a loaded machine (the fuzzer counts a slower one as hung).
	n = max(1, min(1+n%400, 8000/nt))
	ring := shape%len(hostileShapes) == 4
	var b strings.Builder
	b.WriteString("C hostile\n{}\n")
	for i := 0; i < nt; i++ {
		x, y := "x", "y"
		if ring {
			x, y = fmt.Sprintf("x%d", i), fmt.Sprintf("x%d", (i+1)%nt)
		}
		fmt.Fprintf(&b, "P%d(int *%s, int *%s)\n{\n", i, x, y)
		for j := 0; j < 16; j++ {
			fmt.Fprintf(&b, "\tint r%d;\n", j)
		}
		s := body(i, n)
		if ring {
			s = strings.NewReplacer("*x", "*"+x, "*y", "*"+y).Replace(s)
		}
		b.WriteString(s + "}\n")
	}
	if ring {
		b.WriteString("exists (0:r0=0 /\\ 1:r0=0)\n")
	} else {
		b.WriteString("exists (0:r0=0)\n")
	}
	return b.String()
}
