package io.dra4j.cli;

/**
 * Whether dra4j runs as the kubectl plugin {@code kubectl-dra}: the launcher, called through a link of that name,
 * sets the system property {@code dra4j.kubectlPlugin}. Then {@code simulate} and {@code explain pod|claim} read the
 * cluster of the kubeconfig (as kubectl would, {@code --context} and {@code --kubeconfig} honoured) unless given
 * snapshot files.
 */
final class KubectlPlugin {
    static final String PROPERTY = "dra4j.kubectlPlugin";

    private KubectlPlugin() {}

    static boolean active() {
        return Boolean.parseBoolean(System.getProperty(PROPERTY));
    }
}
