package io.dra4j.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** helper.DefaultSelector's cases (pkg/scheduler/framework/plugins/helper/spread_test.go, v1.37.2). */
class DefaultSelectorsTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private int pods;

    /** A pod of a name of its own (selectors are computed once per pod name). */
    private Pod pod(String labels, String owner) {
        return JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p" + pods++
                        + "\",\"namespace\":\"ns\","
                        + "\"labels\":" + labels + (owner == null ? "" : ",\"ownerReferences\":[" + owner + "]") + "}}",
                Pod.class);
    }

    private static Service service(String ns, String selector) {
        return JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"s\",\"namespace\":\"" + ns
                        + "\"},\"spec\":{" + (selector == null ? "" : "\"selector\":" + selector) + "}}",
                Service.class);
    }

    private static String owner(String apiVersion, String kind, String name) {
        return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"name\":\"" + name
                + "\",\"uid\":\"u\",\"controller\":true}";
    }

    private static LabelSelector selector(String json) {
        return JSON.readValue(json, LabelSelector.class);
    }

    @Test
    void servicesOfThePodsNamespaceThatSelectItAreMerged() {
        Pod p = pod("{\"app\":\"web\",\"tier\":\"front\"}", null);
        DefaultSelectors d = new DefaultSelectors(
                List.of(
                        service("ns", "{\"app\":\"web\"}"),
                        service("ns", "{\"tier\":\"front\"}"),
                        service("ns", "{\"app\":\"db\"}"),
                        service("other", "{\"x\":\"y\"}"),
                        service("ns", null)),
                List.of(),
                Map.of());
        LabelSelector s = d.of(p);
        assertThat(Selectors.matches(s, Map.of("app", "web", "tier", "front"))).isTrue();
        assertThat(Selectors.matches(s, Map.of("app", "web"))).isFalse();
        assertThat(s.getMatchExpressions()).hasSize(2);
        // Nothing selects the pod: no default constraints.
        assertThat(new DefaultSelectors(List.of(service("ns", "{\"app\":\"db\"}")), List.of(), Map.of())
                        .of(pod("{\"app\":\"web\"}", null)))
                .isNull();
    }

    @Test
    void theControllersSelectorJoins() {
        ReplicationController rc = JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"ReplicationController\","
                        + "\"metadata\":{\"name\":\"rc\",\"namespace\":\"ns\"},\"spec\":{\"selector\":{\"rc\":\"1\"}}}",
                ReplicationController.class);
        Pod ofRc = pod("{\"app\":\"web\",\"rc\":\"1\"}", owner("v1", "ReplicationController", "rc"));
        DefaultSelectors d = new DefaultSelectors(
                List.of(service("ns", "{\"app\":\"web\"}")),
                List.of(rc),
                Map.of(
                        "ns/ReplicaSet/rs",
                        selector("{\"matchExpressions\":[{\"key\":\"rs\",\"operator\":\"Exists\"}]}")));
        assertThat(Selectors.matches(d.of(ofRc), Map.of("app", "web", "rc", "1")))
                .isTrue();
        assertThat(Selectors.matches(d.of(ofRc), Map.of("app", "web"))).isFalse();
        Pod ofRs = pod("{\"app\":\"web\",\"rs\":\"x\"}", owner("apps/v1", "ReplicaSet", "rs"));
        assertThat(Selectors.matches(d.of(ofRs), Map.of("app", "web", "rs", "y")))
                .isTrue();
        assertThat(Selectors.matches(d.of(ofRs), Map.of("rs", "y"))).isFalse();
        // An owner of another API version, or one not in the snapshot, adds nothing.
        Pod foreign = pod("{\"app\":\"web\"}", owner("extensions/v1beta1", "ReplicaSet", "rs"));
        assertThat(d.of(foreign).getMatchExpressions()).hasSize(1);
        assertThat(new DefaultSelectors(List.of(), List.of(), Map.of())
                        .of(pod("{\"app\":\"web\"}", owner("apps/v1", "StatefulSet", "gone"))))
                .isNull();
    }
}
