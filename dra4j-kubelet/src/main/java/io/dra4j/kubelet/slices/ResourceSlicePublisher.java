package io.dra4j.kubelet.slices;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePoolBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Publishes one driver's devices on one node as ResourceSlices of one pool named after the node, owned by the Node
 * (so they go when the Node goes). Slices are cut by {@link SliceLayout}; names start with the slice's index in hex
 * ({@code 00000-<driver>-<node>-} plus a generated suffix), which is how existing slices are matched to desired ones.
 * A sync deletes obsolete slices, then updates changed ones, then creates missing ones. The pool generation stays
 * when at most one slice is updated and none created, else it goes up by one for every slice of the pool. Changes
 * made behind the publisher's back (the kubelet deleting the node's slices when it starts, an admin) are seen
 * through a watch and repaired after {@code syncDelay}. When the API server stores less than was sent (a feature
 * gate is off), the error handler is told which fields were dropped and the stored form is taken as the desired
 * one, so that the publisher does not rewrite the slice forever.
 */
public final class ResourceSlicePublisher implements AutoCloseable {
    /** Receives publishing errors; they are all recoverable: the next sync tries again. */
    @FunctionalInterface
    public interface ErrorHandler {
        void error(String message, Throwable cause);
    }

    private final KubernetesClient client;
    private final String driver;
    private final String node;
    private final ErrorHandler errors;
    private final long syncDelayMillis;
    private final boolean fieldSelectors;
    private final ScheduledExecutorService executor;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Object lock = new Object();
    private List<SliceLayout.Slice> desired = List.of();
    private final Map<Integer, JsonNode> adopted = new HashMap<>();
    private String nodeUid;
    private ScheduledFuture<?> pending;
    private Watch watch;
    private int syncs;

    /**
     * A publisher that repairs external changes {@code syncDelayMillis} after it sees them. With
     * {@code fieldSelectors} the API server filters slices by {@code spec.driver} and {@code spec.nodeName} (a real
     * kube-apiserver does); without, all slices are listed and filtered here (for servers or test doubles that do
     * not know these field selectors).
     */
    public ResourceSlicePublisher(
            KubernetesClient client,
            String driver,
            String node,
            ErrorHandler errors,
            long syncDelayMillis,
            boolean fieldSelectors) {
        this.fieldSelectors = fieldSelectors;
        this.client = Objects.requireNonNull(client);
        this.driver = driver;
        this.node = node;
        this.errors = errors;
        this.syncDelayMillis = syncDelayMillis;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "resourceslice-publisher-" + driver);
            t.setDaemon(true);
            return t;
        });
    }

    /** Sets the node's devices and shared counters and syncs now; invalid content goes to the error handler. */
    public void publish(List<Device> devices, List<CounterSet> counters) {
        List<String> problems = SliceLayout.validate(devices, counters);
        if (!problems.isEmpty()) {
            errors.error(
                    "ResourceSlices of driver " + driver + " on node " + node + " not published: "
                            + String.join("; ", problems),
                    null);
            return;
        }
        synchronized (lock) {
            desired = SliceLayout.split(devices, counters);
            adopted.clear();
        }
        startWatch();
        runSync();
    }

    /** How many syncs ran, for tests and metrics. */
    public int syncs() {
        synchronized (lock) {
            return syncs;
        }
    }

    private void startWatch() {
        synchronized (lock) {
            if (watch != null) {
                return;
            }
            watch = client.resources(ResourceSlice.class).watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, ResourceSlice slice) {
                    if (mine(slice)) {
                        scheduleSync();
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                    synchronized (lock) {
                        watch = null;
                    }
                    errors.error("watch of ResourceSlices closed; restarting it", cause);
                    executor.schedule(ResourceSlicePublisher.this::startWatch, syncDelayMillis, TimeUnit.MILLISECONDS);
                }
            });
        }
    }

    private void scheduleSync() {
        synchronized (lock) {
            if (pending == null || pending.isDone()) {
                pending = executor.schedule(this::runSync, syncDelayMillis, TimeUnit.MILLISECONDS);
            }
        }
    }

    private boolean mine(ResourceSlice s) {
        ResourceSliceSpec spec = s.getSpec();
        return spec != null && driver.equals(spec.getDriver()) && node.equals(spec.getNodeName());
    }

    private void runSync() {
        try {
            sync();
        } catch (KubernetesClientException e) {
            errors.error("sync of ResourceSlices of driver " + driver + " on node " + node + " failed", e);
            scheduleSync();
        } catch (RuntimeException e) {
            errors.error("sync of ResourceSlices of driver " + driver + " on node " + node + " failed", e);
        }
    }

    /** One sync of the pool; see the class comment for the order of writes and the generation rule. */
    public void sync() {
        synchronized (lock) {
            syncs++;
            // Read on every sync: a Node deleted and created again has a new UID, and slices owned by the old one
            // would be collected by the garbage collector as soon as they are written.
            Node n = client.nodes().withName(node).get();
            if (n == null) {
                throw new KubernetesClientException("node " + node + " not found: slices are owned by their Node");
            }
            nodeUid = n.getMetadata().getUid();
            var all = client.resources(ResourceSlice.class);
            List<ResourceSlice> existing = (fieldSelectors
                            ? all.withField("spec.driver", driver)
                                    .withField("spec.nodeName", node)
                                    .list()
                            : all.list())
                    .getItems().stream()
                            .filter(this::mine)
                            .sorted(Comparator.comparing(s -> s.getMetadata().getName()))
                            .toList();
            long generation = existing.stream()
                    .mapToLong(s -> s.getSpec().getPool().getGeneration())
                    .max()
                    .orElse(0);
            Map<Integer, ResourceSlice> byIndex = new HashMap<>();
            List<ResourceSlice> obsolete = new ArrayList<>();
            for (ResourceSlice s : existing) {
                int index = indexOf(s.getMetadata().getName());
                if (index < 0
                        || index >= desired.size()
                        || byIndex.containsKey(index)
                        || !node.equals(s.getSpec().getPool().getName())
                        || s.getSpec().getPool().getGeneration() < generation) {
                    obsolete.add(s);
                } else {
                    byIndex.put(index, s);
                }
            }
            List<Integer> changed = new ArrayList<>();
            List<Integer> missing = new ArrayList<>();
            for (int i = 0; i < desired.size(); i++) {
                ResourceSlice s = byIndex.get(i);
                if (s == null) {
                    missing.add(i);
                } else if (!sameContent(s.getSpec(), i)
                        || !ownerReferences().equals(s.getMetadata().getOwnerReferences())
                        || s.getSpec().getPool().getResourceSliceCount() != desired.size()) {
                    changed.add(i);
                }
            }
            boolean bump = existing.isEmpty() || !missing.isEmpty() || changed.size() > 1 || !obsolete.isEmpty();
            long gen = bump ? generation + 1 : generation;
            for (ResourceSlice s : obsolete) {
                try {
                    client.resource(s)
                            .lockResourceVersion(s.getMetadata().getResourceVersion())
                            .delete();
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 404) {
                        throw e;
                    }
                }
            }
            for (int i = 0; i < desired.size(); i++) {
                ResourceSlice s = byIndex.get(i);
                if (s == null || (!bump && !changed.contains(i))) {
                    continue;
                }
                ResourceSlice next = new ResourceSliceBuilder(s)
                        .editMetadata()
                        .withOwnerReferences(ownerReferences())
                        .endMetadata()
                        .withSpec(desiredSpec(i, gen))
                        .build();
                checkStored(i, next, client.resource(next).update());
            }
            for (int i : missing) {
                ResourceSlice created = client.resource(new ResourceSliceBuilder()
                                .withMetadata(meta(i))
                                .withSpec(desiredSpec(i, gen))
                                .build())
                        .create();
                checkStored(
                        i,
                        new ResourceSliceBuilder().withSpec(desiredSpec(i, gen)).build(),
                        created);
            }
        }
    }

    static int indexOf(String name) {
        if (name == null || name.length() < 6 || name.charAt(5) != '-') {
            return -1;
        }
        try {
            return Integer.parseInt(name.substring(0, 5), 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private ObjectMeta meta(int index) {
        String prefix = String.format("%05x-%s-%s-", index, driver, node);
        ObjectMeta m = new ObjectMeta();
        m.setGenerateName(prefix.length() > 200 ? prefix.substring(0, 200) : prefix);
        m.setOwnerReferences(ownerReferences());
        return m;
    }

    /** The Node as controller owner, as upstream's helper sets it: its slices go when the Node goes. */
    private List<OwnerReference> ownerReferences() {
        return List.of(new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .withUid(nodeUid)
                .withController(true)
                .build());
    }

    private ResourceSliceSpec desiredSpec(int index, long generation) {
        SliceLayout.Slice slice = desired.get(index);
        ResourceSliceSpec spec = new ResourceSliceSpec();
        spec.setDriver(driver);
        spec.setNodeName(node);
        spec.setPool(new ResourcePoolBuilder()
                .withName(node)
                .withGeneration(generation)
                .withResourceSliceCount((long) desired.size())
                .build());
        if (!slice.devices().isEmpty() || slice.sharedCounters().isEmpty()) {
            spec.setDevices(slice.devices());
        }
        if (!slice.sharedCounters().isEmpty()) {
            spec.setSharedCounters(slice.sharedCounters());
        }
        return spec;
    }

    private boolean sameContent(ResourceSliceSpec have, int index) {
        JsonNode a = content(have);
        return a.equals(content(desiredSpec(index, 0))) || a.equals(adopted.get(index));
    }

    private JsonNode content(ResourceSliceSpec spec) {
        tools.jackson.databind.node.ObjectNode n = (tools.jackson.databind.node.ObjectNode)
                json.readTree(client.getKubernetesSerialization().asJson(spec));
        n.remove("pool");
        if (n.path("devices").isArray() && n.path("devices").isEmpty()) {
            n.remove("devices");
        }
        return n;
    }

    /** Reports fields the API server dropped and adopts the stored form so the next sync does not loop. */
    private void checkStored(int index, ResourceSlice sent, ResourceSlice stored) {
        if (stored == null || stored.getSpec() == null) {
            return;
        }
        List<String> dropped = new ArrayList<>();
        droppedFields("spec", content(sent.getSpec()), content(stored.getSpec()), dropped);
        if (!dropped.isEmpty()) {
            adopted.put(index, content(stored.getSpec()));
            errors.error(
                    "the API server dropped fields of ResourceSlice "
                            + stored.getMetadata().getName() + ": "
                            + String.join(", ", dropped) + " (is a DRA feature gate off on the API server? taints need "
                            + "DRADeviceTaints, counters DRAPartitionableDevices, binding conditions DRADeviceBindingConditions, "
                            + "allowMultipleAllocations and requestPolicy DRAConsumableCapacity)",
                    null);
        }
    }

    private static void droppedFields(String path, JsonNode sent, JsonNode stored, List<String> out) {
        if (sent.isObject()) {
            for (var e : sent.properties()) {
                JsonNode s = stored == null ? null : stored.get(e.getKey());
                if (s == null || s.isNull()) {
                    out.add(path + "." + e.getKey());
                } else {
                    droppedFields(path + "." + e.getKey(), e.getValue(), s, out);
                }
            }
        } else if (sent.isArray() && stored != null && stored.isArray()) {
            for (int i = 0; i < sent.size() && i < stored.size(); i++) {
                droppedFields(path + "[" + i + "]", sent.get(i), stored.get(i), out);
            }
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (watch != null) {
                watch.close();
                watch = null;
            }
        }
        executor.shutdownNow();
    }
}
