package main

import (
	"flag"
	"io"
	"regexp"
	"testing"
)

// TestHelpNamesEveryFlag: the help text of each command names every flag
// the command accepts (check, fences, diff and explain omitted --cat, -I
// and --model-dir, #27).
func TestHelpNamesEveryFlag(t *testing.T) {
	for _, c := range commands {
		if c.SetFlags == nil {
			continue
		}
		fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c.SetFlags(fs)
		out, _, _ := run(t, "help", c.Name)
		fs.VisitAll(func(f *flag.Flag) {
			// herd7's spellings are named with one dash, litmus's own with two
			// (Go's flag package takes either).
			name := f.Name
			if !regexp.MustCompile(`(?m)(^|[\s,\[])--?` + regexp.QuoteMeta(name) + `\b`).MatchString(out) {
				t.Errorf("litmus help %s does not name -%s", c.Name, name)
			}
		})
	}
}
