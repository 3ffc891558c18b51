// Command scheduler is the oracle's scheduler mode: kube-scheduler v1.37.2's default profile, its framework and
// in-tree plugins (DynamicResources with its real DRA manager over informers of a fake clientset), run in-process
// over a cluster snapshot, one pod at a time in queue order, as cluster-autoscaler's simulator and scheduler_perf
// drive the framework. For every scheduling attempt it prints one JSON line with what a differential test
// compares: each node's Filter verdict (the plugin that rejected it, its code and reasons), the final weighted
// scores per node and plugin, the best nodes, the chosen node and the allocation of the pod's claims.
//
//	scheduler FILE...     each file one snapshot (YAML or JSON documents, objects or Lists)
//	scheduler -           stdin: JSON lines, each line one snapshot (a List)
//	scheduler -time FILE... times the scheduling loop instead: Filter stops at numFeasibleNodesToFind as upstream's
//	                      does, no attempt is printed; one JSON line per snapshot with nodes, attempts, placed,
//	                      seconds and podsPerSecond
//
// After each snapshot's attempts comes {"snapshot":…,"done":true,"outcome":…}: per pod its node ("" when pending), the
// pods a PreEnqueue plugin kept out of the queue with its message, per PodGroup its members bound and the status its
// last pod group cycle ended with; "error" instead when it could not be run.
// Exit status: 0 when every snapshot ran, 1 when some could not be read or run, 2 on bad usage.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/klog/v2"
)

func main() {
	klog.InitFlags(nil)
	flag.Set("logtostderr", "false")
	flag.Set("stderrthreshold", "FATAL")
	timed := flag.Bool("time", false, "time the scheduling loop of each snapshot instead of printing its attempts")
	flag.Parse()
	// The differential runs kube-scheduler as started with --feature-gates=GenericWorkload=true (beta, off by default
	// in 1.37): the default profile then has GangScheduling, and the cache and the queue keep pod group state. The
	// timed mode (oracle/scheduler-bench) measures the scheduler as 1.37 runs by default, with the gate off.
	if !*timed {
		if err := utilfeature.DefaultMutableFeatureGate.Set("GenericWorkload=true"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: scheduler FILE... | scheduler -")
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	failed := false
	run := func(s *snapshot, err error, name string) {
		if err == nil && *timed {
			err = runSnapshotWith(s, nil, func(t timing) {
				t.Snapshot = name
				enc.Encode(t)
			}, nil)
		}
		var end *outcome
		if err == nil && !*timed {
			end, err = runSnapshot(s, func(a *attempt) {
				a.Snapshot = name
				enc.Encode(a)
			})
		}
		done := map[string]any{"snapshot": name, "done": true}
		if end != nil && err == nil {
			done["outcome"] = end
		}
		if err != nil {
			done["error"] = err.Error()
			failed = true
		}
		enc.Encode(done)
		out.Flush()
	}
	for _, arg := range flag.Args() {
		if arg != "-" {
			data, err := os.ReadFile(arg)
			if err != nil {
				run(nil, err, arg)
				continue
			}
			s, err := readSnapshot(arg, bytes.NewReader(data))
			run(s, err, arg)
			continue
		}
		in := bufio.NewScanner(os.Stdin)
		in.Buffer(make([]byte, 1<<20), 1<<30)
		for line := 0; in.Scan(); line++ {
			if len(bytes.TrimSpace(in.Bytes())) == 0 {
				continue
			}
			name := fmt.Sprintf("stdin:%d", line+1)
			s, err := readSnapshot(name, bytes.NewReader(in.Bytes()))
			run(s, err, name)
		}
	}
	out.Flush()
	if failed {
		os.Exit(1)
	}
}
