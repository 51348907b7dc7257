package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The arm64 code generator runs on an x86-64 host under qemu-aarch64
// (Debian's qemu-user): this package's tests, built for arm64, run there
// as they would on an arm64 machine, generated code, trampoline, barrier,
// cache flush and all. qemu on an x86 host shows no weak arm64 behaviour
// beyond what the host's own x86-TSO shows through it (store buffering),
// so this checks that the code is right, not that the mapping is strong
// enough for an arm64 chip: the histograms must stay within what the
// models allow, as everywhere.

// qemuTests are the tests that run the generated arm64 code.
const qemuTests = "^(TestHostArch|TestBarrierGivesUp|TestCollectDoesNotAllocate|TestRunTimeout|TestRunLeavesAffinityAlone|TestEveryRowComputesWhatTheModelDoes|TestRunBundled|TestRunCorpus|TestRunObjects)$"

// TestHostArch checks that HostArch picks the code generator
// LITMUS_WANT_ARCH names, when set: the qemu test sets it to make sure the
// CPU it emulates got the atomics it has (LSE, or LL/SC on a Cortex-A57).
func TestHostArch(t *testing.T) {
	want := os.Getenv("LITMUS_WANT_ARCH")
	if want == "" || !Supported() {
		t.Skip("LITMUS_WANT_ARCH not set")
	}
	arch, err := HostArch("")
	require.NoError(t, err)
	require.Equal(t, want, arch)
	t.Logf("host arch %s", arch)
	if arch == "arm64-llsc" {
		// Asking for LSE on a CPU without it is an error, not a SIGILL
		// in the generated code.
		_, err := HostArch("lse")
		require.ErrorContains(t, err, "no LSE atomics")
	}
}

// TestArm64UnderQemu builds this package's tests for arm64 and runs those
// that execute generated code under qemu-aarch64, once with the LSE
// atomics (qemu's default CPU has them) and once with LL/SC (a Cortex-A57
// has none). On an arm64 host the tests run natively instead.
func TestArm64UnderQemu(t *testing.T) {
	if runtime.GOARCH == "arm64" {
		t.Skip("an arm64 host runs the arm64 code natively")
	}
	if runtime.GOOS != "linux" {
		t.Skip("qemu-user runs Linux binaries on Linux")
	}
	if testing.Short() {
		t.Skip("builds the package for arm64: not in -short")
	}
	qemu, err := exec.LookPath("qemu-aarch64")
	if err != nil {
		t.Skip("qemu-aarch64 not installed (Debian: apt-get install qemu-user)")
	}
	bin := filepath.Join(t.TempDir(), "harness.test")
	build := exec.Command(goTool(), "test", "-c", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOARCH=arm64", "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go test -c for arm64: %s", out)

	for _, c := range []struct{ cpu, arch string }{{"max", "arm64"}, {"cortex-a57", "arm64-llsc"}} {
		t.Run(c.arch, func(t *testing.T) {
			cmd := exec.Command(qemu, "-cpu", c.cpu, bin, "-test.run", qemuTests, "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), "LITMUS_WANT_ARCH="+c.arch)
			out, err := cmd.CombinedOutput()
			text := string(out)
			require.NoError(t, err, "under qemu-aarch64 -cpu %s:\n%s", c.cpu, tail(text, 6000))
			for _, name := range []string{"TestHostArch", "TestEveryRowComputesWhatTheModelDoes", "TestRunBundled", "TestBarrierGivesUp", "TestRunObjects"} {
				require.Contains(t, text, "--- PASS: "+name+" ", "%s must have run and passed:\n%s", name, tail(text, 3000))
			}
			if len(corpusTests(t)) > 0 {
				require.Contains(t, text, "--- PASS: TestRunCorpus ")
			}
			runs := len(regexp.MustCompile(`(?m)^    --- PASS: TestRun(Bundled|Corpus)/`).FindAllString(text, -1))
			t.Logf("%s: %d tests run under qemu-aarch64 -cpu %s", c.arch, runs, c.cpu)
			require.Positive(t, runs)
		})
	}
}

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:][strings.IndexByte(s[len(s)-n:], '\n')+1:]
}
