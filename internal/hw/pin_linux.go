package hw

import (
	"runtime"
	"syscall"
	"unsafe"
)

// Pin locks the calling goroutine to its OS thread and binds that thread to
// CPU cpu (modulo the CPUs online), so that "one thread per core" in a
// benchmark means what it says. It returns a function that undoes both. When
// the affinity call fails (a restricted container) the goroutine stays
// locked to its thread and ok is false; the numbers are then still valid,
// only noisier.
func Pin(cpu int) (unpin func(), ok bool) {
	runtime.LockOSThread()
	var old, set [16]uint64 // 1024 CPUs
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(old), uintptr(unsafe.Pointer(&old)))
	if e != 0 {
		return runtime.UnlockOSThread, false
	}
	cpu %= runtime.NumCPU()
	set[cpu/64] = 1 << (cpu % 64)
	_, _, e = syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(set), uintptr(unsafe.Pointer(&set)))
	if e != 0 {
		return runtime.UnlockOSThread, false
	}
	return func() {
		syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(old), uintptr(unsafe.Pointer(&old)))
		runtime.UnlockOSThread()
	}, true
}

// AllowedCPUs returns the CPUs this process may run on, in increasing
// order (sched_getaffinity), or 0..runtime.NumCPU()-1 when the call fails.
func AllowedCPUs() []int {
	var set [16]uint64
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(set), uintptr(unsafe.Pointer(&set)))
	if e != 0 {
		return defaultCPUs()
	}
	var cpus []int
	for i := range len(set) * 64 {
		if set[i/64]&(1<<(i%64)) != 0 {
			cpus = append(cpus, i)
		}
	}
	if len(cpus) == 0 {
		return defaultCPUs()
	}
	return cpus
}

// SetAffinity binds the calling OS thread to CPU cpu (a CPU number, not an
// index). The caller must have locked its goroutine to the thread
// (runtime.LockOSThread), or the binding applies to whatever goroutine runs
// on the thread next.
func SetAffinity(cpu int) error {
	if cpu < 0 || cpu >= 16*64 {
		return syscall.EINVAL
	}
	var set [16]uint64
	set[cpu/64] = 1 << (cpu % 64)
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(set), uintptr(unsafe.Pointer(&set)))
	if e != 0 {
		return e
	}
	return nil
}
