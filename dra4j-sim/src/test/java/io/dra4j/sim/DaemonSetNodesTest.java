package io.dra4j.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The DaemonSet controller's node choice, with the cases of upstream's daemon_controller_test.go (v1.37.2). */
class DaemonSetNodesTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static Node node(String name, String labels, String taints) {
        return JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":" + labels
                        + "},\"spec\":{\"taints\":" + taints + "}}",
                Node.class);
    }

    private static DaemonSet daemonSet(String podSpec) {
        return JSON.readValue(
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"ds\"},"
                        + "\"spec\":{\"template\":{\"spec\":" + podSpec + "}}}",
                DaemonSet.class);
    }

    private static final String CONTAINERS = "\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]";

    @Test
    void selectorAffinityAndNodeName() {
        Node a = node("a", "{\"color\":\"blue\"}", "[]");
        Node b = node("b", "{\"color\":\"red\"}", "[]");
        assertThat(DaemonSetNodes.of(daemonSet("{" + CONTAINERS + "}"), List.of(a, b)))
                .containsExactly(a, b);
        assertThat(DaemonSetNodes.of(
                        daemonSet("{" + CONTAINERS + ",\"nodeSelector\":{\"color\":\"red\"}}"), List.of(a, b)))
                .containsExactly(b);
        assertThat(DaemonSetNodes.of(
                        daemonSet("{" + CONTAINERS + ",\"affinity\":{\"nodeAffinity\":{"
                                + "\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":["
                                + "{\"key\":\"color\",\"operator\":\"NotIn\",\"values\":[\"red\"]}]}]}}}}"),
                        List.of(a, b)))
                .containsExactly(a);
        // TestNameDaemonSetLaunchesPods / TestBadNameDaemonSetDoesNothing: a template naming a node runs only there.
        assertThat(DaemonSetNodes.of(daemonSet("{" + CONTAINERS + ",\"nodeName\":\"b\"}"), List.of(a, b)))
                .containsExactly(b);
    }

    @Test
    void taintsAgainstTheTemplatesAndTheControllersTolerations() {
        Node cordoned =
                node("cordoned", "{}", "[{\"key\":\"node.kubernetes.io/unschedulable\",\"effect\":\"NoSchedule\"}]");
        Node notReady =
                node("not-ready", "{}", "[{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoExecute\"}]");
        Node gpu = node("gpu", "{}", "[{\"key\":\"nvidia.com/gpu\",\"value\":\"present\",\"effect\":\"NoSchedule\"}]");
        Node prefer = node("prefer", "{}", "[{\"key\":\"x\",\"effect\":\"PreferNoSchedule\"}]");
        Node network = node(
                "network", "{}", "[{\"key\":\"node.kubernetes.io/network-unavailable\",\"effect\":\"NoSchedule\"}]");
        List<Node> all = List.of(cordoned, notReady, gpu, prefer, network);
        // Daemon pods tolerate cordoning and not-ready nodes (AddOrUpdateDaemonPodTolerations), not other NoSchedule
        // taints (TestTaintedNodeDaemonDoesNotLaunchIntolerantPod, TestTaintedNodeDaemonLaunchesToleratePod);
        // PreferNoSchedule never keeps them off; network-unavailable is tolerated only with hostNetwork.
        assertThat(DaemonSetNodes.of(daemonSet("{" + CONTAINERS + "}"), all))
                .containsExactly(cordoned, notReady, prefer);
        assertThat(DaemonSetNodes.of(
                        daemonSet("{" + CONTAINERS + ",\"hostNetwork\":true,\"tolerations\":["
                                + "{\"key\":\"nvidia.com/gpu\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]}"),
                        all))
                .containsExactly(cordoned, notReady, gpu, prefer, network);
    }
}
