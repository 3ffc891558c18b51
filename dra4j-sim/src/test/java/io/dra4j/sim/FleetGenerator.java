package io.dra4j.sim;

import java.util.Random;

/**
 * Random fleets as manifests: nodes with node-local GPUs (some partitionable through a shared counter set), pods
 * and workloads asking for one or several GPUs (some in one island via matchAttribute, some with a firstAvailable
 * fallback, some sharing a claim, some for a partition) and cpu, and a few bound pods with allocated claims.
 */
final class FleetGenerator {
    private final Random random;
    private final StringBuilder out = new StringBuilder();

    FleetGenerator(long seed) {
        this.random = new Random(seed);
    }

    String generate() {
        doc("""
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: gpu}
                spec:
                  selectors: [{cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].kind == "gpu"'}}]
                """);
        doc("""
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: part}
                spec:
                  selectors: [{cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].kind == "part"'}}]
                """);
        doc("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: island, namespace: ns}
                spec:
                  spec:
                    devices:
                      requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 2}}]
                      constraints: [{matchAttribute: gpu.example.com/island, requests: [gpus]}]
                """);
        doc("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: fallback, namespace: ns}
                spec:
                  spec:
                    devices:
                      requests:
                      - name: gpu
                        firstAvailable:
                        - {name: two, deviceClassName: gpu, count: 2}
                        - {name: part, deviceClassName: part, count: 1}
                """);
        int nodes = 2 + random.nextInt(7);
        for (int n = 0; n < nodes; n++) {
            node(n);
        }
        int shared = random.nextInt(3);
        for (int s = 0; s < shared; s++) {
            doc("""
                    apiVersion: resource.k8s.io/v1
                    kind: ResourceClaim
                    metadata: {name: shared-%d, namespace: ns}
                    spec:
                      devices:
                        requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
                    """.formatted(s));
        }
        int pods = 5 + random.nextInt(25);
        for (int p = 0; p < pods; p++) {
            pod(p, shared);
        }
        if (random.nextBoolean()) {
            doc("""
                    apiVersion: apps/v1
                    kind: Deployment
                    metadata: {name: web, namespace: ns}
                    spec:
                      replicas: %d
                      selector: {matchLabels: {app: web}}
                      template:
                        metadata: {labels: {app: web}}
                        spec:
                          containers: [{name: main, resources: {requests: {cpu: "%d"}}}]
                          resourceClaims: [{name: gpus, resourceClaimTemplateName: island}]
                    """.formatted(1 + random.nextInt(6), 1 + random.nextInt(4)));
        }
        return out.toString();
    }

    private void node(int n) {
        int gpus = 1 + random.nextInt(6);
        boolean partitionable = random.nextInt(3) == 0;
        doc("""
                apiVersion: v1
                kind: Node
                metadata: {name: node-%d, labels: {kubernetes.io/hostname: node-%d}}
                status: {allocatable: {cpu: "%d", memory: 64Gi, pods: "%d"}}
                """.formatted(n, n, 4 + random.nextInt(12), 3 + random.nextInt(10)));
        StringBuilder devices = new StringBuilder();
        for (int g = 0; g < gpus; g++) {
            devices.append("  - name: gpu-")
                    .append(g)
                    .append('\n')
                    .append("    attributes: {kind: {string: gpu}, island: {int: ")
                    .append(g % 2)
                    .append("}}\n");
            if (partitionable) {
                devices.append("    consumesCounters: [{counterSet: mem-")
                        .append(g)
                        .append(", counters: {memory: {value: 4Gi}}}]\n");
                for (int part = 0; part < 2; part++) {
                    devices.append("  - name: gpu-")
                            .append(g)
                            .append("-part-")
                            .append(part)
                            .append('\n')
                            .append("    attributes: {kind: {string: part}, island: {int: ")
                            .append(g % 2)
                            .append("}}\n")
                            .append("    consumesCounters: [{counterSet: mem-")
                            .append(g)
                            .append(", counters: {memory: {value: 2Gi}}}]\n");
                }
            }
        }
        StringBuilder counters = new StringBuilder();
        if (partitionable) {
            for (int g = 0; g < gpus; g++) {
                counters.append("  - {name: mem-").append(g).append(", counters: {memory: {value: 4Gi}}}\n");
            }
        }
        int sliceCount = partitionable ? 2 : 1;
        doc("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: node-%1$d-gpus}
                spec:
                  driver: gpu.example.com
                  nodeName: node-%1$d
                  pool: {name: node-%1$d, generation: 1, resourceSliceCount: %2$d}
                  devices:
                %3$s
                """.formatted(n, sliceCount, devices.toString().stripTrailing()));
        if (partitionable) {
            doc("""
                    apiVersion: resource.k8s.io/v1
                    kind: ResourceSlice
                    metadata: {name: node-%1$d-counters}
                    spec:
                      driver: gpu.example.com
                      nodeName: node-%1$d
                      pool: {name: node-%1$d, generation: 1, resourceSliceCount: 2}
                      sharedCounters:
                    %2$s
                    """.formatted(n, counters.toString().stripTrailing()));
        }
    }

    private void pod(int p, int shared) {
        String claim;
        int kind = random.nextInt(5);
        if (kind == 0 && shared > 0) {
            claim = "resourceClaimName: shared-" + random.nextInt(shared);
        } else if (kind == 1) {
            claim = "resourceClaimTemplateName: island";
        } else if (kind == 2) {
            claim = "resourceClaimTemplateName: fallback";
        } else {
            String name = "single-" + p;
            doc("""
                    apiVersion: resource.k8s.io/v1
                    kind: ResourceClaimTemplate
                    metadata: {name: %s, namespace: ns}
                    spec:
                      spec:
                        devices:
                          requests: [{name: gpu, exactly: {deviceClassName: %s, count: %d}}]
                    """.formatted(name, random.nextInt(4) == 0 ? "part" : "gpu", 1 + random.nextInt(3)));
            claim = "resourceClaimTemplateName: " + name;
        }
        doc("""
                apiVersion: v1
                kind: Pod
                metadata: {name: pod-%d, namespace: ns, labels: {app: a%d}}
                spec:
                  priority: %d
                  containers: [{name: main, resources: {requests: {cpu: "%d", memory: %dGi}}}]
                  resourceClaims: [{name: gpus, %s}]
                """.formatted(
                p, random.nextInt(3), random.nextInt(3) * 100, random.nextInt(4), 1 + random.nextInt(16), claim));
    }

    private void doc(String yaml) {
        out.append("---\n").append(yaml);
    }
}
