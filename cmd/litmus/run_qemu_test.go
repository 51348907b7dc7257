package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunArm64UnderQemu runs the arm64 build of litmus itself under
// qemu-aarch64 on the kernel C tests it supports (the bundled ones and
// the shared corpus's), with the LSE atomics and with LL/SC, and requires
// that no model forbids a state the run saw. It checks the command on
// arm64 end to end (the host's code generator and the model it holds the
// run to by default); qemu on an x86 host shows no weak arm64 behaviour
// of its own, so it checks the code, not an arm64 chip. internal/harness's
// TestArm64UnderQemu runs the harness's own tests the same way.
func TestRunArm64UnderQemu(t *testing.T) {
	if runtime.GOARCH == "arm64" || runtime.GOOS != "linux" {
		t.Skip("for x86-64 Linux hosts: an arm64 host runs litmus run natively")
	}
	if testing.Short() {
		t.Skip("builds litmus for arm64: not in -short")
	}
	qemu, err := exec.LookPath("qemu-aarch64")
	if err != nil {
		t.Skip("qemu-aarch64 not installed (Debian: apt-get install qemu-user)")
	}
	bin := filepath.Join(t.TempDir(), "litmus")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	build := exec.Command(gobin, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOARCH=arm64", "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build for arm64: %s", out)

	inputs := []string{"../../testdata", "../../internal/harness/testdata/c-spin.litmus", "../../internal/harness/testdata/c-expr.litmus"}
	corpus := "../../../shared/corpus/lkmm"
	if _, err := os.Stat(corpus); err == nil {
		inputs = append(inputs, corpus)
	}
	// The third case takes the other code paths of the generated loop:
	// the timebase start (CNTVCT_EL0, CNTFRQ_EL0), the random delay, one
	// instance's locations side by side, threads moving between CPUs.
	for _, c := range []struct {
		name, cpu, arch, model string
		opts                   []string
	}{
		{"lse", "max", "arm64", "aarch64", nil},
		{"llsc", "cortex-a57", "arm64-llsc", "aarch64-llsc", nil},
		{"llsc-timebase", "cortex-a57", "arm64-llsc", "aarch64-llsc", []string{"--sync", "timebase", "--delay", "20", "--layout", "together", "--affinity", "rotate"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"-cpu", c.cpu, bin, "run", "--json", "--iterations", "2000", "--size", "500"}, c.opts...)
			args = append(args, inputs...)
			cmd := exec.Command(qemu, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else {
				require.NoError(t, err)
			}
			// Exit 2 only for the tests run does not support (RCU grace
			// periods) or refuses (a fault some model finds), each one
			// said on stderr.
			refused := regexp.MustCompile(`not supported by run: |not run: \S+ finds an access through NULL or a wild pointer`)
			for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
				if line != "" {
					require.Regexp(t, refused, line, "stderr: %s", stderr.String())
				}
			}
			require.Contains(t, []int{exitOK, exitUsage}, code, "stderr: %s", stderr.String())
			dec := json.NewDecoder(&stdout)
			ran, compared := 0, 0
			for dec.More() {
				var j runJSON
				require.NoError(t, dec.Decode(&j))
				require.Equal(t, c.arch, j.Arch, "%s", j.File)
				if j.Error != nil {
					require.Regexp(t, refused, *j.Error, "%s", j.File)
					continue
				}
				ran++
				if c.opts != nil {
					require.Contains(t, j.Options, "--layout together --affinity rotate", "%s", j.File)
					require.Contains(t, j.Options, "--sync timebase --period ", "%s", j.File)
				}
				require.Equal(t, j.Iterations, j.Instances+j.Abandoned+j.Dropped+j.Lost+j.Filtered, "%s", j.File)
				require.Len(t, j.Models, 2, "%s", j.File)
				require.Equal(t, c.model, j.Models[0].Model, "%s: held to the model of the code that ran", j.File)
				for _, m := range j.Models {
					require.Nil(t, m.Error, "%s: %s", j.File, m.Model)
					require.Empty(t, m.ForbiddenSeen, "%s: %s forbids states the run saw", j.File, m.Model)
				}
				if j.Models[0].Verdict != "Unknown" { // a spin loop's bound leaves some Unknown
					compared++
				}
			}
			t.Logf("%s: %d tests run under qemu-aarch64 -cpu %s %v", c.name, ran, c.cpu, c.opts)
			require.Greater(t, ran, 10)
			require.Greater(t, 4*compared, 3*ran, "%s answered most tests (%d of %d)", c.model, compared, ran)
			t.Logf("%s answered %d of them", c.model, compared)
		})
	}
}
