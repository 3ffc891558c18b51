package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad inputs through {@code allocate}, {@code explain} and {@code simulate}, each beside a good manifest file (and,
 * for allocate and explain, a good scenario file): a clear error on stderr naming the file and, where the input gets
 * that far, the object and field; exit status 1; no stack trace; no hang; the good inputs still processed.
 */
class BadInputsIT {
    private static final String CLAIM = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata:
              name: bad
              namespace: team-b
            spec:
              devices:
                requests:
                - name: gpus
                  exactly:
                    deviceClassName: gpu
                    %s
            """;
    private static final String SLICE = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata:
              name: bad-slice
            spec:
              driver: gpu.example.com
              pool: {name: bad, generation: 1, resourceSliceCount: 1}
              nodeName: node-2
              devices:
              %s
            """;

    /** One bad input: its file name, how to make it, and what the error must say besides the file name. */
    record Case(String name, Consumer<Path> make, List<String> says) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case text(String name, String content, String... says) {
        return bytes(name, content.getBytes(StandardCharsets.UTF_8), says);
    }

    private static Case bytes(String name, byte[] content, String... says) {
        return new Case(name, file -> write(file, content), List.of(says));
    }

    private static void write(Path file, byte[] content) {
        try {
            Files.write(file, content);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        // Not YAML at all, or cut short.
        out.add(text("truncated.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: [node-9\n", "line"));
        out.add(text(
                "truncated.json",
                "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"x\"",
                "line"));
        out.add(bytes("binary.yaml", new byte[] {0, 1, 2, 3, (byte) 0xff, 0x7f, 0, 'k', 'i', 'n', 'd', ':'}, "line"));
        out.add(bytes(
                "latin1.yaml",
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\u00e9\n".getBytes(StandardCharsets.ISO_8859_1),
                "line"));
        out.add(text("tabs.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n\tname: n\n", "line"));
        out.add(text("unterminated.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: \"n\n", "line"));
        out.add(text(
                "trailing.json",
                "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"n\"}} }",
                "line"));
        out.add(text("deep.yaml", "a: " + "[".repeat(2000) + "]".repeat(2000) + "\n", "depth"));
        out.add(text("laughs.yaml", laughs(), "alias"));
        out.add(text("undefined-alias.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: *nope\n", "line"));
        out.add(text("bad-merge.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  <<: 5\n  name: n\n", "line"));
        out.add(text("duplicate-key.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  name: b\n", "name"));
        // Documents that are not objects.
        out.add(text("empty.yaml", "", "no Kubernetes objects"));
        out.add(text("comments.yaml", "# nothing\n---\n# still nothing\n", "no Kubernetes objects"));
        out.add(text("scalar.yaml", "--- hello\n", "want a Kubernetes object"));
        out.add(text("scalars.json", "[1, 2]", "want a Kubernetes object"));
        out.add(text("list-items.yaml", "apiVersion: v1\nkind: List\nitems: 5\n", "items"));
        out.add(text("no-apiversion.yaml", "kind: Node\nmetadata:\n  name: n\n", "apiVersion"));
        out.add(text("no-kind.yaml", "apiVersion: v1\nmetadata:\n  name: n\n", "kind"));
        out.add(text("number-apiversion.yaml", "apiVersion: 5\nkind: Node\nmetadata:\n  name: n\n", "apiVersion"));
        // Unknown kinds and versions.
        out.add(text(
                "typo-kind.yaml",
                "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimz\nmetadata:\n  name: c\n",
                "ResourceClaimz"));
        out.add(text(
                "old-claim.yaml",
                CLAIM.formatted("count: 1").replace("resource.k8s.io/v1", "resource.k8s.io/v1beta1"),
                "apiVersion",
                "v1beta1"));
        out.add(text(
                "old-slice.yaml",
                SLICE.formatted("- name: d0").replace("resource.k8s.io/v1", "resource.k8s.io/v1alpha3"),
                "apiVersion",
                "v1alpha3"));
        out.add(text("core-v2.yaml", "apiVersion: v2\nkind: Pod\nmetadata:\n  name: p\n", "apiVersion"));
        // Wrong types and unknown fields.
        out.add(text("count-string.yaml", CLAIM.formatted("count: two"), "ResourceClaim team-b/bad", "count"));
        out.add(text("count-fraction.yaml", CLAIM.formatted("count: 1.5"), "ResourceClaim team-b/bad", "count"));
        out.add(text(
                "requests-map.yaml",
                CLAIM.formatted("count: 1").replace("requests:\n", "requests: {}\n    x:\n"),
                "ResourceClaim team-b/bad"));
        // kube-apiserver's words (validate-oracle's output for the same objects as JSON).
        out.add(text(
                "requests-object.yaml",
                "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: bad\n  namespace: team-b\n"
                        + "spec:\n  devices:\n    requests: {a: 1}\n",
                "ResourceClaim team-b/bad",
                "json: cannot unmarshal object into Go struct field DeviceClaim.spec.devices.requests of type "
                        + "[]v1.DeviceRequest"));
        out.add(text(
                "attributes-list.yaml",
                SLICE.formatted("- name: d0\n    attributes: [1]"),
                "ResourceSlice bad-slice",
                "json: cannot unmarshal array into Go struct field Device.spec.devices.attributes of type "
                        + "map[v1.QualifiedName]v1.DeviceAttribute"));
        out.add(text("metadata-list.yaml", "apiVersion: v1\nkind: Node\nmetadata: []\n", "metadata"));
        out.add(text(
                "unknown-field.yaml",
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containerz: []\n",
                "Pod p",
                "containerz"));
        out.add(text(
                "bad-quantity.yaml",
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: nx\nstatus:\n  allocatable:\n" + "    cpu: lots\n",
                "Node nx",
                "cpu"));
        out.add(text(
                "bad-capacity.yaml",
                SLICE.formatted("- name: d0\n    capacity:\n      memory: {value: 1Gx}"),
                "ResourceSlice bad-slice",
                "memory"));
        // Objects the API server rejects.
        out.add(text(
                "count-negative.yaml",
                CLAIM.formatted("count: -3"),
                "spec.devices.requests[0].exactly.count: Invalid value: -3: must be greater than zero"));
        out.add(text(
                "bad-name.yaml",
                CLAIM.formatted("count: 1").replace("name: bad\n", "name: Bad_Name\n"),
                "metadata.name"));
        out.add(text(
                "no-pool.yaml",
                SLICE.formatted("- name: d0")
                        .replace("  pool: {name: bad, generation: 1, resourceSliceCount: 1}\n", ""),
                "spec.pool.name: Required value"));
        out.add(text(
                "two-types.yaml",
                SLICE.formatted("- name: d0\n    attributes:\n      model: {int: 1, string: x}"),
                "spec.devices[0].attributes[model]"));
        out.add(text(
                "many-selectors.yaml",
                CLAIM.formatted("selectors:\n" + "        - cel: {expression: 'true'}\n".repeat(33)),
                "spec.devices.requests[0].exactly.selectors: Too many: 33"));
        out.add(text(
                "long-cel.yaml",
                CLAIM.formatted("selectors:\n        - cel: {expression: '\"" + "a".repeat(10300) + "\" == \"\"'}"),
                "cel.expression: Too long"));
        out.add(text(
                "cel-syntax.yaml",
                CLAIM.formatted("selectors:\n        - cel: {expression: 'device.driver =='}"),
                "cel.expression",
                "compilation failed"));
        out.add(text(
                "duplicate-request.yaml",
                CLAIM.formatted("count: 1") + "    - name: gpus\n      exactly: {deviceClassName: gpu}\n",
                "spec.devices.requests[1]: Duplicate value"));
        out.add(text(
                "unknown-constraint-request.yaml",
                CLAIM.formatted("count: 1")
                        + "    constraints:\n    - requests: [nope]\n      matchAttribute: gpu.example.com/model\n",
                "spec.devices.constraints[0].requests[0]"));
        out.add(text(
                "bad-toleration.yaml",
                CLAIM.formatted("tolerations: [{key: k, operator: Bogus}]"),
                "tolerations[0].operator: Unsupported value"));
        out.add(text(
                "taint-effect.yaml",
                "apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata:\n  name: t\n"
                        + "spec:\n  taint: {key: k, effect: Bogus}\n",
                "spec.taint.effect: Unsupported value"));
        out.add(text(
                "selector-without-cel.yaml",
                "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n"
                        + "  name: c2\nspec:\n  selectors: [{}]\n",
                "spec.selectors[0].cel: Required value"));
        out.add(text(
                "huge-slice.yaml",
                SLICE.formatted("[" + "{name: d}, ".repeat(20_000) + "{name: d}]")
                        .replace("devices:\n  [", "devices: ["),
                "spec.devices: Too many: 20001"));
        out.add(text(
                "again.yaml",
                ManifestInputTest.CLUSTER.substring(0, ManifestInputTest.CLUSTER.indexOf("---")),
                "Node",
                "already exists"));
        out.add(new Case("missing.yaml", file -> {}, List.of("no such file")));
        out.add(new Case("broken-dir", BadInputsIT::directoryWithOneBrokenFile, List.of("broken.yaml", "line")));
        return out;
    }

    private static String laughs() {
        StringBuilder b =
                new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char c = 'b'; c <= 'i'; c++) {
            char p = (char) (c - 1);
            b.append(c)
                    .append(": &")
                    .append(c)
                    .append(" [")
                    .append(("*" + p + ",").repeat(8))
                    .append('*')
                    .append(p)
                    .append("]\n");
        }
        return b.toString();
    }

    private static void directoryWithOneBrokenFile(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("a-ok.yaml"), "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-3\n");
            Files.writeString(dir.resolve("broken.yaml"), "apiVersion: v1\nkind: [\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void allocateExplainAndSimulateReportItAndGoOn(Case c) throws IOException {
        Path cluster = Files.writeString(dir.resolve("cluster.yaml"), ManifestInputTest.CLUSTER);
        Path work = Files.writeString(dir.resolve("work.yaml"), ManifestInputTest.WORK);
        Path scenario = CliRuns.scenario(dir, "good-scenario", 1);
        Path bad = dir.resolve(c.name());
        c.make().accept(bad);

        for (String command : List.of("allocate", "explain", "simulate")) {
            List<String> args = new ArrayList<>(List.of(command, "-o", "json"));
            if (!command.equals("simulate")) {
                args.add(scenario.toString());
            }
            args.addAll(List.of(cluster.toString(), bad.toString(), work.toString()));
            CliRuns.Run r = assertTimeoutPreemptively(
                    Duration.ofSeconds(120),
                    () -> CliRuns.run(args.toArray(String[]::new)),
                    command + " hangs on " + c);

            assertThat(r.status())
                    .as("%s %s: exit status\n%s", command, c, r.err())
                    .isEqualTo(1);
            assertThat(r.err()).as("%s %s: names the file", command, c).contains(c.name());
            for (String s : c.says()) {
                assertThat(r.err()).as("%s %s: says %s", command, c, s).contains(s);
            }
            assertThat(r.err())
                    .as("%s %s: no stack trace", command, c)
                    .doesNotContain("Exception")
                    .doesNotContain("\tat ")
                    .doesNotContain("Caused by");
            String out = r.out();
            assertThat(out)
                    .as("%s %s: the good manifests still processed", command, c)
                    .contains("train-0");
            if (!command.equals("simulate")) {
                assertThat(out)
                        .as("%s %s: the good scenario still processed", command, c)
                        .contains("good-scenario");
            }
        }
        assertThat(Files.readString(work)).as("inputs unchanged").isEqualTo(ManifestInputTest.WORK);
    }

    @ParameterizedTest(name = "permission denied: {0}")
    @MethodSource("commands")
    void anUnreadableFileIsReportedAndTheOthersRun(String command) throws IOException {
        Path work = Files.writeString(dir.resolve("work.yaml"), ManifestInputTest.WORK);
        Path cluster = Files.writeString(dir.resolve("cluster.yaml"), ManifestInputTest.CLUSTER);
        Path locked = Files.writeString(dir.resolve("locked.yaml"), ManifestInputTest.CLUSTER);
        Assumptions.assumeTrue(
                locked.toFile().setReadable(false) && !Files.isReadable(locked),
                "the file system lets this user read a file without read permission (root)");
        CliRuns.Run r = CliRuns.run(command, "-o", "json", cluster.toString(), locked.toString(), work.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("locked.yaml").contains("ermission denied").doesNotContain("Exception");
        assertThat(r.out()).contains("train-0");
    }

    static List<String> commands() {
        return List.of("allocate", "explain", "simulate");
    }
}
