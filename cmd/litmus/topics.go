package main

func init() {
	register(&Command{
		Name:  "language",
		Short: "the litmus test language litmus reads",
		Long: `
litmus reads herd7's litmus tests as they are: the kernel's C dialect (the
tests in tools/memory-model/litmus-tests and Documentation/litmus-tests),
herd's X86 (Intel syntax) and X86_64 (AT&T syntax) dialects, herd's AArch64,
RISCV and PPC assembly, and LISA, herd's annotated assembly of the older
kernel tests ("r[once] r1 x", "f[mb]"). C, X86 and X86_64 tests are checked
under sc, tso, pso and lkmm (C); AArch64, RISCV and PPC tests under their
architecture's model (aarch64, riscv, ppc), and C tests also under those
compiled as the kernel compiles them (litmus help models); LISA tests under
lkmm.

A C test is a header "C NAME", an optional quoted doc string, comments
(* ... *), an init block { x=1; int *p = &x; 0:r1=2; }, processes
P0(int *x, ...) { ... } written with the kernel's primitives, and a final
section: "locations [...]", "filter (...)" and a condition "exists (...)",
"~exists (...)" or "forall (...)" over registers (0:r0=1) and shared
locations (x=1).

Beyond herd:
  - while, do-while and for loops, break and continue (herd cannot run
    loops; litmus explores them and reports threads that can get stuck);
  - kernel primitives herd lacks: set_bit, clear_bit, change_bit, test_bit,
    test_and_set_bit and friends, __set_bit, refcount_*, atomic_long_*,
    cpu_relax;
  - "invariant (P)": a proposition checked in every reachable state, not
    only the final ones;
  - per-model expectations in comments: "Result-SC:", "Result-TSO:",
    "Result-PSO:", "Result-LKMM:", "Result-AARCH64:" (any model name or
    alias, "Result-ARM64-LLSC:") beside the kernel's "Result:", and
    "Invariant: Holds|Violated".

docs/language.md has the grammar, the full primitive table with each
primitive's ordering and the kernel document it comes from, and the
instructions and operand forms of the AArch64, RISCV and PPC dialects.
`,
	})
	register(&Command{
		Name:  "models",
		Short: "the memory models litmus explores",
		Long: `
sc    Sequential consistency: one shared memory; any thread's next
      instruction runs atomically.
tso   x86-TSO (Owens, Sarkar, Sewell, CACM 2010): one FIFO store buffer per
      thread; loads read their own buffer first; LOCK'd instructions and
      MFENCE drain it. C tests use the kernel's x86 mapping: every atomic
      RMW is LOCK'd, smp_mb() is a full fence, smp_rmb/smp_wmb/
      smp_mb__before_atomic/smp_mb__after_atomic compile to nothing.
pso   SPARC PSO: one FIFO per thread and address, so stores to different
      addresses can reach memory out of order; smp_wmb() and release stores
      order earlier stores before later ones.
lkmm  The Linux-kernel memory model (tools/memory-model), axiomatic, with
      herd7's exact answers, extended to bitops and refcount_*.
aarch64, riscv, ppc
      herd7 7.58's aarch64.cat, riscv.cat (RVWMO) and ppc.cat (POWER), run
      by the cat interpreter on AArch64, RISCV and PPC tests (aliases arm64,
      armv8, rvwmo, power).
arm64 (aarch64), arm64-llsc (aarch64-llsc), riscv, power (ppc) on C tests
      The C test compiled as the kernel compiles it (model/kmap's rows from
      arch/<arch>/include/asm, v6.x) and checked under that cat model:
      arm64 with the LSE atomics, arm64-llsc with the LL/SC loops (C tests
      only), riscv64 and ppc64; "litmus compile --model M" prints the
      compiled test. SRCU grace periods have no instructions: such a test
      is n/a (with --model all) or an error naming its line. An RCU grace
      period is compiled as the toy RCU of the kernel's whatisRCU.rst (a
      spinlock per reader, each taken once by synchronize_rcu between
      smp_mb()s): the verdict is that implementation's, which may be Never
      where the LKMM says Sometimes. x86 is
      tso.
auto  The default: tso for C and X86 tests, the architecture's model for
      AArch64, RISCV and PPC tests, lkmm for LISA tests.
all   Every model; a test is n/a under the models that do not read it.

--cat FILE runs a cat model from a file (a .cat, or herd's .cfg); -I DIR
adds include directories; --model-dir DIR runs a kernel tree's own LKMM
(tools/memory-model) with its linux-kernel.def as the primitive table.
Such models print a "Model NAME sha256:HASH FILES" line naming what ran
(NAME is the file's name, riscv.cat, never a built-in model's; HASH is of
the files' contents). herd's own model files answer as under herd7: a
RISC-V AMO is one event for them, as herd makes it (docs/cat.md).

Every verdict is exact: Never, Sometimes or Always only when the search was
complete, or, for Sometimes, when it has found final states where the
condition holds and where it fails (no other state can change that);
otherwise Unknown with the reason:
  - the state limit (--max-states; under lkmm, candidate executions);
  - the time limit (--timeout), or an interrupt;
  - the memory cap (--max-memory), on what the test's search holds, or an
    LKMM execution whose relations cannot fit under it;
  - sc/tso/pso: a store buffer past 64 entries (a loop that stores
    without a fence);
  - lkmm: loops unrolled a bounded number of times, as herd7's -unroll
    does, when that dropped paths and the verdict is not Sometimes (the
    reason gives herd7's answer); a location that may hold more than 256
    values; a thread with more than 2^20 paths;
  - cat models: the same limits, and a candidate-execution limit
    (--max-states).
Positive and Negative count final states under sc, tso and pso, and allowed
executions under the axiomatic models (lkmm, aarch64, riscv, ppc, cat), as
herd7 does.
docs/semantics.md gives each primitive's meaning under each model.
`,
	})
	register(&Command{
		Name:  "json",
		Short: "the JSON Lines output of 'litmus check --json'",
		Long: `
'litmus check --json' prints one JSON object per line, one per test and
model, in input order. The schema is stable: fields are only ever added.

  file                  the file as given or found
  test                  the test's name ("" if it did not parse)
  model                 the model: "sc", "tso", "pso", "lkmm", "aarch64",
                        "aarch64-llsc", "riscv", "ppc", or a model read
                        from files, named by its file ("riscv.cat",
                        "linux-kernel.cfg"; --model-dir: "linux-kernel.cat")
  observation           "Never", "Sometimes", "Always", "Unknown", "n/a"
                        when, under several models, an architecture model
                        does not apply to the C test (the reason says why:
                        synchronize_srcu; the exit status does not count
                        it, as the text's n/a), or "Error" when the file
                        could not be checked
  reason                why the verdict is Unknown or n/a (omitted
                        otherwise)
  incomplete            why the search stopped early although the verdict
                        (Sometimes) is exact: final states where the
                        condition holds and where it fails were both found;
                        states and counts cover the part explored (omitted
                        otherwise)
  kind                  herd's Allowed/Forbidden/Required
  condition             the final condition as herd prints it
  herd_ok               herd's Ok (true) / No (false); null when Unknown
  positive, negative    where the condition's proposition holds / fails:
                        final states under sc, tso and pso, allowed
                        executions under lkmm (herd7's counts); for an
                        Unknown or incomplete result, those found
  states                the final states, herd's state lines, sorted
  expected              the expected verdict from the test's Result
                        comments, or null
  ok                    whether the verdict matches expected; null when
                        there is no expectation or the verdict is Unknown
  invariant_violations  [{invariant, pos, state}] for each violated invariant
  stuck                 [{threads, reason}] for each way a thread can get stuck
  dropped               sc/tso/pso: dead ends where a thread accesses a
                        non-address, dropped (see docs/semantics.md); 0
                        normally, and always 0 under lkmm, whose engine
                        drops such paths without counting them
  faults                in a C test with objects, where every model looks
                        for them: [{thread, pos, access, statement, value,
                        kind, witness, reason}], each access through NULL
                        or a wild pointer that some allowed execution
                        makes, once; [] when none; omitted in a test
                        without objects (such an execution is dropped, as
                        herd does). pos is file:line:col of the pointer
                        expression (access) under the axiomatic models,
                        of the statement (statement) under sc, tso, pso;
                        value is "NULL", an integer or an address outside
                        its object; kind "null", "integer" or "outside";
                        witness whether the result shows an execution
                        reaching it; reason the Fault line. The check
                        fails unless the Result line marks BADADDR
  loops                 (axiomatic models, C tests) how each loop was
                        checked: "P1 line 12: while loop checked as an
                        await of its exit condition", or "... unrolled
                        (why)"; omitted when the test has no loop
  flags                 herd's flags raised by some allowed execution, e.g.
                        "data-race" (LKMM); [] when none
  why                   (LKMM) which axiom rejects the executions that would
                        satisfy the condition, in words; omitted when empty
  explored_states       distinct states the search visited
  elapsed_s             seconds the search took
  unreduced             sc/tso/pso: why the search ran without its
                        partial-order reduction ("the program loops",
                        "invariants are checked in every state"); omitted
                        when it was reduced and under the other models
  error                 "file:line:col: message" when the file could not be
                        parsed or given a meaning, else null; such a
                        record still has kind, condition and expected
                        when the file parsed

'litmus fences --suggest --json' prints one object per ordering construct,
in source order:

  file, test            the file as given, the test's name
  line, thread          where the construct is
  kind                  "fence", "acquire", "release" or "rmw"
  construct             the construct as written, "smp_mb()"
  suggest               the source text of the cheapest primitive that keeps
                        every model's verdict: the construct itself when
                        nothing cheaper does, "" when it can go
  change                "keep", "weaken" or "remove"
  edits                 [{line, from, to}]: the source changes, "" for a
                        statement removed
  cost                  [{arch, from, to, relation}]: the ordering
                        instructions each architecture emits for the
                        construct and the suggestion, and "cheaper", "same",
                        "dearer" or "incomparable"
  baseline, verdicts    {model: verdict} as written, and with this suggestion
                        and those chosen before it
  rejected              [{suggest, label, verdicts, broken_under, complete}]:
                        the cheaper primitives tried and the models whose
                        verdict each changes; complete is false when the
                        checks stopped at the first such model
  alternatives          [{suggest, label, edits, cost, why}]: sufficient
                        primitives cheaper than the suggestion, or
                        incomparable to it, on some architecture
  note, alone, none     what the suggestion relies on; that the cheapest
                        primitive keeps the verdict alone but not with the
                        other suggestions; why nothing cheaper was tried
                        (omitted when empty)
  set_verdicts          {model: verdict} with every suggestion applied
  unknown               why some check ended Unknown (omitted otherwise)
`,
	})
}
