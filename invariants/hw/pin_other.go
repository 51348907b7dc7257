//go:build !linux

package hw

import "runtime"

// Pin locks the calling goroutine to its OS thread; binding the thread to a
// CPU is only implemented on Linux, so ok is false here.
func Pin(cpu int) (unpin func(), ok bool) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread, false
}
