package kmap

// The x86-64 rows, read from Linux v6.x: arch/x86/include/asm/barrier.h at
// torvalds/linux a23e19669324 (v6.9), and for the rest the v6 headers named
// in each row. On x86-64 every LOCK-prefixed instruction (and XCHG with
// memory, which is locked without the prefix) is a full barrier, so the
// _relaxed, _acquire and _release forms compile to the fully ordered
// instruction: x86 defines only that form, and
// include/linux/atomic/atomic-arch-fallback.h maps the others onto it.
//
// Scratch registers: %rax (CMPXCHG's implicit operand, SETcc's target) and
// %rcx.

const (
	x86Barrier  = "arch/x86/include/asm/barrier.h (v6.9)"
	x86Atomic   = "arch/x86/include/asm/atomic64_64.h (v6.x)"
	x86Cmpxchg  = "arch/x86/include/asm/cmpxchg.h (v6.x)"
	x86Bitops   = "arch/x86/include/asm/bitops.h (v6.x)"
	x86Fallback = "include/linux/atomic/atomic-arch-fallback.h (v6.x)"
	x86Spin     = "include/asm-generic/qspinlock.h (v6.x), x86 uses the generic qspinlock"
	rwonce      = "include/asm-generic/rwonce.h (v6.x)"
	rcupdate    = "include/linux/rcupdate.h (v6.x)"
	refcountH   = "include/linux/refcount.h (v6.x)"
	srcuH       = "include/linux/srcu.h (v6.x)"
)

// Notes shared by several rows.
const (
	noteOrderings = "the _relaxed/_acquire/_release forms are the same instructions (atomic-arch-fallback.h)"
	noteSpin      = "simplified: a test-and-set loop with LOCK CMPXCHG; the kernel's qspinlock takes the same LOCK CMPXCHG on its fast path (queued_spin_lock) and queues only under contention, which changes how long a CPU waits, not how the lock orders memory"
	noteGP        = "needs the kernel's grace-period machinery, which is no instruction sequence: neither a run in user space nor an architecture model has it"
	noteGPRCU     = "needs the kernel's grace-period machinery, which is no instruction sequence, so a run in user space does not have it; the architecture models check a test with it compiled with the toy RCU of Documentation/RCU/whatisRCU.rst (model/kcomp/rcu.go)"
)

func init() {
	var rows rowList
	load := "movq {addr}, {ret}"
	store := "movq {v}, {addr}"
	rows.addAccesses(load, store, rwonce+": __READ_ONCE, a volatile access",
		"C: a plain access compiles to one MOV", "C: a plain access compiles to one MOV", rwonce+": __WRITE_ONCE, a volatile access")
	rows.addAll(acquireLoads, load, x86Barrier+": __smp_load_acquire is READ_ONCE then barrier()", "TSO orders a load before later accesses; only the compiler needs telling")
	rows.addAll(releaseStores, store, x86Barrier+": __smp_store_release is barrier() then WRITE_ONCE", "TSO orders a store after earlier accesses; only the compiler needs telling")
	rows.add(NullAssign, store, rcupdate+": rcu_assign_pointer with a constant NULL is WRITE_ONCE", "")
	rows.add("smp_store_mb", "movq {v}, %rax; xchgq %rax, {addr}", x86Barrier+": __smp_store_mb is (void)xchg(&var, value)", "XCHG with memory is locked, a full barrier")
	rows.add("smp_mb", "lock addl $0, -4(%rsp)", x86Barrier+": __smp_mb", "a locked add to the stack, cheaper than MFENCE; mb() is MFENCE")
	rows.addAll([]string{"smp_rmb", "smp_wmb", "barrier", "smp_mb__before_atomic", "smp_mb__after_atomic"}, "", x86Barrier, "a compiler barrier only: TSO already orders what it asks for (before/after_atomic: LOCK'd instructions are full barriers)")
	rows.add("smp_mb__after_spinlock", "", "include/linux/spinlock.h (v6.x): the default, x86 does not override it", "the lock's LOCK CMPXCHG is already a full barrier")
	rows.add("smp_mb__after_unlock_lock", "", "kernel/rcu/rcu.h (v6.x): smp_mb() only with CONFIG_ARCH_WEAK_RELEASE_ACQUIRE (powerpc)", "")
	rows.addEmpty("x86", false)
	rows.add("cpu_relax", "pause", "arch/x86/include/asm/vdso/processor.h (v6.x): rep_nop", "")

	variants := []string{"", "_relaxed", "_acquire", "_release"}
	for _, pre := range []string{"", "atomic_", "atomic_long_"} {
		for _, v := range variants {
			rows.add(pre+"xchg"+v, "movq {v}, %rax; xchgq %rax, {addr}; movq %rax, {ret}", x86Cmpxchg+": arch_xchg, __xchg_op(..., \"\") (no LOCK prefix: XCHG with memory is always locked)", noteOrderings)
			rows.add(pre+"cmpxchg"+v, "movq {v}, %rax; movq {w}, %rcx; lock cmpxchgq %rcx, {addr}; movq %rax, {ret}", x86Cmpxchg+": arch_cmpxchg, __raw_cmpxchg(..., LOCK_PREFIX)", noteOrderings)
		}
	}
	for _, pre := range []string{"atomic_", "atomic_long_"} {
		src := x86Atomic
		for _, op := range []string{"add", "sub", "and", "or", "xor"} {
			rows.add(pre+op, "lock "+op+"q {v}, {addr}", src+": arch_atomic64_"+op, "")
		}
		rows.add(pre+"andnot", "movq {v}, %rax; notq %rax; lock andq %rax, {addr}", x86Fallback+": arch_atomic64_andnot is arch_atomic64_and(~i, v)", "")
		rows.add(pre+"inc", "lock incq {addr}", src+": arch_atomic64_inc", "")
		rows.add(pre+"dec", "lock decq {addr}", src+": arch_atomic64_dec", "")
		for _, v := range variants {
			rows.add(pre+"add_return"+v, "movq {v}, %rcx; movq %rcx, %rax; lock xaddq %rax, {addr}; addq %rcx, %rax; movq %rax, {ret}", src+": arch_atomic64_add_return is i + xadd(&v->counter, i)", noteOrderings)
			rows.add(pre+"sub_return"+v, "movq {v}, %rcx; negq %rcx; movq %rcx, %rax; lock xaddq %rax, {addr}; addq %rcx, %rax; movq %rax, {ret}", src+": arch_atomic64_sub_return is arch_atomic64_add_return(-i, v)", noteOrderings)
			rows.add(pre+"inc_return"+v, "movq $1, %rax; lock xaddq %rax, {addr}; incq %rax; movq %rax, {ret}", x86Fallback+": inc_return is add_return(1, v)", noteOrderings)
			rows.add(pre+"dec_return"+v, "movq $-1, %rax; lock xaddq %rax, {addr}; decq %rax; movq %rax, {ret}", x86Fallback+": dec_return is sub_return(1, v)", noteOrderings)
			rows.add(pre+"fetch_add"+v, "movq {v}, %rax; lock xaddq %rax, {addr}; movq %rax, {ret}", src+": arch_atomic64_fetch_add is xadd(&v->counter, i)", noteOrderings)
			rows.add(pre+"fetch_sub"+v, "movq {v}, %rax; negq %rax; lock xaddq %rax, {addr}; movq %rax, {ret}", src+": arch_atomic64_fetch_sub is xadd(&v->counter, -i)", noteOrderings)
			rows.add(pre+"fetch_inc"+v, "movq $1, %rax; lock xaddq %rax, {addr}; movq %rax, {ret}", x86Fallback+": fetch_inc is fetch_add(1, v)", noteOrderings)
			rows.add(pre+"fetch_dec"+v, "movq $-1, %rax; lock xaddq %rax, {addr}; movq %rax, {ret}", x86Fallback+": fetch_dec is fetch_sub(1, v)", noteOrderings)
			for _, op := range []string{"and", "or", "xor"} {
				rows.add(pre+"fetch_"+op+v, "movq {addr}, %rax; 1: movq %rax, %rcx; "+op+"q {v}, %rcx; lock cmpxchgq %rcx, {addr}; jne 1b; movq %rax, {ret}",
					src+": arch_atomic64_fetch_"+op+", a try_cmpxchg loop", noteOrderings)
			}
			rows.add(pre+"fetch_andnot"+v, "movq {addr}, %rax; 1: movq {v}, %rcx; notq %rcx; andq %rax, %rcx; lock cmpxchgq %rcx, {addr}; jne 1b; movq %rax, {ret}",
				x86Fallback+": fetch_andnot is fetch_and(~i, v), a try_cmpxchg loop", noteOrderings)
			rows.add(pre+"add_negative"+v, "lock addq {v}, {addr}; sets %al; movzbq %al, {ret}", src+": arch_atomic64_add_negative, GEN_BINARY_RMWcc(LOCK_PREFIX \"addq\", ..., s, ...)", noteOrderings)
		}
		rows.add(pre+"sub_and_test", "lock subq {v}, {addr}; sete %al; movzbq %al, {ret}", src+": arch_atomic64_sub_and_test, GEN_BINARY_RMWcc(LOCK_PREFIX \"subq\", ..., e, ...)", "")
		rows.add(pre+"dec_and_test", "lock decq {addr}; sete %al; movzbq %al, {ret}", src+": arch_atomic64_dec_and_test, GEN_UNARY_RMWcc(LOCK_PREFIX \"decq\", ..., e)", "")
		rows.add(pre+"inc_and_test", "lock incq {addr}; sete %al; movzbq %al, {ret}", src+": arch_atomic64_inc_and_test, GEN_UNARY_RMWcc(LOCK_PREFIX \"incq\", ..., e)", "")
		addUnless := "movq {addr}, %rax; 1: cmpq {w}, %rax; je 2f; movq %rax, %rcx; addq {v}, %rcx; lock cmpxchgq %rcx, {addr}; jne 1b; 2: cmpq {w}, %rax; setne %al; movzbq %al, {ret}"
		rows.add(pre+"add_unless", addUnless, x86Fallback+": add_unless is fetch_add_unless(v, a, u) != u, a try_cmpxchg loop", "")
		rows.add(pre+"inc_not_zero", addUnless, x86Fallback+": inc_not_zero is add_unless(v, 1, 0)", "")
	}

	// Bit operations on one word. The kernel emits "lock orb/andb/xorb" on
	// the byte holding the bit when nr is a compile-time constant, and
	// "lock bts/btr/btc" otherwise; both are LOCK'd RMWs of the same
	// cache line and order memory identically, so one form serves.
	rows.add("set_bit", "lock btsq {nr}, {addr}", x86Bitops+": arch_set_bit", "for a constant nr the kernel writes lock orb on the bit's byte")
	rows.add("clear_bit", "lock btrq {nr}, {addr}", x86Bitops+": arch_clear_bit", "for a constant nr the kernel writes lock andb on the bit's byte")
	rows.add("change_bit", "lock btcq {nr}, {addr}", x86Bitops+": arch_change_bit", "for a constant nr the kernel writes lock xorb on the bit's byte")
	rows.add("clear_bit_unlock", "lock btrq {nr}, {addr}", x86Bitops+": arch_clear_bit_unlock is barrier() then arch_clear_bit", "")
	rows.add("test_and_set_bit", "lock btsq {nr}, {addr}; setc %al; movzbq %al, {ret}", x86Bitops+": arch_test_and_set_bit, GEN_BINARY_RMWcc(LOCK_PREFIX \"btsq\", ..., c, ...)", "")
	rows.add("test_and_set_bit_lock", "lock btsq {nr}, {addr}; setc %al; movzbq %al, {ret}", x86Bitops+": arch_test_and_set_bit_lock is arch_test_and_set_bit", "")
	rows.add("test_and_clear_bit", "lock btrq {nr}, {addr}; setc %al; movzbq %al, {ret}", x86Bitops+": arch_test_and_clear_bit", "")
	rows.add("test_and_change_bit", "lock btcq {nr}, {addr}; setc %al; movzbq %al, {ret}", x86Bitops+": arch_test_and_change_bit", "")
	rows.add("__set_bit", "btsq {nr}, {addr}", x86Bitops+": arch___set_bit, BTS without LOCK", "not atomic: another CPU's write between its read and its write is lost")
	rows.add("__clear_bit", "btrq {nr}, {addr}", x86Bitops+": arch___clear_bit, BTR without LOCK", "not atomic")
	rows.add("__change_bit", "btcq {nr}, {addr}", x86Bitops+": arch___change_bit, BTC without LOCK", "not atomic")
	rows.add("test_bit", "btq {nr}, {addr}; setc %al; movzbq %al, {ret}", x86Bitops+": variable_test_bit, BT on memory", "for a constant nr the kernel shifts a plain load instead: one load either way")
	rows.add("test_bit_acquire", "btq {nr}, {addr}; setc %al; movzbq %al, {ret}", x86Bitops+": arch_test_bit_acquire, variable_test_bit or smp_load_acquire", "one load; TSO gives it acquire order")

	// refcount_t: include/linux/refcount.h builds on the atomic_t
	// operations named in each row; the saturation checks it adds run only
	// on overflow or on an increment from zero, which are left out.
	rows.add("refcount_inc", "movq $1, %rax; lock xaddq %rax, {addr}", refcountH+": __refcount_add is atomic_fetch_add_relaxed(i, &r->refs)", "the saturation check on the old value is left out")
	rows.add("refcount_add", "movq {v}, %rax; lock xaddq %rax, {addr}", refcountH+": __refcount_add is atomic_fetch_add_relaxed(i, &r->refs)", "the saturation check on the old value is left out")
	rows.add("refcount_dec", "movq $-1, %rax; lock xaddq %rax, {addr}", refcountH+": __refcount_dec is atomic_fetch_sub_release(1, &r->refs)", "the underflow check is left out")
	rows.add("refcount_dec_and_test", "movq $-1, %rax; lock xaddq %rax, {addr}; cmpq $1, %rax; sete %al; movzbq %al, {ret}",
		refcountH+": __refcount_sub_and_test is atomic_fetch_sub_release, then old == i, then smp_acquire__after_ctrl_dep() (a compiler barrier on x86)", "the underflow check is left out")
	rows.add("refcount_sub_and_test", "movq {v}, %rcx; movq %rcx, %rax; negq %rax; lock xaddq %rax, {addr}; cmpq %rcx, %rax; sete %al; movzbq %al, {ret}",
		refcountH+": __refcount_sub_and_test is atomic_fetch_sub_release, then old == i", "the underflow check is left out")
	notZero := "movq {addr}, %rax; 1: cmpq {w}, %rax; je 2f; movq %rax, %rcx; addq {v}, %rcx; lock cmpxchgq %rcx, {addr}; jne 1b; 2: cmpq {w}, %rax; setne %al; movzbq %al, {ret}"
	rows.add("refcount_inc_not_zero", notZero, refcountH+": __refcount_add_not_zero, a loop of atomic_try_cmpxchg_relaxed until the count is 0 or the exchange succeeds", "the saturation check is left out")
	rows.add("refcount_add_not_zero", notZero, refcountH+": __refcount_add_not_zero", "the saturation check is left out")

	rows.add("spin_lock", "1: xorl %eax, %eax; movl $1, %ecx; lock cmpxchgq %rcx, {addr}; je 2f; pause; jmp 1b; 2:", x86Spin+": queued_spin_lock's fast path, atomic_try_cmpxchg_acquire(&lock->val, &val, _Q_LOCKED_VAL)", noteSpin)
	rows.add("spin_unlock", "movq $0, {addr}", x86Spin+": queued_spin_unlock is smp_store_release(&lock->locked, 0)", "the kernel stores one byte (lock->locked); the word is the lock here")
	rows.add("spin_trylock", "movq {addr}, %rax; testq %rax, %rax; jne 1f; movl $1, %ecx; lock cmpxchgq %rcx, {addr}; 1: sete %al; movzbq %al, {ret}",
		x86Spin+": queued_spin_trylock reads the lock, then atomic_try_cmpxchg_acquire if it is free", "")
	rows.add("spin_is_locked", "movq {addr}, %rax; testq %rax, %rax; setne %al; movzbq %al, {ret}", x86Spin+": queued_spin_is_locked is atomic_read(&lock->val) != 0", "")

	register(X86_64, rows, gaps())
}

// gaps are the primitives no architecture's mapping expresses.
func gaps() []Gap {
	var g []Gap
	for _, p := range []string{"synchronize_rcu", "synchronize_rcu_expedited"} {
		// model/kcomp compiles a test with a grace period with the
		// toy RCU of Documentation/RCU/whatisRCU.rst (its locks and
		// barriers), not with a row; a run on the machine has none.
		g = append(g, Gap{p, "synchronize_rcu " + noteGPRCU})
	}
	for _, p := range []string{"srcu_read_lock", "srcu_read_unlock", "srcu_down_read", "srcu_up_read", "synchronize_srcu", "synchronize_srcu_expedited"} {
		g = append(g, Gap{p, "SRCU " + noteGP + " (" + srcuH + ")"})
	}
	return g
}
