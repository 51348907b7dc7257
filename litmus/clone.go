package litmus

import "reflect"

// Clone returns a deep copy of t: every node of its tree is new, so that
// the copy can be edited (model.Fences weakens one construct at a time)
// while t stays as the caller parsed it. Two things are shared, being
// read-only: the File that positions point into, and the primitive table
// (Prims). A node that two places of t point to is one node of the copy.
func Clone(t *Test) *Test {
	c := cloner{seen: map[uintptr]reflect.Value{}}
	return c.value(reflect.ValueOf(t)).Interface().(*Test)
}

// cloneNode is a deep copy of one node of a tree, as Clone copies a test.
func cloneNode[T any](n T) T {
	c := cloner{seen: map[uintptr]reflect.Value{}}
	return c.value(reflect.ValueOf(&n)).Elem().Interface().(T)
}

type cloner struct {
	seen map[uintptr]reflect.Value // the copy of each pointer already copied
}

var (
	cloneFileType  = reflect.TypeOf((*File)(nil))
	cloneTableType = reflect.TypeOf(Table(nil))
)

// value returns a deep copy of v.
func (c *cloner) value(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == cloneFileType {
			return v
		}
		if p, ok := c.seen[v.Pointer()]; ok {
			return p
		}
		p := reflect.New(v.Type().Elem())
		c.seen[v.Pointer()] = p
		p.Elem().Set(c.value(v.Elem()))
		return p
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(c.value(v.Elem()))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(c.value(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() || v.Type() == cloneTableType {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), c.value(it.Value()))
		}
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v) // unexported fields too, as they are
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				out.Field(i).Set(c.value(v.Field(i)))
			}
		}
		return out
	}
	return v
}
