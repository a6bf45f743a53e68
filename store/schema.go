package store

import (
	"reflect"
	"sort"

	"github.com/vmihailenco/msgpack/v5"
)

// customEncoder is the interface of a type that writes its own msgpack:
// its fields' names are not its format.
var customEncoder = reflect.TypeOf((*msgpack.CustomEncoder)(nil)).Elem()

// UntaggedFields lists the exported struct fields reachable from v's type
// (through pointers, slices, arrays, maps and nested structs) that have no
// msgpack tag, as Type.Field: msgpack would store them under their Go
// names, so renaming one would silently change the file format. A type
// with its own encoding (msgpack.CustomEncoder) is its own format, and is
// not looked into. Every stored type's test asks for none.
func UntaggedFields(v any) []string {
	seen := map[reflect.Type]bool{}
	var out []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() == reflect.Map {
			walk(t.Key())
			walk(t.Elem())
			return
		}
		if t.Kind() != reflect.Struct || seen[t] || t.PkgPath() == "time" || t.Implements(customEncoder) || reflect.PointerTo(t).Implements(customEncoder) {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if _, ok := f.Tag.Lookup("msgpack"); !ok && !f.Anonymous {
				out = append(out, t.String()+"."+f.Name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(v))
	sort.Strings(out)
	return out
}
