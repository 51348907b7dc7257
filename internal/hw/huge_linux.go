//go:build linux

package hw

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks for transparent huge pages over the whole 2 MB pages of
// [p, p+n) (madvise MADV_HUGEPAGE). A refusal changes nothing but speed.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	start := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	end := (uintptr(p) + n) &^ (hugePage - 1)
	if end <= start {
		return
	}
	syscall.Syscall(syscall.SYS_MADVISE, start, end-start, 14 /* MADV_HUGEPAGE */)
}
