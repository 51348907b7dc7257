package op

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/internal/shapes"
	"github.com/litmus-dev/litmus/model/report"
)

// iriw generates IRIW with two writers (x, y) and k readers; even readers
// read x then y, odd ones y then x. Unlike shapes.IRIW, the condition
// names the first two readers only: the final states are projected on
// their four registers, as docs/performance.md's IRIW table says.
func iriw(k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C IRIW-%d\n\n{}\n\n", k)
	b.WriteString("P0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\n\nP1(int *y)\n{\n\tWRITE_ONCE(*y, 1);\n}\n\n")
	for i := 0; i < k; i++ {
		a, c := "x", "y"
		if i%2 == 1 {
			a, c = "y", "x"
		}
		fmt.Fprintf(&b, "P%d(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n\tr0 = READ_ONCE(*%s);\n\tr1 = READ_ONCE(*%s);\n}\n\n", i+2, a, c)
	}
	b.WriteString("exists (2:r0=1 /\\ 2:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)\n")
	return b.String()
}

func mustParse(tb testing.TB, name, src string) *litmus.Test {
	tb.Helper()
	t, err := litmus.Parse(name, []byte(src))
	if err != nil {
		tb.Fatalf("parse %s: %v", name, err)
	}
	return t
}

func benchCheck(b *testing.B, src string, m Machine, wantStates int) {
	t := mustParse(b, "bench.litmus", src)
	var res *report.Result
	for b.Loop() {
		var err error
		res, err = Check(context.Background(), t, m, report.Options{NoWitness: true})
		if err != nil {
			b.Fatal(err)
		}
	}
	if wantStates > 0 && res.States.Len() != wantStates {
		b.Fatalf("%d final states, want %d", res.States.Len(), wantStates)
	}
	b.ReportMetric(float64(res.Stats.States), "states")
	b.ReportMetric(float64(res.States.Len()), "finals")
	b.ReportMetric(res.Stats.BytesPerState, "bytes/state")
	if s := res.Stats.Elapsed.Seconds(); s > 0 {
		b.ReportMetric(float64(res.Stats.States)/s, "states/s")
	}
}

func BenchmarkSBRing(b *testing.B) {
	for _, m := range []Machine{SC, TSO, PSO} {
		for n := 2; n <= 14; n++ {
			want := 1 << n
			if m == SC {
				want = 1<<n - 1 // SC forbids every thread reading 0
			}
			b.Run(fmt.Sprintf("%s/N=%d", m, n), func(b *testing.B) {
				benchCheck(b, shapes.SBRing(n), m, want)
			})
		}
	}
}

func BenchmarkIRIW(b *testing.B) {
	for _, m := range []Machine{SC, TSO, PSO} {
		for k := 2; k <= 8; k++ {
			b.Run(fmt.Sprintf("%s/k=%d", m, k), func(b *testing.B) {
				benchCheck(b, iriw(k), m, 0)
			})
		}
	}
}

// lockCounter generates n threads that each store their own flag, then
// increment a shared counter under one spinlock, then read the next
// thread's flag: a lock-heavy shape kernel tests use.
func lockCounter(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C lock-counter-%d\n\n{}\n\n", n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "P%d(int *x, int *y%d, int *y%d, spinlock_t *l)\n{\n\tint r0;\n\tint r1;\n\n", i, i, (i+1)%n)
		fmt.Fprintf(&b, "\tWRITE_ONCE(*y%d, 1);\n\tspin_lock(l);\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*x, r0 + 1);\n\tspin_unlock(l);\n\tr1 = READ_ONCE(*y%d);\n}\n\n", i, (i+1)%n)
	}
	fmt.Fprintf(&b, "exists (x=%d)\n", n)
	return b.String()
}

func BenchmarkLockCounter(b *testing.B) {
	for _, m := range []Machine{SC, TSO, PSO} {
		for n := 2; n <= 6; n++ {
			b.Run(fmt.Sprintf("%s/N=%d", m, n), func(b *testing.B) {
				benchCheck(b, lockCounter(n), m, 0)
			})
		}
	}
}

// writers is n threads that each store to a location of their own: one
// final state, 2^n interleavings, and a persistent set of one action in
// every state, so the reduced search visits n+1 states.
func writers(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C W%d\n{}\n", n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "P%d(int *x%d)\n{\n\tWRITE_ONCE(*x%d, 1);\n}\n", i, i, i)
	}
	b.WriteString("exists (x0=1)\n")
	return b.String()
}

// BenchmarkIndependentWriters: the reduction past 32 threads and 64
// locations (multi-word sets, por.go); it used to turn itself off there,
// and 33 writers ran out of time.
func BenchmarkIndependentWriters(b *testing.B) {
	for _, m := range []Machine{SC, TSO} {
		for _, n := range []int{8, 32, 33, 64} {
			b.Run(fmt.Sprintf("%s/%d", m, n), func(b *testing.B) { benchCheck(b, writers(n), m, 1) })
		}
	}
}
