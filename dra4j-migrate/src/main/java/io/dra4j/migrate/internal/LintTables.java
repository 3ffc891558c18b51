package io.dra4j.migrate.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The facts {@code dra4j lint} and the {@code --feature-gates} check read, from the five tables in
 * {@code io/dra4j/migrate/lint/} (written by {@code scripts/dra-lint-tables} from Kubernetes' sources of each release,
 * which each table names): DRA feature gates per release, every gate kube-scheduler knows per release, the gates each
 * depends on, the v1 fields each gate guards, and the resource.k8s.io versions each release serves.
 * Immutable.
 */
public final class LintTables {
    /** The releases the tables cover, oldest first. */
    public static final List<String> RELEASES = List.of("1.32", "1.33", "1.34", "1.35", "1.36", "1.37");

    /** A gate in one release: its stage (Alpha, Beta, GA, Deprecated), default and whether it is locked. */
    public record GateState(String stage, boolean defaultOn, boolean locked) {}

    /** A gate that a gate depends on in one release, with its state there. */
    public record Dependency(String gate, GateState state) {}

    /** A kind in one version of resource.k8s.io in one release. */
    public record Served(String version, String kind, boolean byDefault, String deprecated, String removed) {}

    private final Map<String, String> keps = new HashMap<>();
    private final Map<String, Map<String, GateState>> gates = new HashMap<>();
    private final Map<String, Map<String, GateState>> registry = new HashMap<>();
    private final Map<String, Map<String, List<Dependency>>> dependencies = new HashMap<>();
    private final Map<String, Map<String, List<String>>> gatedFields = new HashMap<>();
    private final Map<String, List<Served>> served = new HashMap<>();

    private LintTables() {}

    private static final LintTables INSTANCE = load();

    public static LintTables get() {
        return INSTANCE;
    }

    private static LintTables load() {
        LintTables t = new LintTables();
        List<String[]> gateRows = rows("dra-feature-gates.tsv");
        String[] header = gateRows.get(0);
        for (String[] r : gateRows.subList(1, gateRows.size())) {
            t.keps.put(r[0], r[1]);
            Map<String, GateState> perRelease = new LinkedHashMap<>();
            for (int i = 2; i < r.length; i++) {
                if (!r[i].equals("-")) {
                    perRelease.put(header[i], state(r[i]));
                }
            }
            t.gates.put(r[0], perRelease);
        }
        List<String[]> registryRows = rows("feature-gates.tsv");
        for (String[] r : registryRows.subList(1, registryRows.size())) {
            t.registry.computeIfAbsent(r[0], k -> new LinkedHashMap<>()).put(r[1], state(r[2]));
        }
        List<String[]> dependencyRows = rows("feature-gate-dependencies.tsv");
        for (String[] r : dependencyRows.subList(1, dependencyRows.size())) {
            t.dependencies
                    .computeIfAbsent(r[0], k -> new LinkedHashMap<>())
                    .computeIfAbsent(r[1], k -> new ArrayList<>())
                    .add(new Dependency(r[2], state(r[3])));
        }
        List<String[]> fieldRows = rows("dra-gated-fields.tsv");
        for (String[] r : fieldRows.subList(1, fieldRows.size())) {
            t.gatedFields.computeIfAbsent(r[0], k -> new HashMap<>()).put(r[1], List.of(r[2].split(",")));
        }
        List<String[]> apiRows = rows("api-versions.tsv");
        for (String[] r : apiRows.subList(1, apiRows.size())) {
            t.served
                    .computeIfAbsent(r[0], k -> new ArrayList<>())
                    .add(new Served(r[1], r[2], r[3].equals("on"), r[4], r[5]));
        }
        return t;
    }

    /** A cell {@code stage:default[:locked]}. */
    private static GateState state(String cell) {
        String[] parts = cell.split(":");
        return new GateState(parts[0], parts[1].equals("on"), parts.length > 2 && parts[2].equals("locked"));
    }

    /** The rows of a table without its comment lines; the first is the header. */
    private static List<String[]> rows(String name) {
        try (InputStream in = LintTables.class.getResourceAsStream("/io/dra4j/migrate/lint/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource io/dra4j/migrate/lint/" + name);
            }
            List<String[]> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    out.add(line.split("\t"));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The gate's state in a release; empty when the release has no such gate. */
    public Optional<GateState> gate(String gate, String release) {
        return Optional.ofNullable(gates.getOrDefault(gate, Map.of()).get(release));
    }

    /**
     * A gate of kube-scheduler's feature gate in a release (any gate, DRA or not, with AllAlpha and AllBeta); empty
     * when the release's kube-scheduler does not know it.
     */
    public Optional<GateState> schedulerGate(String gate, String release) {
        return Optional.ofNullable(registry.getOrDefault(release, Map.of()).get(gate));
    }

    /** Every gate kube-scheduler knows in a release, by name. */
    public Map<String, GateState> schedulerGates(String release) {
        return java.util.Collections.unmodifiableMap(registry.getOrDefault(release, Map.of()));
    }

    /**
     * Per gate of a release, the gates it depends on (defaultKubernetesFeatureGateDependencies), in upstream's
     * order; empty for a release without that map.
     */
    public Map<String, List<Dependency>> dependencies(String release) {
        return dependencies.getOrDefault(release, Map.of());
    }

    /** True for a DRA gate of some release in the table. */
    public boolean knowsGate(String gate) {
        return gates.containsKey(gate);
    }

    /** The KEP number of a gate, e.g. {@code 4816}. */
    public String kep(String gate) {
        return keps.getOrDefault(gate, "-");
    }

    /** The gates that guard a field of a v1 Go type ({@code ExactDeviceRequest}, {@code adminAccess}); all must be on. */
    public List<String> gatesOf(String type, String field) {
        return gatedFields.getOrDefault(type, Map.of()).getOrDefault(field, List.of());
    }

    /** The gated fields of a v1 Go type. */
    public Map<String, List<String>> gatedFieldsOf(String type) {
        return gatedFields.getOrDefault(type, Map.of());
    }

    /** How a release serves {@code kind} in resource.k8s.io {@code version}; empty when it does not serve it. */
    public Optional<Served> served(String release, String version, String kind) {
        return served.getOrDefault(release, List.of()).stream()
                .filter(s -> s.version().equals(version) && s.kind().equals(kind))
                .findFirst();
    }

    /** Every version in which a release serves {@code kind}. */
    public List<Served> servedVersions(String release, String kind) {
        return served.getOrDefault(release, List.of()).stream()
                .filter(s -> s.kind().equals(kind))
                .toList();
    }
}
