package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// afterAtomic is the kernel's Atomic-RMW+mb__after_atomic-is-stronger-
// than-acquire: smp_mb__after_atomic() after a void atomic RMW orders
// it before a later store.
const afterAtomic = `C after-atomic
{}
P0(int *x, atomic_t *y)
{
	int r0;
	int r1;
	r0 = READ_ONCE(*x);
	smp_rmb();
	r1 = atomic_read(y);
}
P1(int *x, atomic_t *y)
{
	atomic_inc(y);
	smp_mb__after_atomic();
	WRITE_ONCE(*x, 1);
}
exists (0:r0=1 /\ 0:r1=0)
`

// TestFencesCompiledModels: fences on a C test under the compiled
// architecture models names the kernel primitive that carries the
// ordering: smp_mb__after_atomic() is NECESSARY on arm64 with LSE and
// with LL/SC atomics, and on RISC-V and POWER, and redundant under x86
// (tso), where the LOCK'd RMW already orders.
func TestFencesCompiledModels(t *testing.T) {
	f := writeTest(t, "after-atomic.litmus", afterAtomic)
	out, errOut, code := run(t, "fences", "--model", "arm64,arm64-llsc,riscv,power,x86", f)
	require.Equal(t, 0, code, errOut)
	blocks := strings.Split(out, "\n\n")
	require.Len(t, blocks, 5, out)
	for i, m := range []string{"aarch64", "aarch64-llsc", "riscv", "ppc", "tso"} {
		require.True(t, strings.HasPrefix(blocks[i], "after-atomic under "+m+": Never as written"), blocks[i])
		line := siteLine(t, blocks[i], "smp_mb__after_atomic()")
		if m == "tso" {
			require.Contains(t, line, "redundant", m)
		} else {
			require.Contains(t, line, "NECESSARY", m)
		}
	}
}

// TestExplainCompiledModel: explain under arm64 shows the architecture's
// cycle with, for each event, the C construct it comes from and the
// instruction the kernel compiles it to.
func TestExplainCompiledModel(t *testing.T) {
	f := writeTest(t, "after-atomic.litmus", afterAtomic)
	out, errOut, code := run(t, "explain", "--model", "arm64", f)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "cycle P0: R x=1 -po[DMB.ISHLD]-> P0: R y=0")
	require.Regexp(t, regexp.MustCompile(`P1: F\[DMB\.ISH\]\s+smp_mb__after_atomic\(\), line 14\s+DMB ISH`), out)
	require.Regexp(t, regexp.MustCompile(`P1: W\[X\] y=1\s+atomic_inc\(y\), line 13\s+STADD `), out)

	out, errOut, code = run(t, "explain", "--model", "arm64-llsc", f)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, regexp.MustCompile(`smp_mb__after_atomic\(\), line 14\s+DMB ISH`), out)
	require.Regexp(t, regexp.MustCompile(`atomic_inc\(y\), line 13\s+STXR `), out)
}

// TestCompileCommand: litmus compile prints the herd test the model
// checks, and refuses what it cannot compile with the line.
func TestCompileCommand(t *testing.T) {
	f := writeTest(t, "after-atomic.litmus", afterAtomic)
	out, errOut, code := run(t, "compile", "--model", "riscv", f)
	require.Equal(t, 0, code, errOut)
	require.True(t, strings.HasPrefix(out, "RISCV after-atomic\n"), out)
	require.Contains(t, out, "amoadd.d ")
	require.Contains(t, out, "fence rw,rw")

	srcu := writeTest(t, "srcu.litmus", "C srcu\n{}\nP0(int *x, struct srcu_struct *s)\n{\n\tsynchronize_srcu(s);\n}\nexists (x=0)\n")
	_, errOut, code = run(t, "compile", "--model", "power", srcu)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "srcu.litmus:5:2: not compiled to ppc: synchronize_srcu")

	// An RCU grace period compiles as the toy RCU's barriers and locks.
	rcu := writeTest(t, "rcu.litmus", "C rcu\n{}\nP0(int *x)\n{\n\trcu_read_lock();\n\tWRITE_ONCE(*x, 1);\n\trcu_read_unlock();\n}\nP1(int *x)\n{\n\tsynchronize_rcu();\n}\nexists (x=0)\n")
	out, errOut, code = run(t, "compile", "--model", "power", rcu)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "rcu_rl0")
	require.Contains(t, out, "lwarx")
}

// TestCheckNotCompiledIsNA: a C test the mapping cannot compile (an SRCU
// grace period) is n/a under the architecture models of --model all,
// with the reason and its line on stderr, and stops nothing: the other
// file is checked, and the run passes. Under one named architecture
// model it is an input error, and the other file is still checked.
func TestCheckNotCompiledIsNA(t *testing.T) {
	rcu := writeTest(t, "srcu.litmus", "C srcu\n{}\nP0(int *x, struct srcu_struct *s)\n{\n\tWRITE_ONCE(*x, 1);\n\tsynchronize_srcu(s);\n}\nexists (x=0)\n")
	ok := writeTest(t, "after-atomic.litmus", afterAtomic)
	out, errOut, code := run(t, "check", "--model", "all", rcu, ok)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, "srcu.litmus:6:2: not compiled to aarch64: synchronize_srcu")
	require.Regexp(t, regexp.MustCompile(`srcu\s+Never\s+Never\s+Never\s+Never\s+n/a\s+n/a\s+n/a\s+n/a\n`), out)
	require.Regexp(t, regexp.MustCompile(`after-atomic\s+Never\s+Never\s+Never\s+Never\s+Never\s+Never\s+Never\s+Never\n`), out)

	out, errOut, code = run(t, "check", "--model", "arm64", rcu, ok)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "srcu.litmus:6:2: not compiled to aarch64: synchronize_srcu")
	require.Contains(t, out, "Observation after-atomic Never 0 3")
}

// TestHelpModelsNamesCompiledModels: litmus help models says how C tests
// are checked under the architecture models, and x86 is an alias of tso.
func TestHelpModelsNamesCompiledModels(t *testing.T) {
	out, _, code := run(t, "help", "models")
	require.Equal(t, 0, code)
	for _, s := range []string{"arm64 (aarch64)", "arm64-llsc (aarch64-llsc)", "riscv", "power (ppc)", "model/kmap", "x86 is\n      tso"} {
		require.Contains(t, out, s)
	}
	f := writeTest(t, "after-atomic.litmus", afterAtomic)
	out, errOut, code := run(t, "check", "--model", "x86", f)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "Observation after-atomic Never")
}

// TestExplainCompiledRows: the rows under a compiled test's cycle name
// each event once, the instruction the cycle's po edges select when two
// print alike (nospace-mirror-after reads space at lines 52 and 57; the
// cycle's read follows the DMB), and an event reached by an edge the
// model names by no relation (riscv's "-->") is listed too.
func TestExplainCompiledRows(t *testing.T) {
	out, errOut, code := run(t, "explain", "--model", "arm64", "../../testdata/nospace-mirror-after.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, "READ_ONCE(*space), line 57")
	require.NotContains(t, out, "READ_ONCE(*space), line 52")
	out, errOut, code = run(t, "explain", "--model", "riscv", "../../testdata/wfree.litmus")
	require.Equal(t, exitOK, code, errOut)
	require.Contains(t, out, " --> ")
	require.Regexp(t, `P1: R wmem=2 +refcount_read\(wmem\), line 69`, out)
}
