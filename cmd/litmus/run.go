package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/litmus-dev/litmus/internal/harness"
	"github.com/litmus-dev/litmus/internal/hw"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

// runHWOptions are run's flags.
type runHWOptions struct {
	h            harness.Options
	cpus         string
	layout       string
	affinity     string
	sync         string
	models       string
	maxStates    int
	modelTimeout time.Duration
	json         bool
	// iterations, size and runs are --iterations, --size (also -s) and
	// -r; avail is -a, which run refuses.
	iterations, size, runs countFlag
	avail                  string
}

// countFlag is a flag that counts instances or runs: an integer of at
// least 1, in litmus7's generalised syntax (100k is 100000, 1M 1000000).
// 0 is an error, not the default: it would run nothing.
type countFlag struct {
	n   int64
	set bool
}

func (c *countFlag) String() string { return strconv.FormatInt(c.n, 10) }

func (c *countFlag) Set(s string) error {
	n, err := parseCount(s)
	if err != nil {
		return err
	}
	c.n, c.set = n, true
	return nil
}

// parseCount parses a count: digits, optionally followed by k (10^3) or M
// (10^6) as litmus7 reads -s and -r.
func parseCount(s string) (int64, error) {
	mult, digits := int64(1), s
	switch {
	case strings.HasSuffix(s, "k"):
		mult, digits = 1_000, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, digits = 1_000_000, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("want a count: digits, or with k or M after them (100k, 1M)")
	case n < 1:
		return 0, fmt.Errorf("must be at least 1 (leave the flag out for its default)")
	case n > (1<<62)/mult:
		return 0, fmt.Errorf("%s is too large", s)
	}
	return n * mult, nil
}

var runHWFlags runHWOptions

func init() {
	register(&Command{
		Name:      "run",
		UsageLine: "run [flags] FILE|DIR...",
		Short:     "run litmus tests on this machine's cores and compare with a model",
		Long: `
Run runs each test many times on this machine's cores, as herdtools' litmus7
and klitmus7 do, prints the histogram of the final states it saw in
litmus7's format, and holds the model to it: beside each state, whether the
model allows it. An observed state that the model forbids is a failure (exit
1): the model, the kernel mapping or the hardware is wrong. The states the
model allows but the run never saw are listed; a relaxed outcome may need
more iterations, other stress options, or a bigger machine.

X86 and X86_64 tests run instruction for instruction (on x86-64). Kernel C
tests run through the kernel's own mapping of each primitive to
instructions (READ_ONCE a plain load, smp_mb() a locked add on x86-64 or DMB
ISH on arm64, ...: the rows of model/kmap, each with the kernel header it
was read from) on x86-64 and arm64. Each thread is machine code generated for the test and runs a
whole batch of instances without Go code between its accesses. Tests the
mapping cannot express (RCU and SRCU grace periods) are reported as "not
supported by run" and skipped.

The stress options are litmus7's, printed with every result so that a run
can be reproduced. Each thread is pinned to a CPU; with more threads than
CPUs they time-share, and the output says so.

Flags:
	--iterations N   instances to run in all (default 1000000)
	--size N         instances per batch, each thread's one call of its code (default 1000)
	-s N             litmus7's size of a run: the same as --size
	-r N             litmus7's number of runs: N batches of --size instances (instead
	                 of --iterations). Counts take litmus7's 100k and 1M; 0 is an error
	-a N             refused: litmus7 runs max(1, N/threads) copies of a test at once;
	                 litmus run runs one, on the CPUs of --cpus
	--stride B       bytes between two instances of a location (default 64, a cache line each)
	--layout L       apart: each location its own array of instances (default);
	                 together: one instance's locations side by side (sharing a line)
	--affinity A     incr: thread i on the i-th CPU (default); rotate: shift by one CPU
	                 every batch; random: a new assignment every batch; none: no pinning
	--cpus LIST      the CPUs to use, e.g. 0,1 or 0-3 (default: all this process may use)
	--sync S         spin: a user-space barrier before every instance (default);
	                 timebase: instance i starts at a cycle-counter deadline; none
	--period T       timebase: counter ticks between instances (default: about 250 ns)
	--delay N        random start delay per thread and instance, up to N loop iterations
	--noise N        N threads writing memory on the CPUs the test does not use
	--loop-bound N   loop back edges per thread and instance before it is abandoned (default 10000)
	--atomics A      arm64: lse or llsc (default: what the CPU has)
	--seed N         seed of the delays and random affinities (default 1)
	--timeout D      stop each test's run after D, reporting what ran
	--model M        models to hold the run to: a list, or all (default: tso for
	                 X86 tests; for C tests the model of the code that runs, then
	                 lkmm: tso,lkmm on x86-64, aarch64,lkmm on arm64 with LSE
	                 atomics, aarch64-llsc,lkmm with LL/SC)
	--max-states N, --model-timeout D   bounds of the model's search
	--json           print one JSON object per test (see below)

The JSON object has file, test, arch, machine, options (the flags as a
string), threads, placement (the CPU of each thread), time_shared, noise,
iterations, instances, abandoned, dropped, lost, filtered, states (each with
state, count, holds, and allowed: model -> bool), positive, negative,
observation, condition, ok, models (each with model, verdict, reason,
forbidden_seen, allowed_unseen, error), elapsed_s, stopped and error.

Exit status: 0 when every observed state is allowed; 1 when a model forbids
an observed state; 2 for usage and input errors, and tests run does not
support (after the other files have run).
`,
		SetFlags: func(fs *flag.FlagSet) {
			f := &runHWFlags
			*f = runHWOptions{}
			f.iterations.n, f.size.n = 1_000_000, 1000
			fs.Var(&f.iterations, "iterations", "instances to run in all")
			fs.Var(&f.size, "size", "instances per batch")
			fs.Var(&f.size, "s", "litmus7's size of a run: --size")
			fs.Var(&f.runs, "r", "litmus7's number of runs: --iterations is r times the size")
			fs.StringVar(&f.avail, "a", "", "litmus7's available CPUs: refused, use --cpus")
			fs.IntVar(&f.h.Stride, "stride", 64, "bytes between two instances of a location")
			fs.StringVar(&f.layout, "layout", "apart", "apart or together")
			fs.StringVar(&f.affinity, "affinity", "incr", "incr, rotate, random or none")
			fs.StringVar(&f.cpus, "cpus", "", "CPUs to use")
			fs.StringVar(&f.sync, "sync", "spin", "spin, timebase or none")
			fs.Int64Var(&f.h.Period, "period", 0, "timebase: counter ticks between instances")
			fs.IntVar(&f.h.MaxDelay, "delay", 0, "random start delay, up to N loop iterations")
			fs.IntVar(&f.h.Noise, "noise", 0, "noise writers on spare CPUs")
			fs.IntVar(&f.h.LoopBound, "loop-bound", 10000, "loop back edges per instance")
			fs.StringVar(&f.h.Atomics, "atomics", "", "arm64: lse or llsc")
			fs.Uint64Var(&f.h.Seed, "seed", 1, "seed of delays and random affinities")
			fs.DurationVar(&f.h.Timeout, "timeout", 0, "time limit per test's run")
			fs.StringVar(&f.models, "model", "", "models to compare with")
			fs.IntVar(&f.maxStates, "max-states", model.DefaultMaxStates, "state limit of the model's search")
			fs.DurationVar(&f.modelTimeout, "model-timeout", 0, "time limit of the model's search")
			fs.BoolVar(&f.json, "json", false, "print JSON")
		},
		Run: runHW,
	})
}

// parseCPUs parses "0,1" or "0-3,6".
func parseCPUs(s string) ([]int, error) {
	var cpus []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("bad CPU list %q", s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("bad CPU list %q", s)
			}
		}
		for c := a; c <= b; c++ {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// modelCheck is a test's result under one model and its comparison with
// the run.
type modelCheck struct {
	model     model.Model
	res       *model.Result
	err       error
	allowed   map[string]bool
	forbidden []string // observed states the model forbids
	unseen    []string // allowed states never observed
}

func runHW(ctx context.Context, env *Env, args []string) int {
	f := runHWFlags
	if len(args) == 0 {
		env.Errorf("usage: litmus run [flags] FILE|DIR...")
		return exitUsage
	}
	o := f.h
	var err error
	if f.avail != "" {
		env.Errorf("-a %s is litmus7's number of available CPUs, on which it runs max(1, N/threads) copies of a test at once; litmus run runs one copy, on the CPUs --cpus names (e.g. --cpus 0-3)", f.avail)
		return exitUsage
	}
	o.Iterations, o.Size = f.iterations.n, int(f.size.n)
	if f.size.n > 1<<31 {
		env.Errorf("--size %d is too large: a batch is one call of each thread's code (at most %d)", f.size.n, 1<<31)
		return exitUsage
	}
	if f.runs.set {
		// litmus7's -r: r runs of -s instances each.
		if f.iterations.set {
			env.Errorf("-r (litmus7's number of runs, each of --size instances) and --iterations both set how many instances run: give one")
			return exitUsage
		}
		if f.runs.n > (1<<62)/f.size.n {
			env.Errorf("-r %d with --size %d is too many instances", f.runs.n, f.size.n)
			return exitUsage
		}
		o.Iterations = f.runs.n * f.size.n
	}
	if f.cpus != "" {
		if o.CPUs, err = parseCPUs(f.cpus); err != nil {
			env.Errorf("%v", err)
			return exitUsage
		}
	}
	switch f.layout {
	case "apart":
		o.Layout = harness.Apart
	case "together":
		o.Layout = harness.Together
	default:
		env.Errorf("unknown layout %q (want apart or together)", f.layout)
		return exitUsage
	}
	if o.Affinity, err = harness.ParseAffinity(f.affinity); err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	if o.Sync, err = harness.ParseSync(f.sync); err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	var models []model.Model
	if f.models != "" {
		if models, err = parseModels(f.models); err != nil {
			env.Errorf("%v", err)
			return exitUsage
		}
	}
	arch, err := harness.HostArch(o.Atomics)
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	files, code := argFiles(env, args)
	if len(files) == 0 && code == exitOK {
		env.Errorf("no .litmus files in %s", strings.Join(args, " "))
		return exitUsage
	}
	enc := json.NewEncoder(env.Stdout)
	machine := hw.Describe()
	for i, file := range files {
		c := runHWFile(ctx, env, file, models, f, o, arch, machine, enc, i > 0)
		code = max(code, c)
	}
	return code
}

// runHWFile runs one file and prints its result; it returns the exit code.
func runHWFile(ctx context.Context, env *Env, file string, models []model.Model, f runHWOptions, o harness.Options, arch, machine string, enc *json.Encoder, sep bool) int {
	t, err := litmus.ParseFile(file)
	if err != nil {
		printInputError(env, file, err)
		if f.json {
			writeRunJSONError(enc, file, "", arch, err)
		}
		return exitUsage
	}
	// An input error (a misspelt name, an expectation not understood) is
	// found once, before any model or the hardware runs.
	prog, err := model.Resolve(t, model.ResolveOptions{Models: models})
	if err != nil {
		printInputError(env, file, err)
		if f.json {
			writeRunJSONError(enc, file, t.Name, arch, err)
		}
		return exitUsage
	}
	explicit := models != nil
	if !explicit {
		models = defaultRunModels(t, arch)
	}
	code := exitOK
	var checks []*modelCheck
	for _, m := range models {
		if m == model.LKMM && t.Arch != litmus.ArchC {
			continue // the kernel's model speaks about C code
		}
		mc := &modelCheck{model: m}
		mc.res, mc.err = prog.Check(ctx, m, model.Options{MaxStates: f.maxStates, Timeout: f.modelTimeout, NoWitness: true})
		if mc.err != nil && explicit {
			printInputError(env, file, mc.err)
			code = exitUsage
		}
		checks = append(checks, mc)
	}
	if err := faultFree(t, checks); err != nil {
		printInputError(env, file, err)
		if f.json {
			writeRunJSONError(enc, file, t.Name, arch, err)
		}
		return exitUsage
	}
	res, err := harness.Run(ctx, t, o)
	if err != nil {
		printInputError(env, file, err)
		if f.json {
			writeRunJSONError(enc, file, t.Name, arch, err)
		}
		return exitUsage
	}
	for _, mc := range checks {
		compareRun(mc, res)
		for _, s := range mc.forbidden {
			env.Errorf("%s: FORBIDDEN by %s: %s was observed %d times: the model, the kernel mapping or the hardware is wrong",
				file, mc.model, s, countOf(res, s))
			code = max(code, exitCheck)
		}
	}
	if f.json {
		writeRunJSON(enc, file, t, arch, machine, res, checks)
		return code
	}
	if sep {
		fmt.Fprintln(env.Stdout)
	}
	writeRunText(env.Stdout, file, t, arch, machine, res, checks)
	return code
}

// defaultRunModels are the models a run of t on code generator arch is
// held to without --model: x86-TSO for X86 tests; for C tests the
// architecture model of the code that runs (the kernel's x86 mapping under
// x86-TSO, or aarch64.cat over the kernel's arm64 mapping, LSE or LL/SC as
// the run compiles it), then the LKMM. x86-TSO would be wrong on arm64: a
// C test without barriers is free to reorder there, and a failing LL/SC
// cmpxchg orders nothing where x86's LOCK CMPXCHG is a full barrier.
// faultFree returns an error, in words, when the machine might access
// memory through NULL or a wild pointer running C test t: t has objects
// (ptr_add moves within them, internal/harness/objects.go) and a model
// of checks finds such an access, or none of them could rule one out (an
// error, a limit). The hardware would read or write outside the test's
// memory, or crash; the models report it as a finding instead
// (BADADDR).
func faultFree(t *litmus.Test, checks []*modelCheck) error {
	if t.Arch != litmus.ArchC || t.Code == nil && len(t.Objects) == 0 {
		return nil
	}
	looked := false
	for _, mc := range checks {
		if mc.err != nil || mc.res.Verdict == model.Unknown || !mc.res.FaultsChecked {
			continue
		}
		if len(mc.res.Faults) > 0 {
			f := mc.res.Faults[0]
			why := f.Reason
			if f.Fault != nil {
				why = f.Fault.String()
			}
			return &litmus.Error{Pos: t.File.Position(t.Pos()), Msg: fmt.Sprintf("not run: %s finds an access through NULL or a wild pointer (%s), which on this machine would reach memory outside the test's or crash", mc.model, why)}
		}
		looked = true
	}
	if !looked {
		return &litmus.Error{Pos: t.File.Position(t.Pos()), Msg: "not run: no model ruled out an access through NULL or a wild pointer (each one failed or stopped at a limit), which on this machine would reach memory outside the test's or crash"}
	}
	return nil
}

func defaultRunModels(t *litmus.Test, arch string) []model.Model {
	if t.Arch != litmus.ArchC {
		return []model.Model{model.TSO}
	}
	switch arch {
	case "arm64":
		return []model.Model{model.AArch64, model.LKMM}
	case "arm64-llsc":
		return []model.Model{model.AArch64LLSC, model.LKMM}
	}
	return []model.Model{model.TSO, model.LKMM}
}

func countOf(res *harness.Result, state string) int64 {
	for _, s := range res.States {
		if res.StateString(s) == state {
			return s.Count
		}
	}
	return 0
}

// compareRun fills mc's comparison with res. A model that could not
// answer (an error, or Unknown) compares nothing.
func compareRun(mc *modelCheck, res *harness.Result) {
	if mc.err != nil || mc.res.Verdict == model.Unknown {
		return
	}
	mc.allowed = map[string]bool{}
	for _, s := range mc.res.States.All() {
		mc.allowed[s.String()] = true
	}
	seen := map[string]bool{}
	for _, s := range res.States {
		st := res.StateString(s)
		seen[st] = true
		if !mc.allowed[st] {
			mc.forbidden = append(mc.forbidden, st)
		}
	}
	for _, s := range mc.res.States.All() {
		if st := s.String(); !seen[st] {
			mc.unseen = append(mc.unseen, st)
		}
	}
}

// litmus7's counters: for exists and ~exists, p_true counts the instances
// where the proposition holds; for forall, where it fails.
func pCounts(t *litmus.Test, res *harness.Result) (pTrue, pFalse int64) {
	if t.Cond != nil && t.Cond.Quant == litmus.Forall {
		return res.Negative, res.Positive
	}
	return res.Positive, res.Negative
}

// observation returns litmus7's Ok, the Witnesses numbers and the
// Observation verdict with its two counts.
func observation(t *litmus.Test, res *harness.Result) (ok bool, pos, neg int64, verdict string, obsTrue, obsFalse int64) {
	pTrue, pFalse := pCounts(t, res)
	exists := t.Cond == nil || t.Cond.Quant == litmus.Exists
	if exists {
		ok, pos, neg = pTrue > 0, pTrue, pFalse
	} else {
		ok, pos, neg = pTrue == 0, pFalse, pTrue
	}
	obsTrue, obsFalse = pTrue, pFalse
	if t.Cond != nil && t.Cond.Quant == litmus.Forall {
		obsTrue, obsFalse = pFalse, pTrue
	}
	switch {
	case obsTrue == 0:
		verdict = "Never"
	case obsFalse == 0:
		verdict = "Always"
	default:
		verdict = "Sometimes"
	}
	return
}

func kindOf(t *litmus.Test) string {
	if t.Cond == nil {
		return "Allowed"
	}
	return map[litmus.Quant]string{litmus.Exists: "Allowed", litmus.NotExists: "Forbidden", litmus.Forall: "Required"}[t.Cond.Quant]
}

func conditionOf(t *litmus.Test, checks []*modelCheck) string {
	for _, mc := range checks {
		if mc.res != nil && mc.res.Condition != "" {
			return mc.res.Condition
		}
	}
	if t.Cond == nil {
		return ""
	}
	return string(t.Cond.Quant) + " (" + strings.TrimSpace(litmus.PropString(t.Cond.Prop)) + ")"
}

// placementText says where the threads ran.
func placementText(res *harness.Result) string {
	if len(res.Placement) > 0 && res.Placement[0] < 0 {
		return fmt.Sprintf("%d threads, not pinned", res.Threads)
	}
	byCPU := map[int][]string{}
	var order []int
	for ti, c := range res.Placement {
		if _, ok := byCPU[c]; !ok {
			order = append(order, c)
		}
		byCPU[c] = append(byCPU[c], fmt.Sprintf("P%d", ti))
	}
	var parts []string
	for _, c := range order {
		parts = append(parts, fmt.Sprintf("%s on CPU %d", strings.Join(byCPU[c], ","), c))
	}
	s := fmt.Sprintf("%d threads on %d CPUs (%s", res.Threads, len(res.Options.CPUs), strings.Join(parts, "; "))
	if res.Options.Affinity == harness.AffinityRotate || res.Options.Affinity == harness.AffinityRandom {
		s += ", then moving every batch"
	}
	s += ")"
	if res.TimeShared {
		s += "; more threads than CPUs: threads time-share"
	}
	return s
}

// writeRunText prints the result in litmus7's format, with each state's
// verdict under each model and the comparison after it.
func writeRunText(w io.Writer, file string, t *litmus.Test, arch, machine string, res *harness.Result, checks []*modelCheck) {
	fmt.Fprintf(w, "%% litmus run %s on %s: %s\n", file, arch, machine)
	fmt.Fprintf(w, "Options: %s\n", res.Options)
	fmt.Fprintf(w, "Threads: %s\n", placementText(res))
	if res.Noise > 0 {
		fmt.Fprintf(w, "Noise: %d writers on spare CPUs\n", res.Noise)
	} else if res.Options.Noise > 0 {
		fmt.Fprintf(w, "Noise: none (no spare CPU)\n")
	}
	fmt.Fprintf(w, "Test %s %s\n", t.Name, kindOf(t))
	fmt.Fprintf(w, "Histogram (%d states)\n", len(res.States))
	for _, s := range res.States {
		mark := ':'
		if s.Holds && t.Cond != nil {
			mark = '*'
		}
		st := res.StateString(s)
		line := fmt.Sprintf("%-6d%c>%s", s.Count, mark, st)
		var verdicts []string
		for _, mc := range checks {
			switch {
			case mc.allowed == nil:
				verdicts = append(verdicts, mc.model.String()+" ?")
			case mc.allowed[st]:
				verdicts = append(verdicts, mc.model.String()+" allowed")
			default:
				verdicts = append(verdicts, mc.model.String()+" FORBIDDEN")
			}
		}
		if len(verdicts) > 0 {
			line += "  [" + strings.Join(verdicts, ", ") + "]"
		}
		fmt.Fprintln(w, line)
	}
	ok, pos, neg, verdict, obsT, obsF := observation(t, res)
	fmt.Fprintln(w, map[bool]string{true: "Ok", false: "No"}[ok])
	fmt.Fprintf(w, "\nWitnesses\nPositive: %d, Negative: %d\n", pos, neg)
	if cond := conditionOf(t, checks); cond != "" {
		fmt.Fprintf(w, "Condition %s is %svalidated\n", cond, map[bool]string{true: "", false: "NOT "}[ok])
	}
	fmt.Fprintf(w, "Observation %s %s %d %d\n", t.Name, verdict, obsT, obsF)
	fmt.Fprintf(w, "Time %s %.2f\n", t.Name, res.Elapsed.Seconds())
	for _, extra := range []struct {
		n    int64
		what string
	}{
		{res.Abandoned, "abandoned: a thread took more than --loop-bound loop back edges"},
		{res.Dropped, "dropped: an access through a register that held no address (the model drops these executions too)"},
		{res.Lost, "lost: a thread gave up waiting for another at the start barrier"},
		{res.Filtered, "rejected by the test's filter"},
	} {
		if extra.n > 0 {
			fmt.Fprintf(w, "Instances %s: %d\n", extra.what, extra.n)
		}
	}
	if res.Stopped != "" {
		fmt.Fprintf(w, "Stopped early (%s) after %d instances\n", res.Stopped, res.Instances+res.Abandoned+res.Dropped+res.Lost+res.Filtered)
	}
	for _, mc := range checks {
		switch {
		case mc.err != nil:
			fmt.Fprintf(w, "Model %s: cannot check this test: %v\n", mc.model, mc.err)
		case mc.res.Verdict == model.Unknown:
			fmt.Fprintf(w, "Model %s: Unknown (%s); states not compared\n", mc.model, mc.res.Reason)
		default:
			s := fmt.Sprintf("Model %s: %s, %d states allowed", mc.model, mc.res.Verdict, mc.res.States.Len())
			if len(mc.forbidden) == 0 {
				s += "; every observed state is allowed"
			} else {
				s += fmt.Sprintf("; %d observed states are FORBIDDEN", len(mc.forbidden))
			}
			fmt.Fprintln(w, s)
			if len(mc.unseen) > 0 {
				fmt.Fprintf(w, "  allowed by %s, never observed:\n", mc.model)
				for _, u := range mc.unseen {
					fmt.Fprintf(w, "    %s\n", u)
				}
			}
		}
	}
}

// runJSON is one line of run --json.
type runJSON struct {
	File        string         `json:"file"`
	Test        string         `json:"test"`
	Arch        string         `json:"arch"`
	Machine     string         `json:"machine,omitempty"`
	Options     string         `json:"options,omitempty"`
	Threads     int            `json:"threads"`
	Placement   []int          `json:"placement"`
	TimeShared  bool           `json:"time_shared"`
	Noise       int            `json:"noise"`
	Iterations  int64          `json:"iterations"`
	Instances   int64          `json:"instances"`
	Abandoned   int64          `json:"abandoned"`
	Dropped     int64          `json:"dropped"`
	Lost        int64          `json:"lost"`
	Filtered    int64          `json:"filtered"`
	States      []runJSONState `json:"states"`
	Positive    int64          `json:"positive"`
	Negative    int64          `json:"negative"`
	Observation string         `json:"observation,omitempty"`
	Condition   string         `json:"condition,omitempty"`
	Ok          bool           `json:"ok"`
	Models      []runJSONModel `json:"models"`
	Elapsed     float64        `json:"elapsed_s"`
	Stopped     string         `json:"stopped,omitempty"`
	Error       *string        `json:"error"`
}

type runJSONState struct {
	State   string          `json:"state"`
	Count   int64           `json:"count"`
	Holds   bool            `json:"holds"`
	Allowed map[string]bool `json:"allowed"`
}

type runJSONModel struct {
	Model         string   `json:"model"`
	Verdict       string   `json:"verdict,omitempty"`
	Reason        string   `json:"reason,omitempty"`
	ForbiddenSeen []string `json:"forbidden_seen"`
	AllowedUnseen []string `json:"allowed_unseen"`
	Error         *string  `json:"error"`
}

func writeRunJSONError(enc *json.Encoder, file, test, arch string, err error) {
	msg := err.Error()
	_ = enc.Encode(runJSON{File: file, Test: test, Arch: arch, Placement: []int{}, States: []runJSONState{}, Models: []runJSONModel{}, Error: &msg})
}

func writeRunJSON(enc *json.Encoder, file string, t *litmus.Test, arch, machine string, res *harness.Result, checks []*modelCheck) {
	ok, _, _, verdict, _, _ := observation(t, res)
	j := runJSON{File: file, Test: t.Name, Arch: arch, Machine: machine, Options: res.Options.String(),
		Threads: res.Threads, Placement: res.Placement, TimeShared: res.TimeShared, Noise: res.Noise,
		Iterations: res.Options.Iterations, Instances: res.Instances, Abandoned: res.Abandoned, Dropped: res.Dropped,
		Lost: res.Lost, Filtered: res.Filtered, States: []runJSONState{}, Positive: res.Positive, Negative: res.Negative,
		Observation: verdict, Condition: conditionOf(t, checks), Ok: ok, Models: []runJSONModel{},
		Elapsed: roundSeconds(res.Elapsed), Stopped: res.Stopped}
	for _, s := range res.States {
		st := res.StateString(s)
		js := runJSONState{State: st, Count: s.Count, Holds: s.Holds, Allowed: map[string]bool{}}
		for _, mc := range checks {
			if mc.allowed != nil {
				js.Allowed[mc.model.String()] = mc.allowed[st]
			}
		}
		j.States = append(j.States, js)
	}
	for _, mc := range checks {
		jm := runJSONModel{Model: mc.model.String(), ForbiddenSeen: []string{}, AllowedUnseen: []string{}}
		if mc.err != nil {
			msg := mc.err.Error()
			jm.Error = &msg
		} else {
			jm.Verdict, jm.Reason = mc.res.Verdict.String(), mc.res.Reason
			jm.ForbiddenSeen = append(jm.ForbiddenSeen, mc.forbidden...)
			jm.AllowedUnseen = append(jm.AllowedUnseen, mc.unseen...)
		}
		j.Models = append(j.Models, jm)
	}
	_ = enc.Encode(j)
}
