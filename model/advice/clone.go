package advice

import (
	"reflect"

	"github.com/litmus-dev/litmus/litmus"
)

// cloneTest returns a copy of t whose threads can be edited without
// touching t: the statements and expressions of every thread are copied,
// the rest (the file, the primitive table, the init block, the
// condition) is shared, as no edit reaches it. The copy is made by
// reflection over the exported fields, so that a node kind added to the
// syntax tree later is copied too instead of being shared by mistake.
func cloneTest(t *litmus.Test) *litmus.Test {
	c := *t
	c.Procs = deepCopy(reflect.ValueOf(t.Procs)).Interface().([]*litmus.Proc)
	return &c
}

var fileType = reflect.TypeFor[*litmus.File]()

// deepCopy copies v: pointers, slices, interfaces and the exported fields
// of structs recursively. Maps and *litmus.File are shared: the syntax
// tree of a thread has no maps, and the file is read only.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == fileType {
			return v
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(deepCopy(v.Elem()))
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(deepCopy(v.Elem()))
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(deepCopy(v.Index(i)))
		}
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if f := n.Field(i); f.CanSet() {
				f.Set(deepCopy(v.Field(i)))
			}
		}
		return n
	}
	return v
}
