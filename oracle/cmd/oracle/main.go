// Command oracle runs allocation scenarios through the upstream Kubernetes DRA
// structured allocator (k8s.io/dynamic-resource-allocation) and prints one JSON
// line per scenario, so that another implementation can be compared with it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

func main() {
	bench := flag.Bool("bench", false, "time NewAllocator+Allocate and Allocate alone per scenario instead of printing outcomes")
	flag.BoolVar(&withStats, "stats", false, "add upstream's search steps (allocateOne invocations) to each outcome as searchSteps")
	filter := flag.Bool("filter", false, "whole-pod Filter pass: one allocator, Allocate on every node of the scenario's nodes (or its node); with -bench, time the pass warm and cold")
	flag.DurationVar(&benchTime, "benchtime", time.Second, "with -filter -bench: least time timed per measurement")
	flag.DurationVar(&warmupTime, "warmup", time.Second, "with -filter -bench: least untimed warm-up per measurement")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: oracle [-bench] [-filter] [-stats] SCENARIO.yaml... | -\n"+
			"  -  reads a stream of scenarios from stdin: multi-document YAML or JSON lines\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	r := &runner{out: json.NewEncoder(out), flush: out.Flush, bench: *bench, filter: *filter}
	for _, arg := range flag.Args() {
		r.source(arg)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
	if r.unreadable {
		os.Exit(1)
	}
}

// withStats adds searchSteps to every outcome (-stats).
var withStats bool

type runner struct {
	out        *json.Encoder
	flush      func() error
	bench      bool
	filter     bool
	unreadable bool
}

// source runs every scenario of one file, or of stdin for "-".
func (r *runner) source(arg string) {
	label, fallback := "stdin", "stdin"
	var in io.Reader = os.Stdin
	if arg != "-" {
		label = "scenario file " + arg
		fallback = strings.TrimSuffix(filepath.Base(arg), filepath.Ext(arg))
		f, err := os.Open(arg)
		if err != nil {
			r.unreadable = true
			r.emit(failed(fallback, fmt.Errorf("%s: %w", label, err)))
			return
		}
		defer f.Close()
		in = f
	}
	err := documents(bufio.NewReader(in), func(n int, doc []byte, isJSON bool) {
		s, err := parseScenario(doc, isJSON)
		if err != nil {
			r.unreadable = true
			name := nameOf(doc, fallback, n)
			r.emit(failed(name, fmt.Errorf("%s, document %d: %w", label, n, err)))
			return
		}
		switch {
		case r.filter && r.bench:
			r.emitAny(benchmarkFilter(s))
		case r.filter:
			r.emitAny(runFilter(s))
		case r.bench:
			r.emitAny(benchmark(s))
		default:
			r.emit(run(s))
		}
	})
	if err != nil {
		r.unreadable = true
		r.emit(failed(fallback, fmt.Errorf("%s: %w", label, err)))
	}
}

func (r *runner) emit(o outcome) { r.emitAny(o) }

// emitAny writes one line and flushes it, so that a caller streaming scenarios
// through stdin sees each answer as soon as it is computed.
func (r *runner) emitAny(v any) {
	if err := r.out.Encode(v); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
	if err := r.flush(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

// run allocates one scenario with a fresh CEL cache. A panic inside the
// allocator is reported as that scenario's error rather than ending the stream.
func run(s *scenario) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			o = failed(s.Name, fmt.Errorf("panic: %v", p))
		}
	}()
	in, err := prepare(s)
	if err != nil {
		return failed(s.Name, err)
	}
	allocations, steps, err := allocate(context.Background(), in, newCELCache(in.features))
	o = describe(s.Name, in.claims, allocations, err)
	if withStats {
		o.SearchSteps = steps
	}
	return o
}

// documents calls fn for each scenario document: one JSON object per line when
// the input starts with '{', otherwise YAML documents separated by "---".
func documents(in *bufio.Reader, fn func(n int, doc []byte, isJSON bool)) error {
	first, err := firstByte(in)
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	n := 0
	if first == '{' {
		// JSON Lines: a bad line costs only its own scenario.
		for {
			line, err := in.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				n++
				fn(n, line, true)
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("JSON line %d: %w", n+1, err)
			}
		}
	}
	reader := utilyaml.NewYAMLReader(in)
	for {
		doc, err := reader.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("YAML document %d: %w", n+1, err)
		}
		if blank(doc) {
			continue
		}
		n++
		fn(n, doc, false)
	}
}

func firstByte(in *bufio.Reader) (byte, error) {
	for {
		b, err := in.ReadByte()
		if err != nil {
			return 0, err
		}
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return b, in.UnreadByte()
		}
	}
}

// blank reports whether a YAML document holds only comments, whitespace and separators.
func blank(doc []byte) bool {
	for line := range strings.Lines(string(doc)) {
		line = strings.TrimSpace(line)
		if line != "" && line != "---" && !strings.HasPrefix(line, "#") {
			return false
		}
	}
	return true
}

// nameOf finds the scenario name of a document that failed strict decoding, so
// that the error line can still be matched to its scenario.
func nameOf(doc []byte, fallback string, n int) string {
	var named struct {
		Name string `json:"name"`
	}
	if yaml.Unmarshal(doc, &named) == nil && named.Name != "" {
		return named.Name
	}
	if n > 1 {
		return fmt.Sprintf("%s#%d", fallback, n)
	}
	return fallback
}
