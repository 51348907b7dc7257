package kmap

// The arm64 rows, read from Linux v6.x: arch/arm64/include/asm/barrier.h,
// atomic_lse.h, atomic_ll_sc.h and cmpxchg.h, and the generic headers arm64
// builds on (include/asm-generic/bitops/*.h, include/linux/atomic/
// atomic-arch-fallback.h, include/asm-generic/qspinlock.h). The kernel
// compiles every atomic twice, an LL/SC loop and an LSE instruction, and
// patches in the LSE one at boot on a CPU that has it (ARM64_HAS_LSE_ATOMICS):
// ARM64 holds the LSE rows, ARM64LLSC the LL/SC ones; loads, stores and
// barriers are the same in both.
//
// Scratch registers: x14, x15, x16, x17 (and their w halves).

const (
	armBarrier  = "arch/arm64/include/asm/barrier.h (v6.x)"
	armLSE      = "arch/arm64/include/asm/atomic_lse.h (v6.x)"
	armLLSC     = "arch/arm64/include/asm/atomic_ll_sc.h (v6.x)"
	armCmpxchg  = "arch/arm64/include/asm/cmpxchg.h (v6.x)"
	armRwonce   = "arch/arm64/include/asm/rwonce.h (v6.x): a plain LDR unless CONFIG_LTO, which makes READ_ONCE an LDAR/LDAPR"
	armSpin     = "include/asm-generic/qspinlock.h (v6.x), which arm64 uses"
	genBitops   = "include/asm-generic/bitops/atomic.h (v6.x; since v6.0 the test_and_* ops have no early return on failure)"
	genLock     = "include/asm-generic/bitops/lock.h (v6.x)"
	genNonAtom  = "include/asm-generic/bitops/generic-non-atomic.h (v6.x)"
	genFallback = "include/linux/atomic/atomic-arch-fallback.h (v6.x)"
)

// ordering is one of the four forms of a value-returning atomic.
type ordering struct {
	suffix string // "", "_relaxed", "_acquire", "_release"
	lse    string // LSE instruction suffix: "al", "", "a", "l"
	ldx    string // LL/SC load-exclusive: ldxr or ldaxr
	stx    string // LL/SC store-exclusive: stxr or stlxr
	mb     string // "; dmb ish" after the LL/SC loop for the full form
}

var orderings = []ordering{
	{"", "al", "ldxr", "stlxr", "; dmb ish"},
	{"_relaxed", "", "ldxr", "stxr", ""},
	{"_acquire", "a", "ldaxr", "stxr", ""},
	{"_release", "l", "ldxr", "stlxr", ""},
}

func init() {
	register(ARM64, arm64Rows(true), gaps())
	register(ARM64LLSC, arm64Rows(false), gaps())
}

// arm64Rows returns the rows with LSE atomics (lse) or LL/SC loops.
func arm64Rows(lse bool) []Row {
	var rows rowList
	// rmw adds a row in its LSE or its LL/SC form.
	rmw := func(prim, lseCode, lseSrc, llscCode, llscSrc, note string) {
		if lse {
			rows.add(prim, lseCode, lseSrc, note)
		} else {
			rows.add(prim, llscCode, llscSrc, note)
		}
	}
	// llsc is an LL/SC loop: load-exclusive into x16, compute x15 from it
	// with body (empty: store {v}), store-exclusive, retry, then the
	// trailing barrier of the ordering.
	llsc := func(o ordering, body string) string {
		src := "x15"
		if body == "" {
			src = "{v}"
		} else {
			body += "; "
		}
		return "prfm pstl1strm, [{addr}]; 1: " + o.ldx + " x16, [{addr}]; " + body + o.stx + " w17, " + src + ", [{addr}]; cbnz w17, 1b" + o.mb
	}
	full := orderings[0]
	relaxed := orderings[1]

	load := "ldr {ret}, [{addr}]"
	store := "str {v}, [{addr}]"
	rows.addAccesses(load, store, armRwonce, "C: a plain access compiles to one LDR", "C: a plain access compiles to one STR", "include/asm-generic/rwonce.h (v6.x): __WRITE_ONCE, a volatile access")
	rows.addAll(acquireLoads, "ldar {ret}, [{addr}]", armBarrier+": __smp_load_acquire, LDAR", "")
	rows.addAll(releaseStores, "stlr {v}, [{addr}]", armBarrier+": __smp_store_release, STLR", "")
	rows.add(NullAssign, store, rcupdate+": rcu_assign_pointer with a constant NULL is WRITE_ONCE", "")
	rows.add("smp_store_mb", "str {v}, [{addr}]; dmb ish", "include/asm-generic/barrier.h (v6.x): __smp_store_mb is WRITE_ONCE then __smp_mb", "")
	rows.add("smp_mb", "dmb ish", armBarrier+": __smp_mb", "")
	rows.add("smp_rmb", "dmb ishld", armBarrier+": __smp_rmb", "")
	rows.add("smp_wmb", "dmb ishst", armBarrier+": __smp_wmb", "")
	rows.addAll(atomicBarriers, "dmb ish", "include/asm-generic/barrier.h (v6.x): __smp_mb__{before,after}_atomic default to __smp_mb, arm64 does not override them", "")
	rows.add("smp_mb__after_spinlock", "dmb ish", "arch/arm64/include/asm/spinlock.h (v6.x): smp_mb__after_spinlock is smp_mb()", "")
	rows.add("smp_mb__after_unlock_lock", "", "kernel/rcu/rcu.h (v6.x): smp_mb() only with CONFIG_ARCH_WEAK_RELEASE_ACQUIRE (powerpc)", "")
	rows.addEmpty("arm64", true)
	rows.add("cpu_relax", "yield", "arch/arm64/include/asm/vdso/processor.h (v6.x): cpu_relax is YIELD", "")

	for _, pre := range []string{"", "atomic_", "atomic_long_"} {
		for _, o := range orderings {
			rmw(pre+"xchg"+o.suffix,
				"swp"+o.lse+" {v}, x16, [{addr}]; mov {ret}, x16", armCmpxchg+": __xchg_case"+o.suffix+", LSE: SWP"+o.lse,
				"prfm pstl1strm, [{addr}]; 1: "+o.ldx+" x16, [{addr}]; "+o.stx+" w17, {v}, [{addr}]; cbnz w17, 1b"+o.mb+"; mov {ret}, x16", armCmpxchg+": __xchg_case"+o.suffix+", LL/SC", "")
			rmw(pre+"cmpxchg"+o.suffix,
				"mov x16, {v}; cas"+o.lse+" x16, {w}, [{addr}]; mov {ret}, x16", armLSE+": __lse__cmpxchg_case"+o.suffix+", CAS"+o.lse,
				"prfm pstl1strm, [{addr}]; 1: "+o.ldx+" x16, [{addr}]; eor x17, x16, {v}; cbnz x17, 2f; "+o.stx+" w17, {w}, [{addr}]; cbnz w17, 1b"+o.mb+"; 2: mov {ret}, x16",
				armLLSC+": __ll_sc__cmpxchg_case"+o.suffix, "")
		}
	}
	type rmwOp struct {
		name   string
		lse    string // LSE ST<op>/LD<op> suffix
		prep   string // LSE: how to turn {v} into the LSE operand in x17 ("" uses {v})
		alu    string // LL/SC: the ALU instruction
		suffix string
	}
	ops := []rmwOp{
		{"add", "add", "", "add", "add"},
		{"sub", "add", "neg x17, {v}", "sub", "sub"},
		{"and", "clr", "mvn x17, {v}", "and", "and"},
		{"or", "set", "", "orr", "or"},
		{"xor", "eor", "", "eor", "xor"},
		{"andnot", "clr", "", "bic", "andnot"},
	}
	lseArg := func(op rmwOp) (prep, arg string) {
		if op.prep == "" {
			return "", "{v}"
		}
		return op.prep + "; ", "x17"
	}
	for _, pre := range []string{"atomic_", "atomic_long_"} {
		for _, op := range ops {
			prep, arg := lseArg(op)
			rmw(pre+op.name, prep+"st"+op.lse+" "+arg+", [{addr}]", armLSE+": __lse_atomic_"+op.name,
				llsc(relaxed, op.alu+" x15, x16, {v}"), armLLSC+": __ll_sc_atomic_"+op.name, "")
			for _, o := range orderings {
				rmw(pre+"fetch_"+op.name+o.suffix, prep+"ld"+op.lse+o.lse+" "+arg+", x16, [{addr}]; mov {ret}, x16", armLSE+": __lse_atomic_fetch_"+op.name+o.suffix,
					llsc(o, op.alu+" x15, x16, {v}")+"; mov {ret}, x16", armLLSC+": __ll_sc_atomic_fetch_"+op.name+o.suffix, "")
			}
		}
		rmw(pre+"inc", "mov x17, #1; stadd x17, [{addr}]", genFallback+": inc is add(1, v); "+armLSE+": __lse_atomic_add",
			llsc(relaxed, "add x15, x16, #1"), genFallback+": inc is add(1, v); "+armLLSC, "")
		rmw(pre+"dec", "mov x17, #-1; stadd x17, [{addr}]", genFallback+": dec is sub(1, v); "+armLSE+": __lse_atomic_sub is add(-i)",
			llsc(relaxed, "sub x15, x16, #1"), genFallback+": dec is sub(1, v); "+armLLSC, "")
		for _, o := range orderings {
			rmw(pre+"add_return"+o.suffix, "ldadd"+o.lse+" {v}, x16, [{addr}]; add {ret}, x16, {v}", armLSE+": __lse_atomic_add_return"+o.suffix,
				llsc(o, "add x15, x16, {v}")+"; add {ret}, x16, {v}", armLLSC+": __ll_sc_atomic_add_return"+o.suffix, "")
			// atomic_t's LSE sub_return calls __lse_atomic_fetch_sub
			// without the ordering suffix: every form is LDADDAL.
			subLSE, subNote := o.lse, ""
			if pre == "atomic_" && o.lse != "al" {
				subLSE, subNote = "al", noteLSESub
			}
			rmw(pre+"sub_return"+o.suffix, "neg x17, {v}; ldadd"+subLSE+" x17, x16, [{addr}]; add {ret}, x16, x17", armLSE+": __lse_atomic_sub_return"+o.suffix+" is __lse_atomic_fetch_sub(i, v) - i",
				llsc(o, "sub x15, x16, {v}")+"; sub {ret}, x16, {v}", armLLSC+": __ll_sc_atomic_sub_return"+o.suffix, pick(lse, subNote))
			rmw(pre+"inc_return"+o.suffix, "mov x17, #1; ldadd"+o.lse+" x17, x16, [{addr}]; add {ret}, x16, #1", genFallback+": inc_return is add_return(1, v)",
				llsc(o, "add x15, x16, #1")+"; add {ret}, x16, #1", genFallback+": inc_return is add_return(1, v)", "")
			rmw(pre+"dec_return"+o.suffix, "mov x17, #-1; ldadd"+subLSE+" x17, x16, [{addr}]; sub {ret}, x16, #1", genFallback+": dec_return is sub_return(1, v); "+armLSE+": __lse_atomic_sub_return",
				llsc(o, "sub x15, x16, #1")+"; sub {ret}, x16, #1", genFallback+": dec_return is sub_return(1, v)", pick(lse, subNote))
			rmw(pre+"fetch_inc"+o.suffix, "mov x17, #1; ldadd"+o.lse+" x17, x16, [{addr}]; mov {ret}, x16", genFallback+": fetch_inc is fetch_add(1, v)",
				llsc(o, "add x15, x16, #1")+"; mov {ret}, x16", genFallback+": fetch_inc is fetch_add(1, v)", "")
			rmw(pre+"fetch_dec"+o.suffix, "mov x17, #-1; ldadd"+o.lse+" x17, x16, [{addr}]; mov {ret}, x16", genFallback+": fetch_dec is fetch_sub(1, v)",
				llsc(o, "sub x15, x16, #1")+"; mov {ret}, x16", genFallback+": fetch_dec is fetch_sub(1, v)", "")
			rmw(pre+"add_negative"+o.suffix, "ldadd"+o.lse+" {v}, x16, [{addr}]; add x16, x16, {v}; cmp x16, #0; cset {ret}, lt", genFallback+": add_negative is add_return(i, v) < 0",
				llsc(o, "add x15, x16, {v}")+"; cmp x15, #0; cset {ret}, lt", genFallback+": add_negative is add_return(i, v) < 0", "")
		}
		rmw(pre+"sub_and_test", "neg x17, {v}; ldaddal x17, x16, [{addr}]; cmp x16, {v}; cset {ret}, eq", genFallback+": sub_and_test is sub_return(i, v) == 0",
			llsc(full, "sub x15, x16, {v}")+"; cmp x15, #0; cset {ret}, eq", genFallback+": sub_and_test is sub_return(i, v) == 0", "")
		rmw(pre+"dec_and_test", "mov x17, #-1; ldaddal x17, x16, [{addr}]; cmp x16, #1; cset {ret}, eq", genFallback+": dec_and_test is dec_return(v) == 0",
			llsc(full, "sub x15, x16, #1")+"; cmp x15, #0; cset {ret}, eq", genFallback+": dec_and_test is dec_return(v) == 0", "")
		rmw(pre+"inc_and_test", "mov x17, #1; ldaddal x17, x16, [{addr}]; cmp x16, #-1; cset {ret}, eq", genFallback+": inc_and_test is inc_return(v) == 0",
			llsc(full, "add x15, x16, #1")+"; cmp x15, #0; cset {ret}, eq", genFallback+": inc_and_test is inc_return(v) == 0",
			"with LSE, cmp #-1 (new value 0 is old value -1) is the compiler's cmn #1, written so because herd 7.58's AArch64 has no CMN")
		unless := addUnlessARM(lse, "al", full)
		rmw(pre+"add_unless", unless, genFallback+": add_unless is fetch_add_unless(v, a, u) != u, a loop of try_cmpxchg (CASAL)",
			unless, genFallback+": add_unless is fetch_add_unless(v, a, u) != u, a loop of try_cmpxchg ("+armLLSC+" __ll_sc__cmpxchg_case_mb_64)", "")
		rmw(pre+"inc_not_zero", unless, genFallback+": inc_not_zero is add_unless(v, 1, 0)",
			unless, genFallback+": inc_not_zero is add_unless(v, 1, 0)", "")
	}

	// Bit operations (generic on arm64), with {mask} = 1 << nr.
	rmw("set_bit", "stset {mask}, [{addr}]", genBitops+": arch_set_bit is atomic_long_or", llscMask(relaxed, "orr"), genBitops+": arch_set_bit is atomic_long_or", "")
	rmw("clear_bit", "stclr {mask}, [{addr}]", genBitops+": arch_clear_bit is atomic_long_andnot", llscMask(relaxed, "bic"), genBitops+": arch_clear_bit is atomic_long_andnot", "")
	rmw("change_bit", "steor {mask}, [{addr}]", genBitops+": arch_change_bit is atomic_long_xor", llscMask(relaxed, "eor"), genBitops+": arch_change_bit is atomic_long_xor", "")
	testBit := "; tst x16, {mask}; cset {ret}, ne"
	rmw("test_and_set_bit", "ldsetal {mask}, x16, [{addr}]"+testBit, genBitops+": arch_test_and_set_bit is atomic_long_fetch_or", llscMask(full, "orr")+testBit, genBitops, "")
	rmw("test_and_clear_bit", "ldclral {mask}, x16, [{addr}]"+testBit, genBitops+": arch_test_and_clear_bit is atomic_long_fetch_andnot", llscMask(full, "bic")+testBit, genBitops, "")
	rmw("test_and_change_bit", "ldeoral {mask}, x16, [{addr}]"+testBit, genBitops+": arch_test_and_change_bit is atomic_long_fetch_xor", llscMask(full, "eor")+testBit, genBitops, "")
	acq := orderings[2]
	rmw("test_and_set_bit_lock", "ldr x16, [{addr}]; tst x16, {mask}; b.ne 2f; ldseta {mask}, x16, [{addr}]; 2: tst x16, {mask}; cset {ret}, ne",
		genLock+": arch_test_and_set_bit_lock returns 1 after a READ_ONCE that finds the bit set, else atomic_long_fetch_or_acquire",
		"ldr x16, [{addr}]; tst x16, {mask}; b.ne 2f; "+llscMask(acq, "orr")+"; 2: tst x16, {mask}; cset {ret}, ne", genLock, "")
	rel := orderings[3]
	rmw("clear_bit_unlock", "ldclrl {mask}, x16, [{addr}]", genLock+": arch_clear_bit_unlock is atomic_long_fetch_andnot_release",
		llscMask(rel, "bic"), genLock+": arch_clear_bit_unlock is atomic_long_fetch_andnot_release", "")
	for _, n := range []struct{ name, alu string }{{"__set_bit", "orr"}, {"__clear_bit", "bic"}, {"__change_bit", "eor"}} {
		rows.add(n.name, "ldr x16, [{addr}]; "+n.alu+" x16, x16, {mask}; str x16, [{addr}]", genNonAtom+": generic"+n.name+", a plain read-modify-write", "not atomic")
	}
	rows.add("test_bit", "ldr x16, [{addr}]; tst x16, {mask}; cset {ret}, ne", genNonAtom+": const_test_bit/generic_test_bit, a volatile load", "")
	rows.add("test_bit_acquire", "ldar x16, [{addr}]; tst x16, {mask}; cset {ret}, ne", genNonAtom+": generic_test_bit_acquire, smp_load_acquire", "")

	// refcount_t (see the x86-64 rows for what is left out).
	rmw("refcount_inc", "mov x17, #1; ldadd x17, x16, [{addr}]", refcountH+": atomic_fetch_add_relaxed(1, &r->refs)",
		llsc(relaxed, "add x15, x16, #1"), refcountH+": atomic_fetch_add_relaxed(1, &r->refs)", "the saturation check is left out")
	rmw("refcount_add", "ldadd {v}, x16, [{addr}]", refcountH+": atomic_fetch_add_relaxed(i, &r->refs)",
		llsc(relaxed, "add x15, x16, {v}"), refcountH+": atomic_fetch_add_relaxed(i, &r->refs)", "the saturation check is left out")
	rmw("refcount_dec", "mov x17, #-1; ldaddl x17, x16, [{addr}]", refcountH+": atomic_fetch_sub_release(1, &r->refs)",
		llsc(rel, "sub x15, x16, #1"), refcountH+": atomic_fetch_sub_release(1, &r->refs)", "the underflow check is left out")
	rmw("refcount_dec_and_test", "mov x17, #-1; ldaddl x17, x16, [{addr}]; cmp x16, #1; b.ne 2f; dmb ishld; 2: cmp x16, #1; cset {ret}, eq",
		refcountH+": atomic_fetch_sub_release, then old == 1 and smp_acquire__after_ctrl_dep() (smp_rmb)",
		llsc(rel, "sub x15, x16, #1")+"; cmp x16, #1; b.ne 2f; dmb ishld; 2: cmp x16, #1; cset {ret}, eq", refcountH, "the underflow check is left out")
	rmw("refcount_sub_and_test", "neg x17, {v}; ldaddl x17, x16, [{addr}]; cmp x16, {v}; b.ne 2f; dmb ishld; 2: cmp x16, {v}; cset {ret}, eq",
		refcountH+": atomic_fetch_sub_release, then old == i and smp_acquire__after_ctrl_dep() (smp_rmb)",
		llsc(rel, "sub x15, x16, {v}")+"; cmp x16, {v}; b.ne 2f; dmb ishld; 2: cmp x16, {v}; cset {ret}, eq", refcountH, "the underflow check is left out")
	notZero := addUnlessARM(lse, "", relaxed)
	rmw("refcount_inc_not_zero", notZero, refcountH+": __refcount_add_not_zero, a loop of atomic_try_cmpxchg_relaxed (CAS)",
		notZero, refcountH+": __refcount_add_not_zero, a loop of atomic_try_cmpxchg_relaxed", "the saturation check is left out")
	rmw("refcount_add_not_zero", notZero, refcountH+": __refcount_add_not_zero (CAS)", notZero, refcountH+": __refcount_add_not_zero", "the saturation check is left out")

	rmw("spin_lock", "1: mov x16, #0; mov x17, #1; casa x16, x17, [{addr}]; cbz x16, 2f; yield; b 1b; 2:",
		armSpin+": queued_spin_lock's fast path, atomic_try_cmpxchg_acquire (CASA)",
		"1: ldaxr x16, [{addr}]; cbnz x16, 2f; mov x17, #1; stxr w15, x17, [{addr}]; cbnz w15, 1b; b 3f; 2: yield; b 1b; 3:",
		armSpin+": queued_spin_lock's fast path, atomic_try_cmpxchg_acquire ("+armLLSC+" __ll_sc__cmpxchg_case_acq_32)", noteSpinARM)
	rows.add("spin_unlock", "stlr xzr, [{addr}]", armSpin+": queued_spin_unlock is smp_store_release(&lock->locked, 0)", "the kernel stores one byte (STLRB); the word is the lock here")
	rmw("spin_trylock", "ldr x16, [{addr}]; cbnz x16, 2f; mov x17, #1; casa x16, x17, [{addr}]; 2: cmp x16, #0; cset {ret}, eq",
		armSpin+": queued_spin_trylock reads the lock, then atomic_try_cmpxchg_acquire (CASA) if it is free",
		"ldr x16, [{addr}]; cbnz x16, 2f; 1: ldaxr x16, [{addr}]; cbnz x16, 2f; mov x17, #1; stxr w15, x17, [{addr}]; cbnz w15, 1b; 2: cmp x16, #0; cset {ret}, eq",
		armSpin+": queued_spin_trylock", "")
	rows.add("spin_is_locked", "ldr x16, [{addr}]; cmp x16, #0; cset {ret}, ne", armSpin+": queued_spin_is_locked is atomic_read(&lock->val) != 0", "")
	return rows
}

// noteLSESub is the note of atomic_t's sub_return and dec_return with LSE.
const noteLSESub = "stronger than asked: atomic_lse.h's ATOMIC_OP_ADD_SUB_RETURN(name) makes atomic_t's __lse_atomic_sub_return##name call __lse_atomic_fetch_sub(i, v), the fully ordered LDADDAL, for every name (atomic64_t's calls __lse_atomic64_fetch_sub##name)"

// pick returns s when cond holds, else "".
func pick(cond bool, s string) string {
	if cond {
		return s
	}
	return ""
}

const noteSpinARM = "simplified: a loop around the fast path's acquire cmpxchg with YIELD between tries; the kernel's qspinlock queues under contention, which changes how long a CPU waits, not how the lock orders memory"

// llscMask is an LL/SC loop applying alu with {mask}, as the generic
// bitops' atomic_long_* calls compile.
func llscMask(o ordering, alu string) string {
	return "prfm pstl1strm, [{addr}]; 1: " + o.ldx + " x16, [{addr}]; " + alu + " x15, x16, {mask}; " + o.stx + " w17, x15, [{addr}]; cbnz w17, 1b" + o.mb
}

// addUnlessARM is fetch_add_unless(v, {v}, {w}) != {w}: read the value,
// then while it is not {w} try to cmpxchg it to value+{v}; the cmpxchg has
// the given LSE suffix, or is the LL/SC loop of ordering o.
func addUnlessARM(lse bool, lseOrd string, o ordering) string {
	const head = "ldr x16, [{addr}]; 1: cmp x16, {w}; b.eq 3f; add x17, x16, {v}; "
	const tail = "3: cmp x16, {w}; cset {ret}, ne"
	if lse {
		return head + "mov x15, x16; cas" + lseOrd + " x15, x17, [{addr}]; cmp x15, x16; mov x16, x15; b.ne 1b; " + tail
	}
	return head + "2: " + o.ldx + " x15, [{addr}]; eor x14, x15, x16; cbnz x14, 4f; " + o.stx + " w14, x17, [{addr}]; cbnz w14, 2b" + o.mb + "; b 3f; 4: mov x16, x15; b 1b; " + tail
}
