package schemaprint

import (
	"encoding/json"
	"reflect"

	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// Package schemaprint serves the convert oracles' -schema mode (one Go module per Kubernetes release, so the code
// lives here once): it prints the JSON field names and value shapes of every kind of one API group in every version
// a release serves, read from the Go types by reflection. dra4j checks inputs against it, so that a field a version
// does not have is an error there as it is in the API server's strict decoding.
//
// Shapes: "string", "int", "bool", "float", "any" (a value with its own JSON decoding: quantities, times, raw
// parameters), {"list": shape}, {"map": shape}, or the name of an object type in "types" whose value is
// {"field": shape, ...}.

type schemaOut struct {
	Kinds map[string]json.RawMessage            `json:"kinds"`
	Types map[string]map[string]json.RawMessage `json:"types"`
}

var unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// Print lists the kinds of group in scheme (internal version, watch events, options and Status left out).
func Print(scheme *runtime.Scheme, group string) ([]byte, error) {
	out := schemaOut{Kinds: map[string]json.RawMessage{}, Types: map[string]map[string]json.RawMessage{}}
	for gvk, t := range scheme.AllKnownTypes() {
		if gvk.Group != group || gvk.Version == runtime.APIVersionInternal {
			continue
		}
		if strings.HasPrefix(gvk.Kind, "WatchEvent") || gvk.Kind == "WatchEvent" ||
			strings.HasSuffix(gvk.Kind, "Options") || gvk.Kind == "Status" {
			continue
		}
		out.Kinds[gvk.Version+"/"+gvk.Kind] = json.RawMessage(shape(t, out.Types))
	}
	return json.MarshalIndent(out, "", " ")
}

func typeName(t reflect.Type) string {
	parts := strings.Split(t.PkgPath(), "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/") + "." + t.Name()
}

// shape returns the JSON encoding of the shape of t, registering object types in types.
func shape(t reflect.Type, types map[string]map[string]json.RawMessage) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return `"any"`
	}
	switch t.Kind() {
	case reflect.String:
		return `"string"`
	case reflect.Bool:
		return `"bool"`
	case reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint8, reflect.Uint32, reflect.Uint64:
		return `"int"`
	case reflect.Float32, reflect.Float64:
		return `"float"`
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return `"string"`
		}
		return `{"list":` + shape(t.Elem(), types) + `}`
	case reflect.Map:
		return `{"map":` + shape(t.Elem(), types) + `}`
	case reflect.Interface:
		return `"any"`
	case reflect.Struct:
		name := typeName(t)
		if _, seen := types[name]; !seen {
			fields := map[string]json.RawMessage{}
			types[name] = fields
			addFields(t, fields, types)
		}
		b, _ := json.Marshal(name)
		return string(b)
	}
	panic("unexpected type " + t.String())
}

func addFields(t reflect.Type, fields map[string]json.RawMessage, types map[string]map[string]json.RawMessage) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name := strings.Split(tag, ",")[0]
		if f.Anonymous && name == "" || strings.Contains(tag, ",inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			addFields(ft, fields, types)
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = json.RawMessage(shape(f.Type, types))
	}
}
