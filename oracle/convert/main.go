// Command convert-oracle converts resource.k8s.io objects of every served version to v1 with Kubernetes' own
// conversion code (k8s.io/kubernetes v1.37.2 pkg/apis/resource, through the internal version as the API server
// does), and compares dra4j's conversions with it.
//
//	convert-oracle [FILE...]      convert each YAML/JSON document (files or stdin) and print one JSON line each:
//	                              {"index":i,"object":{...}} or {"index":i,"error":"..."}
//	convert-oracle -schema        print the JSON fields of every resource.k8s.io kind per version (schema.go)
//	convert-oracle -compare       read JSON Lines {"input":{...} or "inputYaml":"...","dra4j":{...}|null,
//	                              "dra4jError":"..."} on stdin and
//	                              print one line each: {"index":i,"equal":bool,"upstream":{...},"upstreamError":"...",
//	                              "detail":"..."}
//
// Decoding is strict (unknown or duplicate fields are errors, as with kubectl's default field validation) and no
// defaults are applied: the conversion alone is compared. dra4j's output is decoded strictly into the v1 types, and
// upstream's result goes through the same JSON round trip, so both are compared as the API server would store them
// (equality.Semantic: quantities by value, nil and empty collections alike; the apiVersion and kind of list items
// are not compared).
package main

import (
	"bufio"
	"bytes"
	"dra4j.io/oracle/schemaprint"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/diff"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/kubernetes/pkg/apis/resource"
	"k8s.io/kubernetes/pkg/apis/resource/install"
)

type converter struct {
	scheme  *runtime.Scheme
	decoder *kjson.Serializer
}

func newConverter() *converter {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	decoder := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme,
		kjson.SerializerOptions{Yaml: true, Strict: true})
	return &converter{scheme: scheme, decoder: decoder}
}

// decode reads one document as the typed object of the version and kind it names, without defaulting.
func (c *converter) decode(doc []byte) (runtime.Object, error) {
	obj, gvk, err := c.decoder.Decode(doc, nil, nil)
	if err != nil {
		return nil, err
	}
	if gvk.Group != resource.GroupName {
		return nil, fmt.Errorf("%s is not a resource.k8s.io object", gvk)
	}
	return obj, nil
}

// toV1 converts through the internal version, as the API server does between a request's version and storage.
func (c *converter) toV1(obj runtime.Object) (runtime.Object, error) {
	internal, err := c.scheme.ConvertToVersion(obj, schema.GroupVersion{Group: resource.GroupName, Version: runtime.APIVersionInternal})
	if err != nil {
		return nil, err
	}
	return c.scheme.ConvertToVersion(internal, resourcev1.SchemeGroupVersion)
}

func (c *converter) convert(doc []byte) (runtime.Object, error) {
	obj, err := c.decode(doc)
	if err != nil {
		return nil, err
	}
	return c.toV1(obj)
}

// roundTrip marshals a v1 object and decodes it strictly again, as it would be read back from the API server.
func (c *converter) roundTrip(obj runtime.Object) (runtime.Object, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return c.decodeV1(data)
}

func (c *converter) decodeV1(data []byte) (runtime.Object, error) {
	obj, err := c.decode(data)
	if err != nil {
		return nil, err
	}
	if gv := obj.GetObjectKind().GroupVersionKind().GroupVersion(); gv != resourcev1.SchemeGroupVersion {
		return nil, fmt.Errorf("not resource.k8s.io/v1 but %s", gv)
	}
	return obj, nil
}

type convertLine struct {
	Index  int             `json:"index"`
	Object json.RawMessage `json:"object,omitempty"`
	Error  string          `json:"error,omitempty"`
}

func convertStream(c *converter, r io.Reader, out *json.Encoder, index *int) error {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(r))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		line := convertLine{Index: *index}
		*index++
		obj, err := c.convert(doc)
		if err == nil {
			line.Object, err = json.Marshal(obj)
		}
		if err != nil {
			line.Error = err.Error()
		}
		if err := out.Encode(line); err != nil {
			return err
		}
	}
}

type compareIn struct {
	Input      json.RawMessage `json:"input"`
	InputYAML  string          `json:"inputYaml"`
	Dra4j      json.RawMessage `json:"dra4j"`
	Dra4jError string          `json:"dra4jError"`
}

type compareOut struct {
	Index         int             `json:"index"`
	Equal         bool            `json:"equal"`
	Upstream      json.RawMessage `json:"upstream,omitempty"`
	UpstreamError string          `json:"upstreamError,omitempty"`
	Detail        string          `json:"detail,omitempty"`
}

// compare decides one case: both reject the input, or both convert it to semantically equal v1 objects.
func compare(c *converter, in compareIn) compareOut {
	var res compareOut
	input := []byte(in.Input)
	if in.InputYAML != "" {
		input = []byte(in.InputYAML)
	}
	upstream, err := c.convert(input)
	if err == nil {
		upstream, err = c.roundTrip(upstream)
	}
	if err != nil {
		res.UpstreamError = err.Error()
		res.Equal = in.Dra4jError != ""
		if !res.Equal {
			res.Detail = "upstream rejects the input, dra4j converted it"
		}
		return res
	}
	res.Upstream, _ = json.Marshal(upstream)
	if in.Dra4jError != "" {
		res.Detail = "dra4j rejects the input, upstream converted it"
		return res
	}
	mine, err := c.decodeV1(in.Dra4j)
	if err != nil {
		res.Detail = "dra4j's output is not a valid v1 object: " + err.Error()
		return res
	}
	clearItemTypes(upstream)
	clearItemTypes(mine)
	res.Equal = equality.Semantic.DeepEqual(upstream, mine)
	if !res.Equal {
		res.Detail = diff.Diff(upstream, mine)
	}
	return res
}

// clearItemTypes empties the apiVersion and kind of a list's items: in a typed list they carry no meaning (decoders
// ignore them, the API server omits them), and upstream's list conversion sometimes copies them unchanged and
// sometimes drops them. dra4j writes them as v1 where the input had them, for kubectl.
func clearItemTypes(obj runtime.Object) {
	if !meta.IsListType(obj) {
		return
	}
	_ = meta.EachListItem(obj, func(item runtime.Object) error {
		item.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		return nil
	})
}

func compareStream(c *converter, r io.Reader, out *json.Encoder) error {
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 1<<20), 64<<20)
	for i := 0; scanner.Scan(); i++ {
		var in compareIn
		if err := json.Unmarshal(scanner.Bytes(), &in); err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		res := compare(c, in)
		res.Index = i
		if err := out.Encode(res); err != nil {
			return err
		}
	}
	return scanner.Err()
}

func main() {
	compareMode := flag.Bool("compare", false, "compare dra4j's conversions (JSON Lines on stdin) with upstream's")
	schemaMode := flag.Bool("schema", false, "print the fields of every resource.k8s.io kind in every served version")
	flag.Parse()
	c := newConverter()
	if *schemaMode {
		data, err := schemaprint.Print(c.scheme, resource.GroupName)
		if err != nil {
			fmt.Fprintln(os.Stderr, "convert-oracle:", err)
			os.Exit(1)
		}
		os.Stdout.Write(append(data, '\n'))
		return
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	out := json.NewEncoder(w)
	var err error
	switch {
	case *compareMode:
		err = compareStream(c, os.Stdin, out)
	case flag.NArg() == 0:
		index := 0
		err = convertStream(c, os.Stdin, out, &index)
	default:
		index := 0
		for _, name := range flag.Args() {
			var f *os.File
			if f, err = os.Open(name); err != nil {
				break
			}
			err = convertStream(c, f, out, &index)
			f.Close()
			if err != nil {
				err = fmt.Errorf("%s: %w", name, err)
				break
			}
		}
	}
	if err != nil {
		w.Flush()
		fmt.Fprintln(os.Stderr, "convert-oracle:", err)
		os.Exit(1)
	}
}
