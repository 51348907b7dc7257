package kmap

// The ppc64 rows, read from Linux v6: arch/powerpc/include/asm/barrier.h,
// synch.h, atomic.h, cmpxchg.h, bitops.h and qspinlock.h, and the generic
// headers the port builds on (include/linux/atomic/atomic-arch-fallback.h,
// include/linux/atomic.h, include/asm-generic/barrier.h,
// include/asm-generic/bitops/non-atomic.h, include/linux/refcount.h).
//
// POWER has no acquire or release accesses: every atomic is a
// lwarx/stwcx. loop, and the ordering comes from the barriers around it.
// powerpc defines only the _relaxed forms of most atomics; the fully
// ordered form is sync; loop; sync (__atomic_pre_full_fence and
// __atomic_post_full_fence are smp_mb__before_atomic and
// smp_mb__after_atomic, sync on powerpc), the _acquire form the loop then
// PPC_ACQUIRE_BARRIER, the _release form PPC_RELEASE_BARRIER (lwsync) then
// the loop. PPC_ACQUIRE_BARRIER is written isync in synch.h and patched to
// lwsync at boot on every CPU with lwsync (CPU_FTR_LWSYNC, all 64-bit
// server CPUs: do_lwsync_fixups in arch/powerpc/lib/feature-fixups.c); the
// rows have the lwsync that runs.
//
// Locations are words accessed with the 32-bit forms of atomic_t
// (lwz/stw, lwarx/stwcx., cmpw), which herd 7.58's PPC front end reads;
// atomic_long_t, pointers and the bitops' unsigned long use the 64-bit
// forms (ld/std, ldarx/stdcx., cmpd) of the same sequences, which order
// memory the same way. Branch hints (bne-) and lwarx's EH hint are left
// out. Where the kernel writes andc, the rows complement with xor against
// -1 and use and (andc is not in herd's PPC instruction set). Boolean
// results (the *_and_test family, bit tests) are computed with mfcr,
// andi. and divw, which herd executes; GCC would use rlwinm or isel.
//
// Scratch registers: r28, r29, r30, r31. The X-form base r0 reads as 0
// (lwarx r31, r0, {addr} is the kernel's "lwarx %0,0,%2").

const (
	ppcBarrier  = "arch/powerpc/include/asm/barrier.h (v6, torvalds/linux 3e731858)"
	ppcSynch    = "arch/powerpc/include/asm/synch.h (v6): PPC_ATOMIC_ENTRY_BARRIER and PPC_ATOMIC_EXIT_BARRIER are sync, PPC_RELEASE_BARRIER lwsync, PPC_ACQUIRE_BARRIER isync patched to lwsync"
	ppcAtomic   = "arch/powerpc/include/asm/atomic.h (v6.5+)"
	ppcCmpxchg  = "arch/powerpc/include/asm/cmpxchg.h (v6.1+)"
	ppcBitops   = "arch/powerpc/include/asm/bitops.h (v6): DEFINE_BITOP, DEFINE_TESTOP"
	ppcSpin     = "arch/powerpc/include/asm/qspinlock.h (v6.2+)"
	ppcCPURelax = "arch/powerpc/include/asm/vdso/processor.h (v6): cpu_relax is HMT_low(); HMT_medium()"
	ppcFallback = "include/linux/atomic/atomic-arch-fallback.h (v6) and include/linux/atomic.h (v6)"
)

// ppcOrdering is how one of the four forms of an atomic is built around
// its lwarx/stwcx. loop.
type ppcOrdering struct {
	suffix    string // "", "_relaxed", "_acquire", "_release"
	pre, post string // barriers: "sync; " / "; sync", "lwsync; ", "; lwsync"
	how       string
}

var ppcOrderings = []ppcOrdering{
	{"", "sync; ", "; sync", ppcFallback + ": the fully ordered form is __atomic_pre_full_fence(); _relaxed; __atomic_post_full_fence(), sync around the loop"},
	{"_relaxed", "", "", ppcAtomic + ": the _relaxed form, the bare loop"},
	{"_acquire", "", "; lwsync", ppcFallback + ": _relaxed then __atomic_acquire_fence() (PPC_ACQUIRE_BARRIER)"},
	{"_release", "lwsync; ", "", ppcFallback + ": __atomic_release_fence() (PPC_RELEASE_BARRIER) then _relaxed"},
}

// Boolean tails on r31: {ret} = (r31 == 0), (r31 != 0), (r31 < 0), read
// from the EQ (2) and LT (8) bits of CR0.
const (
	ppcIsZero  = "cmpwi r31, 0; mfcr r30; andi. r30, r30, 2; li r29, 2; divw {ret}, r30, r29"
	ppcNonZero = "cmpwi r31, 0; mfcr r30; andi. r30, r30, 2; li r29, 2; divw r30, r30, r29; xori {ret}, r30, 1"
	ppcIsNeg   = "cmpwi r31, 0; mfcr r30; andi. r30, r30, 8; li r29, 8; divw {ret}, r30, r29"
)

// ppcLoop is a lwarx/stwcx. loop: r31 is the old value, body computes the
// new one into r30 ("" stores {v}).
func ppcLoop(body string) string {
	src := "{v}"
	if body != "" {
		body += "; "
		src = "r30"
	}
	return "1: lwarx r31, r0, {addr}; " + body + "stwcx. " + src + ", r0, {addr}; bne 1b"
}

func init() {
	var rows rowList
	load := "lwz {ret}, 0({addr})"
	store := "stw {v}, 0({addr})"
	rows.addAccesses(load, store, rwonce+": __READ_ONCE, a volatile access; "+ppcAtomic+": arch_atomic_read is lwz",
		"C: a plain access compiles to one load", "C: a plain access compiles to one store", rwonce+": __WRITE_ONCE, a volatile access; "+ppcAtomic+": arch_atomic_set is stw")
	rows.addAll(acquireLoads, "lwz r31, 0({addr}); lwsync; mr {ret}, r31", ppcBarrier+": __smp_load_acquire is READ_ONCE then __smp_lwsync()", "")
	rows.addAll(releaseStores, "lwsync; "+store, ppcBarrier+": __smp_store_release is __smp_lwsync() then WRITE_ONCE", "")
	rows.add(NullAssign, store, rcupdate+": rcu_assign_pointer with a constant NULL is WRITE_ONCE", "")
	rows.add("smp_store_mb", store+"; sync", "include/asm-generic/barrier.h (v6): __smp_store_mb is WRITE_ONCE then __smp_mb", "")
	rows.add("smp_mb", "sync", ppcBarrier+": __smp_mb is mb(), sync", "")
	rows.add("smp_rmb", "lwsync", ppcBarrier+": __smp_rmb is __lwsync()", "")
	rows.add("smp_wmb", "lwsync", ppcBarrier+": __smp_wmb is SMPWMB, LWSYNC on ppc64", "")
	rows.addAll(atomicBarriers, "sync", "include/asm-generic/barrier.h (v6): __smp_mb__{before,after}_atomic default to __smp_mb; powerpc does not override them", "")
	rows.add("smp_mb__after_spinlock", "sync", ppcSpin+": smp_mb__after_spinlock is smp_mb()", "")
	rows.add("smp_mb__after_unlock_lock", "sync", "kernel/rcu/rcu.h (v6.x): smp_mb() with CONFIG_ARCH_WEAK_RELEASE_ACQUIRE, which powerpc selects", "")
	rows.addEmpty("powerpc", true)
	rows.add("cpu_relax", "or 1, 1, 1; or 2, 2, 2", ppcCPURelax, "priority hints: no memory access, no ordering")

	// Exchange and compare-and-exchange (cmpxchg.h).
	for _, pre := range []string{"", "atomic_", "atomic_long_"} {
		for _, o := range ppcOrderings {
			src := ppcCmpxchg + ": arch_xchg_relaxed, __xchg_u32_relaxed; " + o.how
			rows.add(pre+"xchg"+o.suffix, o.pre+ppcLoop("")+o.post+"; mr {ret}, r31", src, "")
		}
		cas := func(pre, post string) string {
			return pre + "1: lwarx r31, r0, {addr}; cmpw r31, {v}; bne 2f; stwcx. {w}, r0, {addr}; bne 1b" + post + "; 2: mr {ret}, r31"
		}
		rows.add(pre+"cmpxchg", cas("sync; ", "; sync"), ppcCmpxchg+": arch_cmpxchg, __cmpxchg_u32 with PPC_ATOMIC_ENTRY_BARRIER and PPC_ATOMIC_EXIT_BARRIER; "+ppcSynch, "a failed comparison skips the exit barrier")
		rows.add(pre+"cmpxchg_relaxed", cas("", ""), ppcCmpxchg+": arch_cmpxchg_relaxed, __cmpxchg_u32_relaxed", "")
		rows.add(pre+"cmpxchg_acquire", cas("", "; lwsync"), ppcCmpxchg+": arch_cmpxchg_acquire, __cmpxchg_u32_acquire with PPC_ACQUIRE_BARRIER after the loop", "a failed comparison skips the barrier")
		rows.add(pre+"cmpxchg_release", cas("lwsync; ", ""), ppcFallback+": cmpxchg_release is __atomic_release_fence() then "+ppcCmpxchg+" arch_cmpxchg_relaxed", "")
	}

	// atomic_t and atomic_long_t arithmetic (atomic.h): every op a loop.
	type ppcOp struct{ name, alu, prep string }
	ops := []ppcOp{
		{"add", "add r30, r31, {v}", ""},
		{"sub", "sub r30, r31, {v}", ""},
		{"and", "and r30, r31, {v}", ""},
		{"or", "or r30, r31, {v}", ""},
		{"xor", "xor r30, r31, {v}", ""},
		{"andnot", "and r30, r31, r29", "li r29, -1; xor r29, {v}, r29; "},
	}
	for _, pre := range []string{"atomic_", "atomic_long_"} {
		for _, op := range ops {
			src := ppcAtomic + ": ATOMIC_OP(" + op.name + ")"
			if op.name == "andnot" {
				src = ppcFallback + ": andnot is and(~i, v); " + ppcAtomic
			}
			rows.add(pre+op.name, op.prep+ppcLoop(op.alu), src, "")
			for _, o := range ppcOrderings {
				rows.add(pre+"fetch_"+op.name+o.suffix, op.prep+o.pre+ppcLoop(op.alu)+o.post+"; mr {ret}, r31", "fetch_"+op.name+o.suffix+": "+ppcAtomic+" ATOMIC_FETCH_OP_RELAXED; "+o.how, "")
			}
		}
		rows.add(pre+"inc", "li r29, 1; "+ppcLoop("add r30, r31, r29"), ppcFallback+": inc is add(1, v); "+ppcAtomic, "")
		rows.add(pre+"dec", "li r29, 1; "+ppcLoop("sub r30, r31, r29"), ppcFallback+": dec is sub(1, v); "+ppcAtomic, "")
		for _, o := range ppcOrderings {
			ret := func(prep, alu, tail string) string {
				return prep + o.pre + ppcLoop(alu) + o.post + "; " + tail
			}
			src := ppcAtomic + ": ATOMIC_OP_RETURN_RELAXED; " + o.how
			rows.add(pre+"add_return"+o.suffix, ret("", "add r30, r31, {v}", "mr {ret}, r30"), "add_return"+o.suffix+": "+src, "")
			rows.add(pre+"sub_return"+o.suffix, ret("", "sub r30, r31, {v}", "mr {ret}, r30"), "sub_return"+o.suffix+": "+src, "")
			rows.add(pre+"inc_return"+o.suffix, ret("li r29, 1; ", "add r30, r31, r29", "mr {ret}, r30"), ppcFallback+": inc_return is add_return(1, v); "+o.how, "")
			rows.add(pre+"dec_return"+o.suffix, ret("li r29, 1; ", "sub r30, r31, r29", "mr {ret}, r30"), ppcFallback+": dec_return is sub_return(1, v); "+o.how, "")
			rows.add(pre+"fetch_inc"+o.suffix, ret("li r29, 1; ", "add r30, r31, r29", "mr {ret}, r31"), ppcFallback+": fetch_inc is fetch_add(1, v); "+o.how, "")
			rows.add(pre+"fetch_dec"+o.suffix, ret("li r29, 1; ", "sub r30, r31, r29", "mr {ret}, r31"), ppcFallback+": fetch_dec is fetch_sub(1, v); "+o.how, "")
			rows.add(pre+"add_negative"+o.suffix, ret("", "add r30, r31, {v}", "mr r31, r30; "+ppcIsNeg), ppcFallback+": add_negative is add_return(i, v) < 0; "+o.how, "")
		}
		full := ppcOrderings[0]
		andTest := func(prep, alu string) string {
			return prep + full.pre + ppcLoop(alu) + full.post + "; mr r31, r30; " + ppcIsZero
		}
		rows.add(pre+"sub_and_test", andTest("", "sub r30, r31, {v}"), ppcFallback+": sub_and_test is sub_return(i, v) == 0; "+full.how, "")
		rows.add(pre+"dec_and_test", andTest("li r29, 1; ", "sub r30, r31, r29"), ppcFallback+": dec_and_test is dec_return(v) == 0; "+full.how, "")
		rows.add(pre+"inc_and_test", andTest("li r29, 1; ", "add r30, r31, r29"), ppcFallback+": inc_and_test is inc_return(v) == 0; "+full.how, "")
		unless := "sync; 1: lwarx r31, r0, {addr}; cmpw r31, {w}; beq 2f; add r30, r31, {v}; stwcx. r30, r0, {addr}; bne 1b; sync; 2: sub r31, r31, {w}; " + ppcNonZero
		rows.add(pre+"add_unless", unless, ppcFallback+": add_unless is fetch_add_unless(v, a, u) != u; "+ppcAtomic+": arch_atomic_fetch_add_unless, the loop between PPC_ATOMIC_ENTRY_BARRIER and PPC_ATOMIC_EXIT_BARRIER", "a failed comparison skips the exit barrier")
		rows.add(pre+"inc_not_zero", unless, ppcFallback+": inc_not_zero is add_unless(v, 1, 0)", "")
	}

	// Bit operations (bitops.h).
	notMask := "li r29, -1; xor r29, {mask}, r29; "
	rows.add("set_bit", ppcLoop("or r30, r31, {mask}"), ppcBitops+": set_bits, DEFINE_BITOP(or)", "")
	rows.add("clear_bit", notMask+ppcLoop("and r30, r31, r29"), ppcBitops+": clear_bits, DEFINE_BITOP(andc)", "")
	rows.add("change_bit", ppcLoop("xor r30, r31, {mask}"), ppcBitops+": change_bits, DEFINE_BITOP(xor)", "")
	rows.add("clear_bit_unlock", notMask+"lwsync; "+ppcLoop("and r30, r31, r29"), ppcBitops+": clear_bits_unlock, DEFINE_BITOP(andc) with PPC_RELEASE_BARRIER", "")
	testOp := func(prep, pre, alu, post string) string {
		return prep + pre + ppcLoop(alu) + post + "; and r31, r31, {mask}; " + ppcNonZero
	}
	rows.add("test_and_set_bit", testOp("", "sync; ", "or r30, r31, {mask}", "; sync"), ppcBitops+": test_and_set_bits, DEFINE_TESTOP(or) with PPC_ATOMIC_ENTRY_BARRIER and PPC_ATOMIC_EXIT_BARRIER", "")
	rows.add("test_and_clear_bit", testOp(notMask, "sync; ", "and r30, r31, r29", "; sync"), ppcBitops+": test_and_clear_bits, DEFINE_TESTOP(andc) with the entry and exit barriers", "")
	rows.add("test_and_change_bit", testOp("", "sync; ", "xor r30, r31, {mask}", "; sync"), ppcBitops+": test_and_change_bits, DEFINE_TESTOP(xor) with the entry and exit barriers", "")
	rows.add("test_and_set_bit_lock", testOp("", "", "or r30, r31, {mask}", "; lwsync"), ppcBitops+": test_and_set_bits_lock, DEFINE_TESTOP(or) with PPC_ACQUIRE_BARRIER", "")
	for _, n := range []struct{ name, alu string }{{"__set_bit", "or r31, r31, {mask}"}, {"__clear_bit", "li r30, -1; xor r30, {mask}, r30; and r31, r31, r30"}, {"__change_bit", "xor r31, r31, {mask}"}} {
		rows.add(n.name, "lwz r31, 0({addr}); "+n.alu+"; stw r31, 0({addr})", genNonAtom+": generic"+n.name+", a plain read-modify-write", "not atomic")
	}
	rows.add("test_bit", "lwz r31, 0({addr}); and r31, r31, {mask}; "+ppcNonZero, genNonAtom+": const_test_bit/generic_test_bit, a volatile load", "")
	rows.add("test_bit_acquire", "lwz r31, 0({addr}); lwsync; and r31, r31, {mask}; "+ppcNonZero, genNonAtom+": generic_test_bit_acquire, smp_load_acquire", "")

	// refcount_t (see the x86-64 rows for what is left out).
	rel := ppcOrderings[3]
	rows.add("refcount_inc", "li r29, 1; "+ppcLoop("add r30, r31, r29"), refcountH+": __refcount_add is atomic_fetch_add_relaxed(i, &r->refs)", "the saturation check is left out")
	rows.add("refcount_add", ppcLoop("add r30, r31, {v}"), refcountH+": __refcount_add is atomic_fetch_add_relaxed(i, &r->refs)", "the saturation check is left out")
	rows.add("refcount_dec", "li r29, 1; "+rel.pre+ppcLoop("sub r30, r31, r29"), refcountH+": __refcount_dec is atomic_fetch_sub_release(1, &r->refs); "+rel.how, "the underflow check is left out")
	rows.add("refcount_dec_and_test", "li r29, 1; "+rel.pre+ppcLoop("sub r30, r31, r29")+"; cmpw r31, r29; bne 2f; lwsync; 2: sub r31, r31, r29; "+ppcIsZero,
		refcountH+": __refcount_sub_and_test is atomic_fetch_sub_release, then old == i and smp_acquire__after_ctrl_dep() (smp_rmb: lwsync)", "the underflow check is left out")
	rows.add("refcount_sub_and_test", rel.pre+ppcLoop("sub r30, r31, {v}")+"; cmpw r31, {v}; bne 2f; lwsync; 2: sub r31, r31, {v}; "+ppcIsZero,
		refcountH+": __refcount_sub_and_test is atomic_fetch_sub_release, then old == i and smp_acquire__after_ctrl_dep() (smp_rmb: lwsync)", "the underflow check is left out")
	notZero := "lwz r31, 0({addr}); 1: cmpw r31, {w}; beq 3f; add r30, r31, {v}; 2: lwarx r29, r0, {addr}; cmpw r29, r31; bne 4f; stwcx. r30, r0, {addr}; bne 2b; b 3f; 4: mr r31, r29; b 1b; 3: sub r31, r31, {w}; " + ppcNonZero
	rows.add("refcount_inc_not_zero", notZero, refcountH+": __refcount_add_not_zero, a loop of atomic_try_cmpxchg_relaxed ("+ppcCmpxchg+" __cmpxchg_u32_relaxed)", "the saturation check is left out")
	rows.add("refcount_add_not_zero", notZero, refcountH+": __refcount_add_not_zero", "the saturation check is left out")

	// Spinlocks: powerpc's own qspinlock, its trylock fast path.
	rows.add("spin_lock", "li r30, 1; 1: lwarx r31, r0, {addr}; cmpwi r31, 0; bne 1b; stwcx. r30, r0, {addr}; bne 1b; lwsync",
		ppcSpin+": queued_spin_lock tries __queued_spin_trylock_nosteal (lwarx; cmpwi; stwcx.; PPC_ACQUIRE_BARRIER) before its slow path", notePPCSpin)
	rows.add("spin_unlock", "lwsync; li r31, 0; stw r31, 0({addr})", ppcSpin+": queued_spin_unlock is smp_store_release(&lock->locked, 0)", "the kernel stores one byte (lock->locked); the word is the lock here")
	rows.add("spin_trylock", "li r30, 1; 1: lwarx r31, r0, {addr}; cmpwi r31, 0; bne 2f; stwcx. r30, r0, {addr}; bne 1b; lwsync; 2: "+ppcIsZero,
		ppcSpin+": queued_spin_trylock, __queued_spin_trylock_nosteal", "the kernel's default _Q_SPIN_TRY_LOCK_STEAL form computes the new word with andc/or; the same lwarx, stwcx. and barrier")
	rows.add("spin_is_locked", "lwz r31, 0({addr}); "+ppcNonZero, ppcSpin+": queued_spin_is_locked is READ_ONCE(lock->val) (!= 0)", "")

	register(PPC64, rows, gaps())
}

const notePPCSpin = "simplified: the trylock retried until it succeeds; the kernel's slow path queues under contention, which changes how long a CPU waits, not how the lock orders memory (it takes the lock with the same acquire barrier)"
