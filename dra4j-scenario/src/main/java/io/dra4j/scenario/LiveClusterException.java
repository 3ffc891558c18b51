package io.dra4j.scenario;

/**
 * A live cluster could not be read: the kubeconfig is missing or names no such context, the server does not
 * answer, or it refuses a list. The message names the kubeconfig, the server and the resource, and is meant to be
 * shown to people as it is.
 */
public final class LiveClusterException extends Exception {
    private static final long serialVersionUID = 1L;

    LiveClusterException(String message) {
        super(message, null, false, false);
    }
}
