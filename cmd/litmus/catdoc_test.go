package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCatUnsupported keeps the table "What herd accepts and litmus does
// not" of docs/cat.md true: each construct herd accepts and litmus does
// not is an input error (exit 2) with the message the page quotes, at the
// position of the construct.
func TestCatUnsupported(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"with-in-procedure", "include \"cos.cat\"\nprocedure p(x) = with c from {po, rf} end\ncall p(0)\n",
			"m.cat:2:18: with ... from is supported only at the top level of a model"},
		{"with-in-forall", "include \"cos.cat\"\nforall s in {po} do with c from {po, rf} end\n",
			"m.cat:2:21: with ... from is supported only at the top level of a model"},
		{"enum-in-procedure", "procedure p(x) =\nenum E = 'a || 'b\nend\n",
			"m.cat:2:1: enum is allowed only at the top level"},
		{"herd-primitive", "let x = fromto(po)\nacyclic x as a\n",
			"m.cat:1:9: unbound name fromto"},
		{"herd-primitive-unused-is-harmless", "let x = fromto(po)\nacyclic po as a\n", ""},
		{"herd-execution-name", "acyclic iico_data as a\n",
			"m.cat:1:9: unbound name iico_data"},
		{"herd-stdlib-name", "acyclic po & (PoD * _) as a\n",
			"m.cat:1:15: unbound name PoD"},
		{"cobase-without-cos-opt", "include \"cos.cat\"\nacyclic cobase as a\n",
			"m.cat:2:9: unbound name cobase"},
		{"co-without-cos", "acyclic po | rf | co as a\n",
			"m.cat:1:19: unbound name co"},
		{"include-in-procedure", "procedure p(x) =\ninclude \"inner.cat\"\nend\ncall p(0)\n",
			"m.cat:2:1: include \"inner.cat\" inside a procedure, forall or match: not supported"},
		{"assert", "assert empty po as nopo\n",
			"m.cat:1:8: assertion nopo failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			f := filepath.Join(dir, "m.cat")
			require.NoError(t, os.WriteFile(f, []byte(c.src), 0o644))
			out, errOut, code := run(t, "check", "--cat", f, "--time=false", "../../docs/examples/mp-dmb-addr.litmus")
			if c.want == "" {
				require.Equal(t, exitOK, code, errOut)
				require.Contains(t, out, "Observation MP+dmb.ish+addr")
				return
			}
			require.Equal(t, exitUsage, code, out)
			require.Contains(t, errOut, c.want)
		})
	}
}

// TestExplainFlagsReset: explain's repeatable flags (--cat, -I) start
// empty on every run, as check's do, so that two runs in one process (the
// docs test) do not add up to two models.
func TestExplainFlagsReset(t *testing.T) {
	for _, m := range []string{"armlite", "armlite-nodeps"} {
		out, errOut, code := run(t, "explain", "--cat", "../../docs/examples/models/"+m+".cat", "-I", "../../docs/examples/models/include", "../../docs/examples/models/tests/S+dmb.ish+data.litmus")
		require.Equal(t, exitOK, code, errOut)
		require.Contains(t, out, "under "+m+".cat:")
	}
}

// TestArmliteNodepsIsOneEdit: docs/cat.md shows armlite-nodeps.cat as
// armlite.cat with its identity and its dependency line changed, and
// nothing else.
func TestArmliteNodepsIsOneEdit(t *testing.T) {
	base, err := os.ReadFile("../../docs/examples/models/armlite.cat")
	require.NoError(t, err)
	edited, err := os.ReadFile("../../docs/examples/models/armlite-nodeps.cat")
	require.NoError(t, err)
	want := string(base)
	for _, r := range [][2]string{
		{`AArch64 "armlite: a small model for the examples of docs/cat.md"`, `AArch64 "armlite without dependencies: a proposed change to armlite.cat"`},
		{"let dep = addr | data | ctrl ; [W]", "let dep = 0 (* the proposed change: dependencies order nothing *)"},
	} {
		require.Contains(t, want, r[0])
		want = strings.Replace(want, r[0], r[1], 1)
	}
	require.Equal(t, want, string(edited))
}

// TestExplainAfterPruning: where the pruned search drops the executions
// that reach the condition before a check rejects one, explain searches
// again without pruning and names the check and its cycle.
func TestExplainAfterPruning(t *testing.T) {
	for _, f := range []string{"../../model/arch/testdata/classic/aarch64/ISA2+dmb.sy+addr+addr.litmus", "../../docs/examples/arch/aarch64/MP+rel+LDADD-dmb.ld.litmus"} {
		out, errOut, code := run(t, "explain", "--model", "aarch64", f)
		require.Equal(t, exitOK, code, errOut)
		require.Contains(t, out, "rejected by external: cycle", f)
	}
}
