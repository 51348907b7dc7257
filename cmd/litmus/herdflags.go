package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// herd7's spellings of the options its users reach for first, accepted
// by check, explain, fences and diff with herd's meaning where litmus has
// it, and refused with the equivalent to use where it has not (docs/guide.md,
// "herd7's options"). Go's flag package reads -conf and --conf alike.

// herdFlagsHelp is the help text's line for them.
const herdFlagsHelp = `	herd7's -conf FILE, -unroll N, -through all|invalid|none, -skipchecks NAMES,
	-strictskip true|false, -variant NAMES, -speedcheck false; refused with the
	equivalent: -speedcheck true|fast, -show, -graph (docs/guide.md, "herd7's
	options")
`

// addHerdFlags declares herd7's options on fs.
func addHerdFlags(fs *flag.FlagSet, o *runOptions) {
	fs.Var(herdFlag(func(s string) error {
		if !strings.HasSuffix(s, ".cfg") {
			return fmt.Errorf("herd7's -conf reads a .cfg file (%q is not one); a .cat file is --cat FILE", s)
		}
		o.cats = append(o.cats, s)
		return nil
	}), "conf", "herd7's -conf FILE: the model of herd's configuration file FILE, as --cat FILE")
	fs.Var(herdFlag(func(s string) error {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil || n < 0:
			return fmt.Errorf("herd7's -unroll takes a number of times, not %q", s)
		case n == 0:
			return errors.New("herd7's -unroll 0 (no backward jump at all) is not supported: use -unroll 1, the smallest bound litmus takes")
		}
		o.loopBound = n
		return nil
	}), "unroll", "herd7's -unroll N: take a backward jump at most N times on a path (default 2)")
	fs.Var(herdFlag(func(s string) error {
		switch strings.ToLower(s) {
		case "none":
			o.skipAll = false
		case "all", "invalid":
			o.skipAll = true
		default:
			return fmt.Errorf("herd7's -through takes all, invalid or none, not %q", s)
		}
		return nil
	}), "through", "herd7's -through all|invalid|none: with all or invalid, no check of a cat model rejects an execution")
	fs.Var(herdFlag(func(s string) error {
		for _, n := range strings.Split(s, ",") {
			if n = strings.TrimSpace(n); n != "" {
				o.skipChecks = append(o.skipChecks, n)
			}
		}
		return nil
	}), "skipchecks", "herd7's -skipchecks NAME,...: ignore the outcome of the cat model's checks so named (cumulative)")
	fs.Var(herdFlag(func(s string) error {
		b, err := herdBool("-strictskip", s)
		o.strictSkip = b
		return err
	}), "strictskip", "herd7's -strictskip true|false: keep only the executions that fail every check of -skipchecks")
	fs.Var(herdFlag(func(s string) error {
		for _, n := range strings.Split(s, ",") {
			if n = strings.TrimSpace(n); n != "" {
				o.variants = append(o.variants, n)
			}
		}
		return nil
	}), "variant", "herd7's -variant NAME,...: the variants a --cat model reads (cumulative)")
	fs.Var(herdFlag(func(s string) error {
		switch strings.ToLower(s) {
		case "false":
			return nil
		case "true", "fast":
			return errors.New("herd7's -speedcheck true|fast (settle the condition with a subset of the executions) is not supported: litmus always lists every final state; to bound the work use --max-states N or --timeout D, under which a Sometimes found is still exact")
		}
		return fmt.Errorf("herd7's -speedcheck takes false, true or fast, not %q", s)
	}), "speedcheck", "herd7's -speedcheck false (true and fast are refused)")
	for _, name := range []string{"show", "graph"} {
		fs.Var(herdFlag(func(string) error {
			return fmt.Errorf("herd7's -%s (pictures of executions) is not supported here: use litmus explain --dot FILE TEST, which writes the execution that reaches the condition (or --state COND) as a Graphviz picture", name)
		}), name, "herd7's -"+name+": refused, use litmus explain --dot FILE")
	}
}

// herdBool reads a boolean as herd's options do (OCaml's bool_of_string,
// and the words herd's configuration files use).
func herdBool(key, s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("herd7's %s takes true or false, not %q", key, s)
}

// herdFlag is a flag whose every value is handled by a function.
type herdFlag func(string) error

func (f herdFlag) String() string     { return "" }
func (f herdFlag) Set(s string) error { return f(s) }

// checkVariants refuses -variant when no model reads it: the variants
// are a --cat model's. herd's "mixed" needs no flag here: a mixed-size
// test gets its meaning by itself.
func (o *runOptions) checkVariants() error {
	if len(o.cats) > 0 {
		return nil
	}
	for _, v := range o.variants {
		if !strings.EqualFold(v, "mixed") {
			return fmt.Errorf("herd7's -variant %s: the variants are read by a model from files (--cat FILE or -conf FILE.cfg, whose variant line adds its own); the built-in models have none", v)
		}
	}
	return nil
}
