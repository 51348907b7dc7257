package dstref

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/hw"
)

func TestLayout(t *testing.T) {
	var d Dst
	line := func(off uintptr) uintptr { return off / hw.CacheLine }
	require.Equal(t, uintptr(2*hw.CacheLine), unsafe.Sizeof(d))
	for name, off := range map[string]uintptr{
		"__refcnt": unsafe.Offsetof(d.refcnt), "obsolete": unsafe.Offsetof(d.obsolete),
		"dev": unsafe.Offsetof(d.dev), "input": unsafe.Offsetof(d.input),
	} {
		require.Equal(t, uintptr(0), line(off), "%s must share the refcount's line: that is the false sharing", name)
	}
	require.Equal(t, uintptr(1), line(unsafe.Offsetof(d.uaf)))
	require.Equal(t, uintptr(hw.CacheLine), unsafe.Sizeof(Sock{}))
	var r ring
	require.Equal(t, uintptr(hw.CacheLine), unsafe.Offsetof(r.tail)-unsafe.Offsetof(r.head), "ring indices on separate lines")
}
