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
