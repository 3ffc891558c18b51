// Command convert-v132 converts resource.k8s.io/v1alpha3 objects of Kubernetes 1.31/1.32 shape (DeviceClass,
// ResourceClaim, ResourceClaimTemplate, ResourceSlice and their lists), which 1.33 stopped serving, to v1beta1 with
// Kubernetes 1.32's own conversion code (k8s.io/kubernetes v1.32.13 pkg/apis/resource, through the internal
// version). This is the path such objects took in a cluster: stored by 1.32, read again as v1beta1. The 1.37 oracle
// (../convert) takes them from there to v1.
//
//	convert-v132 -schema   print the JSON fields of every resource.k8s.io kind 1.32 serves (schema.go)
//	convert-v132    read JSON Lines {"inputYaml":"..."} on stdin, print {"v1beta1":{...}} or {"error":"..."} each
//
// Decoding is strict and no defaults are applied, as in ../convert.
package main

import (
	"bufio"
	"dra4j.io/oracle/schemaprint"
	"encoding/json"
	"fmt"
	"os"

	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/kubernetes/pkg/apis/resource"
	"k8s.io/kubernetes/pkg/apis/resource/install"
)

type in struct {
	InputYAML string `json:"inputYaml"`
}

type out struct {
	V1beta1 json.RawMessage `json:"v1beta1,omitempty"`
	Error   string          `json:"error,omitempty"`
}

func main() {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	if len(os.Args) == 2 && os.Args[1] == "-schema" {
		data, err := schemaprint.Print(scheme, resource.GroupName)
		if err != nil {
			fmt.Fprintln(os.Stderr, "convert-v132:", err)
			os.Exit(1)
		}
		os.Stdout.Write(append(data, '\n'))
		return
	}
	decoder := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme,
		kjson.SerializerOptions{Yaml: true, Strict: true})
	convert := func(doc []byte) ([]byte, error) {
		obj, gvk, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			return nil, err
		}
		if gvk.Group != resource.GroupName || gvk.Version != "v1alpha3" {
			return nil, fmt.Errorf("%s is not a resource.k8s.io/v1alpha3 object", gvk)
		}
		internal, err := scheme.ConvertToVersion(obj, schema.GroupVersion{Group: resource.GroupName, Version: runtime.APIVersionInternal})
		if err != nil {
			return nil, err
		}
		beta, err := scheme.ConvertToVersion(internal, resourcev1beta1.SchemeGroupVersion)
		if err != nil {
			return nil, err
		}
		return json.Marshal(beta)
	}
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for scanner.Scan() {
		var line in
		if err := json.Unmarshal(scanner.Bytes(), &line); err != nil {
			fmt.Fprintln(os.Stderr, "convert-v132:", err)
			os.Exit(1)
		}
		var res out
		data, err := convert([]byte(line.InputYAML))
		if err != nil {
			res.Error = err.Error()
		} else {
			res.V1beta1 = data
		}
		if err := enc.Encode(res); err != nil {
			fmt.Fprintln(os.Stderr, "convert-v132:", err)
			os.Exit(1)
		}
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "convert-v132:", err)
		os.Exit(1)
	}
}
