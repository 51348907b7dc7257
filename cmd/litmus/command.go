package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// Exit codes, as documented in "litmus help".
const (
	exitOK    = 0 // every check met its expectation
	exitCheck = 1 // a verdict differed from its expectation, an invariant broke, a thread got stuck, or Unknown
	exitUsage = 2 // usage or input error
)

// A Command is one verb ("check", "explain", ...) or, without Run, a help
// topic. The shape follows cmd/go's base.Command.
type Command struct {
	Name      string
	UsageLine string // "check [flags] FILE|DIR..."
	Short     string // one line for the command list
	Long      string // the text of "litmus help NAME"
	// Flags are set up by SetFlags, so that tests can run a command
	// several times with fresh flag values.
	SetFlags func(fs *flag.FlagSet)
	// Run executes the command; it returns the exit code.
	Run func(ctx context.Context, env *Env, args []string) int
}

// Env is what a command may touch: injectable streams so that commands
// run in-process in tests.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// StderrIsTerminal enables the progress bar.
	StderrIsTerminal bool

	stdinOnce sync.Once // standard input is read once (files.go)
	stdinSrc  []byte
	stdinErr  error
}

// Errorf prints "litmus: msg" on stderr.
func (e *Env) Errorf(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "litmus: "+format+"\n", args...)
}

var commands []*Command

func register(c *Command) { commands = append(commands, c) }

func lookup(name string) *Command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// errUsage marks an error whose message has already been printed with
// the usage text.
var errUsage = errors.New("usage")

// Main runs the litmus command line and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, StderrIsTerminal: isTerminal(stderr)}
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		name = "help"
	}
	c := lookup(name)
	if c == nil || c.Run == nil {
		env.Errorf("unknown command %q; run 'litmus help'", args[0])
		return exitUsage
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: litmus %s\nRun 'litmus help %s' for details.\n", c.UsageLine, c.Name)
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			// "litmus check --help" prints the command's help, flags
			// included, as "litmus help check" does.
			return runHelp(ctx, env, []string{c.Name})
		}
	}
	if c.SetFlags != nil {
		c.SetFlags(fs)
	}
	if err := fs.Parse(interleaved(fs, args[1:])); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	return c.Run(ctx, env, fs.Args())
}

// interleaved moves flags written after the file arguments in front of
// them, so that "litmus check x.litmus --model sc" works as users expect.
func interleaved(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			if f := fs.Lookup(name); f != nil {
				if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
					continue
				}
				if i+1 < len(args) {
					i++
					flags = append(flags, args[i])
				}
			}
			continue
		}
		rest = append(rest, a)
	}
	return append(flags, rest...)
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `litmus checks Linux-kernel litmus tests under several memory models.

Usage:

	litmus <command> [arguments]

The commands are:

`)
	cs := append([]*Command(nil), commands...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	for _, c := range cs {
		if c.Run != nil {
			fmt.Fprintf(w, "\t%-10s %s\n", c.Name, c.Short)
		}
	}
	fmt.Fprint(w, "\nUse \"litmus help <command>\" for more information about a command.\n\nAdditional help topics:\n\n")
	for _, c := range cs {
		if c.Run == nil {
			fmt.Fprintf(w, "\t%-10s %s\n", c.Name, c.Short)
		}
	}
	fmt.Fprint(w, "\nUse \"litmus help <topic>\" for more information about that topic.\n")
}
