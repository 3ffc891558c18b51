package io.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.cel.internal.SelectorProgram;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Selectors evaluated by upstream (k8s.io/dynamic-resource-allocation v0.37.2 {@code cel.NewCache(...).GetOrCompile}
 * and {@code DeviceMatches} with {@code EnhanceRuntimeError}, cel-go v0.29.2) on small devices: compile error text,
 * runtime error text, match result and actual cost ({@code EvalDetails.ActualCost}), recorded in
 * {@code selector-upstream.jsonl} (and the generated differential's shrunk divergences in
 * {@code selector-difftest.jsonl}). Cases whose upstream outcome depends on Go map iteration order are not included.
 */
class UpstreamSelectorFactsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(false, false));

    @TestFactory
    Stream<DynamicTest> selectorsBehaveAsUpstream() throws Exception {
        return facts("selector-upstream.jsonl");
    }

    /** Divergences the generated differential (oracle/cel-difftest) found, shrunk, with upstream's outcome. */
    @TestFactory
    Stream<DynamicTest> generatedDivergencesBehaveAsUpstream() throws Exception {
        return facts("selector-difftest.jsonl");
    }

    private Stream<DynamicTest> facts(String resource) throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream(resource);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                JsonNode fact = JSON.readTree(line);
                tests.add(DynamicTest.dynamicTest(fact.get("expr").asString(), () -> check(fact)));
            }
        }
        return tests.stream();
    }

    private void check(JsonNode fact) throws Exception {
        CompiledExpression compiled = env.compile(fact.get("expr").asString());
        JsonNode expect = fact.get("expect");
        if (expect.has("compileError")) {
            assertThat(compiled.compileError())
                    .contains(expect.get("compileError").asString());
            return;
        }
        assertThat(compiled.compileError()).isEmpty();
        CelDevice device = env.device(fact.path("driver").asString(""), device(fact));
        EvalResult result = compiled.evaluate(device);
        if (expect.has("error")) {
            assertThat(result)
                    .isEqualTo(new EvalResult.Failed(expect.get("error").asString()));
            return;
        }
        assertThat(result).isEqualTo(new EvalResult.Matched(expect.get("match").asBoolean()));
        if (expect.has("cost")) {
            // A fact leaves the cost out only where it differs by a cost difference the README lists as known.
            SelectorProgram program = compiled.program().orElseThrow();
            assertThat(program.cost(device.view()))
                    .as("actual cost")
                    .isEqualTo(expect.get("cost").asLong());
        }
    }

    static Device device(JsonNode fact) {
        Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : fact.path("attrs").properties()) {
            attributes.put(e.getKey(), JSON.treeToValue(e.getValue(), DeviceAttribute.class));
        }
        Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : fact.path("capacity").properties()) {
            DeviceCapacity c = new DeviceCapacity();
            c.setValue(new Quantity(e.getValue().asString()));
            capacity.put(e.getKey(), c);
        }
        Device device = new Device();
        device.setName("device");
        device.setAttributes(attributes);
        device.setCapacity(capacity);
        if (fact.has("multi")) {
            device.setAllowMultipleAllocations(fact.get("multi").asBoolean());
        }
        return device;
    }
}
