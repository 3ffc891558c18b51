package io.dra4j.kubelet.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.proto.health.v1.DeviceHealth;
import io.dra4j.kubelet.proto.health.v1.DeviceIdentifier;
import io.dra4j.kubelet.proto.health.v1.HealthStatus;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesResponse;
import org.junit.jupiter.api.Test;

class HealthStreamProbeTest {
    private static DeviceHealth.Builder device(String pool, String name) {
        return DeviceHealth.newBuilder()
                .setDevice(DeviceIdentifier.newBuilder().setPoolName(pool).setDeviceName(name))
                .setHealth(HealthStatus.HEALTHY)
                .setLastUpdatedTime(1_700_000_000L);
    }

    @Test
    void aWellFormedUpdateHasNoProblems() {
        NodeWatchResourcesResponse r = NodeWatchResourcesResponse.newBuilder()
                .addDevices(device("node-a", "gpu-0"))
                .addDevices(device("node-a", "gpu-1")
                        .setHealth(HealthStatus.UNHEALTHY)
                        .setMessage("XID 79")
                        .setHealthCheckTimeoutSeconds(60))
                .addDevices(device("node-a", "gpu-2")
                        .setHealth(HealthStatus.UNKNOWN)
                        .setMessage("x".repeat(1024)))
                .build();
        assertThat(HealthStreamProbe.malformed(r)).isEmpty();
        assertThat(HealthStreamProbe.notAsMeant(r)).isEmpty();
    }

    @Test
    void missingNamesAndRepeatedDevicesAreMalformed() {
        NodeWatchResourcesResponse r = NodeWatchResourcesResponse.newBuilder()
                .addDevices(device("", "gpu-0"))
                .addDevices(device("node-a", ""))
                .addDevices(DeviceHealth.newBuilder().setHealth(HealthStatus.HEALTHY))
                .addDevices(device("node-a", "gpu-1"))
                .addDevices(device("node-a", "gpu-1").setHealth(HealthStatus.UNHEALTHY))
                .build();
        assertThat(HealthStreamProbe.malformed(r))
                .containsExactly(
                        "devices[0].device.pool_name: empty",
                        "devices[1].device.device_name: empty",
                        "devices[2].device.pool_name: empty",
                        "devices[2].device.device_name: empty",
                        "devices[4]: node-a/gpu-1 reported twice");
    }

    @Test
    void valuesTheKubeletReadsOtherwiseAreReported() {
        NodeWatchResourcesResponse r = NodeWatchResourcesResponse.newBuilder()
                .addDevices(device("node-a", "gpu-0").setHealthValue(7))
                .addDevices(device("node-a", "gpu-1").setHealthCheckTimeoutSeconds(-5))
                .addDevices(device("node-a", "gpu-2").setMessage("é".repeat(513)))
                .build();
        assertThat(HealthStreamProbe.notAsMeant(r))
                .containsExactly(
                        "devices[0] (node-a/gpu-0).health: 7 is not a HealthStatus, the kubelet reads Unknown",
                        "devices[1] (node-a/gpu-1).health_check_timeout_seconds: -5 is negative, the kubelet ignores it "
                                + "and uses 30 s",
                        "devices[2] (node-a/gpu-2).message: 1026 bytes, the kubelet cuts it to 1024");
    }

    @Test
    void healthIsShownAsInThePodStatus() {
        NodeWatchResourcesResponse r = NodeWatchResourcesResponse.newBuilder()
                .addDevices(device("node-a", "gpu-0"))
                .addDevices(device("node-a", "gpu-1")
                        .setHealth(HealthStatus.UNHEALTHY)
                        .setMessage("XID 79"))
                .addDevices(device("node-a", "gpu-2").setHealth(HealthStatus.UNKNOWN))
                .addDevices(device("node-a", "gpu-3").setHealthValue(9))
                .build();
        assertThat(HealthStreamProbe.shown(r))
                .containsExactly(
                        "node-a/gpu-0 Healthy",
                        "node-a/gpu-1 Unhealthy (XID 79)",
                        "node-a/gpu-2 Unknown",
                        "node-a/gpu-3 Unknown");
    }
}
