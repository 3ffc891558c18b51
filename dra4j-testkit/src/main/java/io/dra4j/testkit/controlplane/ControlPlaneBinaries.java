package io.dra4j.testkit.controlplane;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where the control plane's binaries are: the directory {@code scripts/build-control-plane} fills. It is, first
 * found: the system property {@value #PROPERTY}, the environment variable {@value #ENVIRONMENT}, else the build
 * script's cache, {@code ${DRA4J_CONTROL_PLANE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/dra4j}/k8s-<version>/bin}.
 *
 * @param directory the directory holding kube-apiserver, kube-scheduler, kube-controller-manager and etcd
 */
public record ControlPlaneBinaries(Path directory) {
    public static final String PROPERTY = "dra4j.controlplane.bin";
    public static final String ENVIRONMENT = "DRA4J_CONTROL_PLANE_BIN";
    static final List<String> NAMES = List.of("kube-apiserver", "kube-scheduler", "kube-controller-manager", "etcd");

    /** The directory named by the property, the environment or the build script's cache, complete or not. */
    public static ControlPlaneBinaries locate() {
        return locate(
                System.getProperties().entrySet().stream()
                        .collect(Collectors.toMap(
                                e -> e.getKey().toString(), e -> e.getValue().toString())),
                System.getenv(),
                ControlPlaneVersions.load());
    }

    /** {@link #locate()} over the given system properties and environment, for tests of the lookup itself. */
    static ControlPlaneBinaries locate(
            Map<String, String> properties, Map<String, String> environment, ControlPlaneVersions versions) {
        String explicit = nonEmpty(properties.get(PROPERTY))
                .or(() -> nonEmpty(environment.get(ENVIRONMENT)))
                .orElse(null);
        if (explicit != null) {
            return new ControlPlaneBinaries(Path.of(explicit));
        }
        Path cache = nonEmpty(environment.get("DRA4J_CONTROL_PLANE_CACHE"))
                .map(Path::of)
                .orElseGet(() -> nonEmpty(environment.get("XDG_CACHE_HOME"))
                        .map(Path::of)
                        .orElseGet(() -> Path.of(properties.getOrDefault("user.home", ""), ".cache"))
                        .resolve("dra4j"));
        return new ControlPlaneBinaries(
                cache.resolve("k8s-" + versions.kubernetes()).resolve("bin"));
    }

    /** The binaries of this directory that are missing or not executable; empty when it is complete. */
    public List<String> missing() {
        return NAMES.stream()
                .filter(name -> !Files.isExecutable(directory.resolve(name)))
                .toList();
    }

    /** Why tests that need the control plane cannot run, or empty when they can. */
    public Optional<String> unavailableReason() {
        List<String> missing = missing();
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("the real control plane is not built: " + String.join(", ", missing) + " missing in "
                + directory + " (run scripts/build-control-plane, or set " + ENVIRONMENT + ")");
    }

    public Path apiServer() {
        return directory.resolve("kube-apiserver");
    }

    public Path scheduler() {
        return directory.resolve("kube-scheduler");
    }

    public Path controllerManager() {
        return directory.resolve("kube-controller-manager");
    }

    public Path etcd() {
        return directory.resolve("etcd");
    }

    private static Optional<String> nonEmpty(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }
}
