package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

func describe(q resource.Quantity) string {
	c := q.DeepCopy()
	i, ok := c.AsInt64()
	c2 := q.DeepCopy()
	c3 := q.DeepCopy()
	c4 := q.DeepCopy()
	c5 := q.DeepCopy()
	return fmt.Sprintf("%s\t%s\t%016x\t%d\t%v\t%d\t%d\t%d", c5.String(), q.Format, math.Float64bits(c4.AsApproximateFloat64()), i, ok, c2.Value(), c3.MilliValue(), q.Sign())
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch f[0] {
		case "P":
			q, err := resource.ParseQuantity(f[1])
			if err != nil {
				fmt.Printf("P\t%s\tERR\t%s\n", f[1], err.Error())
				continue
			}
			fmt.Printf("P\t%s\t%s\n", f[1], describe(q))
		case "N", "M":
			var v int64
			fmt.Sscan(f[1], &v)
			format := resource.Format(f[2])
			var q *resource.Quantity
			if f[0] == "N" {
				q = resource.NewQuantity(v, format)
			} else {
				q = resource.NewMilliQuantity(v, format)
			}
			fmt.Printf("%s\t%s\t%s\t%s\n", f[0], f[1], f[2], describe(*q))
		case "A", "S":
			a := resource.MustParse(f[1])
			b := resource.MustParse(f[2])
			if f[0] == "A" {
				a.Add(b)
			} else {
				a.Sub(b)
			}
			var cmp = resource.MustParse(f[1])
			fmt.Printf("%s\t%s\t%s\t%s\t%d\n", f[0], f[1], f[2], describe(a), cmp.Cmp(b))
		}
	}
}
