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

With --model lkmm, FILE is a code test (kernel C with a prelude of
structs, macros and functions, docs/language.md) and compile prints it
flattened into herd7's C dialect: one variable per scalar location,
named by its path ("tp.inet_conn.icsk_inet.sk.sk_wakeups" is
tp__inet_conn__icsk_inet__sk__sk_wakeups), every call inlined, for
herd7 -conf linux-kernel.cfg where herd's C has the constructs used
(docs/language.md lists what it lacks).

Flags:
	--model M       aarch64 (arm64, LSE atomics), aarch64-llsc (arm64-llsc),
	                riscv or ppc (power); lkmm flattens a code test
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

// compileFlat prints code test t flattened into herd's C.
func compileFlat(env *Env, file string, t *litmus.Test) int {
	if t.Code == nil {
		env.Errorf("%s: compile --model lkmm flattens a code test (a C test with a prelude); this test is plain C already", file)
		return exitUsage
	}
	out := litmus.Format(t)
	// The flattened test says where it comes from, after its header line.
	nl := bytes.IndexByte(out, '\n') + 1
	var b bytes.Buffer
	b.Write(out[:nl])
	fmt.Fprintf(&b, "(* %s flattened by litmus compile --model lkmm: one location per scalar, calls inlined *)\n", t.Name)
	for _, n := range t.Code.Notes {
		fmt.Fprintf(&b, "(* herd's C cannot express: %s *)\n", n)
	}
	b.Write(out[nl:])
	env.Stdout.Write(b.Bytes())
	return exitOK
}
