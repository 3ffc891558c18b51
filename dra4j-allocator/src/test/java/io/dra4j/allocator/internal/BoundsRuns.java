package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;
import java.util.function.Consumer;

/** The bounds property tests' one search run: with a set of pruning bounds, or with them switched off. */
final class BoundsRuns {
    private BoundsRuns() {}

    /** What one search decided: the results or the error text, and its steps. */
    record Run(String outcome, long steps) {}

    /** One search over the claims; {@code switchOff}, when not null, turns bounds off before it runs. */
    static Run run(ClusterView view, Node node, List<ResourceClaim> claims, Consumer<Search> switchOff) {
        Search search = new Search(view, node, claims, () -> "share", 0);
        if (switchOff != null) {
            switchOff.accept(search);
        }
        try {
            if (!search.run()) {
                return new Run("unschedulable", search.steps());
            }
            List<AllocationResult> results = ResultAssembler.assemble(search);
            return new Run(results.toString(), search.steps());
        } catch (AllocationException e) {
            return new Run("error: " + e.getMessage(), search.steps());
        }
    }

    /** The class {@code cls}: every device of the driver. */
    static DeviceClass deviceClass(String driver) {
        return new DeviceClassBuilder()
                .withNewMetadata()
                .withName("cls")
                .endMetadata()
                .withNewSpec()
                .addNewSelector()
                .withNewCel()
                .withExpression("device.driver == \"" + driver + "\"")
                .endCel()
                .endSelector()
                .endSpec()
                .build();
    }
}
