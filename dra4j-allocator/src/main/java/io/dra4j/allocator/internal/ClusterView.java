package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One immutable version of the cluster as the allocator sees it: device classes, slices indexed by node and pool,
 * DeviceTaintRules, and the devices earlier allocations hold, all in persistent maps, so that an update builds a new
 * version sharing everything it did not change. Slices are compiled on first use and the compiled form is shared
 * by every version in which the slice object is unchanged. Per-node views (the pools a node sees, its candidates in
 * search order) are cached for the whole lineage of versions and revalidated by stamps: a view is reused exactly
 * when the node's own slices, the slices without a node, and every pool it saw are unchanged.
 *
 * <p>Thread-safe: versions are immutable, caches are concurrent and hold only values that depend on the inputs.
 */
public final class ClusterView {
    final EngineFeatures features;
    final FeatureGates gates;
    final DeviceSelectorEnvironment cel;
    final SelectorShortcuts shortcuts;
    private final Lineage lineage;
    private final PersistentMap<String, DeviceClass> classes;
    private final PersistentMap<String, Ordered<DeviceTaintRule>> taintRuleObjects;
    private final TaintRules taintRules;
    private final PersistentMap<String, SliceEntry> slices;
    private final PersistentMap<String, PersistentMap<String, SliceEntry>> slicesOnNode;
    private final PersistentMap<String, SliceEntry> slicesShared;
    /** Slices with a node name and shared counters: the stable variant considers them on every node. */
    private final PersistentMap<String, SliceEntry> counterSlicesOnNodes;

    private final PersistentMap<SliceInfo.PoolId, PersistentMap<String, SliceEntry>> slicesByPool;
    private final PersistentMap<SliceInfo.PoolId, Long> poolStamps;
    private final PersistentMap<String, Long> nodeStamps;
    private final long sharedStamp;
    private final long counterStamp;
    private final AllocatedState base;
    private final PersistentMap<SliceInfo.PoolId, PoolAllocations> allocations;
    private final PersistentMap<String, Ordered<ClaimEntry>> claims;
    /** The allocated claims by the pools their results name (a claim under each of its pools), by claim key. */
    private final PersistentMap<SliceInfo.PoolId, PersistentMap<String, Ordered<ClaimEntry>>> claimsByPool;
    /** Counters available per pool after earlier allocations; computed lazily, as upstream, once per version. */
    final Map<SliceInfo.PoolId, Map<String, Map<String, BigDecimal>>> availableCounters = new ConcurrentHashMap<>();

    /**
     * What a lineage of versions shares: the CEL environment, stamp and order counters, the per-node views, the
     * parsed quantities of its slices.
     */
    private static final class Lineage {
        final AtomicLong clock = new AtomicLong();
        final Map<String, NodeView> nodeViews = new ConcurrentHashMap<>();
        final QuantityCache quantities = new QuantityCache();
    }

    /** A value with its position in the order the objects were given (the order the stable variant uses). */
    private record Ordered<T>(T value, long seq) {}

    /** An allocated claim and what it holds. */
    private record ClaimEntry(ResourceClaim claim, List<Holding> holdings) {}

    /** A slice with its index keys; compiled on first use with the taint rules of its version. */
    static final class SliceEntry {
        final ResourceSlice raw;
        final String key;
        final long seq;
        final String nodeName;
        final SliceInfo.PoolId pool;
        final boolean hasCounters;
        private final TaintRules taintRules;
        private final QuantityCache quantities;
        private volatile SliceInfo compiled;

        SliceEntry(ResourceSlice raw, String key, long seq, TaintRules taintRules, QuantityCache quantities) {
            this.quantities = quantities;
            this.raw = raw;
            this.key = key;
            this.seq = seq;
            this.taintRules = taintRules;
            ResourceSliceSpec spec = raw.getSpec();
            String n = spec == null ? null : spec.getNodeName();
            this.nodeName = n == null || n.isEmpty() ? null : n;
            String driver = spec == null || spec.getDriver() == null ? "" : spec.getDriver();
            String pool =
                    spec == null || spec.getPool() == null || spec.getPool().getName() == null
                            ? ""
                            : spec.getPool().getName();
            this.pool = new SliceInfo.PoolId(driver, pool);
            this.hasCounters = spec != null
                    && spec.getSharedCounters() != null
                    && !spec.getSharedCounters().isEmpty();
        }

        SliceInfo compiled() {
            SliceInfo s = compiled;
            if (s == null) {
                synchronized (this) {
                    s = compiled;
                    if (s == null) {
                        s = new SliceInfo(raw, taintRules, quantities);
                        compiled = s;
                    }
                }
            }
            return s;
        }

        SliceEntry withTaintRules(TaintRules rules) {
            return new SliceEntry(raw, key, seq, rules, quantities);
        }
    }

    /**
     * The pools one node sees and its candidates in search order, with the stamps they were computed from, and per
     * selector set (class selectors, request selectors) which candidates it selects, filled in as searches find out.
     */
    record NodeView(
            Node node,
            long nodeStamp,
            long sharedStamp,
            long counterStamp,
            SliceInfo.PoolId[] pools,
            long[] stamps,
            List<Pool> gathered,
            DeviceInfo[] candidates,
            Pool[] candidatePools,
            Map<List<Object>, byte[]> selections,
            AtomicReference<HeldDevices> held,
            Map<String, AttributeColumn> attributeColumns,
            AtomicReference<ProbeRows> probeRows) {
        /** Distinct selector sets (and constraint attributes) remembered per node; further ones serve one call only. */
        private static final int MAX_SELECTIONS = 64;

        /**
         * The selectability row of a selector set: per candidate position 0 (not known yet), 1 (selectable) or 2
         * (not). A selector's result depends only on the device, the expression and the node's name and labels, all
         * fixed for this view, so a row is shared by every search on the view; concurrent searches may both fill a
         * position, always with the same value. Positions whose evaluation fails stay 0, so the error is raised again.
         */
        byte[] selection(List<Object> key) {
            byte[] row = selections.get(key);
            if (row == null) {
                row = new byte[candidates.length];
                if (selections.size() < MAX_SELECTIONS) {
                    byte[] raced = selections.putIfAbsent(key, row);
                    row = raced == null ? row : raced;
                }
            }
            return row;
        }

        /**
         * Per candidate position, the device's value of a constraint attribute and its interned scalar id
         * ({@link AttributeColumn}): it depends only on the device, so it is resolved once per view instead of on
         * every tentative add.
         */
        AttributeColumn attributeColumn(String attribute) {
            AttributeColumn column = attributeColumns.get(attribute);
            if (column == null) {
                column = AttributeColumn.of(candidates, attribute);
                if (attributeColumns.size() < MAX_SELECTIONS) {
                    AttributeColumn raced = attributeColumns.putIfAbsent(attribute, column);
                    column = raced == null ? column : raced;
                }
            }
            return column;
        }

        /**
         * The probe rows of the pruning bounds for what earlier allocations hold (a {@link #held} result): kept while
         * that is the same, started afresh when it changed. Null once {@link #MAX_SELECTIONS} rows are kept: further
         * ones serve one call only.
         */
        Map<PruningBounds.ProbeKey, PruningBounds.ProbeRow> probeRows(HeldDevices heldNow) {
            ProbeRows p = probeRows.get();
            if (p == null || p.held != heldNow) {
                p = new ProbeRows(heldNow, new ConcurrentHashMap<>());
                probeRows.set(p);
            }
            return p.rows.size() < MAX_SELECTIONS ? p.rows : null;
        }

        /**
         * What earlier allocations of the version hold of the candidates: the last result while every pool's
         * allocations are unchanged, else resolved again (after an allocate or deallocate on one of its pools). A
         * version without any allocation needs no look-up at all (the common case on an empty cluster).
         */
        HeldDevices held(ClusterView version) {
            if (version.allocations.isEmpty()) {
                return HeldDevices.NONE;
            }
            HeldDevices h = held.get();
            if (h == null || !h.validFor(version)) {
                h = HeldDevices.of(version, candidates, candidatePools);
                held.set(h);
            }
            return h;
        }
    }

    /** The probe rows a node view keeps, with the held devices they were computed for. */
    record ProbeRows(HeldDevices held, Map<PruningBounds.ProbeKey, PruningBounds.ProbeRow> rows) {}

    private ClusterView(Draft d) {
        this.features = d.features;
        this.gates = d.gates;
        this.cel = d.cel;
        this.shortcuts = d.shortcuts;
        this.lineage = d.lineage;
        this.classes = d.classes;
        this.taintRuleObjects = d.taintRuleObjects;
        this.taintRules = d.taintRules;
        this.slices = d.slices;
        this.slicesOnNode = d.slicesOnNode;
        this.slicesShared = d.slicesShared;
        this.counterSlicesOnNodes = d.counterSlicesOnNodes;
        this.slicesByPool = d.slicesByPool;
        this.poolStamps = d.poolStamps;
        this.nodeStamps = d.nodeStamps;
        this.sharedStamp = d.sharedStamp;
        this.counterStamp = d.counterStamp;
        this.base = d.base;
        this.allocations = d.allocations;
        this.claims = d.claims;
        this.claimsByPool = d.claimsByPool;
    }

    /** The fields of a version under construction. */
    private static final class Draft {
        EngineFeatures features;
        FeatureGates gates;
        DeviceSelectorEnvironment cel;
        SelectorShortcuts shortcuts;
        Lineage lineage;
        PersistentMap<String, DeviceClass> classes = PersistentMap.empty();
        PersistentMap<String, Ordered<DeviceTaintRule>> taintRuleObjects = PersistentMap.empty();
        TaintRules taintRules = TaintRules.NONE;
        PersistentMap<String, SliceEntry> slices = PersistentMap.empty();
        PersistentMap<String, PersistentMap<String, SliceEntry>> slicesOnNode = PersistentMap.empty();
        PersistentMap<String, SliceEntry> slicesShared = PersistentMap.empty();
        PersistentMap<String, SliceEntry> counterSlicesOnNodes = PersistentMap.empty();
        PersistentMap<SliceInfo.PoolId, PersistentMap<String, SliceEntry>> slicesByPool = PersistentMap.empty();
        PersistentMap<SliceInfo.PoolId, Long> poolStamps = PersistentMap.empty();
        PersistentMap<String, Long> nodeStamps = PersistentMap.empty();
        long sharedStamp;
        long counterStamp;
        AllocatedState base = AllocatedState.EMPTY;
        PersistentMap<SliceInfo.PoolId, PoolAllocations> allocations = PersistentMap.empty();
        PersistentMap<String, Ordered<ClaimEntry>> claims = PersistentMap.empty();
        PersistentMap<SliceInfo.PoolId, PersistentMap<String, Ordered<ClaimEntry>>> claimsByPool =
                PersistentMap.empty();

        long tick() {
            return lineage.clock.incrementAndGet();
        }

        void addSlice(SliceEntry e) {
            slices = slices.plus(e.key, e);
            index(e, true);
        }

        void removeSlice(SliceEntry e) {
            slices = slices.minus(e.key);
            index(e, false);
        }

        private void index(SliceEntry e, boolean add) {
            long stamp = tick();
            if (e.nodeName == null) {
                slicesShared = add ? slicesShared.plus(e.key, e) : slicesShared.minus(e.key);
                sharedStamp = stamp;
            } else {
                PersistentMap<String, SliceEntry> own = slicesOnNode.get(e.nodeName);
                own = own == null ? PersistentMap.empty() : own;
                own = add ? own.plus(e.key, e) : own.minus(e.key);
                slicesOnNode = own.isEmpty() ? slicesOnNode.minus(e.nodeName) : slicesOnNode.plus(e.nodeName, own);
                nodeStamps = nodeStamps.plus(e.nodeName, stamp);
                if (e.hasCounters) {
                    counterSlicesOnNodes =
                            add ? counterSlicesOnNodes.plus(e.key, e) : counterSlicesOnNodes.minus(e.key);
                    counterStamp = stamp;
                }
            }
            PersistentMap<String, SliceEntry> pool = slicesByPool.get(e.pool);
            pool = pool == null ? PersistentMap.empty() : pool;
            pool = add ? pool.plus(e.key, e) : pool.minus(e.key);
            slicesByPool = pool.isEmpty() ? slicesByPool.minus(e.pool) : slicesByPool.plus(e.pool, pool);
            poolStamps = poolStamps.plus(e.pool, stamp);
        }

        /** Files the claim's entry under each pool its results name (or takes it out of them). */
        void indexByPool(String key, Ordered<ClaimEntry> entry, boolean add) {
            for (SliceInfo.PoolId pool : resultPools(entry.value().claim())) {
                PersistentMap<String, Ordered<ClaimEntry>> held = claimsByPool.get(pool);
                held = held == null ? PersistentMap.empty() : held;
                held = add ? held.plus(key, entry) : held.minus(key);
                claimsByPool = held.isEmpty() ? claimsByPool.minus(pool) : claimsByPool.plus(pool, held);
            }
        }

        void applyHoldings(List<Holding> holdings, int sign) {
            Map<SliceInfo.PoolId, List<Holding>> byPool = new HashMap<>();
            for (Holding h : holdings) {
                byPool.computeIfAbsent(
                                new SliceInfo.PoolId(
                                        h.device().driver(), h.device().pool()),
                                k -> new ArrayList<>())
                        .add(h);
            }
            byPool.forEach((pool, list) -> {
                PoolAllocations old = allocations.get(pool);
                PoolAllocations updated = (old == null ? PoolAllocations.EMPTY : old).apply(list, sign);
                allocations = updated.isEmpty() ? allocations.minus(pool) : allocations.plus(pool, updated);
            });
        }

        TaintRules rebuildTaintRules() {
            if (!features.deviceTaintRules() || taintRuleObjects.isEmpty()) {
                return TaintRules.NONE;
            }
            List<Ordered<DeviceTaintRule>> ordered = taintRuleObjects.values();
            ordered.sort(Comparator.comparingLong(Ordered::seq));
            List<DeviceTaintRule> rules = new ArrayList<>(ordered.size());
            for (Ordered<DeviceTaintRule> o : ordered) {
                rules.add(o.value());
            }
            return new TaintRules(rules);
        }
    }

    private Draft draft() {
        Draft d = new Draft();
        d.features = features;
        d.gates = gates;
        d.cel = cel;
        d.shortcuts = shortcuts;
        d.lineage = lineage;
        d.classes = classes;
        d.taintRuleObjects = taintRuleObjects;
        d.taintRules = taintRules;
        d.slices = slices;
        d.slicesOnNode = slicesOnNode;
        d.slicesShared = slicesShared;
        d.counterSlicesOnNodes = counterSlicesOnNodes;
        d.slicesByPool = slicesByPool;
        d.poolStamps = poolStamps;
        d.nodeStamps = nodeStamps;
        d.sharedStamp = sharedStamp;
        d.counterStamp = counterStamp;
        d.base = base;
        d.allocations = allocations;
        d.claims = claims;
        d.claimsByPool = claimsByPool;
        return d;
    }

    /**
     * Builds the first version. Objects are taken as given and never modified; they must not be modified afterwards.
     *
     * @param cel the CEL environment (compiled expressions) to use, or null for a new one owned by this lineage
     */
    public static ClusterView build(
            FeatureGates gates,
            DeviceSelectorEnvironment cel,
            List<DeviceClass> classes,
            List<ResourceSlice> slices,
            List<DeviceTaintRule> taintRules,
            AllocatedState allocatedState,
            List<ResourceClaim> allocatedClaims) {
        Draft d = new Draft();
        d.features = EngineFeatures.from(gates);
        d.gates = gates;
        CelFeatures celFeatures = celFeatures(d.features);
        if (cel != null && !cel.features().equals(celFeatures)) {
            throw new IllegalArgumentException(
                    "the CEL environment has features " + cel.features() + ", the feature gates select " + celFeatures);
        }
        d.cel = cel != null ? cel : DeviceSelectorEnvironment.create(celFeatures);
        d.shortcuts = new SelectorShortcuts();
        d.lineage = new Lineage();
        for (DeviceClass c : classes) {
            String name = c.getMetadata() == null ? null : c.getMetadata().getName();
            if (name != null) {
                d.classes = d.classes.plus(name, c);
            }
        }
        for (DeviceTaintRule r : taintRules) {
            d.taintRuleObjects = d.taintRuleObjects.plus(ruleKey(r, d.taintRuleObjects), new Ordered<>(r, d.tick()));
        }
        d.taintRules = d.rebuildTaintRules();
        for (ResourceSlice s : slices) {
            String name = sliceName(s);
            String key = d.slices.containsKey(name) ? name + "\u0000" + d.lineage.clock.get() : name;
            d.addSlice(new SliceEntry(s, key, d.tick(), d.taintRules, d.lineage.quantities));
        }
        d.base = allocatedState;
        d.applyHoldings(holdingsOf(allocatedState), 1);
        ClusterView v = new ClusterView(d);
        for (ResourceClaim c : allocatedClaims) {
            v = v.withAllocatedClaim(c);
        }
        return v;
    }

    /** The CEL features the allocator's features select. */
    public static CelFeatures celFeatures(EngineFeatures features) {
        return new CelFeatures(features.consumableCapacity() || !features.stable(), features.listTypeAttributes());
    }

    /** The CEL environment of this lineage. */
    public DeviceSelectorEnvironment celEnvironment() {
        return cel;
    }

    private static String sliceName(ResourceSlice s) {
        return s.getMetadata() == null || s.getMetadata().getName() == null
                ? ""
                : s.getMetadata().getName();
    }

    private static String ruleKey(DeviceTaintRule r, PersistentMap<String, ?> existing) {
        String name = r.getMetadata() == null || r.getMetadata().getName() == null
                ? ""
                : r.getMetadata().getName();
        return existing.containsKey(name) ? name + "\u0000" + existing.size() : name;
    }

    private static List<Holding> holdingsOf(AllocatedState state) {
        List<Holding> out = new ArrayList<>();
        for (DeviceId id : state.allocatedDevices()) {
            out.add(new Holding(id, Holding.Kind.EXCLUSIVE, state.owners().get(id), null, null));
        }
        for (AllocatedState.SharedDevice s : state.sharedDevices()) {
            out.add(new Holding(s.device(), Holding.Kind.SHARE, null, s.shareId(), null));
        }
        state.aggregatedCapacity().forEach((id, q) -> out.add(new Holding(id, Holding.Kind.CAPACITY, null, null, q)));
        return out;
    }

    // Phase: updates. Each one changes the persistent maps along the paths of what changed and stamps the node and
    // pools involved, so that per-node views of other nodes stay valid.

    /** This version with the slice added, or replacing the slice of the same name. */
    public ClusterView withResourceSlice(ResourceSlice slice) {
        Objects.requireNonNull(slice, "slice");
        Draft d = draft();
        String key = sliceName(slice);
        SliceEntry old = slices.get(key);
        long seq = old == null ? d.tick() : old.seq;
        if (old != null) {
            d.removeSlice(old);
        }
        d.addSlice(new SliceEntry(slice, key, seq, taintRules, lineage.quantities));
        return new ClusterView(d);
    }

    public ClusterView withoutResourceSlice(String name) {
        SliceEntry old = slices.get(name);
        if (old == null) {
            return this;
        }
        Draft d = draft();
        d.removeSlice(old);
        return new ClusterView(d);
    }

    public ClusterView withDeviceClass(DeviceClass deviceClass) {
        String name =
                Objects.requireNonNull(deviceClass.getMetadata(), "metadata").getName();
        Draft d = draft();
        d.classes = d.classes.plus(Objects.requireNonNull(name, "metadata.name"), deviceClass);
        return new ClusterView(d);
    }

    public ClusterView withoutDeviceClass(String name) {
        if (!classes.containsKey(name)) {
            return this;
        }
        Draft d = draft();
        d.classes = d.classes.minus(name);
        return new ClusterView(d);
    }

    /**
     * This version with the rule added or replacing the rule of the same name. The devices it or its predecessor
     * can match get their taints again: the slices of the pool the selector names, or every slice without a pool.
     */
    public ClusterView withDeviceTaintRule(DeviceTaintRule rule) {
        String name = Objects.requireNonNull(rule.getMetadata(), "metadata").getName();
        Objects.requireNonNull(name, "metadata.name");
        Ordered<DeviceTaintRule> old = taintRuleObjects.get(name);
        Draft d = draft();
        d.taintRuleObjects = d.taintRuleObjects.plus(name, new Ordered<>(rule, old == null ? d.tick() : old.seq()));
        return retaint(d, old == null ? null : old.value(), rule);
    }

    public ClusterView withoutDeviceTaintRule(String name) {
        Ordered<DeviceTaintRule> old = taintRuleObjects.get(name);
        if (old == null) {
            return this;
        }
        Draft d = draft();
        d.taintRuleObjects = d.taintRuleObjects.minus(name);
        return retaint(d, old.value(), null);
    }

    private ClusterView retaint(Draft d, DeviceTaintRule before, DeviceTaintRule after) {
        d.taintRules = d.rebuildTaintRules();
        if (d.taintRules == TaintRules.NONE && taintRules == TaintRules.NONE) {
            return new ClusterView(d);
        }
        List<SliceEntry> affected = new ArrayList<>();
        SliceInfo.PoolId scopeBefore = poolScope(before);
        SliceInfo.PoolId scopeAfter = poolScope(after);
        if ((before != null && scopeBefore == null) || (after != null && scopeAfter == null)) {
            affected.addAll(slices.values());
        } else {
            for (SliceInfo.PoolId p : new SliceInfo.PoolId[] {scopeBefore, scopeAfter}) {
                PersistentMap<String, SliceEntry> pool = p == null ? null : slicesByPool.get(p);
                if (pool != null) {
                    affected.addAll(pool.values());
                }
            }
        }
        java.util.Set<String> done = new java.util.HashSet<>();
        for (SliceEntry e : affected) {
            if (done.add(e.key)) {
                d.removeSlice(e);
                d.addSlice(e.withTaintRules(d.taintRules));
            }
        }
        return new ClusterView(d);
    }

    /** The pool a rule's selector confines it to, or null when it can match devices of any pool. */
    private static SliceInfo.PoolId poolScope(DeviceTaintRule rule) {
        if (rule == null || rule.getSpec() == null) {
            return null;
        }
        DeviceTaintSelector s = rule.getSpec().getDeviceSelector();
        if (s == null
                || s.getDriver() == null
                || s.getDriver().isEmpty()
                || s.getPool() == null
                || s.getPool().isEmpty()) {
            return null;
        }
        return new SliceInfo.PoolId(s.getDriver(), s.getPool());
    }

    /**
     * This version with the devices of an allocated claim ({@code status.allocation}) in use, replacing an earlier
     * allocation of the claim with the same namespace and name.
     */
    public ClusterView withAllocatedClaim(ResourceClaim claim) {
        String key = Holding.claimKey(claim);
        Draft d = draft();
        Ordered<ClaimEntry> old = claims.get(key);
        if (old != null) {
            d.applyHoldings(old.value().holdings(), -1);
            d.indexByPool(key, old, false);
        }
        List<Holding> holdings = Holding.ofClaim(claim, features.consumableCapacity());
        d.applyHoldings(holdings, 1);
        Ordered<ClaimEntry> entry = new Ordered<>(new ClaimEntry(claim, holdings), old == null ? d.tick() : old.seq());
        d.claims = d.claims.plus(key, entry);
        d.indexByPool(key, entry, true);
        return new ClusterView(d);
    }

    /** This version without the allocation of the claim ({@code namespace/name}, or the name without a namespace). */
    public ClusterView withoutAllocatedClaim(String claimKey) {
        Ordered<ClaimEntry> old = claims.get(claimKey);
        if (old == null) {
            return this;
        }
        Draft d = draft();
        d.applyHoldings(old.value().holdings(), -1);
        d.claims = d.claims.minus(claimKey);
        d.indexByPool(claimKey, old, false);
        return new ClusterView(d);
    }

    // Phase: reading. Lookups of one device or pool, and the inputs in their given order for what-if copies.

    DeviceClass deviceClass(String name) {
        return classes.get(name);
    }

    PoolAllocations allocations(SliceInfo.PoolId pool) {
        PoolAllocations a = allocations.get(pool);
        return a == null ? PoolAllocations.EMPTY : a;
    }

    private PoolAllocations allocations(DeviceId id) {
        return allocations(new SliceInfo.PoolId(id.driver(), id.pool()));
    }

    /** Whether an earlier allocation holds the device exclusively. */
    boolean persistedExclusive(DeviceId id) {
        return allocations(id).exclusive(id.device());
    }

    String owner(DeviceId id) {
        return allocations(id).owner(id.device());
    }

    Map<String, BigDecimal> persistedCapacity(DeviceId id) {
        return allocations(id).capacity(id.device());
    }

    Map<String, KubeQuantity> persistedCapacityQuantities(DeviceId id) {
        return allocations(id).capacityQuantities(id.device());
    }

    public FeatureGates gates() {
        return gates;
    }

    public List<DeviceClass> deviceClasses() {
        return classes.values();
    }

    public List<ResourceSlice> resourceSlices() {
        List<SliceEntry> entries = slices.values();
        entries.sort(Comparator.comparingLong(e -> e.seq));
        List<ResourceSlice> out = new ArrayList<>(entries.size());
        for (SliceEntry e : entries) {
            out.add(e.raw);
        }
        return out;
    }

    public List<DeviceTaintRule> deviceTaintRules() {
        List<Ordered<DeviceTaintRule>> ordered = taintRuleObjects.values();
        ordered.sort(Comparator.comparingLong(Ordered::seq));
        List<DeviceTaintRule> out = new ArrayList<>(ordered.size());
        for (Ordered<DeviceTaintRule> o : ordered) {
            out.add(o.value());
        }
        return out;
    }

    /** The allocated claims in the order they were added. */
    public List<ResourceClaim> allocatedClaims() {
        List<Ordered<ClaimEntry>> ordered = claims.values();
        ordered.sort(Comparator.comparingLong(Ordered::seq));
        List<ResourceClaim> out = new ArrayList<>(ordered.size());
        for (Ordered<ClaimEntry> o : ordered) {
            out.add(o.value().claim());
        }
        return out;
    }

    /**
     * The allocated claims with a result in one of these pools, in the order they were added: what a view scoped to
     * these pools needs, found through the index instead of a pass over every allocated claim.
     */
    public List<ResourceClaim> allocatedClaimsHolding(java.util.Collection<SliceInfo.PoolId> pools) {
        Map<String, Ordered<ClaimEntry>> found = new HashMap<>();
        for (SliceInfo.PoolId pool : pools) {
            PersistentMap<String, Ordered<ClaimEntry>> held = claimsByPool.get(pool);
            if (held != null) {
                held.forEach(found::put);
            }
        }
        List<Ordered<ClaimEntry>> ordered = new ArrayList<>(found.values());
        ordered.sort(Comparator.comparingLong(Ordered::seq));
        List<ResourceClaim> out = new ArrayList<>(ordered.size());
        for (Ordered<ClaimEntry> o : ordered) {
            out.add(o.value().claim());
        }
        return out;
    }

    /** The pools a claim's allocation results name (results without a driver or pool name none). */
    private static java.util.Set<SliceInfo.PoolId> resultPools(ResourceClaim claim) {
        var status = claim.getStatus();
        var allocation = status == null ? null : status.getAllocation();
        var devices = allocation == null ? null : allocation.getDevices();
        if (devices == null || devices.getResults() == null) {
            return java.util.Set.of();
        }
        java.util.Set<SliceInfo.PoolId> out = new java.util.HashSet<>();
        for (var r : devices.getResults()) {
            if (r.getDriver() != null && r.getPool() != null) {
                out.add(new SliceInfo.PoolId(r.getDriver(), r.getPool()));
            }
        }
        return out;
    }

    /** The devices in use as one value: the base state given at build time plus every allocated claim. */
    public AllocatedState allocatedState() {
        if (claims.isEmpty()) {
            return base;
        }
        AllocatedState fromClaims = AllocatedState.fromClaims(allocatedClaims(), gates);
        java.util.Set<DeviceId> exclusive = new java.util.HashSet<>(base.allocatedDevices());
        exclusive.addAll(fromClaims.allocatedDevices());
        java.util.Set<AllocatedState.SharedDevice> shared = new java.util.HashSet<>(base.sharedDevices());
        shared.addAll(fromClaims.sharedDevices());
        Map<DeviceId, Map<String, KubeQuantity>> capacity = new HashMap<>();
        for (AllocatedState s : List.of(base, fromClaims)) {
            s.aggregatedCapacity().forEach((id, q) -> {
                Map<String, KubeQuantity> sum = capacity.computeIfAbsent(id, k -> new java.util.LinkedHashMap<>());
                q.forEach((name, v) -> sum.merge(name, v, KubeQuantity::add));
            });
        }
        Map<DeviceId, String> owners = new HashMap<>(fromClaims.owners());
        owners.putAll(base.owners());
        return new AllocatedState(exclusive, shared, capacity, owners);
    }

    // Phase: per-node views. Gathering pools and listing candidates is the per-node work that does not depend on the
    // claims or on devices in use; it is done once per node and reused while its stamps hold.

    NodeView nodeView(Node node) throws AllocationException {
        String nodeName = node.getMetadata() == null ? null : node.getMetadata().getName();
        String cacheKey = nodeName == null ? "" : nodeName;
        NodeView v = lineage.nodeViews.get(cacheKey);
        if (v != null && valid(v, node, nodeName)) {
            return v;
        }
        long nodeStamp = nodeStamp(nodeName);
        long shared = sharedStamp;
        long counters = counterStamp;
        PoolGatherer.Gathered g = PoolGatherer.gather(this, node);
        long[] stamps = new long[g.seen().size()];
        for (int i = 0; i < stamps.length; i++) {
            stamps[i] = poolStamp(g.seen().get(i));
        }
        List<DeviceInfo> c = new ArrayList<>();
        List<Pool> p = new ArrayList<>();
        for (Pool pool : g.pools()) {
            if (!pool.usable()) {
                continue;
            }
            for (SliceInfo s : pool.targeting()) {
                for (DeviceInfo d : s.devices()) {
                    c.add(d);
                    p.add(pool);
                }
            }
        }
        v = new NodeView(
                node,
                nodeStamp,
                shared,
                counters,
                g.seen().toArray(new SliceInfo.PoolId[0]),
                stamps,
                g.pools(),
                c.toArray(new DeviceInfo[0]),
                p.toArray(new Pool[0]),
                new ConcurrentHashMap<>(),
                new AtomicReference<>(),
                new ConcurrentHashMap<>(),
                new AtomicReference<>());
        lineage.nodeViews.put(cacheKey, v);
        return v;
    }

    private boolean valid(NodeView v, Node node, String nodeName) {
        if (v.nodeStamp != nodeStamp(nodeName)
                || v.sharedStamp != sharedStamp
                || (features.stable() && v.counterStamp != counterStamp)) {
            return false;
        }
        if (v.node != node && !sameSelectionInputs(v.node, node)) {
            return false;
        }
        for (int i = 0; i < v.pools.length; i++) {
            if (poolStamp(v.pools[i]) != v.stamps[i]) {
                return false;
            }
        }
        return true;
    }

    /** Node selection reads the node's name and labels only. */
    private static boolean sameSelectionInputs(Node a, Node b) {
        Map<String, String> la = a.getMetadata() == null || a.getMetadata().getLabels() == null
                ? Map.of()
                : a.getMetadata().getLabels();
        Map<String, String> lb = b.getMetadata() == null || b.getMetadata().getLabels() == null
                ? Map.of()
                : b.getMetadata().getLabels();
        return la.equals(lb);
    }

    private long nodeStamp(String nodeName) {
        Long s = nodeName == null ? null : nodeStamps.get(nodeName);
        return s == null ? 0 : s;
    }

    private long poolStamp(SliceInfo.PoolId pool) {
        Long s = poolStamps.get(pool);
        return s == null ? 0 : s;
    }

    /** Every slice of a pool, of any generation, in the given order. */
    List<SliceInfo> poolSlices(SliceInfo.PoolId pool) {
        PersistentMap<String, SliceEntry> entries = slicesByPool.get(pool);
        return entries == null ? List.of() : compiled(entries.values());
    }

    private static List<SliceInfo> compiled(List<SliceEntry> entries) {
        entries.sort(Comparator.comparingLong(e -> e.seq));
        List<SliceInfo> out = new ArrayList<>(entries.size());
        for (SliceEntry e : entries) {
            out.add(e.compiled());
        }
        return out;
    }

    /**
     * The slices upstream considers for a node, in its order: its own, then those without a node name. The stable
     * variant scans every slice in input order; slices of other nodes without shared counters can never match there,
     * so only the rest is returned, still in input order.
     */
    List<SliceInfo> slicesForNode(String nodeName) {
        PersistentMap<String, SliceEntry> own = nodeName == null ? null : slicesOnNode.get(nodeName);
        List<SliceEntry> ownEntries = own == null ? new ArrayList<>() : own.values();
        if (!features.stable()) {
            List<SliceInfo> out = compiled(ownEntries);
            out.addAll(compiled(slicesShared.values()));
            return out;
        }
        Map<String, SliceEntry> merged = new HashMap<>();
        for (SliceEntry e : ownEntries) {
            merged.put(e.key, e);
        }
        slicesShared.forEach(merged::put);
        counterSlicesOnNodes.forEach(merged::put);
        return compiled(new ArrayList<>(merged.values()));
    }
}
