//go:build unix

package arch_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system,
// all threads (the garbage collector's too).
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
