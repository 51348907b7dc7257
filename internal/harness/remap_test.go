package harness

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kmap"
)

// TestRunRegistersRemapped runs X86 tests whose registers are the ones the
// run loop cannot give away (EBP, ESP, R14: Dat3M's X86/n3 uses EBP),
// which litmus7 runs: each moves to a free machine register, and the
// histogram stays within x86-TSO.
func TestRunRegistersRemapped(t *testing.T) {
	for _, f := range []string{"testdata/X86-ebp.litmus", "testdata/X86_64-r14.litmus"} {
		tt := parseTest(t, f)
		p, err := compile(tt, string(kmap.X86_64), Options{}.withDefaults())
		require.NoError(t, err, "%s", f)
		require.Len(t, p.threads, 2)
		if arch, _ := HostArch(""); arch != string(kmap.X86_64) {
			continue
		}
		require.True(t, runAgainstModels(t, f, smallRun()), "%s: the run must support it", f)
	}
}

// TestRemapKeepsRunRegisters checks the register map itself: the test's
// own registers stay where they are, RSP, RBP and R14 go to registers the
// test does not name, never to RAX (CMPXCHG's implicit operand), and a
// thread that names every register is refused with the reason.
func TestRemapKeepsRunRegisters(t *testing.T) {
	tt := parseTest(t, "testdata/X86-ebp.litmus")
	p := &program{test: tt, byName: map[string]*variable{}}
	require.NoError(t, p.declareVars(false))
	for _, pr := range tt.Procs {
		xp, err := p.scanX86(pr)
		require.NoError(t, err)
		targets := map[xreg]bool{}
		for from, to := range xp.remap {
			require.False(t, targets[to], "two test registers share %s", xregName(to, 8))
			targets[to] = true
			for _, r := range runRegs {
				require.NotEqual(t, r, to, "%s lands on %s", xregName(from, 8), xregName(r, 8))
			}
			if !slices.Contains(runRegs, from) {
				require.Equal(t, from, to, "%s moved", xregName(from, 8))
			} else {
				require.NotEqual(t, rAX, to)
			}
		}
	}

	// Every one of the 16 registers named: no room for RBP's.
	var code []string
	for r := xreg(0); r < 16; r++ {
		code = append(code, fmt.Sprintf(" MOV %s,$%d ;", strings.ToUpper(xregName(r, 4)), r))
	}
	src := "X86 all\n{ }\n P0 ;\n" + strings.Join(code, "\n") + "\nexists (0:EAX=0)\n"
	tt, err := litmus.Parse("all.litmus", []byte(src))
	require.NoError(t, err, src)
	_, err = compile(tt, string(kmap.X86_64), Options{}.withDefaults())
	require.Error(t, err)
	require.True(t, isUnsupported(err), "%v", err)
	require.Contains(t, err.Error(), "none is free for")
}
