// Package kcomp compiles a kernel C litmus test to an AArch64, RISC-V or
// POWER litmus test, as the kernel compiles it: every primitive becomes
// the instructions of its model/kmap row (arch/<arch>/include/asm/), C's
// plain accesses plain loads and stores, and C's expressions and control
// flow ordinary arithmetic, compare and branch instructions. The result is
// a herd7 litmus test of the architecture's dialect, which model/arch
// gives events and the architecture's cat model judges: the question "does
// this ordering hold on arm64, RISC-V, POWER?" for a C test.
//
// The front end is model/cir, the one `litmus run` uses, so a C thread
// compiles here to the operations it runs on the machine. Registers that
// hold the address of a shared location are set in the init section, as in
// herd's tests ("0:X1=x"); the C registers get architecture registers, and
// the final condition names those, so that a state maps back to the C
// names (Compiled.CName).
//
// Retry loops. The kernel's LL/SC loops, its CAS loops and the spin-wait
// of a lock go back and try again when the store-conditional fails or the
// lock is held. A retry is the same as a first attempt made later, so an
// execution that retries has the final state of one that does not: the
// failed attempt only adds events (a read, a branch) whose ordering
// constraints the model must then also satisfy. kcomp therefore compiles
// a retry as the end of the thread's path: the thread sets a flag register
// and jumps to its end, and the compiled test's filter keeps the
// executions where no thread set its flag. The set of final states is the
// one with real loops (TestRetryAsLoops checks it with
// Options.RetryLoops, where herd's unrolling bound applies instead); the
// loops of the C test itself stay loops.
package kcomp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/litmus-dev/litmus/internal/limit"
	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model/ctype"
	"github.com/litmus-dev/litmus/model/kmap"
)

// Target is an architecture and variant the compiler writes tests for.
type Target struct {
	// Name is the target's name: "aarch64", "aarch64-llsc", "riscv",
	// "ppc".
	Name string
	// Map is the kmap table of the kernel's mapping.
	Map kmap.Arch
	// Dialect is the litmus dialect of the compiled test.
	Dialect litmus.Arch
}

// The targets: the kernel on arm64 with the LSE atomics (patched in at
// boot on ARMv8.1 and later) and without (LL/SC), on riscv64 and on
// ppc64.
var (
	AArch64     = Target{"aarch64", kmap.ARM64, litmus.ArchAArch64}
	AArch64LLSC = Target{"aarch64-llsc", kmap.ARM64LLSC, litmus.ArchAArch64}
	RISCV       = Target{"riscv", kmap.RISCV64, litmus.ArchRISCV}
	PPC         = Target{"ppc", kmap.PPC64, litmus.ArchPPC}
)

// Targets returns every target.
func Targets() []Target { return []Target{AArch64, AArch64LLSC, RISCV, PPC} }

// Options steer a compilation.
type Options struct {
	// RetryLoops compiles the retry branches of the kernel's sequences
	// as the backward branches they are, instead of ending the path
	// (see the package comment). The architecture's loop unrolling
	// bound then applies to them.
	RetryLoops bool
	// Unroll compiles every loop of the C test as a loop, under the
	// architecture's unrolling bound; without it a loop that
	// litmus.Awaits admits is one iteration whose failure ends the
	// path like a retry's (the spin-loop reduction).
	Unroll bool
	// Budget, when not nil, bounds the compilation's time and memory
	// as the search's (a limit hit is its *limit.Exceeded): a test may
	// be megabytes of code.
	Budget *limit.Budget
}

// Compiled is a C test compiled for a target.
type Compiled struct {
	Target Target
	// Test is the compiled test, parsed from Text.
	Test *litmus.Test
	// Text is the compiled test's source.
	Text []byte
	// C is the test it was compiled from.
	C *litmus.Test

	// Loops says how each loop of C was compiled (litmus.LoopNote.Text).
	Loops []string

	cnames  map[string]string // "0:X5" -> "0:r0"
	origins map[lineKey]Origin
	// retry are the threads whose retries end their path with the
	// register flag set (the filter drops those paths).
	retry []int
	flag  string
}

type lineKey struct{ proc, line int }

// Origin says which C construct an instruction of the compiled test comes
// from.
type Origin struct {
	// Pos is the construct's position in the C test.
	Pos litmus.Position
	// Text is the construct as written: "smp_mb()", "r0 =
	// READ_ONCE(*x)" is written "READ_ONCE(*x)", a plain access "*x =
	// 1", a branch "if (r0 == 1)"; empty for C arithmetic.
	Text string
	// Prim is the primitive's kmap row, kmap.PlainLoad or
	// kmap.PlainStore for a plain access, "" otherwise.
	Prim string
	// Ptr and PtrText are, for a memory access through a pointer, the
	// pointer expression's place and text in the C test (cir.Instr.Ptr):
	// what a report of an access through NULL or a wild pointer names,
	// as the LKMM's does.
	Ptr     litmus.Position
	PtrText string
}

// Origin returns the C construct of the instruction of thread proc at
// position pos of the compiled test.
func (c *Compiled) Origin(proc int, pos litmus.Pos) (Origin, bool) {
	if c.Test.File == nil {
		return Origin{}, false
	}
	o, ok := c.origins[lineKey{proc, c.Test.File.Position(pos).Line}]
	return o, ok
}

// CName returns the C test's name of a register of the compiled test in a
// final state ("0:X5" is "0:r0"), and whether it has one.
func (c *Compiled) CName(loc string) (string, bool) {
	n, ok := c.cnames[loc]
	return n, ok
}

// AsmName returns the compiled test's name of a C register ("0:r0" is
// "0:X5"), for a register the final section observes.
func (c *Compiled) AsmName(cloc string) (string, bool) {
	for k, v := range c.cnames {
		if v == cloc {
			_, reg, _ := strings.Cut(k, ":")
			return reg, true
		}
	}
	return "", false
}

// NotCompiledError is a C test the compiler cannot compile for a target:
// a primitive the kernel's mapping has no instructions for (RCU's grace
// periods, SRCU), or a construct of the test this compiler does not
// translate. It is not a mistake in the test.
type NotCompiledError struct {
	Pos    litmus.Position
	Target string
	// Prim is the primitive, when a primitive is the reason.
	Prim string
	Msg  string
}

func (e *NotCompiledError) Error() string {
	return fmt.Sprintf("%s: not compiled to %s: %s", e.Pos, e.Target, e.Msg)
}

// IsNotCompiled reports whether err says a test cannot be compiled for a
// target (a *NotCompiledError), rather than that the test is wrong.
func IsNotCompiled(err error) bool {
	var e *NotCompiledError
	return errors.As(err, &e)
}

// Compile compiles C test t for target tg.
func Compile(t *litmus.Test, tg Target, opt Options) (*Compiled, error) {
	if t.Arch != litmus.ArchC {
		return nil, fmt.Errorf("%s: kcomp compiles C tests, not %s tests", t.Name, t.Arch)
	}
	if len(t.Procs) > 64 {
		// As every model of this project refuses it (model/op/compile.go).
		var l litmus.ErrorList
		l.Add(t.File.Position(t.Pos()), fmt.Sprintf("%d threads; at most 64 are supported", len(t.Procs)))
		return nil, l
	}
	// Names were resolved before any engine ran (model.Resolve): a
	// misspelt location is an error there, not a register holding 0
	// whose accesses drop every execution.
	be := backends[tg.Dialect]
	if be == nil {
		return nil, fmt.Errorf("no code generator for %s", tg.Dialect)
	}
	c := &compiler{t: t, tg: tg, opt: opt, be: be, index: map[string]int{}}
	// RCU's grace periods as the toy implementation's locks (rcu.go).
	rt, err := c.rcuToy(t)
	if err != nil {
		return nil, err
	}
	c.t = rt
	awaits, notes := litmus.Awaits(c.t)
	if !opt.Unroll {
		c.awaits = awaits
	}
	for _, n := range notes {
		if opt.Unroll && n.Await {
			n.Await, n.Why = false, "the await reduction is off"
		}
		c.loops = append(c.loops, n.Text())
	}
	if err := c.declare(); err != nil {
		return nil, err
	}
	for _, pr := range c.t.Procs {
		th, err := c.thread(pr)
		if err != nil {
			return nil, err
		}
		c.threads = append(c.threads, th)
		if err := opt.Budget.Err(); err != nil {
			return nil, err
		}
	}
	out, err := c.finish()
	if out != nil {
		out.C = t // the test as written, not its toy-RCU form
	}
	return out, err
}

// compiler is the state of one compilation.
type compiler struct {
	t   *litmus.Test
	tg  Target
	opt Options
	// awaits are the loops compiled as awaits; loops the notes on
	// every loop (Compiled.Loops).
	awaits map[litmus.Stmt]*litmus.Await
	loops  []string
	be     backend
	vars   []string       // shared variables, in order of declaration
	index  map[string]int // variable -> index in vars
	init   map[string]string
	// wide are the shared variables of 64-bit C types (model/ctype);
	// kinds those narrower than 64 bits (ctype.Locations).
	wide  map[string]bool
	kinds map[string]ctype.Kind
	// threads are the compiled threads, in the order of t.Procs.
	threads []*thread
}

// errorf returns a mistake in the test, at pos.
func (c *compiler) errorf(pos litmus.Pos, format string, args ...any) error {
	return &litmus.Error{Pos: c.t.File.Position(pos), Msg: fmt.Sprintf(format, args...)}
}

// unsupported returns a construct the compiler does not translate.
func (c *compiler) unsupported(pos litmus.Pos, format string, args ...any) error {
	return &NotCompiledError{Pos: c.t.File.Position(pos), Target: c.tg.Name, Msg: fmt.Sprintf(format, args...)}
}

// addVar declares a shared variable once.
func (c *compiler) addVar(name string) {
	if _, ok := c.index[name]; !ok {
		c.index[name] = len(c.vars)
		c.vars = append(c.vars, name)
	}
}

// declare collects the shared variables as model/op/compile_c.go does: the
// init section's, the threads' parameters, the names the final section
// and the init values use; and their initial values.
func (c *compiler) declare() error {
	t := c.t
	c.init = map[string]string{}
	for _, it := range t.Init {
		if it.Proc >= 0 {
			continue
		}
		if it.Len > 0 {
			return c.unsupported(it.Pos(), "array %s: the compiler has one word per location", it.Name)
		}
		c.addVar(it.Name)
	}
	c.kinds = ctype.Locations(t)
	c.wide = map[string]bool{}
	wide := func(name, typ string) {
		if ctype.Wide(typ) {
			c.wide[name] = true
		}
	}
	for _, it := range t.Init {
		if it.Proc < 0 {
			wide(it.Name, strings.TrimSpace(it.Type))
		}
	}
	for _, pr := range t.Procs {
		for _, prm := range pr.Params {
			c.addVar(prm.Name.Name)
			if typ := strings.TrimSpace(prm.Type); strings.HasSuffix(typ, "*") {
				wide(prm.Name.Name, strings.TrimSpace(strings.TrimSuffix(typ, "*")))
			}
		}
	}
	for _, it := range t.Init {
		switch v := it.Value.(type) {
		case *litmus.Ident:
			if v.Name != "NULL" { // int *p = NULL is 0, as in the other engines
				c.addVar(v.Name)
			}
		case *litmus.UnaryExpr:
			if id, ok := v.X.(*litmus.Ident); ok && v.Op == "&" {
				c.addVar(id.Name)
			}
		}
	}
	mem := func(l *litmus.LocRef) error {
		if l.Index >= 0 {
			return c.unsupported(l.Pos(), "array element %s[%d]", l.Name, l.Index)
		}
		if l.Proc < 0 {
			c.addVar(l.Name)
		}
		return nil
	}
	var err error
	visit := func(p litmus.Prop) {
		litmus.EachAtom(p, func(a *litmus.AtomProp) {
			if e := mem(a.Loc); e != nil && err == nil {
				err = e
			}
			if a.Val.Loc != nil {
				if e := mem(a.Val.Loc); e != nil && err == nil {
					err = e
				}
			} else if !a.Val.IsInt && a.Val.Sym != "" {
				c.addVar(a.Val.Sym)
			}
		})
	}
	for _, l := range t.Locations {
		if e := mem(l); e != nil {
			return e
		}
	}
	if t.Filter != nil {
		visit(t.Filter)
	}
	if t.Cond != nil {
		visit(t.Cond.Prop)
	}
	if err != nil {
		return err
	}
	for _, it := range t.Init {
		if it.Proc >= 0 || it.Value == nil {
			continue
		}
		v, err := c.initValue(it.Value)
		if err != nil {
			return err
		}
		if k := c.kinds[it.Name]; k.Narrow() {
			v = narrowInit(v, k)
		}
		c.init[it.Name] = v
	}
	return nil
}

// locType returns the type the compiled test declares location v with:
// int64_t for a 64-bit C type (herd's locations are int, and would print
// its value cut) or for a negative initial value, uint32_t for an
// unsigned int (which would print negative); none for the narrower
// types otherwise, whose values, kept converted by the compiled code,
// print the same as an int.
func (c *compiler) locType(v string) string {
	switch {
	case c.wide[v], strings.HasPrefix(c.init[v], "-"):
		// A negative initial value of a narrower type: herd would
		// store it cut to the int, zero-extended (0xffffffff for -1),
		// and a 64-bit load would read it positive.
		return "int64_t"
	case c.kinds[v] == ctype.Kind{Bits: 32}:
		return "uint32_t"
	}
	return ""
}

// initValue evaluates an initial value: an integer, a location's address
// (x, &x), ATOMIC_INIT(v) or REFCOUNT_INIT(v), a negated integer. It
// returns the value as the compiled test writes it.
func (c *compiler) initValue(e litmus.Expr) (string, error) {
	switch e := e.(type) {
	case *litmus.IntLit:
		return fmt.Sprint(e.Value), nil
	case *litmus.Ident:
		if e.Name == "NULL" {
			return "0", nil
		}
		if _, ok := c.index[e.Name]; ok {
			return e.Name, nil
		}
	case *litmus.UnaryExpr:
		switch e.Op {
		case "&":
			if id, ok := e.X.(*litmus.Ident); ok {
				if _, ok := c.index[id.Name]; ok {
					return id.Name, nil
				}
			}
		case "-":
			if lit, ok := e.X.(*litmus.IntLit); ok {
				return fmt.Sprint(-lit.Value), nil
			}
		}
	case *litmus.CallExpr:
		if (e.Fun.Name == "ATOMIC_INIT" || e.Fun.Name == "REFCOUNT_INIT") && len(e.Args) == 1 {
			return c.initValue(e.Args[0])
		}
	case *litmus.ParenExpr:
		return c.initValue(e.X)
	case *litmus.CastExpr:
		return c.initValue(e.X)
	}
	return "", c.unsupported(e.Pos(), "initial value %s", litmus.ExprString(e))
}
