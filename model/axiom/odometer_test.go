package axiom

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOdometerEnumeratesEveryPath walks a tree whose second choice point
// exists on one branch only, with a different number of alternatives.
func TestOdometerEnumeratesEveryPath(t *testing.T) {
	var o Odometer
	var paths []string
	for {
		o.Start()
		a := o.Choose(2)
		path := fmt.Sprint(a)
		if a == 1 {
			path += fmt.Sprint(o.Choose(3))
		}
		path += fmt.Sprint(o.Choose(2))
		paths = append(paths, path)
		if !o.Next() {
			break
		}
	}
	require.Equal(t, []string{"00", "01", "100", "101", "110", "111", "120", "121"}, paths)
}
