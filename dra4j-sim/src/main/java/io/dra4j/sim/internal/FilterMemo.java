package io.dra4j.sim.internal;

import io.dra4j.allocator.AllocationOutcome;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Filter verdicts and node-local raw scores remembered per pod shape and node, so that a cycle costs an array read for every node whose
 * state did not change since a pod of the same shape was filtered there. A shape is everything the node-local
 * Filter plugins read from a pod (the scheduler builds it; pods whose verdicts depend on other nodes' pods, through
 * PodTopologySpread or InterPodAffinity, get none). A verdict holds while the node's stamp ({@link NodeVersions})
 * is the one it was computed at; the allocator's outcome there is kept with it for Score and Reserve. The most
 * recently used {@value #SHAPES} shapes are kept.
 */
final class FilterMemo {
    static final int SHAPES = 32;

    /**
     * One shape's verdicts by node index; a stamp of -1 marks a node not filtered yet. With them, the node-local
     * raw scores (NodeResourcesFit plus BalancedAllocation, TaintToleration, NodeAffinity, DynamicResources), valid
     * at {@code scoreStamps}; they depend on the same inputs and on the non-zero request, which the shape includes.
     */
    static final class Entry {
        final long[] stamps;
        final FilterStatus[] verdicts;
        final AllocationOutcome[] outcomes;
        final long[] scoreStamps;
        final long[] resources;
        final long[] taint;
        final long[] affinity;
        final long[] dra;
        /** The last cycle of this shape in which every node rejected the pod; null when none or no longer usable. */
        Failure failure;

        private Entry(int nodes) {
            stamps = new long[nodes];
            Arrays.fill(stamps, -1);
            verdicts = new FilterStatus[nodes];
            outcomes = new AllocationOutcome[nodes];
            scoreStamps = new long[nodes];
            Arrays.fill(scoreStamps, -1);
            resources = new long[nodes];
            taint = new long[nodes];
            affinity = new long[nodes];
            dra = new long[nodes];
        }
    }

    /**
     * A cycle of the shape in which every node rejected the pod, each verdict remembered: the rotating start index it
     * filtered from, the change log position and global version ({@link NodeVersions}) it saw, the statuses by node in
     * the order filtered, FitError's availability message, the plugins that rejected and the nodes DynamicResources
     * rejected, in that order.
     */
    record Failure(
            int start,
            int changeCount,
            long global,
            Map<NodeInfo, FilterStatus> statuses,
            String availability,
            java.util.Set<String> rejectors,
            java.util.List<NodeInfo> draRejected) {
        Failure {
            statuses = java.util.Collections.unmodifiableMap(statuses);
            rejectors = java.util.Set.copyOf(rejectors);
            draRejected = java.util.List.copyOf(draRejected);
        }

        /** The same failure, seen again at a later log position. */
        Failure at(int changeCount) {
            return new Failure(start, changeCount, global, statuses, availability, rejectors, draRejected);
        }

        /**
         * The same failure as filtered from another start index over the same {@code nodes} (this one filtered every
         * node): the statuses and DynamicResources' rejected nodes in the order of that start, the order in which the
         * decisive reason breaks ties.
         */
        Failure from(int newStart, java.util.List<NodeInfo> nodes) {
            if (newStart == start) {
                return this;
            }
            Map<NodeInfo, FilterStatus> rotated = new LinkedHashMap<>(statuses.size() * 4 / 3 + 1);
            java.util.List<NodeInfo> dra = new java.util.ArrayList<>(draRejected.size());
            java.util.Set<NodeInfo> rejectedByDra =
                    java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            rejectedByDra.addAll(draRejected);
            for (int i = 0; i < nodes.size(); i++) {
                NodeInfo n = nodes.get((newStart + i) % nodes.size());
                rotated.put(n, statuses.get(n));
                if (rejectedByDra.contains(n)) {
                    dra.add(n);
                }
            }
            return new Failure(newStart, changeCount, global, rotated, availability, rejectors, dra);
        }
    }

    private final int nodes;
    private final Map<Object, Entry> shapes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Entry> eldest) {
            return size() > SHAPES;
        }
    };

    FilterMemo(int nodes) {
        this.nodes = nodes;
    }

    /** The verdicts of this shape (a value with equals and hashCode over the shape's parts). */
    Entry entry(Object shape) {
        return shapes.computeIfAbsent(shape, k -> new Entry(nodes));
    }
}
