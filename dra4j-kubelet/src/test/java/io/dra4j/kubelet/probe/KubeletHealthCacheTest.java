package io.dra4j.kubelet.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.probe.KubeletHealthCache.Health;
import io.dra4j.kubelet.proto.health.v1.DeviceHealth;
import io.dra4j.kubelet.proto.health.v1.DeviceIdentifier;
import io.dra4j.kubelet.proto.health.v1.HealthStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The kubelet's health cache rules (healthinfo.go), with the times given. */
class KubeletHealthCacheTest {
    private static final Instant T = Instant.ofEpochSecond(1_800_000_000L);

    private static DeviceHealth device(String name, HealthStatus health, long timeoutSeconds, String message) {
        return DeviceHealth.newBuilder()
                .setDevice(DeviceIdentifier.newBuilder()
                        .setPoolName("pool")
                        .setDeviceName(name)
                        .build())
                .setHealth(health)
                .setHealthCheckTimeoutSeconds(timeoutSeconds)
                .setMessage(message)
                .setLastUpdatedTime(1)
                .build();
    }

    private static List<String> changes(List<KubeletHealthCache.Entry> changed) {
        return changed.stream().map(e -> e.key() + " " + e.health()).toList();
    }

    @Test
    void aReportHoldsForItsTimeoutFromWhenItWasReceived() {
        KubeletHealthCache cache = new KubeletHealthCache();
        // last_updated_time (1970) is not what counts: the kubelet stamps the entry when it receives it.
        cache.update(
                List.of(
                        device("a", HealthStatus.HEALTHY, 0, ""),
                        device("b", HealthStatus.UNHEALTHY, 5, "XID 79"),
                        device("c", HealthStatus.HEALTHY, -3, "")),
                T);
        assertThat(cache.get("pool", "a", T.plusSeconds(30)).health()).isEqualTo(Health.Healthy);
        assertThat(cache.get("pool", "a", T.plusSeconds(30).plusMillis(1)).health())
                .isEqualTo(Health.Unknown);
        assertThat(cache.get("pool", "b", T.plusSeconds(5)).message()).isEqualTo("XID 79");
        KubeletHealthCache.Entry stale = cache.get("pool", "b", T.plusSeconds(6));
        assertThat(stale.health()).isEqualTo(Health.Unknown);
        assertThat(stale.message()).isEmpty();
        // A negative timeout is ignored: 30 s.
        assertThat(cache.get("pool", "c", T.plusSeconds(30)).timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(cache.get("pool", "never", T).health()).isEqualTo(Health.Unknown);
    }

    @Test
    void changesAreNewDevicesOtherHealthMessageOrTimeout() {
        KubeletHealthCache cache = new KubeletHealthCache();
        assertThat(changes(cache.update(
                        List.of(device("a", HealthStatus.HEALTHY, 0, ""), device("b", HealthStatus.HEALTHY, 0, "")),
                        T)))
                .containsExactly("pool/a Healthy", "pool/b Healthy");
        assertThat(cache.update(
                        List.of(device("a", HealthStatus.HEALTHY, 0, ""), device("b", HealthStatus.HEALTHY, 0, "")),
                        T.plusSeconds(1)))
                .isEmpty();
        assertThat(changes(cache.update(
                        List.of(device("a", HealthStatus.HEALTHY, 0, "fan"), device("b", HealthStatus.HEALTHY, 9, "")),
                        T.plusSeconds(2))))
                .containsExactly("pool/a Healthy", "pool/b Healthy");
        // A status the kubelet does not know reads as Unknown, a change from Healthy.
        assertThat(changes(cache.update(
                        List.of(
                                device("a", HealthStatus.HEALTHY, 0, "fan"),
                                device("b", HealthStatus.HEALTHY, 9, "").toBuilder()
                                        .setHealthValue(7)
                                        .build()),
                        T.plusSeconds(3))))
                .containsExactly("pool/b Unknown");
    }

    @Test
    void aDeviceLeftOutTurnsUnknownOnceTimedOutAndIsDropped() {
        KubeletHealthCache cache = new KubeletHealthCache();
        cache.update(
                List.of(
                        device("a", HealthStatus.HEALTHY, 0, ""),
                        device("b", HealthStatus.UNHEALTHY, 0, "XID 79"),
                        device("u", HealthStatus.UNKNOWN, 0, "")),
                T);
        // Left out but not timed out: unchanged, still shown.
        assertThat(cache.update(List.of(device("a", HealthStatus.HEALTHY, 0, "")), T.plusSeconds(10)))
                .isEmpty();
        assertThat(cache.get("pool", "b", T.plusSeconds(10)).health()).isEqualTo(Health.Unhealthy);
        // Timed out: b is announced as Unknown (u already was, so it is dropped silently).
        List<KubeletHealthCache.Entry> changed =
                cache.update(List.of(device("a", HealthStatus.HEALTHY, 0, "")), T.plusSeconds(31));
        assertThat(changes(changed)).containsExactly("pool/b Unknown");
        assertThat(changed.get(0).message()).isEmpty();
        assertThat(changed.get(0).lastUpdated()).isEqualTo(T.plusSeconds(31));
        assertThat(cache.update(List.of(device("a", HealthStatus.HEALTHY, 0, "")), T.plusSeconds(70)))
                .isEmpty();
        // Reported again after being dropped, it is new.
        assertThat(changes(cache.update(List.of(device("b", HealthStatus.HEALTHY, 0, "")), T.plusSeconds(71))))
                .containsExactly("pool/b Healthy");
    }

    @Test
    void newDevicesPastTheCapAreIgnoredAndTheEndOfTheStreamClears() {
        KubeletHealthCache cache = new KubeletHealthCache();
        List<DeviceHealth> report = new ArrayList<>(IntStream.range(0, HealthStreamProbe.MAX_DEVICES)
                .mapToObj(i -> device("d" + i, HealthStatus.HEALTHY, 0, ""))
                .toList());
        report.add(device("extra", HealthStatus.HEALTHY, 0, ""));
        assertThat(cache.update(report, T)).hasSize(HealthStreamProbe.MAX_DEVICES);
        assertThat(cache.get("pool", "extra", T).health()).isEqualTo(Health.Unknown);
        assertThat(cache.get("pool", "d0", T).health()).isEqualTo(Health.Healthy);
        cache.clear();
        assertThat(cache.get("pool", "d0", T).health()).isEqualTo(Health.Unknown);
    }

    @Test
    void messagesAreCutToTheKubeletsLimit() {
        assertThat(KubeletHealthCache.truncate("x".repeat(1024))).hasSize(1024);
        assertThat(KubeletHealthCache.truncate("x".repeat(1025))).isEqualTo("x".repeat(1021) + "...");
        // é is two bytes; cut after its first, the lone byte shows as U+FFFD.
        assertThat(KubeletHealthCache.truncate("x".repeat(1020) + "é".repeat(10)))
                .isEqualTo("x".repeat(1020) + "\uFFFD...");
        assertThat(KubeletHealthCache.truncate("x".repeat(1019) + "é".repeat(10)))
                .isEqualTo("x".repeat(1019) + "é...");
    }
}
