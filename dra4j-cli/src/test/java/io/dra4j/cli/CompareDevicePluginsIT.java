package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code simulate --compare device-plugins} on the bundled fleet: every number of both sides re-derived from the
 * two state files alone (plain YAML trees, none of dra4j's code), by the definitions of docs/compare.md.
 */
class CompareDevicePluginsIT {
    private static final String DOMAIN = "nvlinkDomain";
    private static JsonNode comparison;
    private static List<JsonNode> draState;
    private static List<JsonNode> dpState;
    private static JsonNode summary;
    private static String text;

    @BeforeAll
    static void run(@TempDir Path dir) throws IOException {
        Path state = dir.resolve("state.yaml");
        CliRuns.Run json = CliRuns.run(
                "simulate", "--compare", "device-plugins", "-o", "json", "--output-state", state.toString());
        assertThat(json.status()).as(json.err()).isZero();
        JsonNode root = JsonMapper.builder().build().readTree(json.out());
        comparison = root.get("comparison");
        summary = root.get("summary");
        draState = docs(state);
        dpState = docs(dir.resolve("state.device-plugins.yaml"));
        text = CliRuns.run("simulate", "--compare", "device-plugins").out();
    }

    private static List<JsonNode> docs(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (var it = new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(Files.readString(file))) {
            it.forEachRemaining(n -> {
                if (n != null && !n.isNull()) {
                    out.add(n);
                }
            });
        }
        return out;
    }

    private static List<JsonNode> kind(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asString())).toList();
    }

    private record Dev(
            String key,
            String node,
            boolean gpu,
            String uuid,
            String parent,
            long memory,
            boolean failed,
            String domain) {}

    private static Map<String, Dev> inventory(List<JsonNode> state) {
        Map<String, Dev> out = new HashMap<>();
        for (JsonNode s : kind(state, "ResourceSlice")) {
            JsonNode spec = s.get("spec");
            for (JsonNode d : spec.path("devices")) {
                JsonNode a = d.path("attributes");
                String key = spec.get("driver").asString() + "/"
                        + spec.path("pool").get("name").asString() + "/"
                        + d.get("name").asString();
                boolean failed = false;
                for (JsonNode t : d.path("taints")) {
                    failed |= !"None".equals(t.path("effect").asString());
                }
                JsonNode mem = d.path("capacity").path("memory").path("value");
                out.put(
                        key,
                        new Dev(
                                key,
                                spec.path("nodeName").asString(),
                                !"mig".equals(a.path("type").path("string").asString()),
                                a.path("uuid").path("string").asString(null),
                                a.path("parentUUID").path("string").asString(null),
                                mem.isMissingNode() ? 0 : gi(mem.asString()),
                                failed,
                                a.path(DOMAIN).path("int").asString(null)));
            }
        }
        return out;
    }

    private static long gi(String q) {
        assertThat(q).endsWith("Gi");
        return new BigDecimal(q.substring(0, q.length() - 2)).longValue() << 30;
    }

    private static String id(JsonNode pod) {
        return pod.path("metadata").path("namespace").asString() + "/"
                + pod.path("metadata").path("name").asString();
    }

    /** Per DP pod: its nvidia.com limits. */
    private static Map<String, Map<String, Long>> limits() {
        Map<String, Map<String, Long>> out = new HashMap<>();
        for (JsonNode p : kind(dpState, "Pod")) {
            Map<String, Long> m = new HashMap<>();
            for (JsonNode c : p.path("spec").path("containers")) {
                c.path("resources").path("limits").properties().forEach(e -> {
                    if (e.getKey().startsWith("nvidia.com/")) {
                        m.merge(e.getKey(), Long.parseLong(e.getValue().asString()), Long::sum);
                    }
                });
            }
            out.put(id(p), m);
        }
        return out;
    }

    private static boolean pending(JsonNode pod) {
        return pod.path("spec").path("nodeName").isMissingNode();
    }

    private static boolean pendingWanting(List<JsonNode> state, String prefix) {
        Map<String, Map<String, Long>> limits = limits();
        return kind(state, "Pod").stream()
                .filter(CompareDevicePluginsIT::pending)
                .anyMatch(p ->
                        limits.getOrDefault(id(p), Map.of()).keySet().stream().anyMatch(k -> k.startsWith(prefix)));
    }

    private static Map<String, List<String>> draUse() {
        Map<String, JsonNode> claims = new HashMap<>();
        kind(draState, "ResourceClaim").forEach(c -> claims.put(id(c), c));
        Map<String, List<String>> out = new HashMap<>();
        for (JsonNode p : kind(draState, "Pod")) {
            Set<String> names = new HashSet<>();
            p.path("status")
                    .path("resourceClaimStatuses")
                    .forEach(s -> names.add(s.path("resourceClaimName").asString()));
            p.path("spec").path("resourceClaims").forEach(s -> {
                if (s.has("resourceClaimName")) {
                    names.add(s.get("resourceClaimName").asString());
                }
            });
            List<String> devs = new ArrayList<>();
            for (String n : names) {
                JsonNode c = claims.get(p.path("metadata").path("namespace").asString() + "/" + n);
                if (c == null) {
                    continue;
                }
                for (JsonNode r :
                        c.path("status").path("allocation").path("devices").path("results")) {
                    if (!r.path("adminAccess").asBoolean(false)) {
                        devs.add(
                                r.get("driver").asString() + "/" + r.get("pool").asString() + "/"
                                        + r.get("device").asString());
                    }
                }
            }
            out.put(id(p), devs);
        }
        return out;
    }

    private static Map<String, List<String>> dpUse() {
        Map<String, List<String>> out = new HashMap<>();
        for (JsonNode p : kind(dpState, "Pod")) {
            String a = p.path("metadata")
                    .path("annotations")
                    .path("dra4j.io/device-plugin-devices")
                    .asString("");
            out.put(id(p), a.isEmpty() ? List.of() : List.of(a.split(",")));
        }
        return out;
    }

    private static long crossDomain(Map<String, List<String>> use, Map<String, Dev> inv) {
        return use.values().stream()
                .filter(devs -> {
                    List<Dev> gpus = devs.stream()
                            .map(inv::get)
                            .filter(d -> d != null && d.gpu())
                            .toList();
                    return gpus.size() > 1
                            && gpus.stream().map(Dev::domain).distinct().count() > 1;
                })
                .count();
    }

    private void counts(JsonNode side, List<JsonNode> state) {
        List<JsonNode> pods = kind(state, "Pod");
        assertThat(side.get("placed").asLong() + side.get("boundBefore").asLong())
                .isEqualTo(pods.stream().filter(p -> !pending(p)).count());
        assertThat(side.get("pending").asLong())
                .isEqualTo(pods.stream().filter(CompareDevicePluginsIT::pending).count());
    }

    @Test
    void draSideFromItsStateFile() {
        JsonNode dra = comparison.get("dra");
        counts(dra, draState);
        assertThat(dra.get("placed").asLong()).isEqualTo(summary.get("placed").asLong());
        Map<String, Dev> inv = inventory(draState);
        Map<String, List<String>> use = draUse();
        Set<String> used = new HashSet<>();
        use.values().forEach(used::addAll);
        Set<String> busy = new HashSet<>();
        used.stream().map(inv::get).forEach(d -> busy.add(d.gpu() ? d.uuid() : d.parent()));
        boolean gpuPending = pendingWanting(draState, "nvidia.com/gpu");
        boolean migPending = pendingWanting(draState, "nvidia.com/mig-");
        Set<String> partitionable = new HashSet<>();
        inv.values().stream().filter(d -> !d.gpu()).forEach(d -> partitionable.add(d.parent()));
        long stranded = 0;
        long memory = 0;
        long mig = 0;
        for (Dev d : inv.values()) {
            if (!d.gpu() || d.failed()) {
                continue;
            }
            if (gpuPending && !busy.contains(d.uuid())) {
                stranded++;
                memory += d.memory();
            }
            if (migPending && partitionable.contains(d.uuid()) && !used.contains(d.key())) {
                mig += d.memory()
                        - inv.values().stream()
                                .filter(m -> !m.gpu() && d.uuid().equals(m.parent()) && used.contains(m.key()))
                                .mapToLong(Dev::memory)
                                .sum();
            }
        }
        assertThat(dra.get("strandedDevices").asLong()).isEqualTo(stranded).isPositive();
        assertThat(dra.get("strandedGpuMemory").asLong()).isEqualTo(memory);
        assertThat(dra.get("migStrandedMemory").asLong()).isEqualTo(mig);
        assertThat(dra.get("crossDomainJobs").asLong()).isEqualTo(crossDomain(use, inv));
        assertThat(dra.get("healthyGpusLostToCordoning").asLong()).isZero();
    }

    @Test
    void devicePluginSideFromItsStateFile() {
        JsonNode dp = comparison.get("devicePlugins");
        counts(dp, dpState);
        Map<String, Dev> inv = inventory(dpState);
        Map<String, List<String>> use = dpUse();
        Map<String, Long> usedPerNode = new HashMap<>();
        Map<String, Long> migUsedPerNodeProfile = new HashMap<>();
        for (JsonNode p : kind(dpState, "Pod")) {
            for (String k : use.get(id(p))) {
                Dev d = inv.get(k);
                if (d.gpu()) {
                    usedPerNode.merge(d.node(), 1L, Long::sum);
                }
            }
        }
        boolean gpuPending = pendingWanting(dpState, "nvidia.com/gpu");
        boolean migPending = pendingWanting(dpState, "nvidia.com/mig-");
        long stranded = 0;
        long memory = 0;
        long mig = 0;
        long lost = 0;
        for (JsonNode n : kind(dpState, "Node")) {
            String name = n.path("metadata").path("name").asString();
            List<Dev> gpus = inv.values().stream()
                    .filter(d -> d.node().equals(name) && d.gpu())
                    .toList();
            if (gpus.isEmpty()) {
                continue;
            }
            if (n.path("spec").path("unschedulable").asBoolean(false)) {
                lost += gpus.stream().filter(d -> !d.failed()).count();
                continue;
            }
            JsonNode alloc = n.path("status").path("allocatable");
            long free = Long.parseLong(alloc.path("nvidia.com/gpu").asString("0")) - usedPerNode.getOrDefault(name, 0L);
            if (gpuPending) {
                stranded += free;
                memory += free * gpus.stream().mapToLong(Dev::memory).max().orElse(0);
            }
            for (var e : alloc.properties()) {
                if (e.getKey().startsWith("nvidia.com/mig-") && migPending) {
                    String profile = e.getKey().substring("nvidia.com/mig-".length());
                    long usedHere = kind(dpState, "Pod").stream()
                            .filter(p ->
                                    name.equals(p.path("spec").path("nodeName").asString("")))
                            .mapToLong(p -> limits().get(id(p)).getOrDefault(e.getKey(), 0L))
                            .sum();
                    long perSlice =
                            gi(profile.substring(profile.indexOf('.') + 1).replace("gb", "Gi"));
                    mig += (Long.parseLong(e.getValue().asString()) - usedHere) * perSlice;
                }
            }
        }
        assertThat(dp.get("strandedDevices").asLong()).isEqualTo(stranded);
        assertThat(dp.get("strandedGpuMemory").asLong()).isEqualTo(memory);
        assertThat(dp.get("migStrandedMemory").asLong()).isEqualTo(mig).isPositive();
        assertThat(dp.get("healthyGpusLostToCordoning").asLong())
                .isEqualTo(lost)
                .isEqualTo(7);
        assertThat(dp.get("crossDomainJobs").asLong()).isEqualTo(crossDomain(use, inv));
    }

    @Test
    void theTextShowsTheSameNumbersAndTheMapping() {
        JsonNode dra = comparison.get("dra");
        JsonNode dp = comparison.get("devicePlugins");
        assertThat(text)
                .containsPattern("pods placed\\s+" + dra.get("placed").asLong() + "\\s+"
                        + dp.get("placed").asLong())
                .containsPattern("pods pending\\s+" + dra.get("pending").asLong() + "\\s+"
                        + dp.get("pending").asLong())
                .contains("ml-train/h100-x4-nvlink/gpus -> nvidia.com/gpu: 4")
                .contains("cannot express: matchAttribute gpu.nvidia.com/nvlinkDomain")
                .contains("research/mig-3g/mig -> nvidia.com/mig-3g.20gb: 1");
        assertThat(comparison.get("mapping").size()).isEqualTo(7);
    }
}
