package litmus

// retired are kernel functions that older litmus tests call but that no
// version of the Linux-kernel memory model's linux-kernel.def defines, with
// what became of them. The parser reports them with this text instead of
// "unknown function", so that a reviewer learns why the test cannot be
// checked and what to write instead.
var retired = map[string]string{
	// The kernel dropped spin_unlock_wait() in 2017: Paul E. McKenney's
	// series (ending with "locking: Remove spin_unlock_wait() generic
	// definitions") found no agreed-upon semantics for it and turned every
	// caller into a lock/unlock pair. tools/memory-model, first merged in
	// v4.17, never defined it (paulmckrcu/litmus C-unlock-wait-00/01 of
	// June 2017 study the difference between the two).
	"spin_unlock_wait": "spin_unlock_wait() is not part of the Linux-kernel memory model: " +
		"the kernel removed it in 2017 (Paul E. McKenney, \"locking: Remove spin_unlock_wait() generic definitions\") " +
		"because it had no agreed-upon semantics; write spin_lock() followed by spin_unlock(), as the kernel's callers now do",
	// smp_memb() stands for sys_membarrier() in the 2023 tests of
	// paulmckrcu/litmus manual/memb ("Speculative mem_barrier() litmus
	// tests"): a proposed primitive that no linux-kernel.def defines, so
	// herd7 with the kernel's model rejects those tests too (the kernel's
	// checkghlitmus.sh expects them to fail).
	"smp_memb": "smp_memb() (sys_membarrier()) is not part of the Linux-kernel memory model: " +
		"no tools/memory-model/linux-kernel.def defines it; the tests that call it were written for a proposed extension, " +
		"and herd7 with the kernel's model rejects them too",
}

// isRetired reports whether name is a kernel function that the Linux-kernel
// memory model does not define although older litmus tests call it, and
// returns the explanation the parser gives.
func isRetired(name string) (string, bool) {
	msg, ok := retired[name]
	return msg, ok
}
