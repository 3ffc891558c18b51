package io.dra4j.testkit.simdiff;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.GangResult;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.dra4j.sim.TraceAttempt;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * dra4j's side of the scheduler differential test: the snapshot read as {@code dra4j simulate} reads it, simulated
 * with 1.37's default gates, every attempt written in the oracle's JSON shape.
 */
final class Dra4jTrace {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();

    private Dra4jTrace() {}

    /** dra4j's attempts and the run's outcome in the shape of the oracle's {@code done} line. */
    record Run(List<ObjectNode> attempts, ObjectNode outcome) {}

    static Run run(ObjectNode snapshot, String name) {
        byte[] bytes = JSON.writeValueAsString(snapshot).getBytes(StandardCharsets.UTF_8);
        ClusterSnapshot cluster = ClusterSnapshot.of(ManifestReader.parse(bytes, name));
        List<ObjectNode> out = new ArrayList<>();
        SimulationResult result = new Simulator(SimulationOptions.defaults()).run(cluster, a -> out.add(toJson(a)));
        return new Run(out, outcome(result));
    }

    /**
     * The outcome as the oracle writes it: per pod its node ("" when pending or deleted), and per gang of a PodGroup
     * ({@code namespace/name}) its members bound and, when it does not fit, the status of its last pod group cycle.
     * A pod PreEnqueue holds has its reason under {@code reasons}.
     */
    static ObjectNode outcome(SimulationResult result) {
        ObjectNode o = JSON.createObjectNode();
        ObjectNode pods = o.putObject("pods");
        ObjectNode reasons = o.putObject("reasons");
        for (PodResult p : result.pods()) {
            String key = p.namespace() + "/" + p.name();
            boolean there =
                    p.placement() == PodResult.Placement.PLACED || p.placement() == PodResult.Placement.BOUND_BEFORE;
            pods.put(key, there ? p.node().orElse("") : "");
            if (p.placement() == PodResult.Placement.PENDING) {
                reasons.put(key, p.reason());
            }
        }
        ObjectNode groups = o.putObject("podGroups");
        for (GangResult g : result.gangs()) {
            if (g.name().startsWith(POD_GROUP)) {
                ObjectNode n = groups.putObject(g.name().substring(POD_GROUP.length()));
                n.put("scheduled", g.placed());
                n.put("fits", g.fits());
                n.put("status", g.reason());
            }
        }
        return o;
    }

    private static final String POD_GROUP = "PodGroup ";

    static ObjectNode toJson(TraceAttempt a) {
        ObjectNode o = JSON.createObjectNode();
        o.put("pod", a.namespace() + "/" + a.name());
        a.preFilter().ifPresent(v -> o.set("preFilter", verdict(v)));
        ArrayNode feasible = o.putArray("feasible");
        a.feasible().forEach(feasible::add);
        ObjectNode rejected = o.putObject("rejected");
        a.rejected().forEach((node, v) -> rejected.set(node, verdict(v)));
        if (!a.scores().isEmpty()) {
            ObjectNode scores = o.putObject("scores");
            a.scores().forEach((node, s) -> {
                ObjectNode n = scores.putObject(node);
                n.put("total", s.total());
                ObjectNode plugins = n.putObject("plugins");
                s.plugins().forEach(plugins::put);
            });
        }
        ArrayNode best = o.putArray("best");
        a.best().forEach(best::add);
        o.put("node", a.node().orElse(""));
        if (!a.error().isEmpty()) {
            o.put("error", a.error());
        }
        a.nominate().ifPresent(n -> o.put("nominate", n));
        if (!a.victims().isEmpty()) {
            ArrayNode victims = o.putArray("victims");
            a.victims().forEach(victims::add);
        }
        if (!a.claims().isEmpty()) {
            ObjectNode claims = o.putObject("claims");
            for (Map.Entry<String, ?> e : a.claims().entrySet()) {
                claims.set(e.getKey(), JSON.readTree(FABRIC8.asJson(e.getValue())));
            }
        }
        return o;
    }

    private static ObjectNode verdict(TraceAttempt.Verdict v) {
        ObjectNode o = JSON.createObjectNode();
        o.put("plugin", v.plugin());
        o.put("code", v.code());
        ArrayNode reasons = o.putArray("reasons");
        v.reasons().forEach(reasons::add);
        return o;
    }
}
