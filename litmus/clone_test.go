package litmus

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClone copies every test of testdata/parse and of the repository's
// testdata/: the copy equals the original, shares none of its nodes, and
// an edit of every name in the copy leaves the original as it printed.
func TestClone(t *testing.T) {
	files, _ := filepath.Glob("testdata/parse/*.litmus")
	more, _ := filepath.Glob("../testdata/*.litmus")
	files = append(files, more...)
	require.NotEmpty(t, files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		orig, err := Parse(f, src)
		if err != nil {
			continue // the error cases: nothing to copy
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			before := string(Format(orig))
			c := Clone(orig)
			require.Equal(t, orig, c)
			require.Same(t, orig.File, c.File, "the File is shared")

			shared := pointers(reflect.ValueOf(orig), map[uintptr]bool{})
			for p := range pointers(reflect.ValueOf(c), map[uintptr]bool{}) {
				require.False(t, shared[p], "a node of the copy is a node of the original")
			}
			for _, it := range c.Init {
				it.Name = "edited"
			}
			for _, p := range c.Procs {
				if p.Body != nil {
					Inspect(p.Body, func(n Node) bool {
						if id, ok := n.(*Ident); ok {
							id.Name = "edited"
						}
						return true
					})
				}
			}
			require.NotEqual(t, before, string(Format(c)), "the edits reached the copy")
			require.Equal(t, before, string(Format(orig)), "editing the copy changed the original")
		})
	}
}

// pointers collects the pointers reachable from v, but the File and the
// primitives (shared by design).
func pointers(v reflect.Value, seen map[uintptr]bool) map[uintptr]bool {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == reflect.TypeOf((*File)(nil)) || v.Type() == reflect.TypeOf((*Primitive)(nil)) || seen[v.Pointer()] {
			return seen
		}
		seen[v.Pointer()] = true
		pointers(v.Elem(), seen)
	case reflect.Interface:
		if !v.IsNil() {
			pointers(v.Elem(), seen)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			pointers(v.Index(i), seen)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				pointers(v.Field(i), seen)
			}
		}
	}
	return seen
}
