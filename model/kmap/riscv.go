package kmap

// The riscv64 rows, read from Linux v6: arch/riscv/include/asm/barrier.h,
// fence.h, atomic.h, cmpxchg.h and bitops.h, and the generic headers the
// port builds on (include/linux/atomic/atomic-arch-fallback.h,
// include/asm-generic/barrier.h, include/asm-generic/bitops/*.h,
// include/linux/refcount.h, include/asm-generic/qspinlock.h). Each header
// names the torvalds/linux commit its text was read at.
//
// The rows are the base ISA with the A extension: a CPU without Zacas,
// Zabha, Zalasr or Ztso, on which the kernel keeps the LR/SC loops of
// cmpxchg.h and the fences of barrier.h (with those extensions the kernel
// patches in amocas, byte AMOs or .aq/.rl loads and stores at boot; none
// is modelled). Locations are 64-bit words, so the rows use the .d forms
// (atomic64_t, atomic_long_t); atomic_t uses the .w forms of the same
// instructions, which order memory the same way.
//
// Boolean results (the *_and_test family, bit tests) are computed with
// slt, or and xori, which herd 7.58's RISCV front end executes; GCC would
// use seqz/snez (sltiu/sltu), which it does not.
//
// Scratch registers: x28, x29, x30, x31 (t3-t6).

const (
	rvBarrier  = "arch/riscv/include/asm/barrier.h (v6, torvalds/linux 254a1420)"
	rvFence    = "arch/riscv/include/asm/fence.h (v6, torvalds/linux 6f47c7ae): RISCV_ACQUIRE_BARRIER is fence r,rw, RISCV_RELEASE_BARRIER fence rw,w, RISCV_FULL_BARRIER fence rw,rw"
	rvAtomic   = "arch/riscv/include/asm/atomic.h (v6.9+)"
	rvCmpxchg  = "arch/riscv/include/asm/cmpxchg.h (v6, torvalds/linux 3ab7ae8e; without Zacas/Zabha)"
	rvBitops   = "arch/riscv/include/asm/bitops.h (v6, torvalds/linux 2a667285)"
	genSpin    = "include/asm-generic/qspinlock.h (v6)"
	rvCpuRelax = "arch/riscv/include/asm/vdso/processor.h (v6): cpu_relax is a delay and the pause hint"
)

// rvOrdering is how one of the four forms of a value-returning AMO is
// built: the AMO's annotation and the fences around it.
type rvOrdering struct {
	suffix string // "", "_relaxed", "_acquire", "_release"
	amo    string // annotation of the AMO: ".aqrl" (fully ordered) or ""
	pre    string // fence before: "fence rw, w; " (release) or ""
	post   string // fence after: "; fence r, rw" (acquire) or ""
	how    string // where the form comes from
}

var rvOrderings = []rvOrdering{
	{"", ".aqrl", "", "", rvAtomic + ": the fully ordered form is the AMO with .aqrl"},
	{"_relaxed", "", "", "", rvAtomic + ": the _relaxed form, an AMO with no annotation"},
	{"_acquire", "", "", "; fence r, rw", genFallback + ": _relaxed then __atomic_acquire_fence(), " + rvFence},
	{"_release", "", "fence rw, w; ", "", genFallback + ": __atomic_release_fence() then _relaxed, " + rvFence},
}

// Boolean tails: {ret} = (x31 != 0), (x31 == 0), (x31 < 0).
const (
	rvNonZero = "slt x30, x0, x31; slt x29, x31, x0; or {ret}, x30, x29"
	rvIsZero  = "slt x30, x0, x31; slt x29, x31, x0; or x30, x30, x29; xori {ret}, x30, 1"
	rvIsNeg   = "slt {ret}, x31, x0"
)

func init() {
	var rows rowList
	load := "ld {ret}, 0({addr})"
	store := "sd {v}, 0({addr})"
	rows.addAccesses(load, store, rwonce+": __READ_ONCE, a volatile access",
		"C: a plain access compiles to one load", "C: a plain access compiles to one store", rwonce+": __WRITE_ONCE, a volatile access")
	rows.addAll(acquireLoads, "ld x31, 0({addr}); fence r, rw; mv {ret}, x31", rvBarrier+": __smp_load_acquire is READ_ONCE then RISCV_FENCE(r, rw)", "")
	rows.addAll(releaseStores, "fence rw, w; "+store, rvBarrier+": __smp_store_release is RISCV_FENCE(rw, w) then WRITE_ONCE", "")
	rows.add(NullAssign, store, rcupdate+": rcu_assign_pointer with a constant NULL is WRITE_ONCE", "")
	rows.add("smp_store_mb", store+"; fence rw, rw", "include/asm-generic/barrier.h (v6): __smp_store_mb is WRITE_ONCE then __smp_mb", "")
	rows.add("smp_mb", "fence rw, rw", rvBarrier+": __smp_mb is RISCV_FENCE(rw, rw)", "")
	rows.add("smp_rmb", "fence r, r", rvBarrier+": __smp_rmb is RISCV_FENCE(r, r)", "")
	rows.add("smp_wmb", "fence w, w", rvBarrier+": __smp_wmb is RISCV_FENCE(w, w)", "")
	rows.addAll(atomicBarriers, "fence rw, rw", "include/asm-generic/barrier.h (v6): __smp_mb__{before,after}_atomic default to __smp_mb; riscv does not override them", "")
	rows.add("smp_mb__after_spinlock", "fence iorw, iorw", rvBarrier+": smp_mb__after_spinlock is RISCV_FENCE(iorw, iorw)", "orders memory as fence rw,rw does")
	rows.add("smp_mb__after_unlock_lock", "", "kernel/rcu/rcu.h (v6.x): smp_mb() only with CONFIG_ARCH_WEAK_RELEASE_ACQUIRE (powerpc)", "")
	rows.addEmpty("riscv", true)
	rows.add("cpu_relax", "pause", rvCpuRelax, "a hint: no memory access, no ordering")

	// Exchange and compare-and-exchange (cmpxchg.h). The fully ordered
	// xchg is amoswap.aqrl; the fully ordered cmpxchg an LR/SC loop whose
	// SC is .rl, then a full fence, skipped when the comparison fails.
	for _, pre := range []string{"", "atomic_", "atomic_long_"} {
		rows = append(rows,
			Row{pre + "xchg", "amoswap.d.aqrl {ret}, {v}, ({addr})", rvCmpxchg + ": arch_xchg, _arch_xchg(..., \".aqrl\", ...)", ""},
			Row{pre + "xchg_relaxed", "amoswap.d {ret}, {v}, ({addr})", rvCmpxchg + ": arch_xchg_relaxed", ""},
			Row{pre + "xchg_acquire", "amoswap.d x31, {v}, ({addr}); fence r, rw; mv {ret}, x31", rvCmpxchg + ": arch_xchg_acquire, the AMO then RISCV_ACQUIRE_BARRIER", ""},
			Row{pre + "xchg_release", "fence rw, w; amoswap.d {ret}, {v}, ({addr})", rvCmpxchg + ": arch_xchg_release, RISCV_RELEASE_BARRIER then the AMO", ""},
		)
		loop := func(pre, sc, post string) string {
			return pre + "1: lr.d x31, ({addr}); bne x31, {v}, 2f; sc.d" + sc + " x30, {w}, ({addr}); bne x30, x0, 1b" + post + "; 2: mv {ret}, x31"
		}
		rows = append(rows,
			Row{pre + "cmpxchg", loop("", ".rl", "; fence rw, rw"), rvCmpxchg + ": arch_cmpxchg, __arch_cmpxchg with sc.rl and RISCV_FULL_BARRIER after the loop", "a failed comparison skips the fence"},
			Row{pre + "cmpxchg_relaxed", loop("", "", ""), rvCmpxchg + ": arch_cmpxchg_relaxed", ""},
			Row{pre + "cmpxchg_acquire", loop("", "", "; fence r, rw"), rvCmpxchg + ": arch_cmpxchg_acquire, RISCV_ACQUIRE_BARRIER after the loop", "a failed comparison skips the fence"},
			Row{pre + "cmpxchg_release", loop("fence rw, w; ", "", ""), rvCmpxchg + ": arch_cmpxchg_release, RISCV_RELEASE_BARRIER before the loop", ""},
		)
	}

	// atomic_t and atomic_long_t arithmetic (atomic.h): non-returning ops
	// are AMOs to x0, fetch ops AMOs, *_return ops the fetch op plus the
	// operand; sub is add of the negation, andnot and of the complement.
	type rvOp struct {
		name, amo string
		neg       string // how to turn {v} into the AMO operand in x28 ("" uses {v})
	}
	ops := []rvOp{
		{"add", "amoadd", ""},
		{"sub", "amoadd", "sub x28, x0, {v}"},
		{"and", "amoand", ""},
		{"or", "amoor", ""},
		{"xor", "amoxor", ""},
		{"andnot", "amoand", "xori x28, {v}, -1"},
	}
	opArg := func(op rvOp) (prep, arg string) {
		if op.neg == "" {
			return "", "{v}"
		}
		return op.neg + "; ", "x28"
	}
	for _, pre := range []string{"atomic_", "atomic_long_"} {
		for _, op := range ops {
			prep, arg := opArg(op)
			src := rvAtomic + ": ATOMIC_OP(" + op.name + ")"
			if op.name == "andnot" {
				src = genFallback + ": andnot is and(~i, v); " + rvAtomic
			}
			rows.add(pre+op.name, prep+op.amo+".d x0, "+arg+", ({addr})", src, "")
			for _, o := range rvOrderings {
				rows.add(pre+"fetch_"+op.name+o.suffix, prep+o.pre+op.amo+".d"+o.amo+" x31, "+arg+", ({addr})"+o.post+"; mv {ret}, x31",
					"fetch_"+op.name+o.suffix+": "+o.how, "")
			}
		}
		rows.add(pre+"inc", "li x28, 1; amoadd.d x0, x28, ({addr})", genFallback+": inc is add(1, v); "+rvAtomic, "")
		rows.add(pre+"dec", "li x28, -1; amoadd.d x0, x28, ({addr})", genFallback+": dec is sub(1, v); "+rvAtomic+": sub is amoadd of -i", "")
		for _, o := range rvOrderings {
			amo := func(operand string) string {
				return o.pre + "amoadd.d" + o.amo + " x31, " + operand + ", ({addr})" + o.post
			}
			rows.add(pre+"add_return"+o.suffix, amo("{v}")+"; add {ret}, x31, {v}", "add_return"+o.suffix+" is fetch_add"+o.suffix+"(i, v) + i: "+o.how, "")
			rows.add(pre+"sub_return"+o.suffix, "sub x28, x0, {v}; "+amo("x28")+"; add {ret}, x31, x28", "sub_return"+o.suffix+" is fetch_sub"+o.suffix+"(i, v) - i: "+o.how, "")
			rows.add(pre+"inc_return"+o.suffix, "li x28, 1; "+amo("x28")+"; add {ret}, x31, x28", genFallback+": inc_return is add_return(1, v); "+o.how, "")
			rows.add(pre+"dec_return"+o.suffix, "li x28, -1; "+amo("x28")+"; add {ret}, x31, x28", genFallback+": dec_return is sub_return(1, v); "+o.how, "")
			rows.add(pre+"fetch_inc"+o.suffix, "li x28, 1; "+amo("x28")+"; mv {ret}, x31", genFallback+": fetch_inc is fetch_add(1, v); "+o.how, "")
			rows.add(pre+"fetch_dec"+o.suffix, "li x28, -1; "+amo("x28")+"; mv {ret}, x31", genFallback+": fetch_dec is fetch_sub(1, v); "+o.how, "")
			rows.add(pre+"add_negative"+o.suffix, amo("{v}")+"; add x31, x31, {v}; "+rvIsNeg, genFallback+": add_negative is add_return(i, v) < 0; "+o.how, "")
		}
		full := rvOrderings[0]
		rows.add(pre+"sub_and_test", "sub x28, x0, {v}; amoadd.d"+full.amo+" x31, x28, ({addr}); add x31, x31, x28; "+rvIsZero,
			genFallback+": sub_and_test is sub_return(i, v) == 0; "+full.how, "")
		rows.add(pre+"dec_and_test", "li x28, -1; amoadd.d"+full.amo+" x31, x28, ({addr}); add x31, x31, x28; "+rvIsZero,
			genFallback+": dec_and_test is dec_return(v) == 0; "+full.how, "")
		rows.add(pre+"inc_and_test", "li x28, 1; amoadd.d"+full.amo+" x31, x28, ({addr}); add x31, x31, x28; "+rvIsZero,
			genFallback+": inc_and_test is inc_return(v) == 0; "+full.how, "")
		unless := "1: lr.d x31, ({addr}); beq x31, {w}, 2f; add x30, x31, {v}; sc.d.rl x30, x30, ({addr}); bne x30, x0, 1b; fence rw, rw; 2: sub x31, x31, {w}; " + rvNonZero
		rows.add(pre+"add_unless", unless, genFallback+": add_unless is fetch_add_unless(v, a, u) != u; "+rvAtomic+": _arch_atomic_fetch_add_unless, LR/SC with sc.rl then RISCV_FULL_BARRIER", "a failed comparison skips the fence")
		rows.add(pre+"inc_not_zero", unless, genFallback+": inc_not_zero is add_unless(v, 1, 0)", "")
	}

	// Bit operations (bitops.h): AMOs on the word, the value-returning
	// ones .aqrl, the lock ones .aq and .rl.
	rows.add("set_bit", "amoor.d x0, {mask}, ({addr})", rvBitops+": set_bit, __op_bit(or, ...)", "")
	rows.add("clear_bit", "xori x28, {mask}, -1; amoand.d x0, x28, ({addr})", rvBitops+": clear_bit, __op_bit(and, __NOT, ...)", "")
	rows.add("change_bit", "amoxor.d x0, {mask}, ({addr})", rvBitops+": change_bit, __op_bit(xor, ...)", "")
	testOp := func(amo, operand string) string {
		return amo + " x31, " + operand + ", ({addr}); and x31, x31, {mask}; " + rvNonZero
	}
	rows.add("test_and_set_bit", testOp("amoor.d.aqrl", "{mask}"), rvBitops+": test_and_set_bit, __test_and_op_bit(or, ...) with .aqrl", "")
	rows.add("test_and_clear_bit", "xori x28, {mask}, -1; "+testOp("amoand.d.aqrl", "x28"), rvBitops+": test_and_clear_bit, __test_and_op_bit(and, __NOT, ...) with .aqrl", "")
	rows.add("test_and_change_bit", testOp("amoxor.d.aqrl", "{mask}"), rvBitops+": test_and_change_bit, __test_and_op_bit(xor, ...) with .aqrl", "")
	rows.add("test_and_set_bit_lock", testOp("amoor.d.aq", "{mask}"), rvBitops+": test_and_set_bit_lock, __test_and_op_bit_ord(or, ..., .aq)", "")
	rows.add("clear_bit_unlock", "xori x28, {mask}, -1; amoand.d.rl x0, x28, ({addr})", rvBitops+": clear_bit_unlock, __op_bit_ord(and, __NOT, ..., .rl)", "")
	for _, n := range []struct{ name, alu string }{{"__set_bit", "or x31, x31, {mask}"}, {"__clear_bit", "xori x30, {mask}, -1; and x31, x31, x30"}, {"__change_bit", "xor x31, x31, {mask}"}} {
		rows.add(n.name, "ld x31, 0({addr}); "+n.alu+"; sd x31, 0({addr})", genNonAtom+": generic"+n.name+", a plain read-modify-write", "not atomic")
	}
	rows.add("test_bit", "ld x31, 0({addr}); and x31, x31, {mask}; "+rvNonZero, genNonAtom+": const_test_bit/generic_test_bit, a volatile load", "")
	rows.add("test_bit_acquire", "ld x31, 0({addr}); fence r, rw; and x31, x31, {mask}; "+rvNonZero, genNonAtom+": generic_test_bit_acquire, smp_load_acquire", "")

	// refcount_t (see the x86-64 rows for what is left out).
	rel := rvOrderings[3]
	rows.add("refcount_inc", "li x28, 1; amoadd.d x31, x28, ({addr})", refcountH+": __refcount_add is atomic_fetch_add_relaxed(i, &r->refs)", "the saturation check is left out")
	rows.add("refcount_add", "amoadd.d x31, {v}, ({addr})", refcountH+": __refcount_add is atomic_fetch_add_relaxed(i, &r->refs)", "the saturation check is left out")
	rows.add("refcount_dec", rel.pre+"li x28, -1; amoadd.d x31, x28, ({addr})", refcountH+": __refcount_dec is atomic_fetch_sub_release(1, &r->refs); "+rel.how, "the underflow check is left out")
	rows.add("refcount_dec_and_test", rel.pre+"li x28, -1; amoadd.d x31, x28, ({addr}); li x28, 1; bne x31, x28, 2f; fence r, r; 2: sub x31, x31, x28; "+rvIsZero,
		refcountH+": __refcount_sub_and_test is atomic_fetch_sub_release, then old == i and smp_acquire__after_ctrl_dep() (smp_rmb: fence r, r)", "the underflow check is left out")
	rows.add("refcount_sub_and_test", "sub x28, x0, {v}; "+rel.pre+"amoadd.d x31, x28, ({addr}); bne x31, {v}, 2f; fence r, r; 2: sub x31, x31, {v}; "+rvIsZero,
		refcountH+": __refcount_sub_and_test is atomic_fetch_sub_release, then old == i and smp_acquire__after_ctrl_dep() (smp_rmb: fence r, r)", "the underflow check is left out")
	notZero := "ld x31, 0({addr}); 1: beq x31, {w}, 3f; add x30, x31, {v}; 2: lr.d x29, ({addr}); bne x29, x31, 4f; sc.d x28, x30, ({addr}); bne x28, x0, 2b; j 3f; 4: mv x31, x29; j 1b; 3: sub x31, x31, {w}; " + rvNonZero
	rows.add("refcount_inc_not_zero", notZero, refcountH+": __refcount_add_not_zero, a loop of atomic_try_cmpxchg_relaxed ("+rvCmpxchg+" arch_cmpxchg_relaxed)", "the saturation check is left out")
	rows.add("refcount_add_not_zero", notZero, refcountH+": __refcount_add_not_zero", "the saturation check is left out")

	// Spinlocks: the generic qspinlock's fast path (see noteSpinRV).
	rows.add("spin_lock", "li x30, 1; 1: lr.d x31, ({addr}); bne x31, x0, 1b; sc.d x29, x30, ({addr}); bne x29, x0, 1b; fence r, rw",
		genSpin+": queued_spin_lock's fast path, atomic_try_cmpxchg_acquire ("+rvCmpxchg+" arch_cmpxchg_acquire)", noteSpinRV)
	rows.add("spin_unlock", "fence rw, w; sd x0, 0({addr})", genSpin+": queued_spin_unlock is smp_store_release(&lock->locked, 0)", "the kernel stores one byte (lock->locked); the word is the lock here")
	rows.add("spin_trylock", "ld x31, 0({addr}); bne x31, x0, 2f; li x30, 1; 1: lr.d x31, ({addr}); bne x31, x0, 2f; sc.d x29, x30, ({addr}); bne x29, x0, 1b; fence r, rw; 2: "+rvIsZero,
		genSpin+": queued_spin_trylock reads the lock, then atomic_try_cmpxchg_acquire if it is free", noteSpinRV)
	rows.add("spin_is_locked", "ld x31, 0({addr}); "+rvNonZero, genSpin+": queued_spin_is_locked is atomic_read(&lock->val) != 0", "")

	register(RISCV64, rows, gaps())
}

const noteSpinRV = "simplified: the qspinlock's fast path retried until it succeeds (CONFIG_RISCV_QUEUED_SPINLOCKS, or the combo lock on a CPU with Zabha and Ziccrse); the ticket lock that CONFIG_RISCV_COMBO_SPINLOCKS picks on other CPUs takes the lock with a fully ordered amoadd and a fence rw,rw on its slow path, orderings at least as strong, and is not modelled"
