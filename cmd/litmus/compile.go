package main

import (
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

Flags:
	--model M       aarch64 (arm64, LSE atomics), aarch64-llsc (arm64-llsc),
	                riscv or ppc (power)
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
	c, err := model.Compile(t, m)
	if err != nil {
		printInputError(env, args[0], err)
		return exitUsage
	}
	fmt.Fprint(env.Stdout, string(c.Text))
	return exitOK
}
