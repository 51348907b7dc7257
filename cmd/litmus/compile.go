package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

var compileModel string

func init() {
	register(&Command{
		Name:      "compile",
		UsageLine: "compile --model M FILE",
		Short:     "print a C test as the kernel compiles it for arm64, RISC-V or POWER",
		Long: `
Compile prints the AArch64, RISC-V or POWER litmus test that the
architecture model M checks in place of C test FILE: every kernel
primitive is the instruction sequence of its model/kmap row (the kernel's
arch/<arch>/include/asm headers), plain accesses are loads and stores, and
a retry of a kernel loop ends its path (the compiled test's filter drops
those paths). The output is a herd7 test of the architecture's dialect:
herd7 -model aarch64.cat reads it, so a compiled verdict can be
cross-checked.

With --model lkmm, compile prints C test FILE in the C that herd7
-conf linux-kernel.cfg reads. A code test (kernel C with a prelude of
structs, macros and functions, docs/language.md) is flattened: one
variable per scalar location, named by its path
("tp.inet_conn.icsk_inet.sk.sk_wakeups" is
tp__inet_conn__icsk_inet__sk__sk_wakeups), every call inlined. Then,
for any C test, what herd7's C lacks is written with what it has, each
rewrite exact: ! && || % << >> ~ ?: ++ += do-while and for as herd's
operators, ifs and while loops; set_bit(), test_bit(), atomic_long_*,
refcount_inc() and the like as the linux-kernel.def primitive with the
same events and orderings. What has no exact equivalent (refcount_dec_and_test's
release-and-acquire-on-success ordering, a shift by a run-time amount)
is left as written, so herd7 refuses it, and a comment says what and
where; a comment also says when herd7 will only bound a loop.

Flags:
	--model M       aarch64 (arm64, LSE atomics), aarch64-llsc (arm64-llsc),
	                riscv or ppc (power); lkmm prints the test in herd7's C
`,
		SetFlags: func(fs *flag.FlagSet) {
			compileModel = ""
			fs.StringVar(&compileModel, "model", "", "the architecture model to compile for")
		},
		Run: runCompile,
	})
}

func runCompile(ctx context.Context, env *Env, args []string) int {
	if len(args) != 1 || compileModel == "" {
		env.Errorf("usage: litmus compile --model M FILE")
		return exitUsage
	}
	m, err := model.ParseModel(compileModel)
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	t, err := env.parseArg(args[0], nil)
	if err != nil {
		printInputError(env, args[0], err)
		return exitUsage
	}
	if t.Arch != litmus.ArchC {
		env.Errorf("%s: compile reads C tests, not %s tests", args[0], t.Arch)
		return exitUsage
	}
	if m == model.LKMM {
		return compileFlat(env, args[0], t)
	}
	c, err := model.Compile(t, m)
	if err != nil {
		printInputError(env, args[0], err)
		return exitUsage
	}
	fmt.Fprint(env.Stdout, string(c.Text))
	return exitOK
}

// compileFlat prints C test t in herd7's C, a code test flattened first.
func compileFlat(env *Env, file string, t *litmus.Test) int {
	h := litmus.Clone(t)
	notes := litmus.HerdC(h)
	out := litmus.Format(h)
	// The flattened test says where it comes from, after its header line.
	nl := bytes.IndexByte(out, '\n') + 1
	var b bytes.Buffer
	b.Write(out[:nl])
	if t.Code != nil {
		fmt.Fprintf(&b, "(* %s flattened by litmus compile --model lkmm: one location per scalar, calls inlined, in herd7's C *)\n", t.Name)
		for _, n := range t.Code.Notes {
			fmt.Fprintf(&b, "(* herd's C cannot express: %s *)\n", n)
		}
	} else {
		fmt.Fprintf(&b, "(* %s in herd7's C, by litmus compile --model lkmm *)\n", t.Name)
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "(* herd7: %s *)\n", n)
	}
	b.Write(out[nl:])
	env.Stdout.Write(b.Bytes())
	return exitOK
}
