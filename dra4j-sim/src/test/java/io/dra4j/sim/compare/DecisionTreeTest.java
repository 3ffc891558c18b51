package io.dra4j.sim.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The decision tree on generated workloads: each workload gets a random set of features, and the answer for every
 * question must name exactly the workloads the generator gave a feature that needs it.
 */
class DecisionTreeTest {
    private static final FeatureGates GATES = FeatureGates.defaults(KubernetesVersion.V1_37);
    /** Node-local GPUs (no counters); a partitionable GPU whose whole device and MIG partitions draw on counters. */
    private static final String NODE = """
            apiVersion: v1
            kind: Node
            metadata: {name: %1$s, labels: {kubernetes.io/hostname: %1$s}}
            status:
              allocatable: {cpu: "64", memory: 256Gi, pods: "110"}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: %1$s-gpus}
            spec:
              driver: gpu.example.com
              nodeName: %1$s
              pool: {name: %1$s, generation: 1, resourceSliceCount: 1}
              sharedCounters:
              - name: gpu-9
                counters: {memory: {value: 40Gi}}
              devices:
              - {name: gpu-0, attributes: {type: {string: gpu}, model: {string: big}}}
              - {name: gpu-1, attributes: {type: {string: gpu}, model: {string: small}}}
              - name: gpu-9
                attributes: {type: {string: gpu}, model: {string: big}}
                consumesCounters: [{counterSet: gpu-9, counters: {memory: {value: 40Gi}}}]
              - name: gpu-9-mig-0
                attributes: {type: {string: mig}, model: {string: big}}
                consumesCounters: [{counterSet: gpu-9, counters: {memory: {value: 10Gi}}}]
              - name: gpu-9-mig-1
                attributes: {type: {string: mig}, model: {string: big}}
                consumesCounters: [{counterSet: gpu-9, counters: {memory: {value: 10Gi}}}]
            """;

    private static final String FABRIC = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: fabric}
            spec:
              driver: net.example.com
              allNodes: true
              pool: {name: fabric, generation: 1, resourceSliceCount: 1}
              devices:
              - {name: nic-0, attributes: {model: {string: big}}}
              - {name: nic-1, attributes: {model: {string: small}}}
            """;
    private static final String CLASSES = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: gpu}
            spec:
              selectors:
              - cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].type == "gpu"'}
            ---
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: mig}
            spec:
              selectors:
              - cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].type == "mig"'}
            ---
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: net}
            spec:
              selectors:
              - cel: {expression: 'device.driver == "net.example.com"'}
            """;

    private enum Kind {
        POD,
        JOB,
        SHARED_DEPLOYMENT,
        CLAIM_ONLY
    }

    private enum Feature {
        SELECTOR,
        CAPACITY,
        ADMIN,
        CONSTRAINT,
        FIRST_AVAILABLE
    }

    @Test
    void everyAnswerNamesExactlyTheWorkloadsThatUseWhatItAsksAbout() {
        long master = new Random().nextLong();
        Random seeds = new Random(master);
        Map<DecisionTree.Need, Integer> yes = new EnumMap<>(DecisionTree.Need.class);
        for (int example = 0; example < 25; example++) {
            long seed = seeds.nextLong();
            Random rnd = new Random(seed);
            List<String> docs = new ArrayList<>(List.of(CLASSES, NODE.formatted("n1"), FABRIC));
            Map<DecisionTree.Need, Set<String>> expected = new EnumMap<>(DecisionTree.Need.class);
            for (DecisionTree.Need n : DecisionTree.Need.values()) {
                expected.put(n, new TreeSet<>());
            }
            int workloads = 1 + rnd.nextInt(6);
            for (int w = 0; w < workloads; w++) {
                Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
                String cls = List.of("gpu", "mig", "net").get(rnd.nextInt(3));
                EnumSet<Feature> features = EnumSet.noneOf(Feature.class);
                for (Feature f : Feature.values()) {
                    if (rnd.nextInt(3) == 0) {
                        features.add(f);
                    }
                }
                String name = "w" + w;
                String claim = claimSpec(cls, features);
                String workload = switch (kind) {
                    case POD -> {
                        docs.add(template(name, claim));
                        docs.add(pod(name, name));
                        yield "Pod ns/" + name;
                    }
                    case JOB -> {
                        docs.add(template(name, claim));
                        docs.add(job(name, 1 + rnd.nextInt(3)));
                        yield "Job ns/" + name;
                    }
                    case SHARED_DEPLOYMENT -> {
                        docs.add(claim(name, claim));
                        docs.add(deployment(name, 2 + rnd.nextInt(2)));
                        yield "Deployment ns/" + name;
                    }
                    case CLAIM_ONLY -> {
                        docs.add(claim(name, claim));
                        yield "ResourceClaim ns/" + name;
                    }
                };
                // What each feature needs, as the decision tree's questions define it.
                if (features.contains(Feature.SELECTOR)) {
                    expected.get(DecisionTree.Need.ATTRIBUTE_SELECTION).add(workload);
                }
                boolean admin = features.contains(Feature.ADMIN) && !features.contains(Feature.FIRST_AVAILABLE);
                if (features.contains(Feature.CAPACITY) || admin || kind == Kind.SHARED_DEPLOYMENT) {
                    expected.get(DecisionTree.Need.SHARING).add(workload);
                }
                if (features.contains(Feature.CONSTRAINT)) {
                    expected.get(DecisionTree.Need.TOPOLOGY).add(workload);
                }
                if (features.contains(Feature.FIRST_AVAILABLE)) {
                    expected.get(DecisionTree.Need.PRIORITIZED_LISTS).add(workload);
                }
                if (cls.equals("net")) {
                    expected.get(DecisionTree.Need.NETWORK_DEVICES).add(workload);
                }
                if (cls.equals("mig")) {
                    expected.get(DecisionTree.Need.PARTITIONABLE_DEVICES).add(workload);
                }
            }
            Manifests m = ManifestReader.parse(String.join("---\n", docs).getBytes(StandardCharsets.UTF_8), "gen.yaml");
            assertThat(m.problems()).as("seed %d", seed).isEmpty();
            SimulationResult r = new Simulator(new SimulationOptions(GATES, 0)).run(ClusterSnapshot.of(m));

            List<DecisionTree.Answer> answers = DecisionTree.of(r, GATES);

            assertThat(answers).extracting(DecisionTree.Answer::need).containsExactly(DecisionTree.Need.values());
            for (DecisionTree.Answer a : answers) {
                assertThat(a.workloads())
                        .as("%s, seed %d (master %d):%n%s", a.need(), seed, master, String.join("---\n", docs))
                        .containsExactlyElementsOf(expected.get(a.need()));
                assertThat(a.uses().isEmpty()).isEqualTo(!a.needed());
                yes.merge(a.need(), a.needed() ? 1 : 0, Integer::sum);
            }
        }
        // Each question was answered yes in some example (each feature is drawn with probability 1/3 per workload).
        assertThat(yes.values()).allMatch(n -> n > 0);
    }

    private static String claimSpec(String cls, Set<Feature> features) {
        // The request's fields, each on its own line at 4 spaces (exactly's and a subrequest's level).
        String fields = "";
        if (features.contains(Feature.SELECTOR)) {
            fields += "\n    selectors: [{cel: {expression: 'device.attributes[\"" + driver(cls)
                    + "\"].model == \"big\"'}}]";
        }
        if (features.contains(Feature.CAPACITY)) {
            fields += "\n    capacity: {requests: {memory: 1Gi}}";
        }
        String request;
        if (features.contains(Feature.FIRST_AVAILABLE)) {
            request = "- name: r\n  firstAvailable:\n  - name: two\n    deviceClassName: " + cls + "\n    count: 2"
                    + fields + "\n  - name: one\n    deviceClassName: " + cls + "\n    count: 1" + fields + "\n";
        } else {
            String admin = features.contains(Feature.ADMIN) ? "\n    adminAccess: true" : "";
            request = "- name: r\n  exactly:\n    deviceClassName: " + cls + "\n    count: 1" + fields + admin + "\n";
        }
        String constraints = features.contains(Feature.CONSTRAINT)
                ? "constraints: [{matchAttribute: " + driver(cls) + "/model}]\n"
                : "";
        return "requests:\n" + request + constraints;
    }

    private static String driver(String cls) {
        return cls.equals("net") ? "net.example.com" : "gpu.example.com";
    }

    private static String indent(String text, int spaces) {
        return text.indent(spaces).stripTrailing();
    }

    private static String template(String name, String devices) {
        return """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: %s, namespace: ns}
                spec:
                  spec:
                    devices:
                %s
                """.formatted(name, indent(devices, 6));
    }

    private static String claim(String name, String devices) {
        return """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata: {name: %s, namespace: ns}
                spec:
                  devices:
                %s
                """.formatted(name, indent(devices, 4));
    }

    private static String podSpec(String claimField, String claim, int indent) {
        return ("""
                restartPolicy: Never
                containers: [{name: main, image: x, resources: {requests: {cpu: "1"}}}]
                resourceClaims: [{name: c, %s: %s}]
                """).formatted(claimField, claim).indent(indent).stripTrailing();
    }

    private static String pod(String name, String template) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: ns}
                spec:
                %s
                """.formatted(name, podSpec("resourceClaimTemplateName", template, 2));
    }

    private static String job(String name, int parallelism) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: %s, namespace: ns}
                spec:
                  parallelism: %d
                  template:
                    spec:
                %s
                """.formatted(name, parallelism, podSpec("resourceClaimTemplateName", name, 6));
    }

    private static String deployment(String name, int replicas) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: %1$s, namespace: ns}
                spec:
                  replicas: %2$d
                  selector: {matchLabels: {app: %1$s}}
                  template:
                    metadata: {labels: {app: %1$s}}
                    spec:
                %3$s
                """.formatted(
                        name,
                        replicas,
                        podSpec("resourceClaimName", name, 6).replace("restartPolicy: Never", "restartPolicy: Always"));
    }
}
