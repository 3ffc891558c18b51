// Command selector prints upstream's verdict on DRA device selectors: for each JSON line
// {expr, driver, multi, attrs, capacity, list, consumable} it compiles expr with the scheduler's CEL cache
// (k8s.io/dynamic-resource-allocation v0.37.2, StoredExpressions) and evaluates it against the device, printing
// the compile error, the runtime error (with the 1.37 "no such key" hint) or the match, and the actual cost.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	dracel "k8s.io/dynamic-resource-allocation/cel"
)

type attr struct {
	Int      *int64   `json:"int"`
	Bool     *bool    `json:"bool"`
	String   *string  `json:"string"`
	Version  *string  `json:"version"`
	Ints     []int64  `json:"ints"`
	Bools    []bool   `json:"bools"`
	Strings  []string `json:"strings"`
	Versions []string `json:"versions"`
}

type req struct {
	Expr       string            `json:"expr"`
	Driver     string            `json:"driver"`
	Multi      *bool             `json:"multi"`
	Attrs      map[string]attr   `json:"attrs"`
	Capacity   map[string]string `json:"capacity"`
	List       bool              `json:"list"`
	Consumable bool              `json:"consumable"`
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r req
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			panic(err)
		}
		c := dracel.NewCache(10, dracel.Features{EnableListTypeAttributes: r.List, EnableConsumableCapacity: r.Consumable})
		res := c.GetOrCompile(r.Expr)
		out := map[string]any{"expr": r.Expr}
		if res.Error != nil {
			out["compileError"] = res.Error.Detail
		} else {
			d := dracel.Device{Driver: r.Driver, AllowMultipleAllocations: r.Multi,
				Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{},
				Capacity:   map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{}}
			for k, a := range r.Attrs {
				d.Attributes[resourceapi.QualifiedName(k)] = resourceapi.DeviceAttribute{IntValue: a.Int, BoolValue: a.Bool, StringValue: a.String, VersionValue: a.Version,
					IntValues: a.Ints, BoolValues: a.Bools, StringValues: a.Strings, VersionValues: a.Versions}
			}
			for k, v := range r.Capacity {
				d.Capacity[resourceapi.QualifiedName(k)] = resourceapi.DeviceCapacity{Value: resource.MustParse(v)}
			}
			m, details, err := res.DeviceMatches(context.Background(), d)
			if err != nil {
				out["error"] = dracel.EnhanceRuntimeError(err).Error()
			} else {
				out["match"] = m
			}
			if details != nil && details.ActualCost() != nil {
				out["cost"] = *details.ActualCost()
			}
		}
		b, _ := json.Marshal(out)
		fmt.Println(string(b))
	}
}
