// Command cel is the CEL oracle of the generated CEL differential test (oracle/cel-difftest): it evaluates DRA
// device selectors exactly as kube-scheduler does, with upstream's code only (k8s.io/dynamic-resource-allocation
// v0.37.2 cel.NewCache(...).GetOrCompile, CompilationResult.DeviceMatches and EnhanceRuntimeError; cel-go as
// pinned by that module).
//
// Input, one JSON object per line on stdin:
//
//	{"expr": "...", "driver": "d", "multi": true, "attrs": {"name": {"int": 1}, ...}, "capacity": {"mem": "1Gi"}}
//
// attrs use the resource.k8s.io/v1 DeviceAttribute fields (int, bool, string, version, ints, bools, strings,
// versions); capacity maps names to quantities. Output, one JSON object per input line, flushed at once:
//
//	{"compileError": "..."} | {"error": "...", "cost": N} | {"match": true, "cost": N}
//
// plus "alternatives" (the other outcomes seen) when repeated evaluations disagree, which happens only when the
// result depends on Go's randomised map iteration order. A line that is not valid input yields {"bad": "..."}.
//
// With -cost it prints upstream's static cost estimate instead (oracle/cel-cost-difftest): per line {"expr": "..."}
// in, {"maxCost": "N"} (CompilationResult.MaxCost of CompileCELExpression with the default options, as a decimal
// string since it is a uint64) or {"compileError": "..."} out.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strconv"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	dracel "k8s.io/dynamic-resource-allocation/cel"
)

// repeats is how many times each expression is evaluated to notice an outcome that depends on map order.
const repeats = 3

type request struct {
	Expr     string                                 `json:"expr"`
	Driver   string                                 `json:"driver"`
	Multi    *bool                                  `json:"multi"`
	Attrs    map[string]resourceapi.DeviceAttribute `json:"attrs"`
	Capacity map[string]string                      `json:"capacity"`
}

type outcome struct {
	CompileError *string `json:"compileError,omitempty"`
	Error        *string `json:"error,omitempty"`
	Match        *bool   `json:"match,omitempty"`
	Cost         *uint64 `json:"cost,omitempty"`
}

type response struct {
	outcome
	Alternatives []outcome `json:"alternatives,omitempty"`
	Bad          string    `json:"bad,omitempty"`
}

type costResponse struct {
	CompileError *string `json:"compileError,omitempty"`
	MaxCost      string  `json:"maxCost,omitempty"`
	Bad          string  `json:"bad,omitempty"`
}

func main() {
	costMode := flag.Bool("cost", false, "print the static cost estimate (MaxCost) of each expression")
	flag.Parse()
	if *costMode {
		estimateCosts()
		return
	}
	// The scheduler's cache (plugin: cel.NewCache(10, features)); StoredExpressions ignores the features at 1.37.
	cache := dracel.NewCache(10, dracel.Features{EnableConsumableCapacity: true, EnableListTypeAttributes: true})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var resp response
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			resp.Bad = err.Error()
		} else if d, err := device(req); err != nil {
			resp.Bad = err.Error()
		} else {
			resp = evaluate(cache, req.Expr, d)
		}
		b, err := json.Marshal(resp)
		if err != nil {
			b, _ = json.Marshal(response{Bad: err.Error()})
		}
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "cel oracle:", err)
		os.Exit(1)
	}
}

func device(req request) (dracel.Device, error) {
	d := dracel.Device{Driver: req.Driver, AllowMultipleAllocations: req.Multi,
		Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{},
		Capacity:   map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{}}
	for k, a := range req.Attrs {
		d.Attributes[resourceapi.QualifiedName(k)] = a
	}
	for k, v := range req.Capacity {
		q, err := resource.ParseQuantity(v)
		if err != nil {
			return d, fmt.Errorf("capacity %s: %v", k, err)
		}
		d.Capacity[resourceapi.QualifiedName(k)] = resourceapi.DeviceCapacity{Value: q}
	}
	return d, nil
}

func evaluate(cache *dracel.Cache, expr string, d dracel.Device) response {
	compiled := cache.GetOrCompile(expr)
	if compiled.Error != nil {
		detail := compiled.Error.Detail
		return response{outcome: outcome{CompileError: &detail}}
	}
	var resp response
	for i := 0; i < repeats; i++ {
		o := once(compiled, d)
		if i == 0 {
			resp.outcome = o
		} else if !reflect.DeepEqual(o, resp.outcome) && !seen(resp.Alternatives, o) {
			resp.Alternatives = append(resp.Alternatives, o)
		}
	}
	return resp
}

// once is the plugin's use of a compiled selector (structured allocator: DeviceMatches, then EnhanceRuntimeError).
func once(compiled dracel.CompilationResult, d dracel.Device) outcome {
	var o outcome
	match, details, err := compiled.DeviceMatches(context.Background(), d)
	if err != nil {
		text := dracel.EnhanceRuntimeError(err).Error()
		o.Error = &text
	} else {
		o.Match = &match
	}
	if details != nil && details.ActualCost() != nil {
		cost := *details.ActualCost()
		o.Cost = &cost
	}
	return o
}

func seen(list []outcome, o outcome) bool {
	for _, x := range list {
		if reflect.DeepEqual(x, o) {
			return true
		}
	}
	return false
}

// estimateCosts answers each {"expr"} line with the compiler's MaxCost: the estimate kube-apiserver's validation
// compares with CELSelectorExpressionMaxCost (same compiler and features as the scheduler's cache above).
func estimateCosts() {
	compiler := dracel.GetCompiler(dracel.Features{EnableConsumableCapacity: true, EnableListTypeAttributes: true})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var resp costResponse
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			resp.Bad = err.Error()
		} else {
			result := compiler.CompileCELExpression(req.Expr, dracel.Options{})
			if result.Error != nil {
				detail := result.Error.Detail
				resp.CompileError = &detail
			} else {
				resp.MaxCost = strconv.FormatUint(result.MaxCost, 10)
			}
		}
		b, _ := json.Marshal(resp)
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "cel oracle:", err)
		os.Exit(1)
	}
}
