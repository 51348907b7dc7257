package harness

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/litmus-dev/litmus/model/cir"
)

// TestNoCopyOfCirIR keeps the runner on model/cir's IR: no struct of this
// package may re-declare cir.Instr or cir.Operand (most of their fields
// under the same names), as cfront.go once did to turn cir's threads into
// a mirror form. One lowering of C, read as it is by every back end
// (issue 19).
func TestNoCopyOfCirIR(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, name, nil, 0)
			require.NoError(t, err)
			files = append(files, f)
		}
	}
	fields := func(typ reflect.Type) map[string]bool {
		m := map[string]bool{}
		for i := range typ.NumField() {
			m[strings.ToLower(typ.Field(i).Name)] = true
		}
		return m
	}
	irs := map[string]map[string]bool{
		"cir.Instr":   fields(reflect.TypeFor[cir.Instr]()),
		"cir.Operand": fields(reflect.TypeFor[cir.Operand]()),
		"cir.Thread":  fields(reflect.TypeFor[cir.Thread]()),
	}
	n := 0
	for _, f := range files {
		ast.Inspect(f, func(x ast.Node) bool {
			ts, ok := x.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			n++
			for irName, ir := range irs {
				shared := 0
				for _, fl := range st.Fields.List {
					for _, name := range fl.Names {
						if ir[strings.ToLower(name.Name)] {
							shared++
						}
					}
				}
				require.Less(t, 4*shared, 3*len(ir), "%s: %s re-declares %s (%d of its %d fields): use model/cir's IR as it is",
					fset.Position(ts.Pos()), ts.Name.Name, irName, shared, len(ir))
			}
			return true
		})
	}
	require.Positive(t, n, "no struct found: the scan is broken")
}
