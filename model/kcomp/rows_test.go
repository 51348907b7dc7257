package kcomp

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/kmap"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// notCompiled lists the primitives of litmus's table that no target
// compiles, with the reason: each is a kmap gap on every architecture.
var notCompiled = map[string]string{
	"synchronize_srcu":           "an SRCU grace period: the srcu_struct's per-CPU counters and a waiting kthread, no instruction sequence",
	"synchronize_srcu_expedited": "as synchronize_srcu",
	"srcu_read_lock":             "its meaning is only its pairing with synchronize_srcu, which is not compiled",
	"srcu_read_unlock":           "as srcu_read_lock",
	"srcu_down_read":             "as srcu_read_lock",
	"srcu_up_read":               "as srcu_read_lock",
}

// toyRCU lists the primitives that have no kmap row (a gap on every
// architecture: no instruction sequence) and that the compiler writes as
// the toy RCU's locks and barriers instead (rcu.go).
var toyRCU = map[string]bool{"synchronize_rcu": true, "synchronize_rcu_expedited": true}

// callOf writes a call of primitive p on location x with the value
// operands 1 and 2, assigning its result to r0 when it returns one: one C
// statement.
func callOf(p *litmus.Primitive) string {
	var args []string
	k := 1
	for _, a := range p.Args {
		switch a {
		case litmus.ArgPtr:
			args = append(args, "x")
		case litmus.ArgLval:
			args = append(args, "*x")
		case litmus.ArgBit:
			args = append(args, "3")
		default:
			args = append(args, fmt.Sprint(k))
			k++
		}
	}
	call := p.Name + "(" + strings.Join(args, ", ") + ")"
	if p.Ret != litmus.RetNone {
		return "r0 = " + call + ";"
	}
	return call + ";"
}

// compileRow compiles a one-thread test made of primitive p's call for
// tg and returns the thread's instructions, one a line.
func compileRow(p *litmus.Primitive, tg Target) (string, error) {
	src := "C row\n{}\nP0(int *x)\n{\n\tint r0;\n\t" + callOf(p) + "\n}\nlocations [0:r0]\nexists (x=0)\n"
	t, err := litmus.Parse("row.litmus", []byte(src))
	if err != nil {
		return "", err
	}
	c, err := Compile(t, tg, Options{})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, in := range c.Test.Procs[0].Code {
		if in.Label != "" && in.Op != "" {
			b.WriteString(in.Label + ": ")
		}
		b.WriteString(litmus.InstrString(in) + "\n")
	}
	return b.String(), nil
}

// TestRowsGolden: every primitive of litmus's table, compiled alone for
// every target, is the instruction sequence in
// testdata/rows/<target>.golden (go test ./model/kcomp -run RowsGolden
// -update rewrites them), or one of notCompiled, whose kmap gap the test
// requires on every target. The sequence is the kmap row as a litmus test
// has it: the placeholders bound ({addr} the register holding x, {v} and
// {w} constants 1 and 2 loaded first, {ret} r0's register), hints left
// out, a retry branch ending the path (the package comment).
func TestRowsGolden(t *testing.T) {
	for _, tg := range Targets() {
		var b strings.Builder
		compiled := 0
		for _, p := range litmus.Primitives() {
			fmt.Fprintf(&b, "== %s\n", callOf(p))
			code, err := compileRow(p, tg)
			if why, listed := notCompiled[p.Name]; listed {
				require.Error(t, err, "%s compiles for %s but is listed as not compiled (%s)", p.Name, tg.Name, why)
				require.True(t, IsNotCompiled(err), "%s on %s: %v", p.Name, tg.Name, err)
				_, gap, ok := kmap.Lookup(tg.Map, p.Name)
				require.False(t, ok)
				fmt.Fprintf(&b, "not compiled: %s\n", gap)
				continue
			}
			require.NoError(t, err, "%s on %s", p.Name, tg.Name)
			if toyRCU[p.Name] {
				_, gap, ok := kmap.Lookup(tg.Map, p.Name)
				require.False(t, ok, "%s has a kmap row on %s", p.Name, tg.Name)
				fmt.Fprintf(&b, "# no kmap row (%s); the toy RCU (rcu.go)\n%s", gap, code)
				compiled++
				continue
			}
			row, _, ok := kmap.Lookup(tg.Map, p.Name)
			require.True(t, ok, "%s on %s compiles with no kmap row", p.Name, tg.Name)
			fmt.Fprintf(&b, "# %s\n", row.Src)
			if code == "" {
				// Only a compiler barrier, or a row of hints (a
				// spin hint), compiles to no instruction.
				insns, err := kmap.Parse(row.Code)
				require.NoError(t, err)
				for _, in := range insns {
					require.True(t, in.Op == "" || kmap.Hint(tg.Map, in), "%s on %s compiles to nothing, but its row is %q", p.Name, tg.Name, row.Code)
				}
				code = "(no instruction: " + row.Code + ")\n"
				if row.Code == "" {
					code = "(no instruction)\n"
				}
			}
			b.WriteString(code)
			compiled++
		}
		t.Logf("%s: %d of %d primitives compiled, %d listed as not compiled", tg.Name, compiled, len(litmus.Primitives()), len(notCompiled))
		golden(t, filepath.Join("rows", tg.Name+".golden"), b.String())
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
// A difference is reported section by section ("== call" headers), so
// that the failure names the primitives whose sequence changed.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./model/kcomp -update")
	if string(want) == got {
		return
	}
	ws, gs := sections(string(want)), sections(got)
	for k, g := range gs {
		if w, ok := ws[k]; !ok {
			t.Errorf("%s: new section %s:\n%s", path, k, g)
		} else if w != g {
			t.Errorf("%s: %s\nwant:\n%s\ngot:\n%s", path, k, w, g)
		}
	}
	for k := range ws {
		if _, ok := gs[k]; !ok {
			t.Errorf("%s: section %s is gone", path, k)
		}
	}
	if !t.Failed() {
		t.Errorf("%s differs in the order of its sections; run with -update", path)
	}
}

// sections splits a golden file at its "== " headers.
func sections(s string) map[string]string {
	out := map[string]string{}
	var key string
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "== ") {
			key = strings.TrimSpace(l)
			continue
		}
		out[key] += l
	}
	return out
}
