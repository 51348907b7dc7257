//go:build !linux

package hw

import (
	"errors"
	"runtime"
)

// Pin locks the calling goroutine to its OS thread; binding the thread to a
// CPU is only implemented on Linux, so ok is false here.
func Pin(cpu int) (unpin func(), ok bool) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread, false
}

// AllowedCPUs returns 0..runtime.NumCPU()-1: CPU affinity is only read on
// Linux.
func AllowedCPUs() []int { return defaultCPUs() }

// SetAffinity is only implemented on Linux.
func SetAffinity(cpu int) error { return errors.ErrUnsupported }
