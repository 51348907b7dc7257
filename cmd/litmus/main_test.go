package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// run runs the litmus command line in-process.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./cmd/litmus -update")
	if string(want) != got {
		t.Errorf("%s differs (-want +got):\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff is a small line-oriented diff for golden-file failures.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := max(len(w), len(g))
	for i := 0; i < n; i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			if i < len(w) {
				b.WriteString("-" + a + "\n")
			}
			if i < len(g) {
				b.WriteString("+" + c + "\n")
			}
		}
	}
	return b.String()
}

// seedTests are the project's own litmus tests.
func seedTests(t *testing.T) []string {
	files, err := filepath.Glob("../../testdata/*.litmus")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

func TestHelpGolden(t *testing.T) {
	out, _, code := run(t, "help")
	require.Equal(t, exitOK, code)
	var b strings.Builder
	b.WriteString(out)
	for _, c := range commands {
		o, e, code := run(t, "help", c.Name)
		require.Equal(t, exitOK, code, "help %s: %s", c.Name, e)
		b.WriteString("\n=== litmus help " + c.Name + "\n" + o)
	}
	golden(t, "help.golden", b.String())
}

func TestCheckTextGolden(t *testing.T) {
	for _, f := range seedTests(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".litmus")
		t.Run(name, func(t *testing.T) {
			out, errOut, code := run(t, "check", "--model", "sc,tso,pso", "-v", "--time=false", f)
			golden(t, "check/"+name+".txt", out+"--- stderr\n"+errOut+"--- exit "+strconv.Itoa(code)+"\n")
		})
	}
}

func TestCheckJSONGolden(t *testing.T) {
	for _, f := range seedTests(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".litmus")
		t.Run(name, func(t *testing.T) {
			out, _, _ := run(t, "check", "--model", "sc,tso,pso", "--json", f)
			// elapsed_s is the one field that varies from run to run.
			var b strings.Builder
			sc := bufio.NewScanner(strings.NewReader(out))
			for sc.Scan() {
				var obj map[string]any
				require.NoError(t, json.Unmarshal(sc.Bytes(), &obj), "not JSON: %s", sc.Text())
				for _, k := range []string{"file", "test", "model", "observation", "states", "expected", "ok",
					"invariant_violations", "stuck", "flags", "dropped", "explored_states", "elapsed_s", "error"} {
					require.Contains(t, obj, k, "schema field %q missing", k)
				}
				obj["elapsed_s"] = 0
				line, err := json.Marshal(obj)
				require.NoError(t, err)
				b.Write(line)
				b.WriteByte('\n')
			}
			golden(t, "json/"+name+".jsonl", b.String())
		})
	}
}

func TestExplainGolden(t *testing.T) {
	for _, c := range []struct{ name, file, model string }{
		{"nospace-mirror-after-tso", "nospace-mirror-after.litmus", "tso"},
		{"nospace-no-mb-pso", "nospace-no-mb.litmus", "pso"},
		{"nospace-mirror-invariant-sc", "nospace-mirror-invariant.litmus", "sc"},
		{"wfree-plain-store-tso", "wfree-plain-store.litmus", "tso"},
		// A fault's witness: the trace (sc), the allowed execution
		// (lkmm, an architecture on the compiled test).
		{"rcu-null-code-sc", "code/rcu-null-code.litmus", "sc"},
		{"rcu-null-code-lkmm", "code/rcu-null-code.litmus", "lkmm"},
		{"ring-underrun-code-riscv", "code/ring-underrun-code.litmus", "riscv"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, "explain", "--model", c.model, "../../testdata/"+c.file)
			require.Equal(t, exitOK, code, errOut)
			golden(t, "explain/"+c.name+".txt", out)
		})
	}
}

func TestFencesGolden(t *testing.T) {
	for _, c := range []struct{ name, file string }{
		{"nospace", "nospace.litmus"},
		{"wfree", "wfree.litmus"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, "fences", "--model", "sc,tso,pso", "../../testdata/"+c.file)
			require.Equal(t, exitOK, code, errOut)
			golden(t, "fences/"+c.name+".txt", out)
		})
	}
}
