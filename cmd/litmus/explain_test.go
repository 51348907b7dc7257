package main

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// explain --state is the state asked about under every model: an
// impossible state is reached by no allowed execution (it used to report
// the condition's count under lkmm and the architectures), and a possible
// one is shown even on a test whose condition is Never.
func TestExplainStateEveryModel(t *testing.T) {
	for _, m := range []string{"sc", "tso", "pso", "lkmm", "arm64", "arm64-llsc", "riscv", "power"} {
		out, errOut, code := run(t, "explain", "--model", m, "--state", "0:r0=2", "../../testdata/nospace-mirror-after.litmus")
		require.Equal(t, exitOK, code, "%s: %s", m, errOut)
		require.NotContains(t, out, "1 reach", m)
		if m == "sc" || m == "tso" || m == "pso" {
			require.Contains(t, out, "No execution reaches the final state 0:r0=2", m)
		} else {
			require.Contains(t, out, "0 reach the final state 0:r0=2", m)
		}

		// nospace is Never, but the state where P0 saw no space then
		// space, and P1 saw nospace=1, is reachable: that is what is
		// explained.
		out, errOut, code = run(t, "explain", "--model", m, "--state", "0:r1=1 /\\ 1:r3=1", "../../testdata/nospace.litmus")
		require.Equal(t, exitOK, code, "%s: %s", m, errOut)
		if m == "sc" || m == "tso" || m == "pso" {
			require.Contains(t, out, "An execution reaching the final state 0:r1=1 /\\ 1:r3=1:", m)
		} else {
			require.Contains(t, out, "reach the final state 0:r1=1 /\\ 1:r3=1", m)
			require.Contains(t, out, "The first one that does:", m)
			require.Regexp(t, `final: 0:r0=\d; 0:r1=1; 1:r3=1;`, out, "%s: the witness is in the state asked for", m)
			require.NotContains(t, out, "rejected by", m)
		}
	}
}

// An axiomatic Sometimes shows one witness execution, in text and DOT,
// the first of the enumeration whatever the number of workers.
func TestExplainAxiomaticWitness(t *testing.T) {
	out, errOut, code := run(t, "explain", "--model", "lkmm", "--dot", "-", "../../testdata/wfree-no-barrier.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, errOut, "The first one that does:")
	require.Contains(t, errOut, "final: 0:r2=0; 1:r3=2;")
	require.Contains(t, out, `label="wfree-no-barrier under lkmm: Sometimes (0:r2=0; 1:r3=2;)"`)
	golden(t, "explain/wfree-no-barrier-lkmm.dot", out)

	prev := runtime.GOMAXPROCS(1)
	one, _, _ := run(t, "explain", "--model", "lkmm", "--dot", "-", "../../testdata/wfree-no-barrier.litmus")
	runtime.GOMAXPROCS(prev)
	require.Equal(t, out, one, "the witness depends on GOMAXPROCS")
}

// Several models are drawn side by side, one cluster each.
func TestExplainSideBySide(t *testing.T) {
	out, errOut, code := run(t, "explain", "--model", "tso,lkmm,arm64", "--dot", "-", "../../testdata/nospace-mirror-after.litmus")
	require.Equal(t, exitOK, code, errOut)
	for _, title := range []string{"nospace-mirror-after under tso: Sometimes", "nospace-mirror-after under lkmm: Sometimes", "nospace-mirror-after under aarch64: Never (forbidden: "} {
		require.Contains(t, out, title)
	}
	require.Len(t, regexp.MustCompile(`subgraph cluster_m\d+ \{`).FindAllString(out, -1), 3)
	require.Equal(t, 3, strings.Count(errOut, "Test nospace-mirror-after under "), "one explanation per model")
}

// --svg renders the picture: the SVG parses as XML and names every event
// of the DOT.
func TestExplainSVG(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("Graphviz's dot is not installed")
	}
	dir := t.TempDir()
	svg, dotFile := filepath.Join(dir, "g.svg"), filepath.Join(dir, "g.dot")
	_, errOut, code := run(t, "explain", "--model", "lkmm", "--svg", svg, "--dot", dotFile, "../../testdata/nospace.litmus")
	require.Equal(t, exitOK, code, errOut)
	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	var text strings.Builder
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the SVG does not parse as XML")
		if cd, ok := tok.(xml.CharData); ok {
			text.Write(cd)
			text.WriteByte('\n')
		}
	}
	dot, err := os.ReadFile(dotFile)
	require.NoError(t, err)
	events := 0
	for _, line := range strings.Split(string(dot), "\n") {
		// An event's node: e12 [label="m: R[once] space=0\n...
		_, rest, ok := strings.Cut(line, ` [label="`)
		if !ok || !strings.HasPrefix(strings.TrimSpace(line), "e") || strings.Contains(line, "->") {
			continue
		}
		first, _, _ := strings.Cut(rest, `\n`)
		first = strings.TrimSuffix(strings.TrimSuffix(first, `"];`), `", fontcolor=gray30];`)
		require.Contains(t, text.String(), strings.ReplaceAll(first, "  ", " "), "the SVG does not name event %q", first)
		events++
	}
	require.Equal(t, 12, events, "nospace has 3 initial writes and 9 events under lkmm")
}

// Without Graphviz, --svg says what is missing (exit 2).
func TestExplainSVGWithoutDot(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, errOut, code := run(t, "explain", "--model", "lkmm", "--svg", filepath.Join(t.TempDir(), "g.svg"), "../../testdata/nospace.litmus")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "--svg: rendering needs Graphviz's dot")
}

// The pictures of docs/img are litmus explain's, fresh: each DOT listed
// in docs/img/pictures.txt is what its command prints today (-update
// rewrites them; docs/pictures.sh renders the PNGs).
func TestDocsPictures(t *testing.T) {
	f, err := os.Open("../../docs/img/pictures.txt")
	require.NoError(t, err)
	defer f.Close()
	t.Chdir("../..")
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, args, ok := strings.Cut(line, ":")
		require.True(t, ok, "bad line %q", line)
		out, errOut, code := run(t, append([]string{"explain", "--dot", "-"}, strings.Fields(args)...)...)
		require.Equal(t, exitOK, code, "%s: %s", name, errOut)
		file := filepath.Join("docs/img", name+".dot")
		if *update {
			require.NoError(t, os.WriteFile(file, []byte(out), 0o644))
		}
		want, err := os.ReadFile(file)
		require.NoError(t, err, "run bash docs/pictures.sh")
		require.Equal(t, string(want), out, "%s is stale: run bash docs/pictures.sh", file)
		_, err = os.Stat(filepath.Join("docs/img", name+".png"))
		require.NoError(t, err, "%s.png is missing: run bash docs/pictures.sh", name)
		n++
	}
	require.NoError(t, sc.Err())
	require.Positive(t, n)
}
