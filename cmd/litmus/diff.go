package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

var diffFlags runOptions

func init() {
	register(&Command{
		Name:      "diff",
		UsageLine: "diff [--model M|all] OLD NEW",
		Short:     "compare two versions of a test under every model",
		Long: `
Diff checks two versions of a litmus test (the code before and after a
patch) under each model and prints, per model, the verdict change and the
final states gained and lost, compared as herd prints them (so the two
versions should observe the same locations).

The exit status is 1 when a bad outcome became reachable under some model:
for an "exists" condition (the kernel's way to write the bad outcome) its
verdict went from Never to Sometimes or Always; for "~exists" and "forall",
herd's Ok became No; and when a search ends Unknown (a limit: the
comparison is then not made, "(not compared)", and the reason is printed
on stderr). It is 0 otherwise, and 2 for input errors.

Flags:
	--model M       models as for check, a comma-separated list, or all (default all)
	--cat FILE, -I DIR, --model-dir DIR   models read from files, as for check
	--max-states N, --timeout D, --max-memory N   search bounds, as for check
	--jobs N        as for check (the two versions are checked one at a time)
	--fresh-zero      herd7's reading of names only the final section uses, as for check
` + herdFlagsHelp,
		SetFlags: func(fs *flag.FlagSet) {
			diffFlags = runOptions{}
			addRunFlags(fs, &diffFlags)
			fs.Lookup("model").DefValue = "all"
			_ = fs.Set("model", "all")
		},
		Run: runDiff,
	})
}

func runDiff(ctx context.Context, env *Env, args []string) int {
	if len(args) != 2 {
		env.Errorf("usage: litmus diff [--model M|all] OLD NEW")
		return exitUsage
	}
	if err := diffFlags.loadPrims(); err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	var tests [2]*litmus.Test
	for i, f := range args {
		t, err := env.parseArg(f, diffFlags.prims)
		if err != nil {
			printInputError(env, f, err)
			return exitUsage
		}
		tests[i] = t
	}
	models, err := modelsFor(diffFlags, tests[1])
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	var progs [2]*model.Program
	for i, t := range tests {
		if progs[i], err = diffFlags.resolve(t, models); err != nil {
			printInputError(env, args[i], err)
			return exitUsage
		}
	}
	opt := diffFlags.modelOptions()
	opt.NoWitness = true
	w := env.Stdout
	code := exitOK
	fmt.Fprintf(w, "--- %s (%s)\n+++ %s (%s)\n", args[0], tests[0].Name, args[1], tests[1].Name)
	var breaks []broken
	var held []model.Model
	for _, m := range models {
		var rs [2]*model.Result
		for i, p := range progs {
			r, err := p.Check(ctx, m, opt)
			if err != nil {
				printInputError(env, args[i], err)
				return exitUsage
			}
			rs[i] = r
		}
		old, new := rs[0], rs[1]
		change := "unchanged"
		switch {
		case old.Verdict == model.Unknown || new.Verdict == model.Unknown:
			// Not compared: an Unknown is not a verdict, and two of
			// them are no evidence that nothing changed.
			change = "not compared"
		case old.Verdict != new.Verdict:
			change = "CHANGED"
		}
		fmt.Fprintf(w, "%s: %s -> %s (%s)\n", m, old.Verdict, new.Verdict, change)
		for i, r := range rs {
			if r.Verdict == model.Unknown {
				fmt.Fprintf(w, "  incomplete: %s: %s\n", args[i], r.Reason)
				env.Errorf("%s: %s: Unknown: %s", args[i], m, r.Reason)
				code = max(code, exitCheck)
			}
		}
		oldSet, newSet := stateSet(old), stateSet(new)
		for _, s := range new.States.All() {
			if k := s.String(); !oldSet[k] {
				fmt.Fprintf(w, "  + %s\n", k)
			}
		}
		for _, s := range old.States.All() {
			if k := s.String(); !newSet[k] {
				fmt.Fprintf(w, "  - %s\n", k)
			}
		}
		if badBecameReachable(old, new) {
			fmt.Fprintf(w, "  bad outcome now reachable under %s: %s\n", m, new.Condition)
			code = max(code, exitCheck)
			breaks = append(breaks, broken{m, witness(tests[1], new)})
		} else {
			held = append(held, m)
		}
	}
	writeBreaks(w, tests[0], tests[1], breaks, held)
	return code
}

func stateSet(r *model.Result) map[string]bool {
	s := map[string]bool{}
	for _, st := range r.States.All() {
		s[st.String()] = true
	}
	return s
}

// badBecameReachable reports whether the new version reaches the bad
// outcome that the old one could not.
func badBecameReachable(old, new *model.Result) bool {
	if old.Verdict == model.Unknown || new.Verdict == model.Unknown {
		return false
	}
	if new.Kind == "Allowed" { // exists: the condition is the bad outcome
		return old.Verdict == model.Never && new.Verdict != model.Never
	}
	return old.Ok && !new.Ok
}
