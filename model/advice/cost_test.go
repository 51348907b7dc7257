package advice

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kmap"
)

func archIndex(a kmap.Arch) int {
	for i, b := range arches {
		if a == b {
			return i
		}
	}
	panic(a)
}

// The cost order is read from kmap's rows: these are the relations the
// issue names.
func TestCostOrder(t *testing.T) {
	rel := func(a kmap.Arch, p, q []string) relation {
		return costOfAll(p).rel(archIndex(a), costOfAll(q))
	}
	one := func(s ...string) []string { return s }
	// STLR and DMB ISHST are incomparable on arm64; on RISC-V fence w,w
	// is cheaper than the release's fence rw,w; on POWER both are lwsync.
	require.Equal(t, incomparable, rel(kmap.ARM64, one("smp_store_release"), one("smp_wmb")))
	require.Equal(t, dearer, rel(kmap.RISCV64, one("smp_store_release"), one("smp_wmb")))
	require.Equal(t, same, rel(kmap.PPC64, one("smp_store_release"), one("smp_wmb")))
	// smp_mb__after_atomic() is free on x86 and smp_mb() elsewhere.
	require.Equal(t, cheaper, rel(kmap.X86_64, one("smp_mb__after_atomic"), one("smp_mb")))
	for _, a := range []kmap.Arch{kmap.ARM64, kmap.ARM64LLSC, kmap.RISCV64, kmap.PPC64} {
		require.Equal(t, same, rel(a, one("smp_mb__after_atomic"), one("smp_mb")), "%s", a)
	}
	require.True(t, costOfAll(one("smp_mb__after_atomic")).weaker(costOfAll(one("smp_mb"))))
	// DMB ISH vs DMB ISHST, sync vs lwsync, fence rw,rw vs fence w,w,
	// mfence-like LOCK vs nothing.
	for _, a := range []kmap.Arch{kmap.X86_64, kmap.ARM64, kmap.RISCV64, kmap.PPC64} {
		require.Equal(t, cheaper, rel(a, one("smp_wmb"), one("smp_mb")), "%s", a)
	}
	// Fully ordered > release, acquire > relaxed on every architecture
	// but x86, where every RMW is LOCK'd; release and acquire are
	// incomparable on arm64.
	for _, a := range arches {
		want := cheaper
		if a == kmap.X86_64 {
			want = same
		}
		require.Equal(t, want, rel(a, one("xchg_release"), one("xchg")), "%s", a)
		require.Equal(t, want, rel(a, one("xchg_relaxed"), one("xchg_acquire")), "%s", a)
	}
	require.Equal(t, incomparable, rel(kmap.ARM64, one("xchg_release"), one("xchg_acquire")))
	// The weight is a linear extension of the order: a weakening weighs
	// less.
	for _, p := range [][2]string{{"smp_wmb", "smp_mb"}, {"smp_rmb", "smp_mb"}, {"smp_mb__after_atomic", "smp_mb"}, {"xchg_relaxed", "xchg"}} {
		c, d := costOfAll(one(p[0])), costOfAll(one(p[1]))
		require.True(t, c.weaker(d), "%v", p)
		require.Less(t, c.weight(), d.weight(), "%v", p)
	}
	require.Equal(t, "dmb ishst", costOfAll(one("smp_wmb"))[archIndex(kmap.ARM64)].String())
	require.Equal(t, "nothing", costOfAll(one("smp_wmb"))[archIndex(kmap.X86_64)].String())
	require.Equal(t, "lock addl", costOfAll(one("smp_mb"))[archIndex(kmap.X86_64)].String())
}

// TestClone: a variant shares no node of the threads with the test it
// was made from, and editing it leaves the test as it was.
func TestClone(t *testing.T) {
	lt, _ := parse(t, "testdata/mp-mbs.litmus")
	before := string(litmus.Format(lt))
	c := cloneTest(lt)
	require.Equal(t, before, string(litmus.Format(c)))
	seen := map[litmus.Node]bool{}
	for _, p := range lt.Procs {
		litmus.Inspect(p.Body, func(n litmus.Node) bool {
			if n != nil && reflect.ValueOf(n).Kind() == reflect.Pointer {
				seen[n] = true
			}
			return true
		})
	}
	for _, p := range c.Procs {
		litmus.Inspect(p.Body, func(n litmus.Node) bool {
			require.False(t, n != nil && seen[n], "node %T shared", n)
			return true
		})
	}
	for _, k := range constructs(lt) {
		for _, cand := range k.cands {
			v := variant(lt, cand.edits)
			require.NotEqual(t, before, string(litmus.Format(v)), "%s -> %s", k.text, cand.label)
		}
	}
	require.Equal(t, before, string(litmus.Format(lt)))
}
