package io.dra4j.testkit.simdiff;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Compares dra4j's scheduling attempts with upstream's, attempt by attempt in queue order: the pod, the PreFilter
 * rejection, the feasible nodes, each rejected node's Filter plugin, code and reasons (as a set: FitError counts
 * them per reason), the total and per-plugin scores per node (a plugin scoring 0 counts as absent), the best
 * nodes, the chosen node (dra4j's must be one of upstream's best) and the allocation of each claim of a bound pod
 * ({@code allocationTimestamp} aside: upstream stamps the wall clock), and after a FitError the node DefaultPreemption
 * nominates ({@code nominate}: absent when it left the nomination, "" when it cleared it) and its victims (as a set). When both sides pick different nodes among
 * equal best ones the runs part ways, so the comparison stops there (not a divergence; counted as a tie). Likewise when
 * dra4j nominates another node than upstream's PostFilter did, but one of the candidates upstream's own selection
 * could have nominated ({@code nominationTies}: upstream picks at random among candidates tied on every criterion) with
 * the victims upstream selects on it: compared up to there, counted as a preemption tie.
 */
final class TraceComparison {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * How the traces differ.
     *
     * @param aspect    what differs (pod, preFilter, filter, score, best, node, nominate, victims, claims, attempts, error)
     * @param signature the aspect with the plugin involved: what shrinking must keep
     */
    record Difference(String aspect, String signature, String detail) {}

    /** Where the comparison stopped early at a tie upstream breaks at random and dra4j broke differently. */
    enum Tie {
        /** Not stopped at a tie. */
        NONE,
        /** Another of upstream's best nodes was chosen. */
        NODE,
        /** Another of upstream's tied preemption candidates was nominated, with the victims upstream selects there. */
        NOMINATION
    }

    /** The first difference, and whether the comparison stopped early at a tie broken differently. */
    record Result(Optional<Difference> difference, Tie tie) {
        static final Result SAME = new Result(Optional.empty(), Tie.NONE);

        static Result of(Difference d) {
            return new Result(Optional.of(d), Tie.NONE);
        }
    }

    private TraceComparison() {}

    static Result compare(List<ObjectNode> upstream, List<ObjectNode> dra4j) {
        for (int i = 0; i < Math.min(upstream.size(), dra4j.size()); i++) {
            JsonNode u = upstream.get(i);
            JsonNode d = dra4j.get(i);
            String where = "attempt " + (i + 1) + " (" + u.path("pod").asString("") + ")";
            Result r = compareAttempt(u, d, where);
            if (!r.equals(Result.SAME)) {
                return r;
            }
            String un = u.path("node").asString("");
            String dn = d.path("node").asString("");
            if (!un.equals(dn)) {
                return new Result(Optional.empty(), Tie.NODE);
            }
        }
        if (upstream.size() != dra4j.size()) {
            List<ObjectNode> longer = upstream.size() > dra4j.size() ? upstream : dra4j;
            return Result.of(new Difference(
                    "attempts",
                    "attempts",
                    "upstream made " + upstream.size() + " attempts, dra4j " + dra4j.size() + "; next: "
                            + longer.get(Math.min(upstream.size(), dra4j.size()))
                                    .path("pod")
                                    .asString("")));
        }
        return Result.SAME;
    }

    /**
     * {@link #compare(List, List)}, then, when the traces agree to the end, the runs' outcomes ({@code done} line of
     * the oracle, {@link Dra4jTrace#outcome} of dra4j): every pod's node ("" when pending); for each pod a PreEnqueue
     * plugin held, dra4j's pending reason is the plugin's message; for each PodGroup with a gang policy that a pod
     * group cycle ran for (or whose members PreEnqueue held), the members bound, and when the gang does not fit the status its last cycle
     * ended with. Without an upstream outcome (a recorded trace from before outcomes) only the attempts count.
     */
    static Result compare(List<ObjectNode> upstream, JsonNode upstreamDone, Dra4jTrace.Run dra4j) {
        Result r = compare(upstream, dra4j.attempts());
        JsonNode u = upstreamDone == null ? null : upstreamDone.get("outcome");
        if (!r.equals(Result.SAME) || u == null) {
            return r;
        }
        return compareOutcome(u, dra4j.outcome()).map(Result::of).orElse(Result.SAME);
    }

    private static Optional<Difference> compareOutcome(JsonNode u, JsonNode d) {
        for (Map.Entry<String, JsonNode> e : u.path("pods").properties()) {
            String un = e.getValue().asString("");
            String dn = d.path("pods").path(e.getKey()).asString("");
            if (!un.equals(dn)) {
                return diff(
                        "outcome",
                        "outcome node",
                        "pod " + e.getKey() + " ends " + where(un) + " upstream, " + where(dn) + " in dra4j");
            }
        }
        for (Map.Entry<String, JsonNode> e : u.path("preEnqueue").properties()) {
            String dr = d.path("reasons").path(e.getKey()).asString("");
            if (!e.getValue().asString("").equals(dr)) {
                return diff(
                        "outcome",
                        "outcome preEnqueue",
                        "pod " + e.getKey() + ": upstream's PreEnqueue holds it with '"
                                + e.getValue().asString("") + "', dra4j's reason is '" + dr + "'");
            }
        }
        for (Map.Entry<String, JsonNode> e : u.path("podGroups").properties()) {
            JsonNode ug = e.getValue();
            JsonNode dg = d.path("podGroups").path(e.getKey());
            // A PodGroup with a basic policy is no gang (its pods' nodes are compared above); a recorded outcome from
            // before the oracle said so held gangs only.
            if (ug.path("status").asString("").equals(NOT_SCHEDULED)
                    || !ug.path("gang").asBoolean(true)) {
                continue;
            }
            if (dg.isMissingNode()) {
                return diff(
                        "outcome", "outcome podGroup", "PodGroup " + e.getKey() + ": a gang upstream, none in dra4j");
            }
            if (ug.path("scheduled").asInt() != dg.path("scheduled").asInt()) {
                return diff(
                        "outcome",
                        "outcome podGroup scheduled",
                        "PodGroup " + e.getKey() + ": " + ug.path("scheduled").asInt() + " members bound upstream, "
                                + dg.path("scheduled").asInt() + " in dra4j");
            }
            if (!dg.path("fits").asBoolean()
                    && !ug.path("status").asString("").equals(dg.path("status").asString(""))) {
                return diff(
                        "outcome",
                        "outcome podGroup status",
                        "PodGroup " + e.getKey() + ": upstream's last cycle ended with '"
                                + ug.path("status").asString("") + "', dra4j's with '"
                                + dg.path("status").asString("") + "'");
            }
        }
        return Optional.empty();
    }

    /** The oracle's status of a PodGroup no cycle ran for and whose members no PreEnqueue plugin held. */
    private static final String NOT_SCHEDULED = "not scheduled";

    private static String where(String node) {
        return node.isEmpty() ? "pending" : "on " + node;
    }

    private static Result compareAttempt(JsonNode u, JsonNode d, String where) {
        Optional<Difference> before = compareUpToNomination(u, d, where);
        if (before.isPresent()) {
            return Result.of(before.get());
        }
        if (!u.path("nominate").equals(d.path("nominate"))) {
            return nominationTie(u, d, where);
        }
        if (!strings(u.path("victims")).equals(strings(d.path("victims")))) {
            return Result.of(new Difference(
                    "victims",
                    "victims",
                    where + ": upstream preempts " + u.path("victims") + ", dra4j " + d.path("victims")));
        }
        String un = u.path("node").asString("");
        if (un.equals(d.path("node").asString(""))) {
            JsonNode uc = normalise(u.path("claims"));
            JsonNode dc = normalise(d.path("claims"));
            if (!uc.equals(dc)) {
                return Result.of(
                        new Difference("claims", "claims", where + ": upstream allocated " + uc + ", dra4j " + dc));
            }
        }
        return Result.SAME;
    }

    /**
     * The nominations differ: a preemption tie when dra4j nominated one of the candidates upstream's selection could
     * have nominated ({@code nominationTies}) and preempts there the victims upstream selects on it, otherwise a
     * divergence (also when upstream's attempt has no tie set, as in traces recorded before the oracle wrote one).
     */
    private static Result nominationTie(JsonNode u, JsonNode d, String where) {
        String un = u.path("nominate").asString("");
        String dn = d.path("nominate").asString("");
        JsonNode ties = u.path("nominationTies");
        JsonNode tied = ties.path(dn);
        if (un.isEmpty() || dn.isEmpty() || !tied.isArray()) {
            return Result.of(new Difference(
                    "nominate",
                    "nominate",
                    where + ": upstream's PostFilter nominates " + u.path("nominate")
                            + (ties.isObject() ? " (tied: " + ties.propertyNames() + ")" : "") + ", dra4j's "
                            + d.path("nominate")));
        }
        if (!strings(tied).equals(strings(d.path("victims")))) {
            return Result.of(new Difference(
                    "victims",
                    "victims",
                    where + ": dra4j nominates \"" + dn + "\" (tied upstream with \"" + un
                            + "\"), where upstream preempts " + tied + ", dra4j " + d.path("victims")));
        }
        return new Result(Optional.empty(), Tie.NOMINATION);
    }

    /** Every aspect of an attempt before the nomination: pod, error, failure, PreFilter, Filter, scores, node. */
    private static Optional<Difference> compareUpToNomination(JsonNode u, JsonNode d, String where) {
        if (!u.path("pod").equals(d.path("pod"))) {
            return diff("pod", "pod", where + ": upstream schedules " + u.path("pod") + ", dra4j " + d.path("pod"));
        }
        if (!u.path("error").asString("").equals(d.path("error").asString(""))) {
            return diff(
                    "error",
                    "error",
                    where + ": upstream error '" + u.path("error").asString("") + "', dra4j '"
                            + d.path("error").asString("") + "'");
        }
        if (!u.path("failure").isMissingNode()) {
            return diff(
                    "failure",
                    "failure " + u.path("failure").path("plugin").asString(""),
                    where + ": upstream failed after Filter: " + u.path("failure"));
        }
        if (!verdict(u.path("preFilter")).equals(verdict(d.path("preFilter")))) {
            return diff(
                    "preFilter",
                    "preFilter " + u.path("preFilter").path("plugin").asString("") + "/"
                            + d.path("preFilter").path("plugin").asString(""),
                    where + ": upstream PreFilter " + u.path("preFilter") + ", dra4j " + d.path("preFilter"));
        }
        Set<String> uf = strings(u.path("feasible"));
        Set<String> df = strings(d.path("feasible"));
        Set<String> nodes = new TreeSet<>(uf);
        nodes.addAll(df);
        u.path("rejected").propertyNames().forEach(nodes::add);
        d.path("rejected").propertyNames().forEach(nodes::add);
        for (String node : nodes) {
            String uv =
                    uf.contains(node) ? "feasible" : verdict(u.path("rejected").path(node));
            String dv =
                    df.contains(node) ? "feasible" : verdict(d.path("rejected").path(node));
            if (!uv.equals(dv)) {
                String plugin = uf.contains(node)
                        ? d.path("rejected").path(node).path("plugin").asString("")
                        : u.path("rejected").path(node).path("plugin").asString("");
                return diff(
                        "filter", "filter " + plugin, where + ", node " + node + ": upstream " + uv + ", dra4j " + dv);
            }
        }
        for (String node : uf) {
            JsonNode us = u.path("scores").path(node);
            JsonNode ds = d.path("scores").path(node);
            Map<String, Long> up = plugins(us);
            Map<String, Long> dp = plugins(ds);
            if (!up.equals(dp) || us.path("total").asLong(0) != ds.path("total").asLong(0)) {
                Set<String> differing = new TreeSet<>(up.keySet());
                differing.addAll(dp.keySet());
                differing.removeIf(p -> up.getOrDefault(p, 0L).equals(dp.getOrDefault(p, 0L)));
                return diff(
                        "score",
                        "score " + differing,
                        where + ", node " + node + ": upstream total "
                                + us.path("total").asLong(0) + " " + up + ", dra4j total "
                                + ds.path("total").asLong(0) + " " + dp);
            }
        }
        if (!strings(u.path("best")).equals(strings(d.path("best")))) {
            return diff("best", "best", where + ": upstream best " + u.path("best") + ", dra4j " + d.path("best"));
        }
        String un = u.path("node").asString("");
        String dn = d.path("node").asString("");
        if (un.isEmpty() != dn.isEmpty()
                || (!dn.isEmpty() && !strings(u.path("best")).contains(dn))) {
            return diff(
                    "node",
                    "node",
                    where + ": upstream binds to '" + un + "' (best " + u.path("best") + "), dra4j to '" + dn + "'");
        }
        return Optional.empty();
    }

    private static Optional<Difference> diff(String aspect, String signature, String detail) {
        return Optional.of(new Difference(aspect, signature, detail));
    }

    private static String verdict(JsonNode v) {
        if (v.isMissingNode() || v.isNull()) {
            return "none";
        }
        return v.path("plugin").asString("") + " " + v.path("code").asString("") + " " + strings(v.path("reasons"));
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new TreeSet<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }

    private static Map<String, Long> plugins(JsonNode score) {
        Map<String, Long> out = new TreeMap<>();
        score.path("plugins").properties().forEach(e -> {
            if (e.getValue().asLong(0) != 0) {
                out.put(e.getKey(), e.getValue().asLong());
            }
        });
        return out;
    }

    /** Without nulls, empty arrays and objects, and the wall-clock allocationTimestamp. */
    static JsonNode normalise(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JSON.createObjectNode();
            List<String> names = new ArrayList<>(node.propertyNames());
            names.sort(null);
            for (String name : names) {
                JsonNode v = normalise(node.get(name));
                if (name.equals("allocationTimestamp")
                        || v.isNull()
                        || v.isMissingNode()
                        || (v.isContainer() && v.isEmpty())) {
                    continue;
                }
                out.set(name, v);
            }
            return out;
        }
        if (node.isArray()) {
            var out = JSON.createArrayNode();
            node.forEach(n -> out.add(normalise(n)));
            return out;
        }
        return node;
    }
}
