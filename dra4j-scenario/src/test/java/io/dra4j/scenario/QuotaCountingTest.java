package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The cases of upstream's resource_claims_test.go (pkg/quota/v1/evaluator/core, v1.37.2) and Kueue's rules. */
class QuotaCountingTest {
    private static ResourceClaimSpec spec(String devicesJson) {
        String json = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\"},"
                + "\"spec\":{\"devices\":" + devicesJson + "}}";
        return JsonMapper.builder().build().readValue(json, ResourceClaim.class).getSpec();
    }

    @Test
    void exactCountAllAndDefaults() {
        assertThat(QuotaCounting.resourceQuota(spec("{\"requests\":["
                        + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu\",\"count\":3}},"
                        + "{\"name\":\"b\",\"exactly\":{\"deviceClassName\":\"gpu\"}},"
                        + "{\"name\":\"c\",\"exactly\":{\"deviceClassName\":\"nic\",\"allocationMode\":\"All\"}}]}")))
                .containsExactly(
                        Map.entry("count/resourceclaims.resource.k8s.io", 1L),
                        Map.entry("gpu.deviceclass.resource.k8s.io/devices", 4L),
                        Map.entry("nic.deviceclass.resource.k8s.io/devices", 32L));
    }

    @Test
    void firstAvailableChargesTheLargestSubrequestPerClass() {
        assertThat(QuotaCounting.resourceQuota(spec("{\"requests\":[{\"name\":\"a\",\"firstAvailable\":["
                        + "{\"name\":\"big\",\"deviceClassName\":\"gpu\",\"count\":4},"
                        + "{\"name\":\"small\",\"deviceClassName\":\"gpu\",\"count\":2},"
                        + "{\"name\":\"other\",\"deviceClassName\":\"mig\",\"count\":1}]}]}")))
                .containsEntry("gpu.deviceclass.resource.k8s.io/devices", 4L)
                .containsEntry("mig.deviceclass.resource.k8s.io/devices", 1L);
    }

    @Test
    void adminAccessCountsLikeAnyRequestAndUnknownModesCountNothing() {
        assertThat(
                        QuotaCounting.resourceQuota(
                                spec(
                                        "{\"requests\":["
                                                + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu\",\"count\":2,\"adminAccess\":true}},"
                                                + "{\"name\":\"b\",\"exactly\":{\"deviceClassName\":\"gpu\",\"allocationMode\":\"Future\"}}]}")))
                .containsEntry("gpu.deviceclass.resource.k8s.io/devices", 2L);
        assertThat(QuotaCounting.resourceQuota(null))
                .containsExactly(Map.entry("count/resourceclaims.resource.k8s.io", 1L));
    }

    @Test
    void kueueCountsExactCountRequestsOfMappedClasses() {
        Map<String, String> mappings =
                Map.of("gpu.example.com", "example.com/gpu", "big.example.com", "example.com/gpu");
        assertThat(QuotaCounting.kueue(
                        spec("{\"requests\":["
                                + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu.example.com\",\"count\":2}},"
                                + "{\"name\":\"b\",\"exactly\":{\"deviceClassName\":\"big.example.com\"}}]}"),
                        mappings))
                .isEqualTo(new QuotaCounting.KueueCount.Counted(Map.of("example.com/gpu", 3L)));
        assertThat(QuotaCounting.kueue(
                        spec("{\"requests\":[{\"name\":\"a\",\"firstAvailable\":["
                                + "{\"name\":\"x\",\"deviceClassName\":\"gpu.example.com\"}]}]}"),
                        mappings))
                .isEqualTo(new QuotaCounting.KueueCount.Unsupported(
                        "devices.requests[0]", "FirstAvailable device selection is not supported"));
        assertThat(QuotaCounting.kueue(
                        spec(
                                "{\"requests\":["
                                        + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu.example.com\",\"allocationMode\":\"All\"}}]}"),
                        mappings))
                .isInstanceOf(QuotaCounting.KueueCount.Unsupported.class);
        assertThat(QuotaCounting.kueue(
                        spec(
                                "{\"requests\":["
                                        + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu.example.com\",\"adminAccess\":true}}]}"),
                        mappings))
                .isEqualTo(new QuotaCounting.KueueCount.Unsupported(
                        "devices.requests[0].exactly.adminAccess", "AdminAccess is not supported"));
        assertThat(QuotaCounting.kueue(
                        spec("{\"requests\":[" + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"fpga\"}}]}"),
                        mappings))
                .isEqualTo(new QuotaCounting.KueueCount.Unsupported(
                        "devices", "DeviceClass fpga is not mapped in DRA configuration"));
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final QuotaCounting.ExtendedResourceClasses GPU_CLASS =
            QuotaCounting.ExtendedResourceClasses.of(java.util.List.of(JSON.readValue(
                    "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\","
                            + "\"metadata\":{\"name\":\"gpu\"},\"spec\":{\"extendedResourceName\":\"example.com/gpu\"}}",
                    DeviceClass.class)));

    /** upstream's testResourceClaim: an extended-resource claim of the pod (uid "uid"), requests of class gpu. */
    private static ResourceClaim extendedClaim(String name, String pod, int requests) {
        StringBuilder r = new StringBuilder();
        for (int i = 0; i < requests; i++) {
            r.append(i == 0 ? "" : ",")
                    .append("{\"name\":\"r")
                    .append(i)
                    .append("\",\"exactly\":{\"deviceClassName\":\"gpu\",\"count\":1}}");
        }
        return JSON.readValue(
                "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{"
                        + "\"name\":\"" + name
                        + "\",\"namespace\":\"ns\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\","
                        + "\"annotations\":{\"resource.kubernetes.io/extended-resource-claim\":\"true\"},"
                        + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"" + pod
                        + "\",\"uid\":\"uid\",\"controller\":true}]},\"spec\":{\"devices\":{\"requests\":[" + r
                        + "]}}}",
                ResourceClaim.class);
    }

    /** A pod named {@code name} (uid "uid") with the given init containers and containers (JSON arrays). */
    private static Pod pod(String name, String init, String containers, String claimStatus) {
        return JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
                        + "\",\"namespace\":\"ns\",\"uid\":\"uid\"},\"spec\":{\"initContainers\":" + init
                        + ",\"containers\":" + containers + "},\"status\":"
                        + (claimStatus == null
                                ? "{}"
                                : "{\"extendedResourceClaimStatus\":{\"resourceClaimName\":\"" + claimStatus
                                        + "\",\"requestMappings\":[]}}")
                        + "}",
                Pod.class);
    }

    private static String requesting(String... resources) {
        StringBuilder r = new StringBuilder();
        for (String res : resources) {
            r.append(r.isEmpty() ? "" : ",").append("\"").append(res).append("\":\"1\"");
        }
        return "[{\"name\":\"c" + resources.length + "\",\"resources\":{\"requests\":{" + r + "}}}]";
    }

    private static final String IMPLICIT = "deviceclass.resource.kubernetes.io/gpu";

    @Test
    void extendedResourceClaimsAreChargedWhatTheirPodDoesNotAlreadyCharge() {
        // The cases of upstream's TestResourceClaimEvaluatorUsage with DRAExtendedResource.
        Pod implicit = pod("pod-implicit", "[]", requesting(IMPLICIT), "foo");
        assertThat(QuotaCounting.resourceQuota(
                        extendedClaim("foo", "pod-implicit", 1), GPU_CLASS, implicit, java.util.List.of()))
                .containsExactly(
                        Map.entry("count/resourceclaims.resource.k8s.io", 1L),
                        Map.entry("gpu.deviceclass.resource.k8s.io/devices", 1L),
                        Map.entry("requests.example.com/gpu", 1L));
        Pod explicit = pod("pod-explicit", requesting("example.com/gpu"), "[]", "foo");
        assertThat(QuotaCounting.resourceQuota(
                        extendedClaim("foo", "pod-explicit", 1), GPU_CLASS, explicit, java.util.List.of()))
                .containsExactly(
                        Map.entry("count/resourceclaims.resource.k8s.io", 1L),
                        Map.entry("gpu.deviceclass.resource.k8s.io/devices", 1L),
                        Map.entry("requests.deviceclass.resource.kubernetes.io/gpu", 1L));
        Pod hybrid = pod(
                "pod-hybrid", requesting("example.com/gpu", IMPLICIT), requesting("example.com/gpu", IMPLICIT), "foo");
        assertThat(QuotaCounting.resourceQuota(
                        extendedClaim("foo", "pod-hybrid", 2), GPU_CLASS, hybrid, java.util.List.of()))
                .containsExactly(
                        Map.entry("count/resourceclaims.resource.k8s.io", 1L),
                        Map.entry("gpu.deviceclass.resource.k8s.io/devices", 2L),
                        Map.entry("requests.deviceclass.resource.kubernetes.io/gpu", 1L),
                        Map.entry("requests.example.com/gpu", 1L));
    }

    @Test
    void withoutClaimStatusOnlyThePodsFirstExtendedResourceClaimIsExempted() {
        Pod nilStatus = pod("pod-nil-status", requesting("example.com/gpu"), requesting(IMPLICIT), null);
        ResourceClaim copy = extendedClaim("foo-copy", "pod-nil-status", 2);
        assertThat(QuotaCounting.resourceQuota(copy, GPU_CLASS, nilStatus, java.util.List.of(copy)))
                .containsEntry("requests.deviceclass.resource.kubernetes.io/gpu", 1L)
                .containsEntry("requests.example.com/gpu", 1L);
        // Another claim of the pod created at the same time with an earlier name: this one is charged in full.
        assertThat(QuotaCounting.resourceQuota(
                        copy, GPU_CLASS, nilStatus, java.util.List.of(copy, extendedClaim("foo", "pod-nil-status", 2))))
                .containsEntry("gpu.deviceclass.resource.k8s.io/devices", 2L)
                .containsEntry("requests.deviceclass.resource.kubernetes.io/gpu", 2L)
                .containsEntry("requests.example.com/gpu", 2L);
        // A pod of another UID, or a claim without the annotation, is no owner to subtract.
        Pod other = JSON.readValue(
                JSON.writeValueAsString(nilStatus).replace("\"uid\":\"uid\"", "\"uid\":\"u2\""), Pod.class);
        assertThat(QuotaCounting.resourceQuota(copy, GPU_CLASS, other, java.util.List.of(copy)))
                .containsEntry("requests.example.com/gpu", 2L);
    }

    @Test
    void initContainersChargeTheirLargestStepAndSidecarsAddUp() {
        Pod init = JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"pod-init\","
                        + "\"namespace\":\"ns\",\"uid\":\"uid\"},\"spec\":{\"initContainers\":["
                        + "{\"name\":\"i1\",\"resources\":{\"requests\":{\"example.com/gpu\":\"1\",\"" + IMPLICIT
                        + "\":\"1\"}}},"
                        + "{\"name\":\"i2\",\"resources\":{\"requests\":{\"example.com/gpu\":\"1\",\"" + IMPLICIT
                        + "\":\"1\"}}}],"
                        + "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"example.com/gpu\":\"1\",\""
                        + IMPLICIT
                        + "\":\"1\"}}}]},\"status\":{\"extendedResourceClaimStatus\":{\"resourceClaimName\":\"foo\","
                        + "\"requestMappings\":[]}}}",
                Pod.class);
        assertThat(QuotaCounting.podExtendedResources(init))
                .containsExactly(
                        Map.entry("requests.deviceclass.resource.kubernetes.io/gpu", 1L),
                        Map.entry("requests.example.com/gpu", 1L));
        assertThat(QuotaCounting.resourceQuota(
                        extendedClaim("foo", "pod-init", 2), GPU_CLASS, init, java.util.List.of()))
                .containsEntry("requests.deviceclass.resource.kubernetes.io/gpu", 1L)
                .containsEntry("requests.example.com/gpu", 1L);
        // A sidecar (restartPolicy Always) runs beside the containers and the init containers after it; limits stand
        // in for missing requests; native resources and requests.-prefixed names are no extended resources.
        Pod sidecar = JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
                        + "\"spec\":{\"initContainers\":["
                        + "{\"name\":\"s\",\"restartPolicy\":\"Always\",\"resources\":{\"limits\":{\"example.com/gpu\":\"2\"}}},"
                        + "{\"name\":\"i\",\"resources\":{\"requests\":{\"example.com/gpu\":\"3\",\"cpu\":\"1\"}}}],"
                        + "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"example.com/gpu\":\"1\","
                        + "\"kubernetes.io/x\":\"1\"}}}]}}",
                Pod.class);
        assertThat(QuotaCounting.podExtendedResources(sidecar))
                .containsExactly(Map.entry("requests.example.com/gpu", 5L));
        sidecar.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
                .withPhase("Succeeded")
                .build());
        assertThat(QuotaCounting.podExtendedResources(sidecar)).isEmpty();
    }

    @Test
    void claimsOfAClassAreChargedToItsImplicitAndExtendedResourceNames() {
        // upstream's "simple" case: any claim, known class or not, charges the implicit name.
        ResourceClaimSpec one = spec("{\"requests\":[{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu\"}}]}");
        assertThat(QuotaCounting.resourceQuota(one, QuotaCounting.ExtendedResourceClasses.none(), Map.of()))
                .containsExactly(
                        Map.entry("count/resourceclaims.resource.k8s.io", 1L),
                        Map.entry("gpu.deviceclass.resource.k8s.io/devices", 1L),
                        Map.entry("requests.deviceclass.resource.kubernetes.io/gpu", 1L));
        assertThat(QuotaCounting.resourceQuota(
                        spec("{\"requests\":[{\"name\":\"a\",\"exactly\":{"
                                + "\"deviceClassName\":\"gpu\",\"allocationMode\":\"All\"}}]}"),
                        GPU_CLASS,
                        Map.of()))
                .containsEntry("requests.deviceclass.resource.kubernetes.io/gpu", 32L)
                .containsEntry("requests.example.com/gpu", 32L);
    }

    @Test
    void claimEvaluatorMatchingResources() {
        // upstream's TestResourceClaimEvaluatorMatchingResources.
        for (String r : java.util.List.of(
                "count/resourceclaims.resource.k8s.io",
                "gpu.deviceclass.resource.k8s.io/devices",
                "requests.example.com/gpu",
                "requests.deviceclass.resource.kubernetes.io/gpu")) {
            assertThat(QuotaCounting.claimEvaluatorMatches(r, GPU_CLASS)).as(r).isTrue();
        }
        for (String r : java.util.List.of(
                "resourceclaims",
                "storage",
                "ephemeral-storage",
                "bronze.deviceclass.resource.k8s.io/storage",
                "gpu.storage.k8s.io/requests.storage",
                "requests.example.com/tpu",
                "requests.deviceclass.resource.kubernetes.io/tpu",
                "requests.cpu")) {
            assertThat(QuotaCounting.claimEvaluatorMatches(r, GPU_CLASS)).as(r).isFalse();
        }
    }

    @Test
    void timesSaturates() {
        assertThat(QuotaCounting.times(Map.of("x", 3L), 4)).containsEntry("x", 12L);
        assertThat(QuotaCounting.times(Map.of("x", Long.MAX_VALUE / 2), 3)).containsEntry("x", Long.MAX_VALUE);
    }
}
