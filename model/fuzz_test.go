package model

import (
	"context"
	"errors"
	"github.com/litmus-dev/litmus/model/internal/randprog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"pgregory.net/rapid"
)

// The two fuzz targets of the checker. go test runs their seed corpora;
// longer runs, one target at a time:
//
//	go test ./model -run '^$' -fuzz FuzzDifferential -fuzztime 10m -parallel 1
//	go test ./model -run '^$' -fuzz FuzzCheckBytes -fuzztime 10m -parallel 1
//
// docs/testing.md records the runs made and what they found.

// FuzzDifferential draws a litmus program (the generator of the property
// tests, naive_test.go) from the fuzzer's bytes and checks the engines
// against each other:
//
//   - the reduced search finds the plain search's final states, under SC,
//     TSO and PSO;
//   - SC ⊆ TSO ⊆ PSO, final state by final state;
//   - every SC final state is one the LKMM allows (SC is stronger than the
//     LKMM), so LKMM-Never implies SC-Never. Programs that take locks are
//     left out of this one: the generator uses one location both as a
//     lock and as data, which lock.cat flags (mixed-lock-accesses) and
//     gives no meaning to.
func FuzzDifferential(f *testing.F) {
	// rapid reads its draws from the bytes, eight at a time; a seed too
	// short for a whole program is skipped, so the seeds are long.
	rng := rand.New(rand.NewPCG(10, 2026))
	for range 12 {
		seed := make([]byte, 2048)
		for i := range seed {
			seed[i] = byte(rng.Uint32())
		}
		f.Add(seed)
	}
	f.Fuzz(rapid.MakeFuzz(differential))
}

func differential(t *rapid.T) {
	p := randprog.Gen(t, 3, 3)
	src := p.Source()
	test, err := parseSrc("random.litmus", src)
	if err != nil {
		t.Fatalf("generated test does not parse: %v\n%s", err, src)
	}
	states := func(m Model, plain bool) []string {
		res, err := Check(context.Background(), test, m, Options{Plain: plain, NoWitness: true, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v\n%s", m, err, src)
		}
		if res.Verdict == Unknown {
			t.Fatalf("%s: Unknown (%s)\n%s", m, res.Reason, src)
		}
		out := stateLines(res)
		sort.Strings(out)
		return out
	}
	var byModel [3][]string
	for i, m := range []Model{SC, TSO, PSO} {
		reduced, plain := states(m, false), states(m, true)
		if !slices.Equal(reduced, plain) {
			t.Fatalf("%s: the reduced search finds %q, the plain one %q\n%s", m, reduced, plain, src)
		}
		byModel[i] = plain
	}
	if s, ok := randprog.Subset(byModel[0], byModel[1]); !ok {
		t.Fatalf("SC state %q not in TSO\n%s", s, src)
	}
	if s, ok := randprog.Subset(byModel[1], byModel[2]); !ok {
		t.Fatalf("TSO state %q not in PSO\n%s", s, src)
	}
	for _, ops := range p.Threads {
		for _, o := range ops {
			if o.Kind == "lock" || o.Kind == "unlock" || o.Kind == "trylock" {
				return
			}
		}
	}
	lk := states(LKMM, false)
	if s, ok := randprog.Subset(byModel[0], lk); !ok {
		t.Fatalf("SC state %q not allowed by the LKMM\n%s", s, src)
	}
}

// Small limits for FuzzCheckBytes: every check must end within them, and
// the process must hold no more than the cap and its documented margin.
const (
	fuzzStates  = 2000
	fuzzTimeout = 250 * time.Millisecond
	fuzzMemory  = 512 << 20
	fuzzMargin  = 32 << 20
	// fuzzLate is how far past the time limit a check may end before it
	// counts as a hang: the limit bounds the search, and compiling,
	// printing and the witness come on top (linear in the input).
	fuzzLate = 5 * time.Second
)

// heapPeak records the most memory the process held, sampled every
// millisecond while FuzzCheckBytes runs.
var (
	heapPeak     atomic.Uint64
	heapSampling sync.Once
)

func sampleHeap() {
	heapSampling.Do(func() {
		go func() {
			for {
				if h := limit.ProcessHeld(); h > heapPeak.Load() {
					heapPeak.Store(h)
				}
				time.Sleep(time.Millisecond)
			}
		}()
	})
}

// FuzzCheckBytes feeds arbitrary bytes through the parser and, when they
// parse, through every model with small limits: no panic (the fuzzer
// reports one), no error without a position, no check that runs past its
// time limit by more than fuzzLate, and no moment where the process holds
// more than the memory cap and its margin.
func FuzzCheckBytes(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"../testdata/*.litmus", "../docs/examples/*.litmus", "../cmd/litmus/testdata/in/*.litmus"} {
		files, _ := filepath.Glob(pattern)
		seeds = append(seeds, files...)
	}
	// A sample of the corpus, when it is there.
	for _, sub := range []string{"lkmm/tools/memory-model/litmus-tests", "x86/catalogue/x86/tests"} {
		files, _ := filepath.Glob(filepath.Join(corpus, sub, "*.litmus"))
		for i := 0; i < len(files); i += 6 {
			seeds = append(seeds, files[i])
		}
	}
	for _, s := range seeds {
		if src, err := os.ReadFile(s); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("C empty\n{}\nP0(int *x)\n{\n}\nexists (x=0)\n"))
	f.Add([]byte("C spin\n{}\nP0(int *x)\n{\n\tint r0;\n\tr0 = 0;\n\twhile (1)\n\t\tr0 = r0 + 1;\n}\nexists (0:r0=1)\n"))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(fuzzMemory))
	// The cap is per check; the process-wide backstop keeps the whole
	// process under it too, as the command keeps it under jobs x cap.
	limit.SetProcessCap(fuzzMemory)
	defer limit.SetProcessCap(4 * limit.DefaultMemory)
	sampleHeap()
	f.Fuzz(func(t *testing.T, src []byte) {
		test, err := litmus.Parse("fuzz.litmus", src)
		if err != nil {
			var list litmus.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("parse error without a position: %v", err)
			}
			return
		}
		for _, m := range Models() {
			if m == LKMM && test.Arch != litmus.ArchC {
				continue
			}
			start := time.Now()
			res, err := Check(context.Background(), test, m, Options{MaxStates: fuzzStates, Timeout: fuzzTimeout, MaxMemory: fuzzMemory})
			if d := time.Since(start); d > fuzzTimeout+fuzzLate {
				t.Fatalf("%s: the check took %s with a %s time limit", m, d, fuzzTimeout)
			}
			if peak := heapPeak.Load(); peak > fuzzMemory+fuzzMargin {
				t.Fatalf("%s: the process held %s with a %s cap", m, limit.Bytes(peak), limit.Bytes(fuzzMemory))
			}
			if err != nil {
				continue // an input error: a message, not a crash
			}
			if res.Verdict == Unknown && res.Reason == "" {
				t.Fatalf("%s: Unknown without a reason", m)
			}
			if res.Verdict != Unknown && res.Reason != "" {
				t.Fatalf("%s: %s with the reason of an Unknown (%s)", m, res.Verdict, res.Reason)
			}
		}
	})
}
