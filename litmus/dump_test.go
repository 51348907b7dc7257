package litmus

import (
	"fmt"
	"reflect"
	"strings"
)

var (
	posType  = reflect.TypeOf(Pos(0))
	fileType = reflect.TypeOf((*File)(nil))
)

// dump renders a syntax tree as text without its positions, so that two
// trees compare equal when they differ only in where they came from.
func dump(x any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(x), "")
	return b.String()
}

func dumpValue(b *strings.Builder, v reflect.Value, indent string) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Kind() == reflect.Pointer {
			b.WriteString("&")
		}
		dumpValue(b, v.Elem(), indent)
	case reflect.Struct:
		b.WriteString(v.Type().Name() + "{\n")
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.Type == posType || f.Type == fileType || !f.IsExported() {
				continue
			}
			b.WriteString(indent + "  " + f.Name + ": ")
			dumpValue(b, v.Field(i), indent+"  ")
			b.WriteString("\n")
		}
		b.WriteString(indent + "}")
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("[\n")
		for i := 0; i < v.Len(); i++ {
			b.WriteString(indent + "  ")
			dumpValue(b, v.Index(i), indent+"  ")
			b.WriteString("\n")
		}
		b.WriteString(indent + "]")
	default:
		fmt.Fprintf(b, "%#v", v.Interface())
	}
}
