package harness

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/kmap"
)

// TestEveryRowComputesWhatTheModelDoes runs each primitive of the host's
// mapping in a one-thread test, from several initial values, and requires
// the one final state the model computes. A wrong row (a wrong operand
// order, a flag tested the wrong way, a missing negation) changes that
// state, whatever the memory model.
func TestEveryRowComputesWhatTheModelDoes(t *testing.T) {
	if !Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	arch, err := HostArch("")
	require.NoError(t, err)
	if arch == string(kmap.X86_64) {
		testRows(t, arch)
		return
	}
	for _, a := range []kmap.Arch{kmap.ARM64, kmap.ARM64LLSC} {
		t.Run(string(a), func(t *testing.T) {
			if a == kmap.ARM64 && arch != string(kmap.ARM64) {
				t.Skip("this CPU has no LSE atomics")
			}
			testRows(t, string(a))
		})
	}
}

// testRows is TestEveryRowComputesWhatTheModelDoes for one arch (the test
// for arm64's LL/SC rows calls it again with that arch).
func testRows(t *testing.T, arch string) {
	n := 0
	for _, prim := range litmus.Primitives() {
		if _, _, ok := kmap.Lookup(kmap.Arch(arch), prim.Name); !ok {
			continue
		}
		for _, init := range rowInits(prim) {
			src := rowTest(prim, init)
			tt, err := litmus.Parse(prim.Name+".litmus", []byte(src))
			require.NoError(t, err, "%s", src)
			want, err := model.Check(context.Background(), tt, model.SC, model.Options{NoWitness: true})
			if err != nil {
				continue // alone it means nothing (rcu_read_unlock outside a section)
			}
			o := Options{Iterations: 20, Size: 10, LoopBound: 50, Atomics: atomicsFor(arch)}
			got, err := Run(context.Background(), tt, o)
			require.NoError(t, err, "%s", src)
			var ws, gs []string
			for _, s := range want.States.All() {
				ws = append(ws, s.String())
			}
			for _, s := range got.States {
				gs = append(gs, got.StateString(s))
			}
			if want.States.Len() == 0 {
				// spin_lock on a taken lock never finishes: every
				// instance hits the loop bound.
				require.Equal(t, o.Iterations, got.Abandoned, "%s from %v: %s", prim.Name, init, src)
				continue
			}
			require.Equal(t, ws, gs, "%s on %s from x=%v\n%s", prim.Name, arch, init, src)
			n++
		}
	}
	require.Greater(t, n, 100)
}

func atomicsFor(arch string) string {
	switch arch {
	case string(kmap.ARM64):
		return "lse"
	case string(kmap.ARM64LLSC):
		return "llsc"
	}
	return ""
}

// rowInits returns the initial values of x worth trying for prim.
func rowInits(prim *litmus.Primitive) []int64 {
	switch prim.Kind {
	case litmus.KFence, litmus.KNop:
		return []int64{0}
	case litmus.KLock:
		return []int64{0, 1}
	}
	return []int64{0, 1, 3, -2}
}

// rowTest is a one-thread C test calling prim on x (initially init) with
// value operands 3 and 5 (cmpxchg(x, 3, 5) succeeds from 3; add_unless(x,
// 3, 5) adds unless x is 5) and bit number 1.
func rowTest(prim *litmus.Primitive, init int64) string {
	var args []string
	vals := []string{"3", "5"}
	for i, a := range prim.Args {
		switch a {
		case litmus.ArgPtr:
			if i == prim.Loc {
				args = append(args, "x")
			} else {
				args = append(args, "y")
			}
		case litmus.ArgLval:
			args = append(args, "*x")
		case litmus.ArgVal:
			args = append(args, vals[0])
			vals = vals[1:]
		case litmus.ArgBit:
			args = append(args, "1")
		}
	}
	call := fmt.Sprintf("%s(%s)", prim.Name, strings.Join(args, ", "))
	var b strings.Builder
	fmt.Fprintf(&b, "C row\n{\n\tx = %d;\n\ty = 0;\n}\nP0(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n", init)
	locs := "x; y"
	if prim.Ret != litmus.RetNone {
		fmt.Fprintf(&b, "\tr0 = %s;\n", call)
		locs += "; 0:r0"
	} else {
		fmt.Fprintf(&b, "\t%s;\n", call)
	}
	// A load after the primitive, so that every row is followed by an
	// access that depends on nothing it wrote to a register by mistake.
	b.WriteString("\tr1 = READ_ONCE(*x);\n}\n")
	fmt.Fprintf(&b, "locations [%s; 0:r1]\nexists (0:r1=0)\n", locs)
	return b.String()
}
