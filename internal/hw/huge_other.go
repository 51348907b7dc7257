//go:build !linux

package hw

import "unsafe"

// adviseHuge does nothing where there is no madvise(MADV_HUGEPAGE).
func adviseHuge(p unsafe.Pointer, n uintptr) {}
