package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.DraFeature;
import io.dra4j.cel.KubeQuantity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioReaderTest {
    /** A valid scenario using every key; the tests below break one thing at a time. */
    private static final String VALID = """
            name: valid
            source: dra4j
            features:
            - DRAConsumableCapacity
            - DRADeviceTaints
            confidence: high
            notes: a note
            node:
              name: node-1
              labels:
                region: r1
            deviceClasses:
            - apiVersion: resource.k8s.io/v1
              kind: DeviceClass
              metadata:
                name: class-a
              spec:
                selectors:
                - cel:
                    expression: device.driver == "driver-a"
            resourceSlices:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceSlice
              metadata:
                name: slice-1
              spec:
                driver: driver-a
                pool:
                  name: pool-1
                  generation: 1
                  resourceSliceCount: 1
                nodeName: node-1
                devices:
                - name: device-1
                  capacity:
                    memory:
                      value: 4Gi
                  allowMultipleAllocations: true
                - name: device-2
            deviceTaintRules:
            - apiVersion: resource.k8s.io/v1
              kind: DeviceTaintRule
              metadata:
                name: rule-1
              spec:
                taint:
                  key: broken
                  effect: NoSchedule
            allocatedDevices:
            - driver: driver-a
              pool: pool-1
              device: device-2
            - driver: driver-a
              pool: pool-1
              device: device-1
              shared: true
              consumedCapacity:
                memory: 1Gi
            - apiVersion: resource.k8s.io/v1
              kind: ResourceClaim
              metadata:
                name: old-claim
              spec: {}
              status:
                allocation:
                  devices:
                    results:
                    - request: r
                      driver: driver-a
                      pool: pool-1
                      device: device-2
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
                      deviceClassName: class-a
                      allocationMode: ExactCount
                      count: 1
            expect:
              allocations:
              - claim: claim-0
                results:
                - request: req-0
                  driver: driver-a
                  pool: pool-1
                  device: device-1
                  shareID: '*'
                nodeSelector: null
              resultOrderAsserted: true
            """;

    @TempDir
    Path dir;

    private Path write(String content) throws IOException {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, content);
        return file;
    }

    /** Reads VALID with {@code from} replaced by {@code to} and returns the error message. */
    private String failure(String from, String to) throws IOException {
        assertThat(VALID).contains(from);
        return failure(VALID.replace(from, to));
    }

    private String failure(String content) throws IOException {
        Path file = write(content);
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioReader.read(file));
        assertThat(e).as("reading should fail").isNotNull();
        assertThat(e.getMessage()).startsWith("scenario file " + file + ": ");
        assertThat(e.file()).isEqualTo(file);
        return e.getMessage();
    }

    @Test
    void readsEveryPartOfAScenario() throws Exception {
        Scenario s = ScenarioReader.read(write(VALID));

        assertThat(s.name()).isEqualTo("valid");
        assertThat(s.source()).isEqualTo("dra4j");
        assertThat(s.confidence()).isEqualTo("high");
        assertThat(s.notes()).isEqualTo("a note");
        assertThat(s.features()).contains(List.of(DraFeature.DRAConsumableCapacity, DraFeature.DRADeviceTaints));
        assertThat(s.node().getMetadata().getName()).isEqualTo("node-1");
        assertThat(s.node().getMetadata().getLabels()).isEqualTo(Map.of("region", "r1"));
        assertThat(s.deviceClasses())
                .singleElement()
                .satisfies(c -> assertThat(c.getMetadata().getName()).isEqualTo("class-a"));
        assertThat(s.resourceSlices().get(0).getSpec().getDevices()).hasSize(2);
        assertThat(s.deviceTaintRules().get(0).getSpec().getTaint().getKey()).isEqualTo("broken");
        assertThat(s.allocatedDevices()).hasSize(3);
        assertThat(s.allocatedDevices().get(0))
                .isEqualTo(new AllocatedDevice.Exclusive(new DeviceId("driver-a", "pool-1", "device-2")));
        assertThat(s.allocatedDevices().get(1))
                .isEqualTo(new AllocatedDevice.Shared(
                        new DeviceId("driver-a", "pool-1", "device-1"),
                        Optional.empty(),
                        Map.of("memory", KubeQuantity.parse("1Gi"))));
        assertThat(s.allocatedDevices().get(2))
                .isInstanceOfSatisfying(
                        AllocatedDevice.Claim.class,
                        c -> assertThat(c.claim().getMetadata().getName()).isEqualTo("old-claim"));
        assertThat(s.claims())
                .singleElement()
                .satisfies(c -> assertThat(c.getMetadata().getName()).isEqualTo("claim-0"));
        assertThat(s.expectation()).get().isInstanceOfSatisfying(Expectation.Allocated.class, a -> {
            assertThat(a.resultOrderAsserted()).isTrue();
            assertThat(a.allocations()).singleElement().satisfies(m -> {
                assertThat(m.get("claim")).isEqualTo("claim-0");
                assertThat(m).containsKey("nodeSelector");
                assertThat(m.get("nodeSelector")).isNull();
            });
        });
        assertThat(s.sourcePath()).isEqualTo(dir.resolve("s.yaml"));
    }

    @Test
    void absentFeaturesAreEmptyButAnEmptyListIsNoGates() throws Exception {
        String withoutFeatures = VALID.replace("features:\n- DRAConsumableCapacity\n- DRADeviceTaints\n", "");
        assertThat(ScenarioReader.read(write(withoutFeatures)).features()).isEmpty();
        String noGates = VALID.replace("features:\n- DRAConsumableCapacity\n- DRADeviceTaints\n", "features: []\n");
        assertThat(ScenarioReader.read(write(noGates)).features()).contains(List.of());
    }

    @Test
    void otherExpectationKinds() throws Exception {
        int at = VALID.indexOf("expect:");
        assertThat(ScenarioReader.read(write(VALID.substring(0, at) + "expect:\n  unschedulable: true\n"))
                        .expectation())
                .contains(new Expectation.Unschedulable());
        assertThat(ScenarioReader.read(write(VALID.substring(0, at) + "expect:\n  error: 'boom'\n"))
                        .expectation())
                .contains(new Expectation.Error("boom"));
        assertThat(ScenarioReader.read(write(VALID.substring(0, at))).expectation())
                .isEmpty();
    }

    @Test
    void malformedYamlNamesTheLine() throws IOException {
        assertThat(failure("node:\n  name: node-1\n", "node:\n  name: [node-1\n"))
                .contains("malformed YAML at line 10, column 9");
    }

    @Test
    void duplicateKeysAreErrors() throws IOException {
        assertThat(failure("    region: r1\n", "    region: r1\n    region: r2\n"))
                .contains("line 12")
                .contains("\"region\"");
    }

    @Test
    void unknownTopLevelKey() throws IOException {
        assertThat(failure("notes: a note\n", "note: a note\n")).contains("note: unknown key \"note\"");
    }

    @Test
    void unknownKind() throws IOException {
        assertThat(failure("  kind: DeviceClass\n", "  kind: GpuClass\n"))
                .contains("deviceClasses[0] (GpuClass class-a): kind: unknown kind \"GpuClass\"");
    }

    @Test
    void wrongKindInAList() throws IOException {
        assertThat(failure("  kind: DeviceTaintRule\n", "  kind: DeviceClass\n"))
                .contains(
                        "deviceTaintRules[0] (DeviceClass rule-1): kind: a DeviceClass does not belong in deviceTaintRules");
    }

    @Test
    void unsupportedApiVersion() throws IOException {
        assertThat(failure(
                        "- apiVersion: resource.k8s.io/v1\n  kind: DeviceClass",
                        "- apiVersion: resource.k8s.io/v2\n  kind: DeviceClass"))
                .contains(
                        "deviceClasses[0] (DeviceClass class-a): apiVersion: apiVersion resource.k8s.io/v2 is not supported");
    }

    @Test
    void v1beta1ClaimSaysWhereRequestFieldsMoved() throws IOException {
        String message = failure("""
                  kind: ResourceClaim
                  metadata:
                    name: claim-0
                  spec:
                    devices:
                      requests:
                      - name: req-0
                        exactly:
                          deviceClassName: class-a
                          allocationMode: ExactCount
                          count: 1
                """, """
                  kind: ResourceClaim
                  metadata:
                    name: claim-0
                  spec:
                    devices:
                      requests:
                      - name: req-0
                        deviceClassName: class-a
                        allocationMode: ExactCount
                        count: 1
                """);
        assertThat(message)
                .contains("claims[0] (ResourceClaim claim-0): spec.devices.requests[0].deviceClassName: "
                        + "unknown field \"deviceClassName\" (in resource.k8s.io/v1 it belongs under exactly");

        String v1beta1 = VALID.replace(
                        "- apiVersion: resource.k8s.io/v1\n  kind: ResourceClaim\n  metadata:\n    name: claim-0",
                        "- apiVersion: resource.k8s.io/v1beta1\n  kind: ResourceClaim\n  metadata:\n    name: claim-0")
                .replace(
                        "    exactly:\n          deviceClassName: class-a",
                        "    deviceClassName: class-a\n        exactly:");
        assertThat(failure(v1beta1))
                .contains(
                        "claims[0] (ResourceClaim claim-0): apiVersion: apiVersion resource.k8s.io/v1beta1 is not supported")
                .contains("moved under spec.devices.requests[].exactly")
                .contains(
                        "spec.devices.requests[0].deviceClassName -> spec.devices.requests[0].exactly.deviceClassName");
    }

    @Test
    void v1beta1SliceSaysBasicMoved() throws IOException {
        String v1beta1 = VALID.replace(
                        "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice",
                        "- apiVersion: resource.k8s.io/v1beta1\n  kind: ResourceSlice")
                .replace("    - name: device-2\n", "    - name: device-2\n      basic: {}\n");
        assertThat(failure(v1beta1))
                .contains("resourceSlices[0] (ResourceSlice slice-1): apiVersion: apiVersion resource.k8s.io/v1beta1")
                .contains("devices[].basic.* moved to devices[].*")
                .contains("spec.devices[1].basic");
    }

    @Test
    void v1alpha3SliceAlsoMentionsCapacityValues() throws IOException {
        assertThat(failure(
                        "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice",
                        "- apiVersion: resource.k8s.io/v1alpha3\n  kind: ResourceSlice"))
                .contains("resourceSlices[0] (ResourceSlice slice-1): apiVersion: apiVersion resource.k8s.io/v1alpha3")
                .contains("devices[].basic.* moved to devices[].*")
                .contains("capacities are {value: <quantity>}");
    }

    @Test
    void v1beta2SaysOnlyTheApiVersionChanges() throws IOException {
        assertThat(failure(
                        "- apiVersion: resource.k8s.io/v1\n  kind: DeviceTaintRule",
                        "- apiVersion: resource.k8s.io/v1beta2\n  kind: DeviceTaintRule"))
                .contains("deviceTaintRules[0] (DeviceTaintRule rule-1): apiVersion:")
                .contains("change apiVersion to resource.k8s.io/v1");
    }

    @Test
    void unknownFeatureGate() throws IOException {
        assertThat(failure("- DRADeviceTaints\n", "- DRADeviceTaints\n- DRAMagic\n"))
                .contains("features[2]: unknown DRA feature gate \"DRAMagic\"");
    }

    @Test
    void unparsableQuantityInAnObject() throws IOException {
        assertThat(failure("value: 4Gi", "value: 4Gigs"))
                .contains("resourceSlices[0] (ResourceSlice slice-1): spec.devices[0].capacity.memory.value: "
                        + "quantity \"4Gigs\" cannot be parsed");
    }

    @Test
    void unparsableQuantityInConsumedCapacity() throws IOException {
        assertThat(failure("memory: 1Gi", "memory: one"))
                .contains("allocatedDevices[1].consumedCapacity.memory: quantity \"one\" cannot be parsed");
    }

    @Test
    void unknownFieldInsideAnObject() throws IOException {
        assertThat(failure(
                        "  allowMultipleAllocations: true\n", "  allowMultipleAllocations: true\n      colour: red\n"))
                .contains(
                        "resourceSlices[0] (ResourceSlice slice-1): spec.devices[0].colour: unknown field \"colour\"");
        assertThat(failure("    name: class-a\n", "    name: class-a\n    labelz: {}\n"))
                .contains("deviceClasses[0] (DeviceClass class-a): metadata.labelz: unknown field \"labelz\"");
    }

    @Test
    void valueOfTheWrongType() throws IOException {
        assertThat(failure("resourceSliceCount: 1", "resourceSliceCount: all"))
                .contains(
                        "resourceSlices[0] (ResourceSlice slice-1): spec.pool.resourceSliceCount: json: cannot "
                                + "unmarshal string into Go struct field ResourcePool.spec.pool.resourceSliceCount of type int64");
    }

    @Test
    void unknownKeyInADeviceReference() throws IOException {
        assertThat(failure("  device: device-2\n", "  device: device-2\n  node: node-1\n"))
                .contains("allocatedDevices[0].node: unknown key \"node\"");
    }

    @Test
    void badNode() throws IOException {
        assertThat(failure("    region: r1\n", "    region: 1\n"))
                .contains("node.labels.region: label values are strings");
        assertThat(failure("  name: node-1\n", "  nme: node-1\n")).contains("node.nme: unknown key \"nme\"");
    }

    @Test
    void expectationWithTwoOutcomes() throws IOException {
        assertThat(failure("  resultOrderAsserted: true\n", "  resultOrderAsserted: true\n  unschedulable: true\n"))
                .contains("expect: want exactly one of allocations, unschedulable: true or error");
        assertThat(failure("      shareID: '*'\n", "      sharedID: '*'\n"))
                .contains("expect.allocations[0].results[0].sharedID: unknown key \"sharedID\"");
    }

    @Test
    void emptyAndMultiDocumentFiles() throws IOException {
        assertThat(failure("")).contains("holds no scenario");
        assertThat(failure(VALID + "---\n" + VALID)).contains("holds 2 YAML documents");
    }

    @Test
    void missingFileIsNamedAndLabelledByFileName() {
        Path missing = dir.resolve("nowhere.yaml");
        assertThatThrownBy(() -> ScenarioReader.read(missing)).isInstanceOfSatisfying(ScenarioException.class, e -> {
            assertThat(e.getMessage()).isEqualTo("scenario file " + missing + ": no such file");
            assertThat(e.scenarioName()).isEqualTo("nowhere");
        });
    }

    @Test
    void errorsAreLabelledWithTheScenarioNameWhenItCanBeRead() throws IOException {
        Path file = write(VALID.replace("- DRADeviceTaints\n", "- DRAMagic\n"));
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioReader.read(file));
        assertThat(e.scenarioName()).isEqualTo("valid");
    }
}
