// Command validate-oracle runs kube-apiserver 1.37's create-time handling of resource.k8s.io/v1 objects on objects
// given as JSON: strict decoding, v1 defaulting and conversion to the internal version (as the API server's decoder
// does), then the resource's own REST strategy through rest.BeforeCreate (k8s.io/kubernetes v1.37.2
// pkg/registry/resource/...): PrepareForCreate, the hand-written validation of pkg/apis/resource/validation, the
// generic ObjectMeta validation, and the declarative validation with the API server's default gates (or those that
// -feature-gates sets, in kube-apiserver's syntax).
//
//	validate-oracle [-feature-gates A=true,B=false] < objects.jsonl
//	validate-oracle -yaml2json FILE...
//
// Reads one object per line and prints one JSON line each:
// {"index":i,"accepted":bool,"causes":[{"field":"...","message":"..."}],"error":"..."}; causes are the field errors
// of the API server's Invalid status in its order, error is any other failure (a decoding error, for one).
//
// With -yaml2json it reads each file as kubectl reads manifests (k8s.io/apimachinery's YAML document reader, then
// sigs.k8s.io/yaml over go-yaml v2, YAML 1.1 with aliases and merge keys) and prints one line per file:
// {"file":"...","documents":[...]} or {"file":"...","error":"..."}.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/resource"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"sigs.k8s.io/yaml"
)

type cause struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

type result struct {
	Index    int     `json:"index"`
	Accepted bool    `json:"accepted"`
	Causes   []cause `json:"causes"`
	Error    string  `json:"error,omitempty"`
}

// strategies are the REST strategies of the resources, by kind, with their plural resource names. The claim and
// template strategies get no namespace client or authorizer: those are used only for adminAccess, which the
// differential does not generate.
var strategies = map[string]struct {
	strategy rest.RESTCreateStrategy
	resource string
}{
	"DeviceClass":           {deviceclass.Strategy, "deviceclasses"},
	"DeviceTaintRule":       {devicetaintrule.Strategy, "devicetaintrules"},
	"ResourceClaim":         {resourceclaim.NewStrategy(nil, nil), "resourceclaims"},
	"ResourceClaimTemplate": {resourceclaimtemplate.NewStrategy(nil), "resourceclaimtemplates"},
	"ResourceSlice":         {resourceslice.Strategy, "resourceslices"},
}

var decoder = kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, legacyscheme.Scheme, legacyscheme.Scheme,
	kjson.SerializerOptions{Strict: true})

// create mirrors what the API server's create handler does before storage (staging/src/k8s.io/apiserver
// pkg/endpoints/handlers/create.go and pkg/registry/generic/registry/store.go Create): decode, default, convert to
// internal, fill the system metadata, generate the name, then rest.BeforeCreate.
func create(line []byte) error {
	obj, gvk, err := decoder.Decode(line, nil, nil)
	if err != nil {
		return err
	}
	if gvk.Group != resource.GroupName || gvk.Version != "v1" {
		return fmt.Errorf("%s is not a resource.k8s.io/v1 object", gvk)
	}
	s, ok := strategies[gvk.Kind]
	if !ok {
		return fmt.Errorf("no strategy for %s", gvk.Kind)
	}
	legacyscheme.Scheme.Default(obj)
	internal, err := legacyscheme.Scheme.ConvertToVersion(obj, schema.GroupVersion{Group: resource.GroupName, Version: runtime.APIVersionInternal})
	if err != nil {
		return err
	}
	accessor, err := meta.Accessor(internal)
	if err != nil {
		return err
	}
	ctx := context.Background()
	namespace := ""
	if s.strategy.NamespaceScoped() {
		namespace = accessor.GetNamespace()
		if namespace == "" {
			namespace = metav1.NamespaceDefault
		}
	}
	ctx = genericapirequest.WithNamespace(ctx, namespace)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: resource.GroupName, APIVersion: "v1",
		Namespace: namespace, Resource: s.resource,
	})
	// rest.FillObjectMetaSystemFields and the store's name generation.
	accessor.SetCreationTimestamp(metav1.Now())
	accessor.SetUID(types.UID("00000000-0000-0000-0000-000000000001"))
	if len(accessor.GetGenerateName()) > 0 && len(accessor.GetName()) == 0 {
		accessor.SetName(s.strategy.GenerateName(accessor.GetGenerateName()))
	}
	return rest.BeforeCreate(s.strategy, ctx, internal)
}

type yamlLine struct {
	File      string            `json:"file"`
	Documents []json.RawMessage `json:"documents,omitempty"`
	Error     string            `json:"error,omitempty"`
}

// yamlToJSON reads a file's documents as kubectl's manifest reader does (utilyaml.NewYAMLReader splits them,
// yaml.YAMLToJSON converts each); empty documents are left out, as kubectl leaves them out.
func yamlToJSON(file string) yamlLine {
	line := yamlLine{File: filepath.Base(file)}
	data, err := os.ReadFile(file)
	if err != nil {
		line.Error = err.Error()
		return line
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return line
		}
		if err != nil {
			line.Error = err.Error()
			return line
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			line.Error = err.Error()
			return line
		}
		if len(bytes.TrimSpace(j)) == 0 || string(bytes.TrimSpace(j)) == "null" {
			continue
		}
		line.Documents = append(line.Documents, j)
	}
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-yaml2json" {
		out := json.NewEncoder(os.Stdout)
		for _, f := range os.Args[2:] {
			if err := out.Encode(yamlToJSON(f)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "-feature-gates" {
		if err := utilfeature.DefaultMutableFeatureGate.Set(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<20), 64<<20)
	out := json.NewEncoder(os.Stdout)
	for index := 0; in.Scan(); index++ {
		r := result{Index: index, Causes: []cause{}}
		err := create(in.Bytes())
		var status *apierrors.StatusError
		switch {
		case err == nil:
			r.Accepted = true
		case errors.As(err, &status) && apierrors.IsInvalid(err) && status.ErrStatus.Details != nil:
			for _, c := range status.ErrStatus.Details.Causes {
				r.Causes = append(r.Causes, cause{Field: c.Field, Message: c.Message})
			}
		default:
			r.Error = err.Error()
		}
		if err := out.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
