package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A version per node that grows whenever something a Filter plugin reads about that node changes during a run: a
 * pod added to or taken off the node, or a claim holding devices of a pool the node sees allocated or released. A
 * pool whose slices all name nodes belongs to those nodes; a change to any other pool (a node selector, all nodes)
 * grows the global version, which every node's stamp includes. The node objects, slices, classes and taint rules
 * do not change during a run. Outcomes remembered with a node's stamp hold while the stamp is the same (both parts
 * only grow, so an equal sum means neither changed). Each growth of a node's own version is logged, so that a reader
 * that noted a log position can list the nodes changed since.
 */
final class NodeVersions {
    private final long[] versions;
    private long global;
    /** The nodes whose own version grew, in order, one entry per growth: a change log read by position. */
    private int[] changes = new int[1024];

    private int changeCount;
    /** driver NUL pool → the indices of the nodes whose slices hold it; {@link #SHARED} when some slice names none. */
    private final Map<String, int[]> poolNodes = new HashMap<>();

    private static final int[] SHARED = new int[0];
    /** Per claim key, the pools its allocation held when last reported (a release clears the allocation in place). */
    private final Map<String, List<String>> claimPools = new HashMap<>();

    NodeVersions(List<NodeInfo> nodes, List<ResourceSlice> slices) {
        this.versions = new long[nodes.size()];
        Map<String, Integer> index = new HashMap<>();
        for (NodeInfo n : nodes) {
            index.put(n.name, n.index);
        }
        Map<String, List<Integer>> owners = new HashMap<>();
        for (ResourceSlice s : slices) {
            if (s.getSpec() == null || s.getSpec().getPool() == null) {
                continue;
            }
            String key = poolKey(s.getSpec().getDriver(), s.getSpec().getPool().getName());
            String node = s.getSpec().getNodeName();
            List<Integer> list = owners.computeIfAbsent(key, k -> new ArrayList<>());
            if (node == null || node.isEmpty()) {
                list.add(null);
            } else if (index.containsKey(node) && !list.contains(index.get(node))) {
                list.add(index.get(node));
            }
        }
        owners.forEach((pool, list) -> poolNodes.put(
                pool,
                list.contains(null)
                        ? SHARED
                        : list.stream().mapToInt(Integer::intValue).toArray()));
    }

    private static String poolKey(String driver, String pool) {
        return driver + "\u0000" + pool;
    }

    /** The node's stamp: its own version plus the global one. */
    long stamp(int node) {
        return versions[node] + global;
    }

    /** The global version: it grows when a pool no single set of nodes owns changes. */
    long global() {
        return global;
    }

    /** How many node changes the log holds: the position of the next one. */
    int changeCount() {
        return changeCount;
    }

    /** The index of the node whose version grew at log position {@code position}. */
    int changedNode(int position) {
        return changes[position];
    }

    /** The node's pods changed. */
    void podsChanged(int node) {
        if (node >= 0 && node < versions.length) {
            grow(node);
        }
    }

    private void grow(int node) {
        versions[node]++;
        if (changeCount == changes.length) {
            changes = Arrays.copyOf(changes, changeCount * 2);
        }
        changes[changeCount++] = node;
    }

    /**
     * The claim stored under {@code key} is now {@code now} (null: removed): the nodes seeing the pools it held
     * before and those it holds now get new versions.
     */
    void claimChanged(String key, ResourceClaim now) {
        List<String> before = claimPools.remove(key);
        List<String> after = pools(now);
        if (!after.isEmpty()) {
            claimPools.put(key, after);
        }
        if (before != null) {
            before.forEach(this::poolChanged);
        }
        after.forEach(this::poolChanged);
    }

    private void poolChanged(String pool) {
        int[] owners = poolNodes.get(pool);
        if (owners == SHARED) {
            global++;
        } else if (owners != null) {
            for (int n : owners) {
                grow(n);
            }
        }
    }

    private static List<String> pools(ResourceClaim claim) {
        AllocationResult a = claim == null || claim.getStatus() == null
                ? null
                : claim.getStatus().getAllocation();
        if (a == null || a.getDevices() == null || a.getDevices().getResults() == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (DeviceRequestAllocationResult r : a.getDevices().getResults()) {
            String pool = poolKey(r.getDriver(), r.getPool());
            if (!out.contains(pool)) {
                out.add(pool);
            }
        }
        return out;
    }
}
