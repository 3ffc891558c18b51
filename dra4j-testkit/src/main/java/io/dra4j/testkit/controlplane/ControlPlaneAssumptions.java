package io.dra4j.testkit.controlplane;

import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Starting a control plane from a JUnit test: the test is skipped, with the reason, when the binaries are not
 * built, unless the environment variable {@value #REQUIRED} is {@code 1} (as {@code ./run-tests} sets it after
 * building them), where a missing binary fails the test instead.
 */
public final class ControlPlaneAssumptions {
    public static final String REQUIRED = "DRA4J_CONTROL_PLANE_REQUIRED";

    private ControlPlaneAssumptions() {}

    /** Starts the control plane, or skips the calling test when its binaries are absent. */
    public static ControlPlane startOrSkip(ControlPlaneOptions options) {
        ControlPlaneBinaries binaries = ControlPlaneBinaries.locate();
        Optional<String> reason = binaries.unavailableReason();
        if (reason.isPresent()) {
            if ("1".equals(System.getenv(REQUIRED))) {
                throw new ControlPlaneException(reason.get() + "; " + REQUIRED + "=1 says they must be there");
            }
            Assumptions.abort(reason.get());
        }
        return ControlPlane.start(binaries, options);
    }
}
