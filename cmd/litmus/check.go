package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
	"github.com/litmus-dev/litmus/model/kcomp"
)

// checkOptions are check's flags.
type checkOptions struct {
	runOptions
	json         bool
	allowUnknown bool
	time         bool
	verbose      bool
	progress     bool
	shard        shard
}

var checkFlags checkOptions

func init() {
	register(&Command{
		Name:      "check",
		UsageLine: "check [flags] FILE|DIR...",
		Short:     "check litmus tests under one or more memory models",
		Long: `
Check parses each litmus test (directories are walked for *.litmus files),
explores every execution under the chosen memory models, and prints the
result in herd7's format, so that scripts written for herd7 work unchanged.

With one model the output is herd7's, test after test. With several models
(--model all, or a comma-separated list) it prints one summary line per test
with the verdict under each model, and herd7's blocks as well with -v.

Expectations are read from the test's comments: the kernel's own
"Result: Never|Sometimes|Always" line is the expected LKMM verdict, and
"Result-SC:", "Result-TSO:", "Result-PSO:", "Result-LKMM:" give one per
model (any model name or alias: "Result-AARCH64:", "Result-ARM64-LLSC:", in
any case, or the name of a --cat model). An expectation line whose verdict is
not one of these (nor the kernel collections' "Maybe" and "Flag NAME", which
expect no verdict), or whose model name is a misspelling of a model's, is an
input error with a suggestion ("did you mean Never?"), reported once. With
several models, a Result line for a model outside the run gets one note on
stderr: nothing checks it. "Invariant: Holds|Violated" (or "Invariant-TSO: ...") says what the
test's invariant clauses are expected to do; without it a violated invariant
is a failure. "Result: DEADLOCK" (the kernel's convention) expects that no
execution reaches the end, as the kernel's judgelitmus.sh reads it: herd's
"Never 0 0", no final state after the filter, under every model (stuck
threads are then expected). A "DATARACE" marker on the Result line expects the
LKMM's data-race flag, and as in the kernel's judgelitmus.sh a flagged data
race forgives the LKMM verdict. A result with no final state (every
execution dropped, stuck, filtered out or forbidden) meets no expectation
but DEADLOCK: Never over nothing checks nothing.

A name a thread uses as a location (dereferenced, or passed as a pointer)
that is not a parameter of the thread, not in the init section and not a
register set earlier is an input error, with a suggestion ("did you mean
flag?"). So is a name of the final section (condition, locations, filter)
that nothing else in the test has: a location no thread accesses and the init
section does not declare, a register its thread never uses and the init does
not set, a thread that does not exist. herd7 reads such a location or
register as a fresh 0, under which a misspelt condition checks nothing;
--fresh-zero accepts that reading, for tests written for it. Input errors are
found before any model runs, and printed once whatever --model says.

The summary line of several models counts results: passed (held to an
expectation and met it), failed, and unjudged (nothing said what to expect:
no Result line for the model, no invariant it checks). An unjudged verdict
is not a pass.

The limits hold under every model. The memory cap is per test, on what
its search holds (as the engine accounts it), so that a test's answer is
the same alone, in a batch and for any --jobs; each of the files checked
at a time has the whole cap, and jobs x cap + 512 MiB of the whole
process is a backstop. Tests larger than 8 MiB are refused. FILE "-"
reads a test from standard input.

Exit status: 0 when every result meets its expectations; 1 when a verdict
differs from its expectation, no final state is reachable, an invariant is
violated unexpectedly, a thread can get stuck, or a search ends Unknown
(unless --allow-unknown);
2 for usage and input errors (after the other files have been checked).

Flags:
	--model M         a model ('litmus help models': sc, tso, pso, lkmm, aarch64,
	                  aarch64-llsc, riscv, ppc, and their aliases), a comma-separated
	                  list, or all (default: tso for C and X86 tests, the architecture's
	                  model for AArch64, RISCV and PPC tests, lkmm for LISA tests)
	--cat FILE        also check under the cat model in FILE, a .cat or herd's .cfg
	                  (repeatable; 'litmus help models', docs/cat.md)
	-I DIR            a directory searched for the files a --cat model includes (repeatable)
	--model-dir DIR   also check under the LKMM of a kernel tree: DIR is its
	                  tools/memory-model (linux-kernel.cfg, .bell, .cat, lock.cat), and its
	                  linux-kernel.def replaces the built-in table of C primitives
	--json            print JSON Lines, one object per test and model (see 'litmus help json')
	--max-states N    stop a search after N distinct states (lkmm: N candidate executions), giving Unknown (default 5000000)
	--timeout D       stop each model's check of a test after duration D (e.g. 30s), set-up
	                  included, giving Unknown (default none)
	--max-memory N    stop a test's search when it holds more than N MiB, giving Unknown (default 1536)
	--allow-unknown   do not fail on Unknown verdicts
	--fresh-zero      read a location or register only the final section names as herd7
	                  does, a fresh 0, instead of an input error
	--jobs N          check N files at a time (default: the number of CPUs)
	--time            print herd's "Time NAME S" line (default true; false makes output reproducible)
	-v                with several models, also print herd's block for each
	--progress        show a progress bar on stderr (default: when stderr is a terminal and there are many files)
	--shard K/N       check only the K-th of N slices of the files: file i (arguments in order,
	                  each directory sorted) when i mod N = K-1; the N shards of a CI matrix
	                  check every file once ('litmus compare' merges their --json outputs)
` + herdFlagsHelp,
		SetFlags: func(fs *flag.FlagSet) {
			f := &checkFlags
			*f = checkOptions{}
			addRunFlags(fs, &f.runOptions)
			fs.BoolVar(&f.json, "json", false, "print JSON Lines")
			fs.BoolVar(&f.allowUnknown, "allow-unknown", false, "do not fail on Unknown verdicts")
			fs.BoolVar(&f.time, "time", true, "print herd's Time line")
			fs.BoolVar(&f.verbose, "v", false, "with several models, also print herd's blocks; under sc, tso and pso, say why the partial-order reduction did not apply")
			fs.BoolVar(&f.progress, "progress", false, "show a progress bar on stderr")
			fs.Var(&f.shard, "shard", "check only the K-th of N slices of the files (K/N)")
		},
		Run: runCheck,
	})
}

// addRunFlags declares the flags shared by check, explain, fences and diff.
func addRunFlags(fs *flag.FlagSet, o *runOptions) {
	fs.StringVar(&o.models, "model", "auto", "memory model: sc, tso (x86), pso, lkmm, aarch64 (arm64), aarch64-llsc, riscv, ppc (power), a list, all, or auto")
	fs.Var((*stringList)(&o.cats), "cat", "a cat model file to check under too (repeatable)")
	fs.StringVar(&o.modelDir, "model-dir", "", "a directory with linux-kernel.cfg (a kernel tree's tools/memory-model) whose LKMM to check under too")
	fs.Var((*stringList)(&o.includes), "I", "a directory searched for files a --cat model includes (repeatable)")
	o.maxStates, o.maxMemory, o.timeout, o.jobs = model.DefaultMaxStates, model.DefaultMaxMemory>>20, 0, 0
	fs.Var(positive{&o.maxStates}, "max-states", "state limit per search")
	fs.Var(positive{&o.maxMemory}, "max-memory", "memory cap of each test's search, in MiB")
	fs.Var(nonNegative{&o.timeout}, "timeout", "time limit per search")
	fs.Var(positive{&o.jobs}, "jobs", "files checked at a time (default: the number of CPUs)")
	fs.BoolVar(&o.freshZero, "fresh-zero", false, "read a location or register that only the final section names as herd7 does, a fresh 0, instead of an error")
	addHerdFlags(fs, o)
}

func runCheck(ctx context.Context, env *Env, args []string) int {
	f := checkFlags
	if len(args) == 0 {
		env.Errorf("usage: litmus check [flags] FILE|DIR...")
		return exitUsage
	}
	models, err := parseModels(f.models)
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	cats, err := catModels(f.runOptions)
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	if err := f.loadPrims(); err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	if len(cats) > 0 && f.models == "auto" {
		models = nil // only the named cat models
	}
	models = append(models, cats...)
	all, code := argFiles(env, args)
	files := f.shard.pick(all)
	if len(files) == 0 && len(all) > 0 {
		return code // a shard of fewer files than shards: nothing to check
	}
	if len(files) == 0 {
		if code == exitOK {
			env.Errorf("no .litmus files in %s", strings.Join(args, " "))
		}
		return exitUsage
	}

	if !f.json {
		writeModelIDs(env.Stdout, models, f.runOptions)
	}
	multi := len(models) > 1
	var summary []fileResult
	prog := newProgress(env, len(files), f.progress)
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false) // "<stdin>", "-fr->" as written
	checkAll(ctx, env, files, models, f.runOptions, model.Options{}, func(_ int, fr fileResult) {
		prog.step(fr.file)
		// An input error (a misspelt location, a thread the condition
		// names that does not exist, an expectation not understood) is
		// found before any model runs (model.Resolve), once.
		if fr.err != nil {
			printInputError(env, fr.file, fr.err)
			code = max(code, exitUsage)
		}
		for _, n := range fr.notes {
			env.Errorf("%s", n)
		}
		for i := range fr.results {
			mr := &fr.results[i]
			if mr.err != nil {
				printInputError(env, fr.file, mr.err)
				if !(multi && kcomp.IsNotCompiled(mr.err)) {
					code = max(code, exitUsage)
				}
				continue
			}
			if p := mr.problems(f.allowUnknown); len(p) > 0 {
				for _, msg := range p {
					env.Errorf("%s: %s: %s", fr.file, mr.model, msg)
				}
				code = max(code, exitCheck)
			}
		}
		switch {
		case f.json:
			writeJSON(enc, fr, models, f.primsHash)
		case !multi || f.verbose:
			for _, mr := range fr.results {
				if mr.res != nil {
					if multi {
						fmt.Fprintf(env.Stdout, "# %s under %s\n", fr.file, mr.model)
					}
					writeHerd(env.Stdout, mr.res, f.time)
					if f.verbose {
						writeSearch(env.Stdout, mr.res)
					}
				}
			}
		}
		if multi && !f.json {
			summary = append(summary, fr)
		}
	})
	prog.done()
	if multi && !f.json {
		writeSummary(env.Stdout, summary, models, f.allowUnknown)
	}
	return code
}

// printInputError prints a parse or meaning error, one line per error,
// as "litmus: file:line:col: message".
func printInputError(env *Env, file string, err error) {
	var lines []string
	var list litmus.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			lines = append(lines, e.Error())
		}
	} else {
		msg := err.Error()
		if !strings.HasPrefix(msg, file) {
			msg = file + ": " + msg
		}
		lines = append(lines, msg)
	}
	for _, l := range lines {
		env.Errorf("%s", l)
	}
}

// writeSummary prints the test × model table of verdicts.
func writeSummary(w io.Writer, frs []fileResult, models []model.Model, allowUnknown bool) {
	// A model that applies to none of the tests (aarch64 on C tests) gets
	// no column.
	var used []model.Model
	for _, m := range models {
		for _, fr := range frs {
			if resultFor(fr, m) != nil {
				used = append(used, m)
				break
			}
		}
	}
	if len(used) > 0 {
		models = used
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprint(tw, "test")
	for _, m := range models {
		fmt.Fprintf(tw, "\t%s", m)
	}
	fmt.Fprintln(tw)
	pass, fail, unjudged := 0, 0, 0
	for _, fr := range frs {
		name := fr.file
		if fr.test != nil {
			name = fr.test.Name
		}
		fmt.Fprint(tw, name)
		if fr.err != nil {
			// A cell under every model, or the rows below lose their
			// alignment (tabwriter aligns runs of lines with the same
			// cells).
			for range models {
				fmt.Fprint(tw, "\tinput error")
			}
			fail++
			fmt.Fprintln(tw)
			continue
		}
		for _, m := range models {
			mr := resultFor(fr, m)
			if mr == nil || kcomp.IsNotCompiled(mr.err) {
				// Not checked: a model that does not read the test, or
				// an architecture model the test does not compile for
				// (an RCU grace period), which the line above the
				// table says.
				fmt.Fprint(tw, "\tn/a")
				continue
			}
			fmt.Fprintf(tw, "\t%s", cell(mr))
			switch {
			case len(mr.problems(allowUnknown)) > 0:
				fail++
			case mr.judged():
				pass++
			default:
				// Nothing said what to expect: a verdict is not a pass.
				unjudged++
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d passed, %d failed", pass, fail)
	if unjudged > 0 {
		fmt.Fprintf(w, ", %d unjudged (no expectation)", unjudged)
	}
	fmt.Fprintln(w)
}

// resultFor returns fr's result under m, or nil when the test was not
// checked under m (an assembly test under LKMM).
func resultFor(fr fileResult, m model.Model) *modelResult {
	for i := range fr.results {
		if fr.results[i].model == m {
			return &fr.results[i]
		}
	}
	return nil
}

// cell is one summary entry: the verdict, whether it meets the
// expectation, and what else happened.
func cell(mr *modelResult) string {
	if mr.err != nil {
		return "error"
	}
	s := mr.res.Verdict.String()
	if mr.vacuous() && !mr.expectDeadlock() {
		s += " (no final state)"
	} else if ok, has := mr.verdictOK(); has {
		if ok {
			s += " (ok)"
		} else {
			s += " (want " + mr.expect + ")"
		}
	}
	if n := len(mr.res.Violations); n > 0 {
		s += " +inv"
	} else if !mr.res.InvariantsChecked && mr.hasInvariants {
		s += " inv:n/a"
	}
	if n := len(mr.res.Stuck); n > 0 {
		s += " +stuck"
	}
	switch {
	case len(mr.res.Faults) > 0:
		s += " +badaddr"
	case mr.res.Stats.Dropped > 0:
		s += " +dropped"
	}
	if mr.res.Incomplete != "" {
		s += " +incomplete"
	}
	return s
}

// jsonResult is one line of --json output. The schema is documented in
// "litmus help json" and docs/guide.md; fields are only ever added.
type jsonResult struct {
	File        string          `json:"file"`
	Test        string          `json:"test"`
	Model       string          `json:"model"`
	Observation string          `json:"observation"`
	Reason      string          `json:"reason,omitempty"`
	Incomplete  string          `json:"incomplete,omitempty"`
	Kind        string          `json:"kind,omitempty"`
	Condition   string          `json:"condition,omitempty"`
	HerdOk      *bool           `json:"herd_ok"`
	Positive    int             `json:"positive"`
	Negative    int             `json:"negative"`
	States      []string        `json:"states"`
	Expected    *string         `json:"expected"`
	OK          *bool           `json:"ok"`
	Invariants  []jsonViolation `json:"invariant_violations"`
	Stuck       []jsonStuck     `json:"stuck"`
	Flags       []string        `json:"flags"`
	Dropped     int64           `json:"dropped"`
	// Faults are, when the model looked for them (a C test with
	// objects), the accesses through NULL or a wild pointer some
	// allowed execution makes: [] when none; absent when the model did
	// not look (a test without objects drops such an execution, as
	// herd does).
	Faults *[]jsonFault `json:"faults,omitempty"`
	// Loops says, for an axiomatic model, how each loop was checked:
	// as an await of its exit condition, or unrolled and why.
	Loops    []string `json:"loops,omitempty"`
	Why      string   `json:"why,omitempty"`
	Explored int64    `json:"explored_states"`
	Elapsed  float64  `json:"elapsed_s"`
	// Unreduced says why an operational search ran without its
	// partial-order reduction (model.Stats.Unreduced); absent when it
	// was reduced and under the other engines.
	Unreduced string  `json:"unreduced,omitempty"`
	Error     *string `json:"error"`
	// ModelSHA256 is, for a cat model read from files, the SHA-256 of
	// its files' contents (model.Model.CatInfo).
	ModelSHA256 string `json:"model_sha256,omitempty"`
	// PrimitivesSHA256 is the SHA-256 of the kernel tree's macro file
	// the C primitives came from, when one was read.
	PrimitivesSHA256 string `json:"primitives_sha256,omitempty"`
}

type jsonViolation struct {
	Invariant string `json:"invariant"`
	Pos       string `json:"pos"`
	State     string `json:"state"`
}

// jsonFault is one access through NULL or a wild pointer (model.Fault).
type jsonFault struct {
	Thread int `json:"thread"`
	// Pos is the access's file:line:col: the pointer expression's place
	// under the axiomatic models, the statement's under sc, tso, pso.
	Pos    string `json:"pos"`
	Access string `json:"access,omitempty"`
	// Stmt is, under sc, tso and pso, the statement making the access
	// (they keep the statement's place, not the pointer's).
	Stmt  string `json:"statement,omitempty"`
	Value string `json:"value"`
	Kind  string `json:"kind"`
	// Witness reports whether the result shows an execution reaching
	// the fault (a trace, or an allowed execution the search found).
	Witness bool   `json:"witness"`
	Reason  string `json:"reason"`
}

// jsonFaults lists r's faults once each (an operational model reports a
// fault once per dead-end state), nil when r did not look for them.
func jsonFaults(r *model.Result) *[]jsonFault {
	if !r.FaultsChecked {
		return nil
	}
	out := []jsonFault{}
	seen := map[jsonFault]bool{}
	for _, s := range r.Faults {
		f := jsonFault{Reason: s.Reason}
		if s.Fault != nil {
			f = jsonFault{Thread: s.Fault.Thread, Pos: s.Fault.Pos.String(), Access: s.Fault.Access, Stmt: s.Fault.Stmt, Value: s.Fault.Value,
				Kind: s.Fault.Kind, Witness: s.Fault.Witness, Reason: s.Fault.String()}
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return &out
}

type jsonStuck struct {
	Threads []int  `json:"threads"`
	Reason  string `json:"reason"`
}

func writeJSON(enc *json.Encoder, fr fileResult, models []model.Model, primsHash string) {
	name := ""
	if fr.test != nil {
		name = fr.test.Name
	}
	if fr.err != nil {
		msg := fr.err.Error()
		switch {
		case len(models) == 0 && fr.test != nil:
			models = []model.Model{model.Default(fr.test.Arch)}
		case len(models) == 0:
			// --model auto: a file that does not parse has no dialect;
			// report it under the default model of C tests.
			models = []model.Model{model.Default(litmus.ArchC)}
		case len(models) > 1 && fr.test != nil:
			// Under the models that would have checked it.
			var ms []model.Model
			for _, m := range models {
				if m.Applies(fr.test.Arch) {
					ms = append(ms, m)
				}
			}
			models = ms
		}
		for _, m := range models {
			j := jsonResult{File: fr.file, Test: name, Model: m.String(), Observation: "Error",
				States: []string{}, Invariants: []jsonViolation{}, Stuck: []jsonStuck{}, Flags: []string{}, Error: &msg}
			if fr.test != nil {
				// A test that parsed but did not resolve: what it asks.
				j.Kind, j.Condition = model.Condition(fr.test)
				if e := expectationFor(fr.test.Expectations(), m); e != "" {
					j.Expected = &e
				}
			}
			_ = enc.Encode(j)
		}
		return
	}
	for _, mr := range fr.results {
		j := jsonResult{File: fr.file, Test: name, Model: mr.model.String(),
			States: []string{}, Invariants: []jsonViolation{}, Stuck: []jsonStuck{}, Flags: []string{}}
		if mr.model.FromFiles() {
			_, j.ModelSHA256 = mr.model.CatInfo()
		}
		if fr.test != nil && fr.test.Arch == litmus.ArchC {
			j.PrimitivesSHA256 = primsHash
		}
		if mr.err != nil && len(models) > 1 && kcomp.IsNotCompiled(mr.err) {
			// Under several models, as the text's n/a: an architecture
			// model that does not apply to the test, not an error.
			j.Observation, j.Reason = "n/a", mr.err.Error()
			j.Kind, j.Condition = model.Condition(fr.test)
			_ = enc.Encode(j)
			continue
		}
		if mr.err != nil {
			msg := mr.err.Error()
			j.Observation, j.Error = "Error", &msg
			j.Kind, j.Condition = model.Condition(fr.test)
			if mr.expect != "" {
				e := mr.expect
				j.Expected = &e
			}
			_ = enc.Encode(j)
			continue
		}
		r := mr.res
		j.Observation, j.Reason, j.Kind, j.Condition = r.Verdict.String(), r.Reason, r.Kind, r.Condition
		j.Incomplete = r.Incomplete
		if r.Verdict != model.Unknown {
			ok := r.Ok
			j.HerdOk = &ok
		}
		j.Positive, j.Negative = r.Positive, r.Negative
		for i := 0; i < r.States.Len(); i++ {
			j.States = append(j.States, r.States.Line(i))
		}
		if mr.expect != "" {
			e := mr.expect
			j.Expected = &e
			if r.Verdict != model.Unknown {
				ok, _ := mr.verdictOK()
				j.OK = &ok
			}
		}
		for _, v := range r.Violations {
			j.Invariants = append(j.Invariants, jsonViolation{Invariant: v.Invariant, Pos: v.Pos.String(), State: v.State})
		}
		for _, s := range r.Stuck {
			j.Stuck = append(j.Stuck, jsonStuck{Threads: s.Threads, Reason: s.Reason})
		}
		j.Flags = append(j.Flags, r.Flags...)
		j.Dropped = r.Stats.Dropped
		j.Faults = jsonFaults(r)
		j.Loops = r.Loops
		j.Why = r.Why
		j.Explored = r.Stats.States
		j.Elapsed = roundSeconds(r.Stats.Elapsed)
		j.Unreduced = r.Stats.Unreduced
		_ = enc.Encode(j)
	}
}

func roundSeconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond)) / float64(time.Second)
}

// writeModelIDs prints, for each cat model read from files, a line that
// says which model answered: its name, the SHA-256 of its files'
// contents and the files, so that a CI log records the model a verdict
// comes from.
func writeModelIDs(w io.Writer, models []model.Model, o runOptions) {
	if o.primsFile != "" {
		fmt.Fprintf(w, "Primitives sha256:%s %s\n", o.primsHash, o.primsFile)
	}
	for _, m := range models {
		if !m.FromFiles() {
			continue
		}
		files, hash := m.CatInfo()
		var own []string
		for _, f := range files {
			if !strings.HasPrefix(f, "lib:") {
				own = append(own, f)
			}
		}
		fmt.Fprintf(w, "Model %s sha256:%s %s\n", m, hash, strings.Join(own, " "))
	}
}
