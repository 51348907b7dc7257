//go:build !(linux && (amd64 || arm64))

package harness

import (
	"context"
	"fmt"
	"runtime"

	"github.com/litmus-dev/litmus/litmus"
)

// Supported reports whether Run can run tests on this machine.
func Supported() bool { return false }

// HostArch returns an error: litmus run needs Linux on amd64 or arm64.
func HostArch(atomics string) (string, error) {
	return "", fmt.Errorf("litmus run needs Linux on amd64 or arm64, not %s/%s", runtime.GOOS, runtime.GOARCH)
}

// Run returns an error: litmus run needs Linux on amd64 or arm64.
func Run(ctx context.Context, t *litmus.Test, opt Options) (*Result, error) {
	_, err := HostArch(opt.Atomics)
	return nil, err
}
