package io.dra4j.testkit.simdiff;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Random cluster snapshots for the scheduler differential test, as {@code kind: List} objects: nodes with zone and
 * pool labels, taints (NoSchedule, PreferNoSchedule), cordons, allocatable cpu, memory, pods and a device-plugin
 * resource; node-local GPU slices (some partitionable through shared counters); device classes (one backing the
 * extended resource {@code example.com/gpu}); claim templates (one GPU, two in one NVLink island via matchAttribute,
 * a firstAvailable fallback, a model selector) and shared claims; pods with cpu and memory (some best-effort),
 * claims, the extended resource (served by the device plugin on nodes that have it, else through the class),
 * priorities (values and PriorityClasses), nodeSelector, required and preferred node affinity, tolerations, host
 * ports, container and init container images that nodes list in status.images (ImageLocality) or not, topology spread
 * constraints (DoNotSchedule and ScheduleAnyway), required and preferred pod (anti-)affinity; Services, ReplicaSets,
 * ReplicationControllers and StatefulSets (their pods named as the controller names them) whose selectors make
 * PodTopologySpread's default spreading; and a
 * few pods already bound. Fleets stay under 100 nodes, so every node is filtered as upstream does below
 * minFeasibleNodesToFind. Deterministic per (seed, index).
 */
public final class FleetGenerator {
    /** Features the generator can leave out (the differential test's {@code --without}). */
    public enum Feature {
        POD_AFFINITY,
        EXTENDED_RESOURCE,
        SHARED_CLAIMS,
        /** Preemption by higher-priority pods; without it every pod and class says {@code preemptionPolicy: Never}. */
        PREEMPTION,
        /** Pods in PodGroups with a gang policy (and pods naming a PodGroup that does not exist). */
        GANGS
    }

    /** How many gangs a snapshot gets. */
    public enum Gangs {
        /** A third of the snapshots get one. */
        SOME,
        /** Every snapshot gets one to three, of up to six members. */
        HEAVY;

        /** The command line's {@code --gangs} value. */
        static Gangs parse(String v) {
            try {
                return valueOf(v.toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--gangs takes some or heavy, not " + v);
            }
        }
    }

    /** Whether pods get copies of the same shape. */
    public enum Replicas {
        /** None: the snapshots of the differential test as they always were. */
        NONE,
        /**
         * Half of the pods without a controller are followed by one to four copies ({@code pod-P-copy-K}, the same
         * spec and creation time), as a controller's pods are alike: a shape that fails on every node fails again
         * for each copy, which takes the simulator's shortcut for a repeated failure when it is not traced.
         */
        SOME;

        /** The command line's {@code --replicas} value. */
        static Replicas parse(String v) {
            try {
                return valueOf(v.toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--replicas takes none or some, not " + v);
            }
        }
    }

    /** The command line's {@code --without} value: features, comma-separated, case and dashes as the user likes. */
    static java.util.Set<Feature> features(String list) {
        java.util.Set<Feature> out = java.util.EnumSet.noneOf(Feature.class);
        for (String f : list.split(",")) {
            try {
                out.add(Feature.valueOf(
                        f.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_')));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "unknown feature " + f + ", known: " + java.util.Arrays.toString(Feature.values()));
            }
        }
        return out;
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    static final String DRIVER = "gpu.example.com";
    static final String EXTENDED = "example.com/gpu";
    /** Images nodes report in status.images, with their sizes: below, across and above ImageLocality's thresholds. */
    private static final String[] IMAGES = {
        "registry.example.com/infer:latest",
        "registry.example.com/train:v2",
        "registry.example.com:5000/tools:1.0",
        "busybox:1.36"
    };

    private static final long[] IMAGE_SIZES = {800L << 20, 3L << 30, 120L << 20, 4L << 20};
    /** The controllers a pod can have, by the draw that picks one, and the prefixes of their names. */
    private static final String[] CONTROLLERS = {"ReplicaSet", "ReplicationController", "StatefulSet"};

    private static final String[] CONTROLLER_PREFIXES = {"rs-", "rc-", "ss-"};

    private final Random random;
    /** Draws for the gangs only, so that the rest of a snapshot stays as it is without them. */
    private final Random gangRandom;
    /** Draws for the copies only, likewise. */
    private final Random replicaRandom;

    private final Replicas replicas;

    private final Gangs gangs;
    private final java.util.Set<Feature> without;
    private final List<Object> items = new ArrayList<>();
    private final List<String> zones = new ArrayList<>();
    private final List<String> nodeNames = new ArrayList<>();
    private int sharedClaims;
    private int podCount;
    /**
     * Pods per controller ({@code ReplicaSet/rs-app-a}, {@code ReplicationController/rc-app-b},
     * {@code StatefulSet/ss-app-c}), in first-use order.
     */
    private final Map<String, Integer> owned = new LinkedHashMap<>();

    private FleetGenerator(long seed, int index, java.util.Set<Feature> without, Gangs gangs, Replicas replicas) {
        this.random = new Random(seed * 1_000_003L + index);
        this.gangRandom = new Random((seed * 1_000_003L + index) ^ 0x9E3779B97F4A7C15L);
        this.replicaRandom = new Random((seed * 1_000_003L + index) ^ 0x5851F42D4C957F2DL);
        this.without = without;
        this.gangs = gangs;
        this.replicas = replicas;
    }

    /** Snapshot {@code index} of the run with {@code seed}. */
    public static ObjectNode generate(long seed, int index) {
        return generate(seed, index, java.util.Set.of());
    }

    /**
     * The same snapshot without the given features (the random draws stay the same; the feature's objects or
     * fields are just not written).
     */
    public static ObjectNode generate(long seed, int index, java.util.Set<Feature> without) {
        return generate(seed, index, without, Gangs.SOME);
    }

    /** The same snapshot with as many gangs as {@code gangs} says (their draws are their own). */
    public static ObjectNode generate(long seed, int index, java.util.Set<Feature> without, Gangs gangs) {
        return generate(seed, index, without, gangs, Replicas.NONE);
    }

    /** The same snapshot, with copies of pods as {@code replicas} says (their draws are their own). */
    public static ObjectNode generate(
            long seed, int index, java.util.Set<Feature> without, Gangs gangs, Replicas replicas) {
        return new FleetGenerator(seed, index, without, gangs, replicas).snapshot();
    }

    private ObjectNode snapshot() {
        classes();
        templates();
        priorityClasses();
        int zoneCount = 1 + random.nextInt(3);
        for (int z = 0; z < zoneCount; z++) {
            zones.add("zone-" + (char) ('a' + z));
        }
        int nodes = 1 + random.nextInt(8);
        for (int n = 0; n < nodes; n++) {
            node(n);
        }
        sharedClaims = random.nextInt(3);
        if (without.contains(Feature.SHARED_CLAIMS)) {
            sharedClaims = 0;
        }
        for (int s = 0; s < sharedClaims; s++) {
            items.add(m(
                    "apiVersion",
                    "resource.k8s.io/v1",
                    "kind",
                    "ResourceClaim",
                    "metadata",
                    m("name", "shared-" + s, "namespace", "ns"),
                    "spec",
                    m(
                            "devices",
                            m(
                                    "requests",
                                    List.of(m(
                                            "name",
                                            "gpu",
                                            "exactly",
                                            m(
                                                    "deviceClassName",
                                                    "gpu",
                                                    "allocationMode",
                                                    "ExactCount",
                                                    "count",
                                                    1)))))));
        }
        int bound = random.nextInt(3);
        for (int b = 0; b < bound; b++) {
            boundPod(b);
        }
        // Services selecting an app's pods (PodTopologySpread's default spreading), and one selecting none.
        for (char app = 'a'; app <= 'c'; app++) {
            if (random.nextInt(3) == 0) {
                items.add(service("svc-app-" + app, m("app", "app-" + app)));
            }
        }
        if (random.nextInt(4) == 0) {
            items.add(service("svc-none", m("app", "app-a", "tier", "db")));
        }
        int pods = 2 + random.nextInt(16);
        for (int p = 0; p < pods; p++) {
            pod();
            if (replicas == Replicas.SOME) {
                copies();
            }
        }
        if (!without.contains(Feature.GANGS)) {
            int count = gangs == Gangs.HEAVY ? 1 + gangRandom.nextInt(3) : gangRandom.nextInt(3) == 0 ? 1 : 0;
            for (int g = 0; g < count; g++) {
                gang(g);
            }
        }
        // The controllers of the pods that name one, with as many replicas as they have pods (none to create).
        owned.forEach((owner, count) -> {
            String kind = owner.substring(0, owner.indexOf('/'));
            String name = owner.substring(owner.indexOf('/') + 1);
            String app = name.substring(3);
            Map<String, Object> template = m(
                    "metadata",
                    m("labels", m("app", app)),
                    "spec",
                    m("containers", List.of(m("name", "main", "image", "app"))));
            items.add(
                    kind.equals("ReplicationController")
                            ? m(
                                    "apiVersion",
                                    "v1",
                                    "kind",
                                    kind,
                                    "metadata",
                                    m("name", name, "namespace", "ns", "uid", "uid-" + name),
                                    "spec",
                                    m("replicas", count, "selector", m("app", app), "template", template))
                            : m(
                                    "apiVersion",
                                    "apps/v1",
                                    "kind",
                                    kind,
                                    "metadata",
                                    m("name", name, "namespace", "ns", "uid", "uid-" + name),
                                    "spec",
                                    m(
                                            "replicas",
                                            count,
                                            "selector",
                                            m("matchLabels", m("app", app)),
                                            "template",
                                            template)));
        });
        ObjectNode list = JSON.createObjectNode();
        list.put("apiVersion", "v1");
        list.put("kind", "List");
        ArrayNode array = list.putArray("items");
        for (Object item : items) {
            array.add(JSON.valueToTree(item));
        }
        return list;
    }

    private static Map<String, Object> service(String name, Map<String, Object> selector) {
        return m(
                "apiVersion",
                "v1",
                "kind",
                "Service",
                "metadata",
                m("name", name, "namespace", "ns"),
                "spec",
                m("selector", selector, "ports", List.of(m("port", 80))));
    }

    private void classes() {
        items.add(deviceClass("gpu", "gpu", null));
        items.add(deviceClass("part", "part", null));
        items.add(deviceClass("gpu-ext", "gpu", EXTENDED));
    }

    private static Map<String, Object> deviceClass(String name, String kind, String extendedResourceName) {
        Map<String, Object> spec = m(
                "selectors",
                List.of(m(
                        "cel",
                        m(
                                "expression",
                                "device.driver == \"" + DRIVER + "\" && device.attributes[\"" + DRIVER
                                        + "\"].kind == \"" + kind + "\""))));
        if (extendedResourceName != null) {
            spec.put("extendedResourceName", extendedResourceName);
        }
        return m("apiVersion", "resource.k8s.io/v1", "kind", "DeviceClass", "metadata", m("name", name), "spec", spec);
    }

    private void templates() {
        template("one", List.of(exactly("gpu", "gpu", 1)), null);
        template("two", List.of(exactly("gpu", "gpu", 2)), null);
        template(
                "island",
                List.of(exactly("gpus", "gpu", 2)),
                List.of(m("matchAttribute", DRIVER + "/island", "requests", List.of("gpus"))));
        template(
                "fallback",
                List.of(m(
                        "name",
                        "gpu",
                        "firstAvailable",
                        List.of(
                                m(
                                        "name",
                                        "h100",
                                        "deviceClassName",
                                        "gpu",
                                        "allocationMode",
                                        "ExactCount",
                                        "count",
                                        1,
                                        "selectors",
                                        List.of(m(
                                                "cel",
                                                m(
                                                        "expression",
                                                        "device.attributes[\"" + DRIVER + "\"].model == \"h100\"")))),
                                m(
                                        "name",
                                        "part",
                                        "deviceClassName",
                                        "part",
                                        "allocationMode",
                                        "ExactCount",
                                        "count",
                                        1)))),
                null);
        template("slice", List.of(exactly("part", "part", 1)), null);
    }

    private static Map<String, Object> exactly(String name, String className, int count) {
        return m(
                "name",
                name,
                "exactly",
                m("deviceClassName", className, "allocationMode", "ExactCount", "count", count));
    }

    private void template(String name, List<Object> requests, List<Object> constraints) {
        Map<String, Object> devices = m("requests", requests);
        if (constraints != null) {
            devices.put("constraints", constraints);
        }
        items.add(m(
                "apiVersion",
                "resource.k8s.io/v1",
                "kind",
                "ResourceClaimTemplate",
                "metadata",
                m("name", name, "namespace", "ns"),
                "spec",
                m("spec", m("devices", devices))));
    }

    private void priorityClasses() {
        Map<String, Object> high = m(
                "apiVersion",
                "scheduling.k8s.io/v1",
                "kind",
                "PriorityClass",
                "metadata",
                m("name", "high"),
                "value",
                1000);
        items.add(high);
        if (random.nextInt(4) == 0) {
            Map<String, Object> low = m(
                    "apiVersion",
                    "scheduling.k8s.io/v1",
                    "kind",
                    "PriorityClass",
                    "metadata",
                    m("name", "default-low"),
                    "value",
                    10,
                    "globalDefault",
                    true);
            items.add(low);
            neverPreempt(low);
        }
        neverPreempt(high);
    }

    /** Without {@link Feature#PREEMPTION}: the object (a PriorityClass or a pod spec) never preempts. */
    private void neverPreempt(Map<String, Object> object) {
        if (without.contains(Feature.PREEMPTION)) {
            object.put("preemptionPolicy", "Never");
        }
    }

    private void node(int n) {
        String name = "node-" + n;
        nodeNames.add(name);
        boolean gpuPool = random.nextInt(4) != 0;
        Map<String, Object> labels = m("kubernetes.io/hostname", name, "pool", gpuPool ? "gpu" : "cpu");
        if (random.nextInt(6) != 0) {
            labels.put("topology.kubernetes.io/zone", zones.get(random.nextInt(zones.size())));
        }
        Map<String, Object> allocatable = m(
                "cpu",
                String.valueOf(2 + random.nextInt(15)),
                "memory",
                (8 + random.nextInt(57)) + "Gi",
                "pods",
                String.valueOf(2 + random.nextInt(10)));
        if (random.nextInt(4) == 0) {
            allocatable.put(EXTENDED, String.valueOf(random.nextInt(4)));
        }
        Map<String, Object> spec = m();
        List<Object> taints = new ArrayList<>();
        if (random.nextInt(5) == 0) {
            taints.add(m("key", "dedicated", "value", "gpu", "effect", "NoSchedule"));
        }
        if (random.nextInt(4) == 0) {
            taints.add(m("key", "spot", "value", "true", "effect", "PreferNoSchedule"));
        }
        if (!taints.isEmpty()) {
            spec.put("taints", taints);
        }
        if (random.nextInt(12) == 0) {
            spec.put("unschedulable", true);
        }
        Map<String, Object> status = m("allocatable", allocatable, "capacity", allocatable);
        List<Object> images = new ArrayList<>();
        for (int i = 0; i < IMAGES.length; i++) {
            if (random.nextInt(3) == 0) {
                images.add(m(
                        "names",
                        List.of(IMAGES[i], IMAGES[i].replaceAll(":[^/]*$", "") + "@sha256:" + i),
                        "sizeBytes",
                        IMAGE_SIZES[i]));
            }
        }
        if (!images.isEmpty()) {
            status.put("images", images);
        }
        items.add(m(
                "apiVersion",
                "v1",
                "kind",
                "Node",
                "metadata",
                m("name", name, "labels", labels),
                "spec",
                spec,
                "status",
                status));
        if (gpuPool) {
            slices(name);
        }
    }

    private void slices(String node) {
        int gpus = 1 + random.nextInt(4);
        boolean partitionable = random.nextInt(3) == 0;
        String model = random.nextBoolean() ? "h100" : "a100";
        List<Object> devices = new ArrayList<>();
        List<Object> counters = new ArrayList<>();
        for (int g = 0; g < gpus; g++) {
            Map<String, Object> attributes =
                    m("kind", m("string", "gpu"), "island", m("int", g % 2), "model", m("string", model));
            Map<String, Object> device = m("name", "gpu-" + g, "attributes", attributes);
            if (partitionable) {
                device.put(
                        "consumesCounters",
                        List.of(m("counterSet", "mem-" + g, "counters", m("memory", m("value", "4Gi")))));
                counters.add(m("name", "mem-" + g, "counters", m("memory", m("value", "4Gi"))));
            }
            devices.add(device);
            if (partitionable) {
                for (int part = 0; part < 2; part++) {
                    devices.add(m(
                            "name",
                            "gpu-" + g + "-part-" + part,
                            "attributes",
                            m("kind", m("string", "part"), "island", m("int", g % 2), "model", m("string", model)),
                            "consumesCounters",
                            List.of(m("counterSet", "mem-" + g, "counters", m("memory", m("value", "2Gi"))))));
                }
            }
        }
        int sliceCount = partitionable ? 2 : 1;
        items.add(m(
                "apiVersion",
                "resource.k8s.io/v1",
                "kind",
                "ResourceSlice",
                "metadata",
                m("name", node + "-gpus"),
                "spec",
                m(
                        "driver",
                        DRIVER,
                        "nodeName",
                        node,
                        "pool",
                        m("name", node, "generation", 1, "resourceSliceCount", sliceCount),
                        "devices",
                        devices)));
        if (partitionable) {
            items.add(m(
                    "apiVersion",
                    "resource.k8s.io/v1",
                    "kind",
                    "ResourceSlice",
                    "metadata",
                    m("name", node + "-counters"),
                    "spec",
                    m(
                            "driver",
                            DRIVER,
                            "nodeName",
                            node,
                            "pool",
                            m("name", node, "generation", 1, "resourceSliceCount", 2),
                            "sharedCounters",
                            counters)));
        }
    }

    private void boundPod(int b) {
        String node = nodeNames.get(random.nextInt(nodeNames.size()));
        items.add(m(
                "apiVersion",
                "v1",
                "kind",
                "Pod",
                "metadata",
                m(
                        "name",
                        "running-" + b,
                        "namespace",
                        "ns",
                        "labels",
                        m("app", app()),
                        "creationTimestamp",
                        "2026-01-01T00:00:00Z"),
                "spec",
                m(
                        "nodeName",
                        node,
                        "priority",
                        0,
                        "containers",
                        List.of(m(
                                "name",
                                "main",
                                "image",
                                "app",
                                "resources",
                                m("requests", m("cpu", String.valueOf(1 + random.nextInt(2)), "memory", "1Gi")))))));
    }

    private String app() {
        return "app-" + (char) ('a' + random.nextInt(3));
    }

    private void pod() {
        int p = podCount++;
        String app = app();
        Map<String, Object> spec = m();
        neverPreempt(spec);
        // Priority: a value, a class, or none (the global default class when there is one).
        int prio = random.nextInt(4);
        if (prio == 0) {
            spec.put("priority", 100);
        } else if (prio == 1) {
            spec.put("priorityClassName", "high");
        }
        Map<String, Object> requests = m();
        if (random.nextInt(6) != 0) {
            requests.put(
                    "cpu",
                    random.nextInt(3) == 0
                            ? (250 * (1 + random.nextInt(4))) + "m"
                            : String.valueOf(1 + random.nextInt(4)));
            requests.put("memory", (1 + random.nextInt(16)) + "Gi");
        }
        boolean extended = random.nextInt(6) == 0 && !without.contains(Feature.EXTENDED_RESOURCE);
        if (extended) {
            requests.put(EXTENDED, "1");
        }
        // ImageLocality: an image some nodes have (with or without its tag, ":latest" implied), or one none has.
        int image = random.nextInt(IMAGES.length + 2);
        Map<String, Object> container = m(
                "name",
                "main",
                "image",
                image < IMAGES.length
                        ? IMAGES[image]
                        : image == IMAGES.length ? IMAGES[0].replace(":latest", "") : "app");
        if (random.nextInt(6) == 0) {
            spec.put("initContainers", List.of(m("name", "init", "image", IMAGES[random.nextInt(IMAGES.length)])));
        }
        if (!requests.isEmpty()) {
            Map<String, Object> resources = m("requests", requests);
            if (extended) {
                // The API server wants a limit equal to the request for a resource that cannot be overcommitted.
                resources.put("limits", m(EXTENDED, "1"));
            }
            container.put("resources", resources);
        }
        if (random.nextInt(10) == 0) {
            container.put("ports", List.of(m("containerPort", 8080, "hostPort", 8080, "protocol", "TCP")));
        }
        spec.put("containers", List.of(container));
        int claim = random.nextInt(8);
        String[] templates = {"one", "two", "island", "fallback", "slice"};
        if (claim < 4) {
            spec.put(
                    "resourceClaims",
                    List.of(m(
                            "name", "gpus", "resourceClaimTemplateName", templates[random.nextInt(templates.length)])));
        } else if (claim == 4 && sharedClaims > 0) {
            spec.put(
                    "resourceClaims",
                    List.of(m("name", "gpus", "resourceClaimName", "shared-" + random.nextInt(sharedClaims))));
        }
        if (random.nextInt(5) == 0) {
            spec.put("nodeSelector", m("pool", "gpu"));
        }
        Map<String, Object> affinity = m();
        Map<String, Object> nodeAffinity = m();
        if (random.nextInt(6) == 0) {
            nodeAffinity.put(
                    "requiredDuringSchedulingIgnoredDuringExecution",
                    m(
                            "nodeSelectorTerms",
                            List.of(m(
                                    "matchExpressions",
                                    List.of(m(
                                            "key",
                                            "topology.kubernetes.io/zone",
                                            "operator",
                                            "In",
                                            "values",
                                            List.of(zones.get(random.nextInt(zones.size())))))))));
        }
        if (random.nextInt(4) == 0) {
            nodeAffinity.put(
                    "preferredDuringSchedulingIgnoredDuringExecution",
                    List.of(m(
                            "weight",
                            1 + random.nextInt(100),
                            "preference",
                            m(
                                    "matchExpressions",
                                    List.of(m(
                                            "key",
                                            "topology.kubernetes.io/zone",
                                            "operator",
                                            "In",
                                            "values",
                                            List.of(zones.get(random.nextInt(zones.size())))))))));
        }
        if (!nodeAffinity.isEmpty()) {
            affinity.put("nodeAffinity", nodeAffinity);
        }
        if (random.nextInt(8) == 0) {
            affinity.put(
                    "podAntiAffinity",
                    m(
                            "requiredDuringSchedulingIgnoredDuringExecution",
                            List.of(m(
                                    "labelSelector",
                                    m("matchLabels", m("app", app)),
                                    "topologyKey",
                                    "kubernetes.io/hostname"))));
        } else if (random.nextInt(12) == 0) {
            affinity.put(
                    "podAffinity",
                    m(
                            "requiredDuringSchedulingIgnoredDuringExecution",
                            List.of(m(
                                    "labelSelector",
                                    m("matchLabels", m("app", app())),
                                    "topologyKey",
                                    "topology.kubernetes.io/zone"))));
        }
        // Preferred terms (InterPodAffinity's score): towards or away from an app, per zone or per node.
        if (random.nextInt(5) == 0) {
            boolean anti = random.nextBoolean();
            Map<String, Object> term = m(
                    "weight",
                    1 + random.nextInt(100),
                    "podAffinityTerm",
                    m(
                            "labelSelector",
                            m("matchLabels", m("app", app())),
                            "topologyKey",
                            random.nextBoolean() ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname"));
            @SuppressWarnings("unchecked")
            Map<String, Object> kind =
                    (Map<String, Object>) affinity.computeIfAbsent(anti ? "podAntiAffinity" : "podAffinity", k -> m());
            kind.put("preferredDuringSchedulingIgnoredDuringExecution", List.of(term));
        }
        if (without.contains(Feature.POD_AFFINITY)) {
            affinity.remove("podAffinity");
            affinity.remove("podAntiAffinity");
        }
        if (!affinity.isEmpty()) {
            spec.put("affinity", affinity);
        }
        List<Object> tolerations = new ArrayList<>();
        if (random.nextInt(3) == 0) {
            tolerations.add(m("key", "dedicated", "operator", "Equal", "value", "gpu", "effect", "NoSchedule"));
        }
        if (random.nextInt(5) == 0) {
            tolerations.add(m("key", "spot", "operator", "Exists"));
        }
        if (random.nextInt(20) == 0) {
            tolerations.add(m("key", "node.kubernetes.io/unschedulable", "operator", "Exists", "effect", "NoSchedule"));
        }
        if (!tolerations.isEmpty()) {
            spec.put("tolerations", tolerations);
        }
        if (random.nextInt(5) == 0) {
            boolean zone = random.nextBoolean();
            spec.put(
                    "topologySpreadConstraints",
                    List.of(m(
                            "maxSkew",
                            1 + random.nextInt(2),
                            "topologyKey",
                            zone ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname",
                            "whenUnsatisfiable",
                            random.nextBoolean() ? "DoNotSchedule" : "ScheduleAnyway",
                            "labelSelector",
                            m("matchLabels", m("app", app)))));
        }
        String created = String.format("2026-01-01T00:%02d:%02dZ", 1 + random.nextInt(59), random.nextInt(60));
        Map<String, Object> labels = m("app", app);
        Map<String, Object> metadata =
                m("name", "pod-" + p, "namespace", "ns", "labels", labels, "creationTimestamp", created);
        // A controller (its selector joins the default spreading): a ReplicaSet, a ReplicationController, a
        // StatefulSet or none. Only without preemption: dra4j re-creates a preempted owned pod as its controller
        // does, and the scheduler oracle runs no workload controllers, so the traces would part at the replacement
        // (README "Known gaps").
        int controller = random.nextInt(8);
        if (controller < 3 && without.contains(Feature.PREEMPTION)) {
            String kind = CONTROLLERS[controller];
            String name = CONTROLLER_PREFIXES[controller] + app;
            int ordinal = owned.getOrDefault(kind + "/" + name, 0);
            owned.put(kind + "/" + name, ordinal + 1);
            metadata.put(
                    "ownerReferences",
                    List.of(m(
                            "apiVersion",
                            kind.equals("ReplicationController") ? "v1" : "apps/v1",
                            "kind",
                            kind,
                            "name",
                            name,
                            "uid",
                            "uid-" + name,
                            "controller",
                            true)));
            if (kind.equals("StatefulSet")) {
                // Named, labelled and given a hostname as the StatefulSet controller does, ordinals in creation order.
                String pod = name + "-" + ordinal;
                metadata.put("name", pod);
                labels.put("statefulset.kubernetes.io/pod-name", pod);
                labels.put("apps.kubernetes.io/pod-index", Integer.toString(ordinal));
                spec.put("hostname", pod);
            }
        }
        items.add(m("apiVersion", "v1", "kind", "Pod", "metadata", metadata, "spec", spec));
    }

    /** One to four copies of the pod just generated, for half of the pods without a controller. */
    @SuppressWarnings("unchecked")
    private void copies() {
        Map<String, Object> original = (Map<String, Object>) items.get(items.size() - 1);
        Map<String, Object> metadata = (Map<String, Object>) original.get("metadata");
        if (metadata.containsKey("ownerReferences") || replicaRandom.nextInt(2) != 0) {
            return;
        }
        int n = 1 + replicaRandom.nextInt(4);
        for (int k = 1; k <= n; k++) {
            Map<String, Object> copy = JSON.convertValue(original, Map.class);
            ((Map<String, Object>) copy.get("metadata")).put("name", metadata.get("name") + "-copy-" + k);
            items.add(copy);
        }
    }

    /**
     * A gang: a PodGroup {@code gang-G} with a gang policy and its members {@code gang-G-I}, alike (cpu, memory, maybe a
     * claim from a template), as a Job's or JobSet's pods are. minCount is at most the members (some gangs fit, some
     * cannot all fit), or one more than them (PreEnqueue holds them); for one gang in six the PodGroup is missing, for
     * one in six it names no priority class, so that its priority is not its members' (validatePodGroup fails it), and
     * one in six has a basic policy instead (one pod group cycle all the same, not a gang).
     * PodGroup and members have the highest priority class and the members never preempt: they are no victims
     * (with GenericWorkload DefaultPreemption weighs a member at its PodGroup's priority and takes the PodGroup's
     * members as one victim) and need no PodGroupPostFilter (workload-aware preemption is not simulated).
     */
    private void gang(int g) {
        String group = "gang-" + g;
        int size = 1 + gangRandom.nextInt(gangs == Gangs.HEAVY ? 6 : 4);
        int kind = gangRandom.nextInt(6);
        int minCount = kind == 1 ? size + 1 : 1 + gangRandom.nextInt(size);
        if (kind != 0) {
            Map<String, Object> spec =
                    m("schedulingPolicy", kind == 3 ? m("basic", m()) : m("gang", m("minCount", minCount)));
            if (kind != 2) {
                spec.put("priorityClassName", "high");
            }
            items.add(m(
                    "apiVersion",
                    "scheduling.k8s.io/v1beta1",
                    "kind",
                    "PodGroup",
                    "metadata",
                    m("name", group, "namespace", "ns"),
                    "spec",
                    spec));
        }
        String cpu = gangRandom.nextInt(3) == 0 ? "500m" : String.valueOf(1 + gangRandom.nextInt(4));
        String memory = (1 + gangRandom.nextInt(8)) + "Gi";
        int claim = gangRandom.nextInt(4);
        String[] templates = {"one", "slice"};
        for (int i = 0; i < size; i++) {
            Map<String, Object> spec = m(
                    "priorityClassName",
                    "high",
                    "preemptionPolicy",
                    "Never",
                    "schedulingGroup",
                    m("podGroupName", group),
                    "containers",
                    List.of(m(
                            "name",
                            "main",
                            "image",
                            "app",
                            "resources",
                            m("requests", m("cpu", cpu, "memory", memory)))));
            if (claim < templates.length) {
                spec.put("resourceClaims", List.of(m("name", "gpus", "resourceClaimTemplateName", templates[claim])));
            }
            String created =
                    String.format("2026-01-01T00:%02d:%02dZ", 1 + gangRandom.nextInt(59), gangRandom.nextInt(60));
            items.add(m(
                    "apiVersion",
                    "v1",
                    "kind",
                    "Pod",
                    "metadata",
                    m(
                            "name",
                            group + "-" + i,
                            "namespace",
                            "ns",
                            "labels",
                            m("app", "gang"),
                            "creationTimestamp",
                            created),
                    "spec",
                    spec));
        }
    }

    /** An insertion-ordered map from alternating keys and values. */
    static Map<String, Object> m(Object... kv) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            out.put((String) kv[i], kv[i + 1]);
        }
        return out;
    }
}
