package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/litmus-dev/litmus/litmus"
)

var fmtFlags struct {
	list, write bool
}

func init() {
	register(&Command{
		Name:      "fmt",
		UsageLine: "fmt [-l] [-w] FILE|DIR...",
		Short:     "print litmus tests in canonical form",
		Long: `
Fmt parses each litmus test and prints it in canonical form: the test's own
dialect (C, X86, X86_64, AArch64, RISCV, PPC or LISA), herd's layout, every
(* *) comment outside the code kept (so the Result: expectations survive). It
is also the cheapest "does it parse?" check: a file that does not parse is
reported as
"litmus: file:line:col: message" and makes the exit status 2.

Flags:
	-l   list the files whose formatting differs from fmt's, instead of printing them
	-w   write the result back to the file instead of printing it
`,
		SetFlags: func(fs *flag.FlagSet) {
			fmtFlags.list, fmtFlags.write = false, false
			fs.BoolVar(&fmtFlags.list, "l", false, "list files whose formatting differs")
			fs.BoolVar(&fmtFlags.write, "w", false, "write result to the file")
		},
		Run: runFmt,
	})
}

func runFmt(_ context.Context, env *Env, args []string) int {
	if len(args) == 0 {
		env.Errorf("usage: litmus fmt [-l] [-w] FILE|DIR...")
		return exitUsage
	}
	files, errs := expandArgs(args)
	code := exitOK
	for _, err := range errs {
		env.Errorf("%v", err)
		code = exitUsage
	}
	for _, file := range files {
		name, src, err := env.readSource(file)
		if err != nil {
			env.Errorf("%v", err)
			code = exitUsage
			continue
		}
		t, err := litmus.Parse(name, src)
		if err != nil {
			printInputError(env, file, err)
			code = exitUsage
			continue
		}
		out := litmus.Format(t)
		if t.Code != nil {
			// A code test's kernel C is printed as written: fmt checks
			// it and leaves it (compile --model lkmm prints it
			// flattened).
			out = src
		}
		changed := !bytes.Equal(src, out)
		if fmtFlags.list && changed {
			fmt.Fprintln(env.Stdout, file)
		}
		if fmtFlags.write && file != stdinArg {
			if changed {
				if err := os.WriteFile(file, out, 0o644); err != nil {
					env.Errorf("%v", err)
					code = exitUsage
				}
			}
			continue
		}
		if !fmtFlags.list {
			env.Stdout.Write(out)
		}
	}
	return code
}
