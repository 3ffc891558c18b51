package io.dra4j.migrate.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** Where the pod spec sits in each kind of workload. */
public final class PodSpecs {
    private static final Map<String, List<String>> POD_SPEC = Map.of(
            "Pod", List.of("spec"),
            "Deployment", List.of("spec", "template", "spec"),
            "StatefulSet", List.of("spec", "template", "spec"),
            "DaemonSet", List.of("spec", "template", "spec"),
            "ReplicaSet", List.of("spec", "template", "spec"),
            "ReplicationController", List.of("spec", "template", "spec"),
            "Job", List.of("spec", "template", "spec"),
            "CronJob", List.of("spec", "jobTemplate", "spec", "template", "spec"));

    private PodSpecs() {}

    /** The field names leading to the pod spec of a kind, or empty when the kind has none. */
    public static Optional<List<String>> podSpecPath(String kind) {
        return Optional.ofNullable(POD_SPEC.get(kind));
    }

    /** The node at a path of field names, or null. */
    public static JsonNode at(JsonNode root, List<String> path) {
        JsonNode n = root;
        for (String f : path) {
            n = n == null ? null : n.get(f);
        }
        return n;
    }
}
