package wfree

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/internal/hw"
)

func TestLayout(t *testing.T) {
	var s Sock
	line := func(off uintptr) uintptr { return off / hw.CacheLine }
	require.Equal(t, uintptr(3*hw.CacheLine), unsafe.Sizeof(s))
	require.Equal(t, uintptr(0), line(unsafe.Offsetof(s.wmemAlloc)), "sk_wmem_alloc owns line 0")
	require.Equal(t, uintptr(1), line(unsafe.Offsetof(s.sndbuf)))
	require.Equal(t, uintptr(1), line(unsafe.Offsetof(s.wq)))
	require.Equal(t, uintptr(2), line(unsafe.Offsetof(s.state)), "test bookkeeping stays off the hot lines")
	require.Equal(t, uintptr(2), line(unsafe.Offsetof(s.uaf)))
}
