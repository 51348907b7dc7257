package model

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/stretchr/testify/require"
)

// TestCompiledMatchesAsm: a C test compiled as the kernel compiles it and
// the hand-written assembly test of the same shape from the shared arch
// corpus (kcomp/testdata/pairs, each file naming its pair) get the same
// verdict and the same final states, the C registers renamed to the
// assembly test's, under the same architecture model.
func TestCompiledMatchesAsm(t *testing.T) {
	arch := corpus + "/arch/"
	if _, err := os.Stat(arch); err != nil {
		t.Skip("no shared corpus")
	}
	pairs := []struct {
		c, asm string
		m      Model
		regs   map[string]string // C register -> assembly register
	}{
		{"MP+rel+acq", "aarch64/herd/catalogue/aarch64/tests/MP+rel+acq.litmus", AArch64, map[string]string{"1:r0": "1:X2", "1:r1": "1:X0"}},
		{"SB+dmb.sys", "aarch64/herd/catalogue/aarch64/tests/SB+dmb.sys.litmus", AArch64, map[string]string{"0:r0": "0:X2", "1:r0": "1:X2"}},
		{"2+2W+dmb.sys", "aarch64/herd/catalogue/aarch64/tests/2+2W+dmb.sys.litmus", AArch64, nil},
		{"LB+lwsyncs", "ppc/dat3m/litmus/PPC/LB+lwsyncs.litmus", PPC, nil},
		{"WRC+lwsyncs", "ppc/dat3m/litmus/PPC/WRC+lwsyncs.litmus", PPC, nil},
		{"WRC+sync+po", "ppc/dat3m/litmus/PPC/WRC+sync+po.litmus", PPC, nil},
		{"IRIW+sync+lwsync", "ppc/dat3m/litmus/PPC/IRIW+sync+lwsync.litmus", PPC, nil},
		{"ISA2+fence.w.w+fence.r.rw+fence.r.rw", "riscv/dat3m/litmus/RISCV/ISA2+fence.w.w+fence.r.rw+fence.r.rw.litmus", RISCV, map[string]string{"1:r5": "1:x5", "2:r5": "2:x5", "2:r7": "2:x7"}},
		{"Z6.1+fence.w.w+fence.rw.w+fence.rw.w", "riscv/dat3m/litmus/RISCV/Z6.1+fence.w.w+fence.rw.w+fence.rw.w.litmus", RISCV, map[string]string{"2:r5": "2:x5"}},
	}
	files, err := filepath.Glob("kcomp/testdata/pairs/*.litmus")
	require.NoError(t, err)
	require.Len(t, files, len(pairs), "every file of kcomp/testdata/pairs has a pair")
	// norm writes a state with the C registers renamed and the
	// locations' brackets dropped, its bindings sorted.
	norm := func(s State, regs map[string]string) string {
		var out []string
		for _, v := range s.Values {
			loc := strings.Trim(v.Loc, "[]")
			if r, ok := regs[loc]; ok {
				loc = r // nil for ppc: its r1, r3 are the C test's names
			}
			out = append(out, loc+"="+v.Val.String())
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	for _, p := range pairs {
		asmFile := arch + p.asm
		if _, err := os.Stat(asmFile); err != nil {
			t.Errorf("%s: %v", p.c, err)
			continue
		}
		ct, err := litmus.ParseFile(filepath.Join("kcomp/testdata/pairs", p.c+".litmus"))
		require.NoError(t, err)
		at, err := litmus.ParseFile(asmFile)
		require.NoError(t, err)
		cr, err := Check(context.Background(), ct, p.m, Options{})
		require.NoError(t, err, p.c)
		ar, err := Check(context.Background(), at, p.m, Options{})
		require.NoError(t, err, p.asm)
		require.Equal(t, ar.Verdict, cr.Verdict, "%s under %s: the compiled C test and the assembly test differ", p.c, p.m)
		var cs, as []string
		for _, s := range cr.States.All() {
			cs = append(cs, norm(s, p.regs))
		}
		for _, s := range ar.States.All() {
			as = append(as, norm(s, map[string]string{}))
		}
		sort.Strings(cs)
		sort.Strings(as)
		require.Equal(t, as, cs, "%s under %s: final states", p.c, p.m)
		t.Logf("%s under %s: %s, %d final states, as %s", p.c, p.m, cr.Verdict, len(cs), p.asm)
	}
}
