package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/harness"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

// The run's output depends on the machine, so these tests check its
// format and its consistency (counts add up, every state is judged), never
// how often an outcome appears.

const sbFile = "../../internal/harness/testdata/SB.litmus"

var (
	runHeaderRE = regexp.MustCompile(`^% litmus run \S+ on (x86-64|arm64|arm64-llsc): .+ CPUs`)
	runStateRE  = regexp.MustCompile(`^(\d+)\s*([*:])>((?:\S+=\S+; ?)+)(?:  \[((?:\w+ (?:allowed|FORBIDDEN|\?)(?:, )?)+)\])?$`)
)

// checkRunText checks the format of one test's run output and returns the
// states' counts by state.
func checkRunText(t *testing.T, out string) map[string]int64 {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.Regexp(t, runHeaderRE, lines[0])
	require.Regexp(t, `^Options: --iterations \d+ --size \d+ --stride \d+ --layout \w+ --affinity \w+ --cpus [0-9,]+ --sync \w+`, lines[1])
	require.Regexp(t, `^Threads: \d+ threads`, lines[2])
	i := 3
	for strings.HasPrefix(lines[i], "Noise:") {
		i++
	}
	require.Regexp(t, `^Test \S+ (Allowed|Forbidden|Required)$`, lines[i])
	m := regexp.MustCompile(`^Histogram \((\d+) states\)$`).FindStringSubmatch(lines[i+1])
	require.NotNil(t, m, lines[i+1])
	n, _ := strconv.Atoi(m[1])
	counts := map[string]int64{}
	for _, l := range lines[i+2 : i+2+n] {
		sm := runStateRE.FindStringSubmatch(l)
		require.NotNil(t, sm, "state line %q", l)
		c, _ := strconv.ParseInt(sm[1], 10, 64)
		counts[sm[3]] = c
	}
	rest := strings.Join(lines[i+2+n:], "\n")
	require.Regexp(t, `(?m)^(Ok|No)\n\nWitnesses\nPositive: \d+, Negative: \d+\n`, rest)
	require.Regexp(t, `(?m)^Observation \S+ (Never|Sometimes|Always) \d+ \d+$`, rest)
	require.Regexp(t, `(?m)^Time \S+ \d+\.\d\d$`, rest)
	return counts
}

func TestRunCommandFormat(t *testing.T) {
	if !harness.Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	if arch, _ := harness.HostArch(""); arch != "x86-64" {
		t.Skip("SB is an X86 test")
	}
	out, errOut, code := run(t, "run", "--iterations", "20000", "--size", "500", sbFile)
	require.Equal(t, exitOK, code, errOut)
	counts := checkRunText(t, out)
	var sum int64
	for _, c := range counts {
		sum += c
	}
	// Instances a thread gave up at the barrier (an overloaded machine)
	// are counted apart.
	for _, m := range regexp.MustCompile(`(?m)^Instances .*: (\d+)$`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		sum += n
	}
	require.Equal(t, int64(20000), sum, "every instance is accounted for")
	require.Contains(t, out, "Condition exists (0:EAX=0 /\\ 1:EAX=0) is ")
	require.Contains(t, out, "Model tso: Sometimes, 4 states allowed; every observed state is allowed")
	for st := range counts {
		require.Contains(t, out, ">"+st+"  [tso allowed]")
	}
}

func TestRunCommandJSON(t *testing.T) {
	if !harness.Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	out, errOut, code := run(t, "run", "--json", "--iterations", "5000", "--size", "500",
		"../../internal/harness/testdata/c-spin.litmus", "../../testdata/nospace.litmus")
	require.Equal(t, exitOK, code, errOut)
	arch, err := harness.HostArch("")
	require.NoError(t, err)
	archModel := map[string]string{"x86-64": "tso", "arm64": "aarch64", "arm64-llsc": "aarch64-llsc"}[arch]
	dec := json.NewDecoder(strings.NewReader(out))
	for _, name := range []string{"c-spin", "nospace"} {
		var j runJSON
		require.NoError(t, dec.Decode(&j))
		require.Equal(t, name, j.Test)
		require.Nil(t, j.Error)
		var sum int64
		for _, s := range j.States {
			sum += s.Count
			require.Contains(t, s.Allowed, archModel)
		}
		require.Equal(t, j.Instances, sum)
		require.Equal(t, j.Iterations, j.Instances+j.Abandoned+j.Dropped+j.Lost+j.Filtered)
		require.Equal(t, j.Instances, j.Positive+j.Negative)
		require.Len(t, j.Models, 2) // the host's architecture model and lkmm for a C test
		require.Equal(t, archModel, j.Models[0].Model)
	}
}

// TestRunCommandForbidden holds SB to sequential consistency, which
// forbids its relaxed outcome: when the run shows that outcome, litmus run
// must fail loudly; when it does not, nothing is forbidden.
func TestRunCommandForbidden(t *testing.T) {
	if !harness.Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	if arch, _ := harness.HostArch(""); arch != "x86-64" {
		t.Skip("SB is an X86 test")
	}
	out, errOut, code := run(t, "run", "--model", "sc", "--iterations", "20000", "--size", "500", sbFile)
	counts := checkRunText(t, out)
	if counts["0:EAX=0; 1:EAX=0;"] > 0 {
		require.Equal(t, exitCheck, code)
		require.Contains(t, errOut, "FORBIDDEN by sc: 0:EAX=0; 1:EAX=0; was observed")
		require.Contains(t, out, "*>0:EAX=0; 1:EAX=0;  [sc FORBIDDEN]")
		require.Contains(t, out, "observed states are FORBIDDEN")
	} else {
		require.Equal(t, exitOK, code, errOut)
	}
}

func TestRunCommandErrors(t *testing.T) {
	_, errOut, code := run(t, "run", "--layout", "sideways", sbFile)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "unknown layout")
	_, errOut, code = run(t, "run", "--cpus", "3-1", sbFile)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "bad CPU list")
	_, _, code = run(t, "run")
	require.Equal(t, exitUsage, code)
	if !harness.Supported() {
		return
	}
	dir := t.TempDir()
	f := dir + "/gp.litmus"
	require.NoError(t, os.WriteFile(f, []byte("C gp\n{}\nP0(int *x) {\n\tsynchronize_rcu();\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n"), 0o644))
	_, errOut, code = run(t, "run", "--iterations", "100", f, "../../internal/harness/testdata/c-spin.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "gp.litmus:4:2: not supported by run: synchronize_rcu needs the kernel's grace-period machinery")
}

func TestParseCPUs(t *testing.T) {
	got, err := parseCPUs("0-2,5")
	require.NoError(t, err)
	require.Equal(t, []int{0, 1, 2, 5}, got)
	for _, bad := range []string{"", "a", "2-1", "-1"} {
		_, err := parseCPUs(bad)
		require.Error(t, err, bad)
	}
}

// TestRunTextMarksForbidden checks the comparison and its printing on a
// made-up result, so that the forbidden path is tested on every machine.
func TestRunTextMarksForbidden(t *testing.T) {
	tt, err := litmus.ParseFile(sbFile)
	require.NoError(t, err)
	mr, err := model.Check(t.Context(), tt, model.SC, model.Options{})
	require.NoError(t, err)
	res := &harness.Result{Test: "SB", Arch: "x86-64", Threads: 2, Placement: []int{0, 1},
		Options: harness.Options{Iterations: 10, Size: 10, Stride: 64, CPUs: []int{0, 1}, LoopBound: 10, Seed: 1},
		Locs:    []string{"0:EAX", "1:EAX"},
		States: []harness.State{
			{Values: []harness.Value{{Int: 0}, {Int: 0}}, Count: 3, Holds: true},
			{Values: []harness.Value{{Int: 0}, {Int: 1}}, Count: 7},
		},
		Instances: 10, Positive: 3, Negative: 7}
	mc := &modelCheck{model: model.SC, res: mr}
	compareRun(mc, res)
	require.Equal(t, []string{"0:EAX=0; 1:EAX=0;"}, mc.forbidden)
	require.Equal(t, []string{"0:EAX=1; 1:EAX=0;", "0:EAX=1; 1:EAX=1;"}, mc.unseen)
	var b bytes.Buffer
	writeRunText(&b, sbFile, tt, "x86-64", "a machine, 2 CPUs", res, []*modelCheck{mc})
	out := b.String()
	checkRunText(t, out)
	require.Contains(t, out, "3     *>0:EAX=0; 1:EAX=0;  [sc FORBIDDEN]\n")
	require.Contains(t, out, "7     :>0:EAX=0; 1:EAX=1;  [sc allowed]\n")
	require.Contains(t, out, "Ok\n\nWitnesses\nPositive: 3, Negative: 7\n")
	require.Contains(t, out, "Observation SB Sometimes 3 7\n")
	require.Contains(t, out, "Model sc: Never, 3 states allowed; 1 observed states are FORBIDDEN\n  allowed by sc, never observed:\n    0:EAX=1; 1:EAX=0;\n")
}

// TestDocsRunExamples checks the format of the captured runs in the guide:
// they cannot be re-run (a histogram varies), but they must stay what the
// command prints.
func TestDocsRunExamples(t *testing.T) {
	src, err := os.ReadFile("../../docs/guide.md")
	require.NoError(t, err)
	re := regexp.MustCompile("(?m)^<!-- run example -->\n```\n((?:.*\n)*?)```\n")
	blocks := re.FindAllStringSubmatch(string(src), -1)
	require.GreaterOrEqual(t, len(blocks), 2)
	for _, b := range blocks {
		counts := checkRunText(t, b[1])
		var sum int64
		for _, c := range counts {
			sum += c
		}
		m := regexp.MustCompile(`--iterations (\d+)`).FindStringSubmatch(b[1])
		require.NotNil(t, m)
		n, _ := strconv.ParseInt(m[1], 10, 64)
		require.LessOrEqual(t, sum, n, "more instances in the histogram than --iterations")
		require.NotContains(t, b[1], "FORBIDDEN")
	}
}

func TestRunCommandBadCPU(t *testing.T) {
	if !harness.Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	_, errOut, code := run(t, "run", "--cpus", "1000", "--iterations", "10", "../../internal/harness/testdata/c-spin.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "CPU 1000 is not one this process may run on")
}

// TestRunCommandCounts checks the counting flags: 0 and garbage are usage
// errors (0 used to run the default silently), litmus7's -s and -r mean
// what they mean there, with its 100k/1M syntax, and -a is refused with
// the flag to use.
func TestRunCommandCounts(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--iterations", "0"}, `invalid value "0" for flag -iterations: must be at least 1`},
		{[]string{"--size", "0"}, `invalid value "0" for flag -size: must be at least 1`},
		{[]string{"--iterations", "-3"}, `invalid value "-3" for flag -iterations: must be at least 1`},
		{[]string{"-s", "0"}, `invalid value "0" for flag -s: must be at least 1`},
		{[]string{"-r", "0"}, `invalid value "0" for flag -r: must be at least 1`},
		{[]string{"--iterations", "1x"}, `want a count`},
		{[]string{"-r", "2", "--iterations", "10"}, "give one"},
		{[]string{"-a", "4"}, "-a 4 is litmus7's number of available CPUs"},
		{[]string{"-a", "4"}, "--cpus"},
		{[]string{"--size", "9999999999"}, "too large"},
	} {
		_, errOut, code := run(t, append(append([]string{"run"}, c.args...), sbFile)...)
		require.Equal(t, exitUsage, code, "%v: %s", c.args, errOut)
		require.Contains(t, errOut, c.msg, "%v", c.args)
	}
	if !harness.Supported() {
		return
	}
	file := "../../internal/harness/testdata/c-spin.litmus"
	for _, c := range []struct {
		args []string
		opts string
	}{
		{[]string{"-s", "500", "-r", "3"}, "--iterations 1500 --size 500 "},
		{[]string{"-s", "1k", "-r", "2"}, "--iterations 2000 --size 1000 "},
		{[]string{"-r", "2"}, "--iterations 2000 --size 1000 "},
		{[]string{"--iterations", "2k", "-s", "200"}, "--iterations 2000 --size 200 "},
	} {
		out, errOut, code := run(t, append(append([]string{"run"}, c.args...), file)...)
		require.Equal(t, exitOK, code, "%v: %s", c.args, errOut)
		require.Contains(t, out, "Options: "+c.opts, "%v", c.args)
	}
}

// TestRunRefusesFaults checks that run refuses a test where a model finds
// an access through NULL or a wild pointer (the machine would reach
// memory outside the test's), with the model and the fault, and runs a
// test whose objects no fault leaves (ptr_add at a constant and a run-time
// offset).
func TestRunRefusesFaults(t *testing.T) {
	if !harness.Supported() {
		t.Skip("litmus run needs Linux on amd64 or arm64")
	}
	for _, c := range []struct{ file, line string }{
		{"../../testdata/code/rcu-null-code.litmus", ":44:"},
		{"../../testdata/code/ring-underrun-code.litmus", ":47:"},
	} {
		out, errOut, code := run(t, "run", "-s", "100", "-r", "2", c.file)
		require.Equal(t, exitUsage, code, "%s: %s%s", c.file, out, errOut)
		require.Contains(t, errOut, "not run: ", c.file)
		require.Contains(t, errOut, "finds an access through NULL or a wild pointer", c.file)
		require.Contains(t, errOut, c.line, "%s: the place of the access", c.file)
		require.Empty(t, out, c.file)
	}
	for _, f := range []string{"../../testdata/code/rcu-publish-code.litmus", "../../testdata/code/ring-dep-code.litmus"} {
		out, errOut, code := run(t, "run", "-s", "100", "-r", "2", f)
		require.Equal(t, exitOK, code, "%s: %s%s", f, out, errOut)
		checkRunText(t, out)
	}
}
