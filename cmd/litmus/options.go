package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

// runOptions are the flags shared by the commands that run the models.
type runOptions struct {
	models    string
	cats      []string // --cat files
	includes  []string // -I directories for --cat
	modelDir  string   // --model-dir
	maxStates int
	timeout   time.Duration
	// herd7's options (herdflags.go): -unroll, -through, -skipchecks,
	// -variant.
	loopBound  int
	skipAll    bool
	skipChecks []string
	strictSkip bool
	variants   []string
	maxMemory  int // MiB
	jobs       int
	// freshZero is --fresh-zero: herd7's reading of a final section
	// naming a location or register the test does not otherwise have.
	freshZero bool

	// prims is the primitive table of the kernel tree's macro file
	// (linux-kernel.def beside --model-dir's model, or named by a --cat
	// .cfg's macros line); nil for the built-in one. loadPrims sets it.
	prims litmus.Table
	// primsFile and primsHash name the macro file and the SHA-256 of its
	// contents, for the log.
	primsFile, primsHash string
}

// loadPrims reads the herd .cfg files of the run (readConfs), then the
// macro file that --model-dir or a --cat .cfg names, if any, into
// o.prims: C tests are then parsed and checked with the kernel tree's own
// table of primitives.
func (o *runOptions) loadPrims() error {
	if err := o.readConfs(); err != nil {
		return err
	}
	var cfgs []string
	if o.modelDir != "" {
		cfgs = append(cfgs, filepath.Join(o.modelDir, "linux-kernel.cfg"))
	}
	for _, c := range o.cats {
		if strings.HasSuffix(c, ".cfg") {
			cfgs = append(cfgs, c)
		}
	}
	var def string
	if o.modelDir != "" {
		// A kernel tree without linux-kernel.cfg: its linux-kernel.def,
		// as the kernel's cfg names it (model.LoadKernel).
		if _, err := os.Stat(cfgs[0]); os.IsNotExist(err) {
			if d := filepath.Join(o.modelDir, "linux-kernel.def"); fileExists(d) {
				def = d
			}
		}
	}
	for _, cfg := range cfgs {
		d, err := macrosOf(cfg)
		if err != nil {
			return err
		}
		switch {
		case d == "":
		case def == "":
			def = d
		case d != def:
			return fmt.Errorf("%s and %s: two macro files for C primitives; check against one kernel tree at a time", def, d)
		}
	}
	if def == "" {
		return nil
	}
	src, err := model.ReadModelFile(def)
	if err != nil {
		return err
	}
	t, err := litmus.ParseDef(def, src)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(src)
	o.prims, o.primsFile, o.primsHash = t, def, hex.EncodeToString(sum[:])
	return nil
}

// macrosOf returns the macro file a herd .cfg names (its "macros" line),
// beside it; "" when it names none or the .cfg does not exist.
func macrosOf(cfg string) (string, error) {
	src, err := model.ReadModelFile(cfg)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(src), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "macros" {
			return filepath.Join(filepath.Dir(cfg), f[1]), nil
		}
	}
	return "", nil
}

// processMargin is what the process may hold beyond the caps of the
// tests it checks at a time: the parsed tests, the model set-up, what no
// engine accounts.
const processMargin = 512 << 20

// modelOptions returns the search bounds as model.Options. The memory
// cap is per test, on what its search accounts (internal/limit); the
// tests checked at a time (--jobs) each have the whole cap, so the
// process may hold jobs times the cap. That figure plus processMargin is
// the process-wide backstop, and the Go runtime's soft memory limit, so
// that the garbage collector keeps garbage under it.
func (o *runOptions) modelOptions() model.Options {
	mem := uint64(o.maxMemory) << 20
	if mem == 0 {
		mem = model.DefaultMaxMemory
	}
	jobs := o.jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	process := uint64(jobs)*mem + processMargin
	debug.SetMemoryLimit(int64(process))
	limit.SetProcessCap(process)
	return model.Options{MaxStates: o.maxStates, Timeout: o.timeout, MaxMemory: mem,
		LoopBound: o.loopBound, SkipAll: o.skipAll, SkipChecks: o.skipChecks, StrictSkip: o.strictSkip}
}

// resolve checks t's names and expectations once for every model of the
// run (model.Resolve): an input error is found, and printed, once.
func (o *runOptions) resolve(t *litmus.Test, models []model.Model) (*model.Program, error) {
	return model.Resolve(t, model.ResolveOptions{FreshZero: o.freshZero, Models: fileModels(models)})
}

// fileModels are the models of models read from files.
func fileModels(models []model.Model) []model.Model {
	var files []model.Model
	for _, m := range models {
		if m.FromFiles() {
			files = append(files, m)
		}
	}
	return files
}

// parseModels turns --model into a list: one name, a comma-separated
// list, or "all" for every model this build runs.
func parseModels(s string) ([]model.Model, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "all":
		var ms []model.Model
		for _, m := range append(model.Models(), model.ArchModels()...) {
			if model.Supported(m) {
				ms = append(ms, m)
			}
		}
		return ms, nil
	case "", "auto":
		// Each test under its dialect's default model (model.Default).
		return nil, nil
	}
	var ms []model.Model
	seen := map[model.Model]bool{}
	for _, part := range strings.Split(s, ",") {
		m, err := model.ParseModel(part)
		if err != nil {
			return nil, err
		}
		if !model.Supported(m) {
			return nil, fmt.Errorf("model %s is not supported by this build", m)
		}
		if !seen[m] {
			seen[m] = true
			ms = append(ms, m)
		}
	}
	return ms, nil
}

// modelsFor returns the models a command checks test t under: those of
// --model ("auto": the default of t's dialect) and of --cat and
// --model-dir (alone when --model is not given).
func modelsFor(o runOptions, t *litmus.Test) ([]model.Model, error) {
	ms, err := parseModels(o.models)
	if err != nil {
		return nil, err
	}
	cats, err := catModels(o)
	if err != nil {
		return nil, err
	}
	ms = append(ms, cats...)
	if len(ms) == 0 {
		ms = []model.Model{model.Default(t.Arch)}
	}
	return ms, nil
}

// catModels loads the models named by --cat and --model-dir.
func catModels(o runOptions) ([]model.Model, error) {
	if err := o.checkVariants(); err != nil {
		return nil, err
	}
	var ms []model.Model
	if o.modelDir != "" {
		m, err := model.LoadKernel(o.modelDir)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	base := map[string]int{}
	for _, f := range o.cats {
		base[filepath.Base(f)]++
	}
	for _, f := range o.cats {
		name := "" // the file's base name, or the path as given when two share it
		if base[filepath.Base(f)] > 1 {
			name = f
		}
		m, err := model.LoadCat(f, model.CatOptions{IncludeDirs: o.includes, Name: name, Variants: o.variants})
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// fileResult is everything checked for one file.
type fileResult struct {
	file    string
	test    *litmus.Test
	err     error // parse or resolve error (a litmus.ErrorList), or read error
	results []modelResult
	// notes are the expectation lines for models outside the run,
	// "file:line:col: ..." (unrunExpectations).
	notes []string
}

// unrunExpectations returns a note for each expectation line of t whose
// model is not among models: nothing checks it in this run. A line that
// names no model at all is an error (model.Resolve), not a note.
func unrunExpectations(t *litmus.Test, models []model.Model) []string {
	var notes []string
	for _, e := range t.ExpectationLines() {
		pos := t.File.Position(e.Pos)
		line := "Result"
		var m model.Model
		if e.Model == "" {
			m = model.LKMM
		} else {
			line += "-" + e.Model
			var err error
			if m, err = model.ParseModel(e.Model); err != nil {
				if !model.ExpectModel(e.Model, models) {
					notes = append(notes, fmt.Sprintf("%s: note: %s: not checked: no model of this run is named %s", pos, line, e.Model))
				}
				continue
			}
		}
		why := fmt.Sprintf("%s is not among the models of this run", m)
		for _, r := range models {
			switch {
			case (r == m || e.Model == "" && isLKMM(r)) && r.Applies(t.Arch):
				why = ""
			case r == m:
				why = fmt.Sprintf("%s does not read %s tests", m, t.Arch)
			}
			if why == "" {
				break
			}
		}
		if why != "" {
			notes = append(notes, fmt.Sprintf("%s: note: %s: not checked: %s", pos, line, why))
		}
	}
	return notes
}

// modelResult is one test under one model.
type modelResult struct {
	model  model.Model
	res    *model.Result
	err    error  // the model could not give the test a meaning
	expect string // expected verdict, "" when none
	// expectInv is "Violated" or "Holds" when the test says what its
	// invariants should do, else "".
	expectInv string
	// expectRace is the kernel's "DATARACE" marker on the Result line:
	// the LKMM is expected to flag a data race.
	expectRace bool
	// expectFault is the BADADDR marker on the Result line: some
	// execution is expected to access memory through NULL or a wild
	// pointer (model.Result.Faults, a test with objects).
	expectFault bool
	// hasInvariants reports whether the test has invariant clauses.
	hasInvariants bool
	// hasFilter reports whether the test has a filter.
	hasFilter bool
}

// verdictOK reports whether the verdict meets its expectation; ok is
// meaningful only when has is true. A verdict over no final state meets no
// expectation but DEADLOCK: Never and Always would hold vacuously.
func (m *modelResult) verdictOK() (ok, has bool) {
	if m.expect == "" || m.res == nil {
		return false, false
	}
	if m.expectDeadlock() {
		// The kernel's "Result: DEADLOCK" as judgelitmus.sh reads it:
		// herd's Observation line ends in "Never 0 0", no execution
		// reaches the end of the test (after the filter), whatever
		// stops them (a lock taken twice, a filter no execution
		// passes, an axiom).
		return m.vacuous(), true
	}
	return m.res.Verdict.String() == m.expect && !m.vacuous(), true
}

// judged reports whether the result was held to an expectation: a
// verdict one (a Result line for its model, or DEADLOCK), or invariant
// clauses the model checked. A result that meets no problem but was
// judged by nothing is not a pass.
func (m *modelResult) judged() bool {
	if _, has := m.verdictOK(); has {
		return true
	}
	return m.res != nil && m.res.InvariantsChecked && m.hasInvariants
}

// expectDeadlock reports whether the test expects "Result: DEADLOCK".
func (m *modelResult) expectDeadlock() bool { return m.expect == "DEADLOCK" }

// vacuous reports whether the search was complete and no execution
// reached the end of the test (after the filter): zero final states, for
// whatever reason (every execution dropped, stuck, filtered out or, under
// LKMM, forbidden).
func (m *modelResult) vacuous() bool {
	r := m.res
	return r != nil && r.Verdict != model.Unknown && r.Positive+r.Negative == 0
}

// vacuousWhy says, in words, why no execution reached the end.
func (m *modelResult) vacuousWhy() string {
	r := m.res
	var why []string
	if r.Stats.Dropped > 0 {
		why = append(why, fmt.Sprintf("%d dead ends access a non-address", r.Stats.Dropped))
	}
	if len(r.Stuck) > 0 {
		why = append(why, "a thread can get stuck")
	}
	switch {
	case m.hasFilter && len(why) == 0:
		why = append(why, "the filter excludes every final state")
	case m.hasFilter:
		why = append(why, "the filter excludes the others")
	}
	if m.model == model.LKMM && len(why) == 0 {
		why = append(why, "the model allows no execution")
	}
	if len(why) == 0 {
		return ""
	}
	return ": " + strings.Join(why, "; ")
}

// problems lists what makes this result fail the check, in words; empty
// means it passes.
func (m *modelResult) problems(allowUnknown bool) []string {
	var p []string
	if m.err != nil {
		return []string{m.err.Error()}
	}
	r := m.res
	raced := slices.Contains(r.Flags, "data-race")
	if isLKMM(m.model) && m.expectRace != raced {
		if raced {
			p = append(p, "LKMM flags a data race that the Result line does not mark DATARACE")
		} else {
			p = append(p, "the Result line marks DATARACE but the LKMM flags no data race")
		}
	}
	switch {
	case len(r.Faults) > 0 && !m.expectFault:
		for _, f := range r.Faults {
			p = append(p, "bad address: "+f.Reason+" (the Result line does not mark BADADDR)")
		}
	case len(r.Faults) == 0 && m.expectFault && r.FaultsChecked && r.Verdict != model.Unknown:
		p = append(p, "the Result line marks BADADDR but no execution accesses memory through NULL or a wild pointer")
	}
	switch {
	case r.Verdict == model.Unknown:
		if !allowUnknown {
			p = append(p, "verdict Unknown: "+r.Reason)
		}
	case m.vacuous() && !m.expectDeadlock():
		// Never (or Always) over no final state checks nothing: a
		// misspelt location, a dropped or filtered-out execution must
		// not read as a pass.
		p = append(p, fmt.Sprintf("no execution reaches the end of the test (0 final states%s), so %s checks nothing", m.vacuousWhy(), r.Verdict))
	default:
		ok, has := m.verdictOK()
		switch {
		case !has || ok || m.model == model.LKMM && raced:
			// As the kernel's judgelitmus.sh did, a data race forgives
			// the verdict: the outcome of a racy test is undefined.
		case m.expectDeadlock():
			p = append(p, fmt.Sprintf("expected DEADLOCK (no execution reaches the end: herd's Never 0 0), got %s %d %d", r.Verdict, r.Positive, r.Negative))
		default:
			p = append(p, fmt.Sprintf("expected %s, got %s", m.expect, r.Verdict))
		}
	}
	if r.Incomplete != "" && !allowUnknown {
		// The verdict is certain; what else the test asks may not be.
		var open []string
		for _, part := range r.Partial {
			switch {
			case part == "invariants" && m.expectInv == "Violated" && len(r.Violations) > 0:
			case part == "flags" && raced:
			case part == "flags":
				open = append(open, "the data-race flag")
			default:
				open = append(open, part)
			}
		}
		if len(open) > 0 {
			p = append(p, fmt.Sprintf("the search stopped early (%s): %s is certain, but %s were checked only in the part explored", r.Incomplete, r.Verdict, strings.Join(open, " and ")))
		}
	}
	switch {
	case !r.InvariantsChecked:
		// An axiomatic model has no intermediate states to check.
	case m.expectInv == "Violated" && len(r.Violations) == 0 && r.Verdict != model.Unknown:
		p = append(p, "expected an invariant violation, but every invariant holds")
	case m.expectInv != "Violated" && len(r.Violations) > 0:
		for _, v := range r.Violations {
			p = append(p, fmt.Sprintf("%s violated in state %s", v.Invariant, v.State))
		}
	}
	if m.expectDeadlock() {
		return p // stuck threads are what a deadlock is made of
	}
	for _, s := range r.Stuck {
		if msg := "stuck: " + s.Reason; !slices.Contains(p, msg) {
			p = append(p, msg) // several stuck states can share a reason
		}
	}
	return p
}

// invariantRE matches our expectation for invariants in a (* *) comment:
// "Invariant: Violated" or "Invariant-TSO: Holds".
var invariantRE = regexp.MustCompile(`(?m)^[ \t*]*Invariant(?:-([A-Za-z0-9]+))?[ \t]*:[ \t]*(Holds|Violated)\b`)

// invariantExpectations returns the Invariant lines of t keyed by model
// name in upper case, "" for the line that applies to every model.
func invariantExpectations(t *litmus.Test) map[string]string {
	out := map[string]string{}
	for _, c := range t.Comments {
		for _, m := range invariantRE.FindAllStringSubmatch(c.Text, -1) {
			k := strings.ToUpper(m[1])
			if _, dup := out[k]; !dup {
				out[k] = m[2]
			}
		}
	}
	return out
}

// dataraceRE matches the kernel's Result line with its DATARACE marker,
// "Result: Never DATARACE" (tools/memory-model/scripts/judgelitmus.sh).
var dataraceRE = regexp.MustCompile(`(?m)^[ \t*(]*Result(?:-LKMM)?[ \t]*:[^\n]*\bDATARACE\b`)

// badaddrRE matches a Result line with the BADADDR marker: some
// execution accesses memory through NULL or a wild pointer, in a test
// with objects (model.Result.Faults). It applies to every model.
var badaddrRE = regexp.MustCompile(`(?m)^[ \t*(]*Result(?:-[A-Za-z0-9_-]+)?[ \t]*:[^\n]*\bBADADDR\b`)

// expectsFault reports whether t's Result line expects a bad address.
func expectsFault(t *litmus.Test) bool {
	for _, c := range t.Comments {
		if badaddrRE.MatchString(c.Text) {
			return true
		}
	}
	return false
}

// expectsDataRace reports whether t's Result line says the LKMM should
// flag a data race.
func expectsDataRace(t *litmus.Test) bool {
	for _, c := range t.Comments {
		if dataraceRE.MatchString(c.Text) {
			return true
		}
	}
	return false
}

// isLKMM reports whether m is the Linux-kernel memory model: the native
// one, or a cat model with a bell that reads C tests (the kernel's
// linux-kernel.cat from a tree, as --model-dir reads it).
func isLKMM(m model.Model) bool {
	return m == model.LKMM || (m.Axiomatic() && m.FromFiles() && m.Applies(litmus.ArchC))
}

// expectationFor returns the expected verdict of t under m: the
// Result-<MODEL> line, or for LKMM the kernel's plain Result line.
func expectationFor(exp map[string]string, m model.Model) string {
	v := exp[strings.ToUpper(m.String())]
	if v == "" && m.FromFiles() {
		// A model from files is named by its file (armlite.cat); its
		// Result line names it without the extension (Result-ARMLITE).
		n := filepath.Base(m.String())
		v = exp[strings.ToUpper(strings.TrimSuffix(n, filepath.Ext(n)))]
	}
	if v == "" {
		// A model's other name: Result-ARM64 for aarch64.
		for _, k := range slices.Sorted(maps.Keys(exp)) {
			if a, err := model.ParseModel(strings.ToLower(k)); err == nil && a == m {
				v = exp[k]
				break
			}
		}
	}
	if v == "" && isLKMM(m) {
		// A kernel tree's model (--model-dir): the kernel's Result line
		// is its expectation too, so a proposed change shows which
		// tests it changes.
		v = exp["LKMM"]
	}
	if v == "" && m != model.LKMM && exp["LKMM"] == "DEADLOCK" {
		return "DEADLOCK" // a deadlock is one under every model
	}
	switch v {
	case "Never", "Sometimes", "Always", "DEADLOCK":
		return v
	}
	return "" // none, or one that judges no verdict (Maybe, Flag)
}

// checkFile parses one file and runs it under every model.
func checkFile(ctx context.Context, env *Env, file string, models []model.Model, opt runOptions, mopt model.Options) fileResult {
	fr := fileResult{file: file}
	if file == stdinArg {
		fr.file = stdinName
	}
	t, err := env.parseArg(file, opt.prims)
	if err != nil {
		fr.err = err
		return fr
	}
	fr.test = t
	prog, err := opt.resolve(t, models)
	if err != nil {
		fr.err = err
		return fr
	}
	exp := t.Expectations()
	inv := invariantExpectations(t)
	race := expectsDataRace(t)
	fault := expectsFault(t)
	if len(models) == 0 {
		models = []model.Model{model.Default(t.Arch)}
	}
	if len(models) > 1 {
		fr.notes = unrunExpectations(t, models)
	}
	for _, m := range models {
		if !m.Applies(t.Arch) && len(models) > 1 {
			// With several models, a test is checked under those that
			// read its dialect (the LKMM reads C, aarch64 AArch64, ...).
			continue
		}
		mr := modelResult{model: m, expect: expectationFor(exp, m), expectRace: race, expectFault: fault, hasInvariants: len(t.Invariants) > 0, hasFilter: t.Filter != nil}
		if v, ok := inv[strings.ToUpper(m.String())]; ok {
			mr.expectInv = v
		} else {
			mr.expectInv = inv[""]
		}
		o := opt.modelOptions()
		o.NoWitness, o.Plain, o.WitnessFor = mopt.NoWitness, mopt.Plain, mopt.WitnessFor
		mr.res, mr.err = prog.Check(ctx, m, o)
		fr.results = append(fr.results, mr)
	}
	return fr
}

// checkAll checks files over opt.jobs workers and calls emit for each
// result in input order, as soon as it and all before it are done.
func checkAll(ctx context.Context, env *Env, files []string, models []model.Model, opt runOptions, mopt model.Options, emit func(i int, fr fileResult)) {
	jobs := opt.jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if jobs > len(files) {
		jobs = len(files)
	}
	results := make([]fileResult, len(files))
	done := make([]bool, len(files))
	var mu sync.Mutex
	next := 0 // next index to emit
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				fr := checkFile(ctx, env, files[i], models, opt, mopt)
				mu.Lock()
				results[i], done[i] = fr, true
				for next < len(files) && done[next] {
					emit(next, results[next])
					results[next] = fileResult{} // let it be collected
					next++
				}
				mu.Unlock()
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
}

// positive is an integer flag that must be at least 1: a limit of 0 or
// fewer states, MiB or jobs is a mistake, not a request.
type positive struct{ p *int }

func (v positive) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v positive) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil {
		return errors.New("not an integer")
	}
	if n < 1 {
		return errors.New("must be at least 1")
	}
	*v.p = int(n)
	return nil
}

// nonNegative is a duration flag that must not be negative; 0 means no
// limit.
type nonNegative struct{ p *time.Duration }

func (v nonNegative) String() string {
	if v.p == nil {
		return "0s"
	}
	return v.p.String()
}

func (v nonNegative) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("not a duration (e.g. 30s, 2m)")
	}
	if d < 0 {
		return errors.New("must not be negative")
	}
	*v.p = d
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
