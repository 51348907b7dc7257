package model

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/kcomp"
	"github.com/litmus-dev/litmus/model/lkmm"
)

// TestFaultsAreTheModels checks that a fault is a finding exactly under
// the models that allow an execution reaching it. In mp-null-acq and
// mp-null-once a thread's walk meets gp = NULL after flag = 1 (each read
// takes any value some write gives), so the axiomatic models' first check
// sees the fault; their second check keeps it only where the model allows
// such an execution: nowhere with release and acquire, under pso, the
// LKMM (also as linux-kernel.cat) and every architecture without them.
func TestFaultsAreTheModels(t *testing.T) {
	models := allModels()
	var kernel Model
	haveKernel := false
	if _, err := os.Stat(kernelModelDir); err == nil {
		var err error
		kernel, err = LoadKernel(kernelModelDir)
		require.NoError(t, err)
		models, haveKernel = append(models, kernel), true
	}
	for _, c := range []struct {
		file   string
		faulty map[string]bool // the models that find the fault
	}{
		{"testdata/faults/mp-null-acq.litmus", nil},
		{"testdata/faults/mp-null-once.litmus", map[string]bool{"pso": true, "lkmm": true, "aarch64": true, "aarch64-llsc": true, "riscv": true, "ppc": true, "linux-kernel.cat": true}},
	} {
		test, err := litmus.ParseFile(c.file)
		require.NoError(t, err)
		for _, m := range models {
			r, err := Check(context.Background(), test, m, Options{})
			require.NoError(t, err, "%s under %s", c.file, m)
			require.True(t, r.FaultsChecked, "%s under %s", c.file, m)
			require.Equal(t, c.faulty[m.String()], len(r.Faults) > 0, "%s under %s: faults %v", c.file, m, r.Faults)
			if len(r.Faults) > 0 {
				require.Equal(t, 35, r.Faults[0].Fault.Pos.Line, "%s under %s", c.file, m)
			}
		}
		// The first check met the fault in both tests: what decides
		// is the model (the walk alone would report it everywhere).
		b := limit.New(context.Background(), 0, 0)
		cp, err := kcomp.Compile(test, kcomp.AArch64, kcomp.Options{})
		require.NoError(t, err)
		ap, err := arch.Program(cp.Test, arch.Options{Budget: b})
		require.NoError(t, err)
		cm, err := AArch64.cat.model()
		require.NoError(t, err)
		_, err = catSearch(context.Background(), cm, ap, Options{}, nil)
		require.NoError(t, err)
		require.True(t, arch.SawFault(ap), "%s: aarch64's walk meets the fault", c.file)
		if haveKernel {
			lp, err := lkmm.ProgramLimited(test, 2, b)
			require.NoError(t, err)
			km, err := kernel.cat.model()
			require.NoError(t, err)
			_, err = catSearch(context.Background(), km, lp, Options{}, nil)
			require.NoError(t, err)
			require.True(t, lkmm.SawFault(lp), "%s: the LKMM's walk meets the fault", c.file)
		}
	}
}

// TestFaultSearchLimit checks that a search for faults stopped by a limit
// leaves the result Unknown, never a known verdict without the fault:
// under every axiomatic model, with candidate limits from 1 up, the
// fault tests either find their fault or say Unknown, and some limit
// stops the second check alone (its reason says so).
func TestFaultSearchLimit(t *testing.T) {
	models := []Model{LKMM}
	models = append(models, ArchModels()...)
	if _, err := os.Stat(kernelModelDir); err == nil {
		kernel, err := LoadKernel(kernelModelDir)
		require.NoError(t, err)
		models = append(models, kernel)
	}
	for _, f := range codeFaultTests {
		test, err := litmus.ParseFile(f.file)
		require.NoError(t, err)
		for _, m := range models {
			second := false
			for n := 1; n <= 12; n++ {
				r, err := Check(context.Background(), test, m, Options{MaxStates: n})
				require.NoError(t, err, "%s under %s", f.file, m)
				if r.Verdict == Unknown {
					second = second || strings.HasPrefix(r.Reason, "the search for accesses through NULL or a wild pointer stopped: ")
					continue
				}
				require.NotEmpty(t, r.Faults, "%s under %s, at most %d candidates: %s without its fault", f.file, m, n, r.Verdict)
			}
			require.True(t, second, "%s under %s: some limit stops the search for faults alone", f.file, m)
		}
	}
}
