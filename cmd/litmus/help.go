package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

func init() {
	register(&Command{
		Name:      "help",
		UsageLine: "help [COMMAND|TOPIC]",
		Short:     "show help for a command or topic",
		Long:      "Help prints the usage of litmus, of one command, or one help topic.",
		Run:       runHelp,
	})
	register(&Command{
		Name:      "version",
		UsageLine: "version",
		Short:     "print the litmus version",
		Long: `
Version prints the module version and the VCS revision litmus was built
from, with "+dirty" when the checkout had changes: for instance
"litmus v0.0.0-20261201163025-20317e10012a". A binary built by 'go install'
or 'go build' in a git clone carries them; one built by 'go run', with
-buildvcs=false, or outside a git checkout does not, and prints
"litmus (devel)".`,
		Run: runVersion,
	})
}

func runHelp(_ context.Context, env *Env, args []string) int {
	if len(args) == 0 {
		printUsage(env.Stdout)
		return exitOK
	}
	if len(args) > 1 {
		env.Errorf("usage: litmus help [COMMAND|TOPIC]")
		return exitUsage
	}
	c := lookup(args[0])
	if c == nil {
		env.Errorf("unknown help topic %q; run 'litmus help'", args[0])
		return exitUsage
	}
	w := env.Stdout
	if c.Run != nil {
		fmt.Fprintf(w, "usage: litmus %s\n\n", c.UsageLine)
	}
	fmt.Fprintln(w, strings.TrimSpace(c.Long))
	return exitOK
}

func runVersion(_ context.Context, env *Env, args []string) int {
	if len(args) > 0 {
		env.Errorf("usage: litmus version")
		return exitUsage
	}
	fmt.Fprintln(env.Stdout, versionString())
	return exitOK
}

func versionString() string {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(bi)
}

// versionFrom formats the version of a build.
func versionFrom(bi *debug.BuildInfo) string {
	v, rev, dirty := "(devel)", "", false
	if bi != nil {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	s := "litmus " + v
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !strings.Contains(v, rev) {
		// A pseudo-version already names the revision.
		s += " " + rev
	}
	if dirty {
		s += "+dirty"
	}
	return s
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
