package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/litmus-dev/litmus/model"
)

var fencesFlags runOptions

func init() {
	register(&Command{
		Name:      "fences",
		UsageLine: "fences [--suggest [--json]] [--model M|all] FILE",
		Short:     "tell which barriers and orderings the verdict depends on",
		Long: `
Fences answers "is this smp_mb() load-bearing?". It finds each ordering
construct of a test: in C every fence (smp_mb, smp_rmb, smp_wmb,
smp_mb__before_atomic, smp_mb__after_atomic, ...), every acquire load and
release store, every fully ordered or acquire/release RMW that has a relaxed
variant, and every atomic RMW whose result is unused (which could be a plain
read and write); in X86 each MFENCE, LFENCE and SFENCE. It weakens each one alone (remove the fence, use the
relaxed or plain form) and re-checks the test, then prints, per model:

  - for each construct, the verdict once it is weakened, and NECESSARY when
    that changes the verdict, or why it is redundant where the model says so
    (e.g. on x86 an atomic RMW is already a full barrier);
  - a minimal sufficient set: the constructs to keep, all others weakened at
    once, for the original verdict. It is found by weakening the constructs
    one at a time in source order, so it is minimal (none of it can go) but
    not necessarily the smallest such set.

With --suggest (C tests), fences asks instead "is this the cheapest
primitive that works on every architecture?". For each fence, acquire
load, release store and ordered RMW it tries the kernel's cheaper
primitives, cheapest first: for a fence nothing, smp_rmb(), smp_wmb(),
smp_mb__after_atomic() after an RMW or smp_mb__before_atomic() before one,
smp_load_acquire() on the load just before it or smp_store_release() on
the store just after it; for an acquire or release READ_ONCE() or
WRITE_ONCE() (with smp_rmb() or smp_wmb() where that is cheaper on some
architecture); for an ordered RMW its _release, _acquire and _relaxed
forms. Cost is the ordering the kernel's instructions for each primitive
give on x86-64, arm64 (LSE and LL/SC), riscv64 and ppc64 (model/kmap):
one primitive is cheaper than another on an architecture when its
instructions order less; two that order different things (STLR and DMB
ISHST on arm64) are incomparable there, and both are listed. It suggests,
per construct, the cheapest that keeps every model's verdict, checked
together with the suggestions chosen before it (the dearest constructs
first), prints what each architecture emits before and after, which
models the cheaper primitives break, and sufficient alternatives that are
cheaper somewhere; the last line is the verdict with every suggestion
applied at once. The default models are lkmm, tso, aarch64, aarch64-llsc,
riscv and ppc.

Flags:
	--suggest       suggest the cheapest sufficient primitive per construct
	--json          with --suggest, JSON Lines: one object per construct (see
	                'litmus help json')
	--model M       models as for check, a comma-separated list, or all (default:
	                the test's own, as for check; with --suggest, lkmm and the
	                five architecture models)
	--cat FILE, -I DIR, --model-dir DIR   models read from files, as for check
	--max-states N, --timeout D, --max-memory N   search bounds, as for check
	--jobs N        as for check (one file: no effect)
	--fresh-zero      herd7's reading of names only the final section uses, as for check
` + herdFlagsHelp,
		SetFlags: func(fs *flag.FlagSet) {
			fencesFlags = runOptions{}
			addRunFlags(fs, &fencesFlags)
			addSuggestFlags(fs)
		},
		Run: runFences,
	})
}

func runFences(ctx context.Context, env *Env, args []string) int {
	if len(args) != 1 {
		env.Errorf("usage: litmus fences [--suggest [--json]] [--model M|all] FILE")
		return exitUsage
	}
	if suggestFlags.suggest {
		return runSuggest(ctx, env, args[0])
	}
	if suggestFlags.json {
		env.Errorf("fences: --json goes with --suggest")
		return exitUsage
	}
	if err := fencesFlags.loadPrims(); err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	t, err := env.parseArg(args[0], fencesFlags.prims)
	if err != nil {
		printInputError(env, args[0], err)
		return exitUsage
	}
	models, err := modelsFor(fencesFlags, t)
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	prog, err := fencesFlags.resolve(t, models)
	if err != nil {
		printInputError(env, args[0], err)
		return exitUsage
	}
	opt := fencesFlags.modelOptions()
	code := exitOK
	w := env.Stdout
	for i, m := range models {
		rep, err := prog.Fences(ctx, m, opt)
		if err != nil {
			printInputError(env, args[0], err)
			return exitUsage
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s under %s: %s as written\n", rep.Name, m, rep.Baseline)
		if rep.Baseline == model.Unknown {
			// Nothing can be judged against a verdict that is not
			// known; say so rather than that there is nothing to weaken.
			n := len(model.Sites(t))
			fmt.Fprintf(w, "  the search of the test as written ended Unknown (%s): none of its %d ordering constructs can be judged; give the search more room (--max-states, --timeout, --max-memory)\n", rep.BaselineReason, n)
			code = exitCheck
			continue
		}
		if len(rep.Sites) == 0 {
			fmt.Fprintln(w, "  no ordering constructs to weaken")
		}
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		for _, s := range rep.Sites {
			mark := "redundant"
			if s.Necessary {
				mark = "NECESSARY"
			}
			fmt.Fprintf(tw, "  line %d\tP%d\t%s\t%s -> %s\t%s\t%s\n", s.Pos.Line, s.Thread, s.Text, s.Weakening, s.Into, s.Verdict, mark)
		}
		tw.Flush()
		for _, s := range rep.Sites {
			if !s.Necessary && s.Why != "" {
				fmt.Fprintf(w, "  line %d %s is redundant under %s: %s.\n", s.Pos.Line, s.Text, m, s.Why)
			}
		}
		if len(rep.Sites) > 0 {
			var names []string
			for _, s := range rep.Minimal {
				names = append(names, fmt.Sprintf("%s (P%d, line %d)", s.Text, s.Thread, s.Pos.Line))
			}
			if len(names) == 0 {
				fmt.Fprintf(w, "  minimal sufficient set: none (the verdict holds with every construct weakened)\n")
			} else {
				fmt.Fprintf(w, "  minimal sufficient set: %s\n", strings.Join(names, ", "))
			}
		}
		if rep.Unknown != "" {
			fmt.Fprintf(w, "  incomplete: a search ended Unknown (%s)\n", rep.Unknown)
			code = exitCheck
		}
	}
	return code
}
