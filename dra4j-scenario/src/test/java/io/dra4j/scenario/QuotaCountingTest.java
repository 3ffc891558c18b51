package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

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
                .containsExactly(Map.entry("count/resourceclaims.resource.k8s.io", 1L),
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
        assertThat(QuotaCounting.resourceQuota(spec("{\"requests\":["
                + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu\",\"count\":2,\"adminAccess\":true}},"
                + "{\"name\":\"b\",\"exactly\":{\"deviceClassName\":\"gpu\",\"allocationMode\":\"Future\"}}]}")))
                .containsEntry("gpu.deviceclass.resource.k8s.io/devices", 2L);
        assertThat(QuotaCounting.resourceQuota(null)).containsExactly(
                Map.entry("count/resourceclaims.resource.k8s.io", 1L));
    }

    @Test
    void kueueCountsExactCountRequestsOfMappedClasses() {
        Map<String, String> mappings = Map.of("gpu.example.com", "example.com/gpu", "big.example.com", "example.com/gpu");
        assertThat(QuotaCounting.kueue(spec("{\"requests\":["
                + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu.example.com\",\"count\":2}},"
                + "{\"name\":\"b\",\"exactly\":{\"deviceClassName\":\"big.example.com\"}}]}"), mappings))
                .isEqualTo(new QuotaCounting.KueueCount.Counted(Map.of("example.com/gpu", 3L)));
        assertThat(QuotaCounting.kueue(spec("{\"requests\":[{\"name\":\"a\",\"firstAvailable\":["
                + "{\"name\":\"x\",\"deviceClassName\":\"gpu.example.com\"}]}]}"), mappings))
                .isEqualTo(new QuotaCounting.KueueCount.Unsupported("devices.requests[0]",
                        "FirstAvailable device selection is not supported"));
        assertThat(QuotaCounting.kueue(spec("{\"requests\":["
                + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu.example.com\",\"allocationMode\":\"All\"}}]}"),
                mappings)).isInstanceOf(QuotaCounting.KueueCount.Unsupported.class);
        assertThat(QuotaCounting.kueue(spec("{\"requests\":["
                + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"gpu.example.com\",\"adminAccess\":true}}]}"),
                mappings)).isEqualTo(new QuotaCounting.KueueCount.Unsupported("devices.requests[0].exactly.adminAccess",
                "AdminAccess is not supported"));
        assertThat(QuotaCounting.kueue(spec("{\"requests\":["
                + "{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"fpga\"}}]}"), mappings))
                .isEqualTo(new QuotaCounting.KueueCount.Unsupported("devices",
                        "DeviceClass fpga is not mapped in DRA configuration"));
    }

    @Test
    void timesSaturates() {
        assertThat(QuotaCounting.times(Map.of("x", 3L), 4)).containsEntry("x", 12L);
        assertThat(QuotaCounting.times(Map.of("x", Long.MAX_VALUE / 2), 3)).containsEntry("x", Long.MAX_VALUE);
    }
}
