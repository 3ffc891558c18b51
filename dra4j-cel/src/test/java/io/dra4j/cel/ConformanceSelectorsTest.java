package io.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The CEL side of the shared conformance scenarios, at the expression level: every device a scenario expects to be
 * allocated for a request must pass the class and request selectors of that request, and the scenarios that expect a
 * CEL error (cel-*, invalid-CEL-*) must produce that error text when their selectors meet their devices. The
 * scenarios are the repository's {@code conformance/cases} (found above the module), or
 * {@code -Ddra4j.conformance.cases=DIR}.
 */
class ConformanceSelectorsTest {

    private static final ObjectMapper YAML = new YAMLMapper();

    @TestFactory
    Stream<DynamicTest> scenarioSelectors() throws IOException {
        Optional<Path> dir = casesDirectory();
        assumeTrue(dir.isPresent(), "conformance cases not found");
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.get())) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                JsonNode scenario = YAML.readTree(file.toFile());
                JsonNode expect = scenario.path("expect");
                String name = file.getFileName().toString();
                boolean celError = expect.has("error") && (name.startsWith("cel-") || name.startsWith("invalid-CEL-"));
                if (expect.has("allocations") || celError) {
                    tests.add(DynamicTest.dynamicTest(name, () -> new Scenario(scenario).check()));
                }
            }
        }
        return tests.stream();
    }

    private static Optional<Path> casesDirectory() {
        String property = System.getProperty("dra4j.conformance.cases");
        if (property != null) {
            return Optional.of(Paths.get(property));
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("conformance/cases");
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** One scenario's classes, devices and requests. */
    private static final class Scenario {
        private final JsonNode scenario;
        private final DeviceSelectorEnvironment env;
        private final Map<String, List<String>> classSelectors = new HashMap<>();
        private final Map<String, CelDevice> devices = new HashMap<>();
        private final List<CelDevice> allDevices = new ArrayList<>();

        Scenario(JsonNode scenario) {
            this.scenario = scenario;
            List<String> features = new ArrayList<>();
            scenario.path("features").forEach(f -> features.add(f.asString()));
            env = DeviceSelectorEnvironment.create(new CelFeatures(
                    features.contains("DRAConsumableCapacity"), features.contains("DRAListTypeAttributes")));
            for (JsonNode deviceClass : scenario.path("deviceClasses")) {
                classSelectors.put(
                        deviceClass.path("metadata").path("name").asString(),
                        expressions(deviceClass.path("spec").path("selectors")));
            }
            for (JsonNode slice : scenario.path("resourceSlices")) {
                String driver = slice.path("spec").path("driver").asString();
                String pool = slice.path("spec").path("pool").path("name").asString();
                for (JsonNode node : slice.path("spec").path("devices")) {
                    CelDevice device = env.device(driver, YAML.treeToValue(node, Device.class));
                    devices.putIfAbsent(
                            driver + "/" + pool + "/" + node.path("name").asString(), device);
                    allDevices.add(device);
                }
            }
        }

        void check() {
            JsonNode expect = scenario.path("expect");
            if (expect.has("error")) {
                checkError(expect.get("error").asString());
            } else {
                checkAllocations(expect.path("allocations"));
            }
        }

        /** Each allocated device satisfies the selectors of the request (or subrequest) it was allocated for. */
        private void checkAllocations(JsonNode allocations) {
            for (JsonNode allocation : allocations) {
                Map<String, JsonNode> requests =
                        requests(allocation.path("claim").asString());
                for (JsonNode result : allocation.path("results")) {
                    String key = result.path("driver").asString() + "/"
                            + result.path("pool").asString() + "/"
                            + result.path("device").asString();
                    CelDevice device = devices.get(key);
                    JsonNode request = requests.get(result.path("request").asString());
                    assertThat(device).as("device %s", key).isNotNull();
                    assertThat(request)
                            .as("request %s", result.path("request").asString())
                            .isNotNull();
                    for (String expression : selectorsOf(request)) {
                        assertThat(env.compile(expression).evaluate(device))
                                .as("%s on %s", expression, key)
                                .isEqualTo(new EvalResult.Matched(true));
                    }
                }
            }
        }

        /** Some request's selectors fail on some device with the expected text. */
        private void checkError(String expected) {
            String marker = expected.contains("CEL runtime error: ") ? "CEL runtime error: " : "CEL compile error: ";
            String text = expected.contains(marker)
                    ? expected.substring(expected.indexOf(marker) + marker.length())
                    : expected;
            List<String> failures = new ArrayList<>();
            for (JsonNode claim : scenario.path("claims")) {
                for (JsonNode request : requests(claim).values()) {
                    for (CelDevice device : allDevices) {
                        for (String expression : selectorsOf(request)) {
                            EvalResult result = env.compile(expression).evaluate(device);
                            if (result instanceof EvalResult.Failed) {
                                failures.add(((EvalResult.Failed) result).message());
                            }
                            if (!result.equals(new EvalResult.Matched(true))) {
                                break;
                            }
                        }
                    }
                }
            }
            assertThat(failures).anySatisfy(message -> assertThat(message).contains(text));
        }

        private Map<String, JsonNode> requests(String claimName) {
            for (JsonNode claim : scenario.path("claims")) {
                JsonNode meta = claim.path("metadata");
                String name = meta.path("name").asString();
                String qualified = meta.path("namespace").asString("") + "/" + name;
                if (claimName.equals(name) || claimName.equals(qualified)) {
                    return requests(claim);
                }
            }
            throw new AssertionError("no claim " + claimName);
        }

        /** Requests by result name: the request's name, or "request/subrequest" for firstAvailable. */
        private static Map<String, JsonNode> requests(JsonNode claim) {
            Map<String, JsonNode> out = new HashMap<>();
            for (JsonNode request : claim.path("spec").path("devices").path("requests")) {
                String name = request.path("name").asString();
                if (request.has("firstAvailable")) {
                    for (JsonNode sub : request.get("firstAvailable")) {
                        out.put(name + "/" + sub.path("name").asString(), sub);
                    }
                } else {
                    out.put(name, request.has("exactly") ? request.get("exactly") : request);
                }
            }
            return out;
        }

        /** Class selectors first, then the request's own, as the allocator evaluates them. */
        private List<String> selectorsOf(JsonNode request) {
            List<String> out = new ArrayList<>(
                    classSelectors.getOrDefault(request.path("deviceClassName").asString(), List.of()));
            out.addAll(expressions(request.path("selectors")));
            return out;
        }

        private static List<String> expressions(JsonNode selectors) {
            List<String> out = new ArrayList<>();
            for (JsonNode selector : selectors) {
                if (selector.has("cel")) {
                    out.add(selector.get("cel").get("expression").asString());
                }
            }
            return out;
        }
    }
}
