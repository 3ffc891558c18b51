package io.dra4j.testkit.controlplane;

/** The control plane could not be started (the message names the component and quotes the end of its log). */
public final class ControlPlaneException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ControlPlaneException(String message) {
        super(message);
    }

    public ControlPlaneException(String message, Throwable cause) {
        super(message, cause);
    }
}
