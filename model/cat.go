package model

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/arch"
	"github.com/litmus-dev/litmus/model/axiom"
	"github.com/litmus-dev/litmus/model/cat/interp"
	"github.com/litmus-dev/litmus/model/kcomp"
	"github.com/litmus-dev/litmus/model/lkmm"
	"github.com/litmus-dev/litmus/model/report"
)

// catModel is a cat model and where it came from.
type catModel struct {
	name  string
	arch  litmus.Arch // the only dialect a built-in model reads; "" for a model from files
	bell  bool        // read with a bell file: it gives C tests their annotations
	files bool        // read from files (--cat, --model-dir), not built in
	// target, for a built-in architecture model, is how model/kcomp
	// compiles a C test for it; cOnly marks a model that reads C tests
	// only (aarch64-llsc: an AArch64 test has no atomics to choose).
	target *kcomp.Target
	cOnly  bool

	once sync.Once
	load func() (*interp.Model, error)
	m    *interp.Model
	err  error
}

func builtinCat(name, file string, a litmus.Arch, target *kcomp.Target, cOnly bool) *catModel {
	return &catModel{name: name, arch: a, target: target, cOnly: cOnly,
		load: func() (*interp.Model, error) { return interp.LoadLib(file, interp.Options{}) }}
}

func (c *catModel) model() (*interp.Model, error) {
	c.once.Do(func() { c.m, c.err = c.load() })
	return c.m, c.err
}

func (c *catModel) applies(a litmus.Arch) bool {
	if a == litmus.ArchC && c.target != nil {
		return true
	}
	if c.arch != "" {
		return a == c.arch && !c.cOnly
	}
	if a == litmus.ArchC {
		// A model from files reads C tests as herd7 does: with a bell,
		// the annotations are its sets; without one, the events are
		// plain reads, writes and fences (herd7 -model sc.cat on a C
		// test).
		return c.bell || c.files
	}
	return arch.Supported(a)
}

// oneEventAMO reports whether the model sees a RISC-V AMO as one event,
// as herd7 gives it to a model it reads (unless -variant SplittedRMW):
// every model from files does; the built-in riscv.cat is written for the
// AMO's two events.
func (c *catModel) oneEventAMO(cm *interp.Model) bool {
	return c.files && !cm.Variant("SplittedRMW")
}

// CatOptions say how to read a cat model from files.
type CatOptions struct {
	// IncludeDirs are searched for included files after the model's own
	// directory (herd's -I), before the built-in library.
	IncludeDirs []string
	// Variants are herd's -variant names that hold.
	Variants []string
	// Name is the model's name in results; by default the file's base
	// name with its extension ("riscv.cat"), which no built-in model's
	// name or alias has: a column or JSON record of a model from files
	// never shares its name with a built-in one.
	Name string
}

func (o CatOptions) name(file string) string {
	if o.Name != "" {
		return o.Name
	}
	return filepath.Base(file)
}

// ReadModelFile reads a model file (cat, bell, cfg, def), refusing more
// than 8 MiB as tests are refused (litmus.MaxSize).
func ReadModelFile(path string) ([]byte, error) { return interp.ReadFile(path) }

// LoadCat reads the cat model in file, with its includes. It checks
// assembly tests of the architectures litmus has a semantics for; with a
// bell (LoadKernel) also C tests.
//
// A file ending in .cfg is read as herd's -conf file: its model, bell and
// variant lines (the kernel's linux-kernel.cfg); with a bell, the model
// checks C tests.
func LoadCat(file string, opt CatOptions) (Model, error) {
	iopt := interp.Options{IncludeDirs: opt.IncludeDirs, Variants: opt.Variants}
	if strings.HasSuffix(file, ".cfg") {
		m, err := interp.LoadConfig(file, iopt)
		if err != nil {
			return Model{}, err
		}
		c := &catModel{name: opt.name(file), m: m, bell: m.HasBell(), files: true}
		if c.bell {
			c.arch = litmus.ArchC
		}
		c.once.Do(func() {})
		return Model{k: kCat, cat: c}, nil
	}
	m, err := interp.Load(file, iopt)
	if err != nil {
		return Model{}, err
	}
	c := &catModel{name: opt.name(file), m: m, bell: m.HasBell(), files: true}
	c.once.Do(func() {})
	return Model{k: kCat, cat: c}, nil
}

// LoadKernel reads the Linux-kernel memory model of a kernel tree's
// tools/memory-model directory (or any directory holding
// linux-kernel.cfg, .bell, .cat and lock.cat), as herd7 -conf
// linux-kernel.cfg does. It checks C tests.
//
// A directory without linux-kernel.cfg is read as the kernel's own
// linux-kernel.cfg reads it: the bell linux-kernel.bell, the model
// linux-kernel.cat, the variant lkmmv2.
func LoadKernel(dir string) (Model, error) {
	cfg := filepath.Join(dir, "linux-kernel.cfg")
	var m *interp.Model
	var err error
	if _, serr := os.Stat(cfg); os.IsNotExist(serr) {
		m, err = interp.Load(filepath.Join(dir, "linux-kernel.cat"), interp.Options{
			Bell: filepath.Join(dir, "linux-kernel.bell"), Variants: []string{"lkmmv2"}, IncludeDirs: []string{dir}})
	} else {
		m, err = interp.LoadConfig(cfg, interp.Options{})
	}
	if err != nil {
		return Model{}, err
	}
	c := &catModel{name: "linux-kernel.cat", m: m, bell: true, arch: litmus.ArchC, files: true}
	c.once.Do(func() {})
	return Model{k: kCat, cat: c}, nil
}

// FromFiles reports whether m is a cat model read from files (LoadCat,
// LoadKernel) rather than built in: the one whose identity a log should
// record (CatInfo).
func (m Model) FromFiles() bool { return m.cat != nil && m.cat.files }

// CatInfo describes a cat model: its name, the files it was read from
// and the SHA-256 of their contents, so that a log says which model
// answered. It is empty for the native models.
func (m Model) CatInfo() (files []string, hash string) {
	if m.cat == nil {
		return nil, ""
	}
	cm, err := m.cat.model()
	if err != nil {
		return nil, ""
	}
	return cm.Files, cm.Hash
}

// reads returns an error, in words, when the cat model cannot check t:
// its dialect is not one the model reads (Model.Applies).
func (c *catModel) reads(t *litmus.Test) error {
	if c.applies(t.Arch) {
		return nil
	}
	if c.cOnly {
		return fmt.Errorf("%s: the %s model reads C tests only, compiled with the LL/SC atomics (check %s tests under %s)", t.Name, c.name, t.Arch, Default(t.Arch))
	}
	return fmt.Errorf("%s: the %s model does not read %s tests", t.Name, c.name, t.Arch)
}

// checkCat runs cat model m on t, a test of a dialect m reads (an
// assembly test, or a C test under a model from files, with or without
// a bell): t's own events under the model.
func checkCat(ctx context.Context, t *litmus.Test, m Model, opt Options) (*Result, error) {
	// One budget bounds the whole check, in every loop of the semantics,
	// the domains, the combinations and the relations: the time limit,
	// ctx and the memory cap, with the reason in words.
	b := limit.New(ctx, opt.Timeout, opt.MaxMemory)
	cm, err := m.cat.model()
	if err != nil {
		return nil, err
	}
	var p *axiom.Program
	if t.Arch == litmus.ArchC {
		if opt.Unroll {
			p, err = lkmm.ProgramUnrolled(t, opt.LoopBound, b)
		} else {
			p, err = lkmm.ProgramLimited(t, opt.LoopBound, b)
		}
	} else {
		p, err = arch.Program(t, arch.Options{Budget: b, LoopBound: opt.LoopBound, OneEventAMO: m.cat.oneEventAMO(cm)})
	}
	var ex *limit.Exceeded
	if errors.As(err, &ex) {
		return limitedResult(t, m, ex.Reason), nil // the set-up of a large test ran out of budget
	}
	if err != nil {
		return nil, err
	}
	start := time.Now()
	r, err := catSearch(ctx, cm, p, opt, opt.WitnessFor)
	if err != nil && t.Arch == litmus.ArchC && !m.cat.bell && strings.Contains(err.Error(), "unbound name") {
		// A C test under a model without a bell: its events are plain
		// reads, writes and fences, as herd7 gives them, and a model
		// written for a bell's annotations names sets they lack.
		return nil, fmt.Errorf("%s: %v: the %s model has no bell file to give C primitives their annotations (check against a kernel tree's model with --model-dir DIR, or --cat DIR/linux-kernel.cfg)", t.Name, err, m)
	}
	if arch.IsMixed(err) {
		// A mixed-size test: herd's -variant mixed meaning.
		if p, err = arch.Program(t, arch.Options{Mixed: true, Budget: b, LoopBound: opt.LoopBound, OneEventAMO: m.cat.oneEventAMO(cm)}); err != nil {
			if errors.As(err, &ex) {
				return limitedResult(t, m, ex.Reason), nil
			}
			return nil, err
		}
		r, err = catSearch(ctx, cm, p, opt, opt.WitnessFor)
	}
	if err != nil {
		return nil, err
	}
	var loops []string
	var fs []report.Fault
	if t.Arch == litmus.ArchC {
		loops = lkmm.LoopNotes(t, opt.Unroll)
		if hasObjects(t) && lkmm.SawFault(p) {
			if fs, err = catFaults(ctx, cm, t, opt, b); err != nil && !isFaultsUnknown(err) {
				return nil, err
			}
		}
	}
	res := catResult(t, m, r, r.States, r.Why, loops, start)
	if t.Arch == litmus.ArchC {
		setFaults(res, t, fs, err)
	}
	return res, nil
}

// faultsUnknown is a search for faults stopped by a limit (reason).
type faultsUnknown struct{ reason string }

func (e *faultsUnknown) Error() string { return e.reason }

func isFaultsUnknown(err error) bool {
	var fu *faultsUnknown
	return errors.As(err, &fu)
}

// hasObjects reports whether an access through NULL or a wild pointer
// is a finding in t (Result.Faults) rather than a dropped execution: t
// is a code test, or declares objects.
func hasObjects(t *litmus.Test) bool { return t.Code != nil || len(t.Objects) > 0 }

// catFaults checks C test t a second time under cat model cm with its
// faulting paths ending at the fault (lkmm.FaultProgram), as the native
// LKMM does, and returns the faults some execution the model allows
// reaches. The first check walked a fault; whether an allowed execution
// reaches it is the model's question.
func catFaults(ctx context.Context, cm *interp.Model, t *litmus.Test, opt Options, b *limit.Budget) ([]report.Fault, error) {
	fp, faultsOf, site, err := lkmm.FaultProgram(t, opt.LoopBound, b, opt.Unroll)
	if err != nil || fp == nil {
		return nil, err
	}
	fopt := opt
	fopt.Explain, fopt.WitnessFor = false, nil
	fr, err := catSearch(ctx, cm, fp, fopt, nil)
	if err != nil {
		return nil, err
	}
	if fr.Verdict == axiom.Unknown {
		return nil, &faultsUnknown{fr.Reason}
	}
	fs := faultsOf(fr.States)
	if opt.Explain {
		for i := range fs {
			fopt.Explain = true
			w, err := catSearch(ctx, cm, fp, fopt, lkmm.FaultProp(fs[i].Thread, site(fs[i])))
			if err != nil {
				return nil, err
			}
			fs[i].Graph = w.Witness
		}
	}
	return fs, nil
}

// setFaults records in res, the result of an axiomatic model on C test
// t, the faults its second check found (the flag bad-address with
// them), and that it looked for them. err, when a *faultsUnknown, says
// that the second check stopped at a limit: the verdict is then Unknown,
// whether some allowed execution faults not being known.
func setFaults(res *Result, t *litmus.Test, fs []report.Fault, err error) {
	var fu *faultsUnknown
	if errors.As(err, &fu) && res.Verdict != Unknown {
		res.Verdict, res.Reason, res.Ok = Unknown, lkmm.FaultsUnknown(fu.reason), false
	}
	res.FaultsChecked = hasObjects(t)
	for _, f := range fs {
		if f.Graph != nil {
			// The fault check's final state is its site registers,
			// not the test's.
			g := *f.Graph
			g.Final = ""
			f.Graph = &g
		}
		res.Faults = append(res.Faults, report.Stuck{Threads: []int{f.Thread}, Reason: f.String(), Fault: &f})
	}
	if len(fs) > 0 && !slices.Contains(res.Flags, "bad-address") {
		res.Flags = append(res.Flags, "bad-address")
		slices.Sort(res.Flags)
	}
}

// catSearch runs cat model cm's search over the candidate executions of
// p, bounded by opt; witnessFor is opt.WitnessFor in p's names.
func catSearch(ctx context.Context, cm *interp.Model, p *axiom.Program, opt Options, witnessFor litmus.Prop) (*interp.Result, error) {
	maxCand := opt.MaxStates
	if maxCand <= 0 {
		maxCand = DefaultMaxStates // as for the other models
	}
	return cm.Check(ctx, p, catCheckOptions(maxCand, opt, witnessFor))
}

// catResult is the Result of cat model m on t: the search's answer r,
// with the final states and explanation given (those of the test
// checked in t's place, renamed, for a compiled C test), timed from
// start; loops are the notes on the C test's loops (litmus.Awaits).
func catResult(t *litmus.Test, m Model, r *interp.Result, states report.States, why string, loops []string, start time.Time) *Result {
	res := axiomResult(t, m, axiomSummary{
		States: states, Verdict: r.Verdict, Reason: r.Reason, Ok: r.Ok,
		Positive: r.Positive, Negative: r.Negative, Flags: r.Flags, Why: why,
		Graph: r.Witness, WhyGraph: r.WhyGraph, Matches: r.Matches,
		Cut: r.Cut, Loops: loops, Candidates: r.Candidates,
	})
	res.Stats.Elapsed = time.Since(start)
	res.Stats.Engine = "cat"
	return res
}

// catCheckOptions are the interpreter's options for a check under opt,
// explaining witnessFor (opt.WitnessFor, in the checked test's terms).
func catCheckOptions(maxCand int, opt Options, witnessFor litmus.Prop) interp.CheckOptions {
	co := interp.CheckOptions{MaxCandidates: maxCand, Explain: opt.Explain, SkipAll: opt.SkipAll,
		StrictSkip: opt.StrictSkip, WitnessFor: witnessFor, Graphs: opt.Explain}
	if len(opt.SkipChecks) > 0 {
		co.SkipChecks = map[string]bool{}
		for _, n := range opt.SkipChecks {
			co.SkipChecks[n] = true
		}
	}
	return co
}
