package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// casesDir is the repository's conformance suite.
func casesDir(t *testing.T) string {
	dir := os.Getenv("ORACLE_CASES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "conformance", "cases")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("conformance cases not found (set ORACLE_CASES): %v", err)
	}
	return dir
}

// expectation is the part of a scenario's expect block these tests compare.
type expectation struct {
	Unschedulable bool   `json:"unschedulable"`
	Error         string `json:"error"`
	Allocations   []struct {
		Claim   string `json:"claim"`
		Results []struct {
			Request, Driver, Pool, Device string
		} `json:"results"`
	} `json:"allocations"`
}

func TestConformanceCases(t *testing.T) {
	dir := casesDir(t)
	for _, name := range []string{"no-slices", "empty-class", "small-and-large-backtrack-requests"} {
		t.Run(name, func(t *testing.T) {
			doc, err := os.ReadFile(filepath.Join(dir, name+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			s, err := parseScenario(doc, false)
			if err != nil {
				t.Fatal(err)
			}
			var want expectation
			if err := json.Unmarshal(s.Expect, &want); err != nil {
				t.Fatal(err)
			}
			got := run(s)
			switch {
			case want.Error != "":
				if got.Outcome != "error" || !strings.Contains(got.Error, want.Error) {
					t.Fatalf("want error containing %q, got %+v", want.Error, got)
				}
			case want.Unschedulable:
				if got.Outcome != "unschedulable" {
					t.Fatalf("want unschedulable, got %+v", got)
				}
			default:
				if got.Outcome != "allocated" || len(got.Allocations) != len(want.Allocations) {
					t.Fatalf("want %d allocations, got %+v", len(want.Allocations), got)
				}
				for i, w := range want.Allocations {
					g := got.Allocations[i]
					if g.Claim != w.Claim || len(g.Results) != len(w.Results) {
						t.Fatalf("allocation %d: want %+v, got %+v", i, w, g)
					}
					for j, r := range w.Results {
						a := g.Results[j]
						if a.Request != r.Request || a.Driver != r.Driver || a.Pool != r.Pool || a.Device != r.Device {
							t.Errorf("allocation %d result %d: want %+v, got %+v", i, j, r, a)
						}
					}
				}
			}
		})
	}
}

func TestStreams(t *testing.T) {
	dir := casesDir(t)
	var yamlStream, jsonStream strings.Builder
	for _, name := range []string{"no-slices", "empty-class"} {
		doc, err := os.ReadFile(filepath.Join(dir, name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		yamlStream.WriteString("---\n" + string(doc))
		s, err := parseScenario(doc, false)
		if err != nil {
			t.Fatal(err)
		}
		line, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		jsonStream.Write(line)
		jsonStream.WriteString("\n")
	}
	for format, stream := range map[string]string{"yaml": yamlStream.String(), "json": jsonStream.String()} {
		var outcomes []string
		err := documents(bufio.NewReader(strings.NewReader(stream)), func(n int, doc []byte, isJSON bool) {
			s, err := parseScenario(doc, isJSON)
			if err != nil {
				t.Fatalf("%s document %d: %v", format, n, err)
			}
			outcomes = append(outcomes, s.Name+"="+run(s).Outcome)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(outcomes, ","), "no-slices=unschedulable,empty-class=error"; got != want {
			t.Errorf("%s stream: got %s, want %s", format, got, want)
		}
	}
}

func TestUnreadableInputNamesTheProblem(t *testing.T) {
	for doc, want := range map[string]string{
		"name: x\nnode: {name: n}\nbogus: 1\n":                                                             `unknown field "bogus"`,
		"name: x\nnode: {name: n}\nfeatures: [DRAFoo]\n":                                                   `unknown DRA feature gate "DRAFoo"`,
		"name: x\nnode: {name: n}\nclaims: [{apiVersion: resource.k8s.io/v1beta1, kind: ResourceClaim}]\n": `claims[0]: apiVersion "resource.k8s.io/v1beta1"`,
	} {
		if _, err := parseScenario([]byte(doc), false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: want error containing %q, got %v", doc, want, err)
		}
	}
}
