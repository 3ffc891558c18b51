package io.dra4j.allocator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeSelectorsTest {
    private final Node node = new NodeBuilder()
            .withNewMetadata()
            .withName("node-1")
            .withLabels(Map.of("region", "r1", "gpus", "8"))
            .endMetadata()
            .build();

    private static NodeSelector expr(String key, String op, String... values) {
        return new NodeSelectorBuilder()
                .addToNodeSelectorTerms(new NodeSelectorTermBuilder()
                        .addToMatchExpressions(new NodeSelectorRequirementBuilder()
                                .withKey(key)
                                .withOperator(op)
                                .withValues(values)
                                .build())
                        .build())
                .build();
    }

    @Test
    void nodeNameWinsOverEverythingElse() throws Exception {
        assertThat(NodeSelectors.nodeMatches(node, "node-1", false, null)).isTrue();
        assertThat(NodeSelectors.nodeMatches(node, "node-2", true, expr("region", "In", "r1")))
                .isFalse();
        assertThat(NodeSelectors.nodeMatches(node, null, true, null)).isTrue();
        assertThat(NodeSelectors.nodeMatches(node, null, false, null)).isFalse();
    }

    @Test
    void labelOperators() throws Exception {
        assertThat(NodeSelectors.matches(node, expr("region", "In", "r1", "r2")))
                .isTrue();
        assertThat(NodeSelectors.matches(node, expr("region", "NotIn", "r1"))).isFalse();
        assertThat(NodeSelectors.matches(node, expr("zone", "NotIn", "z1"))).isTrue();
        assertThat(NodeSelectors.matches(node, expr("region", "Exists"))).isTrue();
        assertThat(NodeSelectors.matches(node, expr("zone", "DoesNotExist"))).isTrue();
        assertThat(NodeSelectors.matches(node, expr("gpus", "Gt", "4"))).isTrue();
        assertThat(NodeSelectors.matches(node, expr("gpus", "Lt", "4"))).isFalse();
        assertThat(NodeSelectors.matches(node, expr("region", "Gt", "4"))).isFalse();
    }

    @Test
    void emptyTermMatchesNothingButOtherTermsStillCount() throws Exception {
        NodeSelector s = new NodeSelectorBuilder()
                .addNewNodeSelectorTerm()
                .endNodeSelectorTerm()
                .addNewNodeSelectorTerm()
                .addNewMatchField()
                .withKey("metadata.name")
                .withOperator("In")
                .withValues("node-1")
                .endMatchField()
                .endNodeSelectorTerm()
                .build();
        assertThat(NodeSelectors.matches(node, s)).isTrue();
        NodeSelector onlyEmpty = new NodeSelectorBuilder()
                .addNewNodeSelectorTerm()
                .endNodeSelectorTerm()
                .build();
        assertThat(NodeSelectors.matches(node, onlyEmpty)).isFalse();
    }

    @Test
    void invalidSelectorsAreErrorsNamingTheField() {
        assertThatThrownBy(() -> NodeSelectors.matches(node, expr("region", "In")))
                .hasMessageContaining("nodeSelectorTerms[0].matchExpressions[0].values");
        assertThatThrownBy(() -> NodeSelectors.matches(node, expr("gpus", "Gt", "many")))
                .hasMessageContaining("must be a valid integer");
        assertThatThrownBy(() -> NodeSelectors.matches(node, expr("region", "Near", "x")))
                .hasMessageContaining("not a valid selector operator");
        NodeSelector field = new NodeSelectorBuilder()
                .addNewNodeSelectorTerm()
                .addNewMatchField()
                .withKey("metadata.uid")
                .withOperator("In")
                .withValues("x")
                .endMatchField()
                .endNodeSelectorTerm()
                .build();
        assertThatThrownBy(() -> NodeSelectors.matches(node, field))
                .hasMessageContaining("not a valid field selector key");
    }
}
