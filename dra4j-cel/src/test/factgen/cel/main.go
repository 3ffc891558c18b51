package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/version"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
)

func show(v ref.Val) string {
	switch x := v.(type) {
	case types.String:
		return "string:" + string(x)
	case types.Int:
		return fmt.Sprintf("int:%d", int64(x))
	case types.Uint:
		return fmt.Sprintf("uint:%d", uint64(x))
	case types.Double:
		return fmt.Sprintf("double:%x", math.Float64bits(float64(x)))
	case types.Bool:
		return fmt.Sprintf("bool:%v", bool(x))
	case types.Null:
		return "null"
	case types.Duration:
		return fmt.Sprintf("duration:%d", x.Duration.Nanoseconds())
	case types.Timestamp:
		return fmt.Sprintf("timestamp:%d", x.Time.UnixNano())
	case types.Bytes:
		return fmt.Sprintf("bytes:%x", []byte(x))
	}
	switch val := v.Value().(type) {
	case *resource.Quantity:
		return "quantity:" + val.String()
	case semver.Version:
		return "semver:" + val.String()
	}
	if v.Type() == types.OptionalType {
		o := v.(*types.Optional)
		if !o.HasValue() {
			return "optional.none"
		}
		return "optional:" + show(o.GetValue())
	}
	if l, ok := v.(traits.Lister); ok {
		var parts []string
		for it := l.Iterator(); it.HasNext() == types.True; {
			parts = append(parts, show(it.Next()))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	if m, ok := v.(traits.Mapper); ok {
		var parts []string
		for it := m.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			parts = append(parts, show(k)+": "+show(m.Get(k)))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	switch val := v.(type) {
	case apiservercel.IP:
		return "ip:" + val.Addr.String()
	case apiservercel.CIDR:
		return "cidr:" + val.Prefix.String()
	case apiservercel.URL:
		return "url:" + val.URL.String()
	}
	return fmt.Sprintf("%s:%v", v.Type().TypeName(), v.Value())
}

func main() {
	env, err := environment.MustBaseEnvSet(version.MajorMinor(1, 37)).Env(environment.StoredExpressions)
	if err != nil {
		panic(err)
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "SV\t") {
			s := strings.TrimPrefix(line, "SV\t")
			v, err := semver.Parse(s)
			if err != nil {
				fmt.Printf("SV\t%s\tERR\t%s\n", s, err)
			} else {
				fmt.Printf("SV\t%s\t%s\t%d\t%d\t%d\n", s, v.String(), v.Major, v.Minor, v.Patch)
			}
			continue
		}
		if strings.HasPrefix(line, "COST\t") {
			f := strings.Split(line, "\t")
			var args []ref.Val
			for _, e := range f[3:] {
				a, iss := env.Compile(e)
				if iss.Err() != nil {
					panic(iss.Err())
				}
				p, _ := env.Program(a)
				v, _, err := p.Eval(map[string]any{})
				if err != nil {
					panic(err)
				}
				args = append(args, v)
			}
			c := (&library.CostEstimator{}).CallCost(f[1], f[2], args, nil)
			if c == nil {
				fmt.Printf("%s\tnil\n", line)
			} else {
				fmt.Printf("%s\t%d\n", line, *c)
			}
			continue
		}
		ast, iss := env.Compile(line)
		if iss.Err() != nil {
			fmt.Printf("%s\tCOMPILE\t%s\n", line, strings.ReplaceAll(iss.Err().Error(), "\n", "\\n"))
			continue
		}
		prg, err := env.Program(ast, cel.EvalOptions(cel.OptTrackCost), cel.CostLimit(1000000))
		if err != nil {
			fmt.Printf("%s\tPROGRAM\t%s\n", line, err)
			continue
		}
		out, det, err := prg.Eval(map[string]any{})
		cost := uint64(0)
		if det != nil && det.ActualCost() != nil {
			cost = *det.ActualCost()
		}
		if err != nil {
			fmt.Printf("%s\tERR\t%s\t%d\n", line, strings.ReplaceAll(err.Error(), "\n", "\\n"), cost)
			continue
		}
		fmt.Printf("%s\tOK\t%s\t%d\n", line, show(out), cost)
	}
}
