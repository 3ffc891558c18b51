package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Objects kube-apiserver 1.37 rejects are rejected while reading, with its field path and message (the messages are
 * those of k8s.io/kubernetes pkg/apis/resource/validation and apimachinery's field errors).
 */
class ApiValidationTest {
    private static final String SCENARIO = """
            name: validation
            node:
              name: node-1
            deviceClasses:
            - apiVersion: resource.k8s.io/v1
              kind: DeviceClass
              metadata:
                name: gpu
              spec:
                selectors:
                - cel:
                    expression: device.driver == "gpu.example.com"
            resourceSlices:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceSlice
              metadata:
                name: slice-1
              spec:
                driver: gpu.example.com
                pool: {name: pool-1, generation: 1, resourceSliceCount: 1}
                nodeName: node-1
                devices:
                - name: gpu-0
                  attributes:
                    model: {string: h100}
            claims:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceClaim
              metadata:
                name: claim-0
              spec:
                devices:
                  requests:
                  - name: req-0
                    exactly:
                      deviceClassName: gpu
                      count: 1
            """;

    @TempDir
    Path dir;

    private Path write(String content) throws IOException {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, content);
        return file;
    }

    private String failure(String from, String to) throws IOException {
        assertThat(SCENARIO).contains(from);
        Path file = write(SCENARIO.replace(from, to));
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioReader.read(file, true));
        assertThat(e).as("reading should fail").isNotNull();
        return e.getMessage();
    }

    private Scenario read(String from, String to) throws Exception {
        assertThat(SCENARIO).contains(from);
        return ScenarioReader.read(write(SCENARIO.replace(from, to)), true);
    }

    @Test
    void theBaseScenarioIsValid() throws Exception {
        assertThat(ScenarioReader.read(write(SCENARIO), true).claims()).hasSize(1);
    }

    @Test
    void selectorOverTheEstimatedCostLimit() throws IOException {
        // Upstream's estimate of this expression is 6,070,467 (oracle/cel -cost), over CELSelectorExpressionMaxCost.
        assertThat(failure(
                        "expression: device.driver == \"gpu.example.com\"",
                        "expression: 'device.attributes.all(a, device.attributes.all(c, device.attributes[a].all(b, "
                                + "device.driver.matches(b + c))))'"))
                .contains(
                        "deviceClasses[0] (DeviceClass gpu): spec.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit");
    }

    @Test
    void costlySelectorWithinTheEstimatedCostLimit() throws Exception {
        // Upstream's estimate: 563,395.
        assertThat(read(
                                "expression: device.driver == \"gpu.example.com\"",
                                "expression: 'device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, "
                                        + "device.driver == device.attributes[\"gpu.example.com\"].model)))'")
                        .claims())
                .hasSize(1);
    }

    @Test
    void negativeCount() throws IOException {
        assertThat(failure("count: 1", "count: -3"))
                .contains(
                        "claims[0] (ResourceClaim claim-0): spec.devices.requests[0].exactly.count: Invalid value: -3: must be greater than zero");
    }

    @Test
    void zeroCountIsDefaultedToOneAsTheApiServerDoes() throws Exception {
        Scenario s = read("count: 1", "count: 0");
        assertThat(s.claims()
                        .get(0)
                        .getSpec()
                        .getDevices()
                        .getRequests()
                        .get(0)
                        .getExactly()
                        .getCount())
                .isEqualTo(1L);
        assertThat(s.claims()
                        .get(0)
                        .getSpec()
                        .getDevices()
                        .getRequests()
                        .get(0)
                        .getExactly()
                        .getAllocationMode())
                .isEqualTo("ExactCount");
    }

    @Test
    void countWithAllocationModeAll() throws IOException {
        assertThat(failure("count: 1", "count: 2\n          allocationMode: All"))
                .contains(
                        "spec.devices.requests[0].exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All'");
    }

    @Test
    void unknownAllocationMode() throws IOException {
        assertThat(failure("count: 1", "allocationMode: Some"))
                .contains(
                        "spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Some\": supported values: \"All\", \"ExactCount\"");
    }

    @Test
    void requestNameThatIsNotADnsLabel() throws IOException {
        assertThat(failure("- name: req-0", "- name: Req_0"))
                .contains(
                        "spec.devices.requests[0].name: Invalid value: \"Req_0\": a lowercase RFC 1123 label must consist of lower case "
                                + "alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  "
                                + "or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    }

    @Test
    void requestNameWithDots() throws IOException {
        assertThat(failure("- name: req-0", "- name: req.0"))
                .contains("spec.devices.requests[0].name: Invalid value: \"req.0\": must not contain dots");
    }

    @Test
    void claimNameThatIsNotASubdomain() throws IOException {
        assertThat(failure("name: claim-0", "name: Claim_0"))
                .contains(
                        "claims[0] (ResourceClaim Claim_0): metadata.name: Invalid value: \"Claim_0\": a lowercase RFC 1123 subdomain");
    }

    @Test
    void duplicateRequestNames() throws IOException {
        assertThat(failure(
                        "          count: 1\n",
                        "          count: 1\n      - name: req-0\n        exactly: {deviceClassName: gpu}\n"))
                .contains(
                        "spec.devices.requests[1]: Duplicate value: {\"name\":\"req-0\",\"exactly\":{\"deviceClassName\":"
                                + "\"gpu\",\"allocationMode\":\"ExactCount\",\"count\":1}}");
    }

    @Test
    void requestWithNeitherExactlyNorFirstAvailable() throws IOException {
        assertThat(failure("          count: 1\n", "          count: 1\n      - name: req-1\n"))
                .contains(
                        "spec.devices.requests[1]: Required value: exactly one of `exactly` or `firstAvailable` is required");
    }

    @Test
    void missingDeviceClassName() throws IOException {
        assertThat(failure("deviceClassName: gpu\n", ""))
                .contains("spec.devices.requests[0].exactly.deviceClassName: Required value");
    }

    @Test
    void celExpressionOverTheLengthLimit() throws IOException {
        String longExpression = "device.driver == \"" + "x".repeat(10 * 1024) + "\"";
        assertThat(failure("expression: device.driver == \"gpu.example.com\"", "expression: '" + longExpression + "'"))
                .contains(
                        "deviceClasses[0] (DeviceClass gpu): spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes");
    }

    @Test
    void tooManySelectors() throws IOException {
        StringBuilder selectors = new StringBuilder("          selectors:\n");
        for (int i = 0; i < 33; i++) {
            selectors.append("          - cel: {expression: 'true'}\n");
        }
        assertThat(failure("          count: 1\n", "          count: 1\n" + selectors))
                .contains("spec.devices.requests[0].exactly.selectors: Too many: 33: must have at most 32 items");
    }

    @Test
    void tooManyDevicesInASlice() throws IOException {
        StringBuilder devices = new StringBuilder("    devices:\n");
        for (int i = 0; i < 129; i++) {
            devices.append("    - name: gpu-").append(i).append('\n');
        }
        assertThat(failure(
                        "    devices:\n    - name: gpu-0\n      attributes:\n        model: {string: h100}\n",
                        devices.toString()))
                .contains(
                        "resourceSlices[0] (ResourceSlice slice-1): spec.devices: Too many: 129: must have at most 128 items");
    }

    @Test
    void duplicateDeviceNames() throws IOException {
        assertThat(failure("    - name: gpu-0\n", "    - name: gpu-0\n    - name: gpu-0\n"))
                .contains("spec.devices[1]: Duplicate value: \"gpu-0\"");
    }

    /** kube-apiserver 1.37 reports the declarative union's error here (oracle/validate prints it so). */
    @Test
    void attributeWithTwoValueTypes() throws IOException {
        assertThat(failure("model: {string: h100}", "model: {string: h100, int: 3}"))
                .contains(
                        "spec.devices[0].attributes[model]: Invalid value: \"{int, string}\": must specify exactly one of: "
                                + "`int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`");
    }

    @Test
    void attributeWithNoValue() throws IOException {
        assertThat(failure("model: {string: h100}", "model: {}"))
                .contains("spec.devices[0].attributes[model]: Invalid value: \"\": must specify one of: "
                        + "`int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`");
    }

    @Test
    void attributeStringOverTheLengthLimit() throws IOException {
        assertThat(failure("model: {string: h100}", "model: {string: " + "h".repeat(65) + "}"))
                .contains("spec.devices[0].attributes[model].string: Too long: may not be more than 64 bytes");
    }

    @Test
    void attributeNameThatIsNotACIdentifier() throws IOException {
        assertThat(failure("model: {string: h100}", "gpu-model: {string: h100}"))
                .contains(
                        "spec.devices[0].attributes: Invalid value: \"gpu-model\": a valid C identifier must start with alphabetic character or '_'");
    }

    @Test
    void invalidVersionAttribute() throws IOException {
        assertThat(failure("model: {string: h100}", "model: {version: v1}"))
                .contains(
                        "spec.devices[0].attributes[model].version: Invalid value: \"v1\": must be a string compatible with semver.org spec 2.0.0");
    }

    @Test
    void tooManyAttributes() throws IOException {
        StringBuilder attributes = new StringBuilder();
        for (int i = 0; i < 33; i++) {
            attributes
                    .append("          a")
                    .append(i)
                    .append(": {int: ")
                    .append(i)
                    .append("}\n");
        }
        assertThat(failure(
                        "        model: {string: h100}\n", attributes.toString().replace("          a", "        a")))
                .contains(
                        "spec.devices[0]: Invalid value: 33: the total number of attributes and capacities must not exceed 32");
    }

    @Test
    void sliceWithoutPool() throws IOException {
        assertThat(failure("    pool: {name: pool-1, generation: 1, resourceSliceCount: 1}\n", ""))
                .contains("resourceSlices[0] (ResourceSlice slice-1): spec.pool.name: Required value; "
                        + "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero");
    }

    @Test
    void sliceWithoutNodeSelection() throws IOException {
        assertThat(failure("    nodeName: node-1\n", ""))
                .contains(
                        "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required");
    }

    @Test
    void sliceWithTwoNodeSelections() throws IOException {
        assertThat(failure("    nodeName: node-1\n", "    nodeName: node-1\n    allNodes: true\n"))
                .contains(
                        "spec: Invalid value: \"{`nodeName`, `allNodes`}\": exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                                + "`perDeviceNodeSelection` is required, but multiple fields are set");
    }

    @Test
    void badDriverName() throws IOException {
        assertThat(failure("driver: gpu.example.com\n", "driver: gpu_example\n"))
                .contains("spec.driver: Invalid value: \"gpu_example\": a lowercase RFC 1123 subdomain");
    }

    @Test
    void constraintNamingAnUnknownRequest() throws IOException {
        assertThat(
                        failure(
                                "          count: 1\n",
                                "          count: 1\n      constraints:\n      - requests: [req-9]\n        matchAttribute: gpu.example.com/model\n"))
                .contains(
                        "spec.devices.constraints[0].requests[0]: Invalid value: \"req-9\": must be the name of a request in the claim");
    }

    @Test
    void constraintAttributeWithoutDomain() throws IOException {
        assertThat(failure(
                        "          count: 1\n",
                        "          count: 1\n      constraints:\n      - matchAttribute: model\n"))
                .contains(
                        "spec.devices.constraints[0].matchAttribute: Invalid value: \"model\": a fully qualified name must be a domain and a name separated by a slash");
    }

    @Test
    void withoutValidationObjectsAreTakenAsUpstreamsAllocatorTestsHandThemOver() throws Exception {
        Path file = write(SCENARIO.replace("count: 1", "count: -3"));
        assertThat(ScenarioReader.read(file)
                        .claims()
                        .get(0)
                        .getSpec()
                        .getDevices()
                        .getRequests()
                        .get(0)
                        .getExactly()
                        .getCount())
                .isEqualTo(-3L);
    }

    @Test
    void errorsCarryTheirLineAndColumn() throws IOException {
        assertThat(failure("count: 1", "count: -3")).contains("line 37, column 18: claims[0]");
    }
}
