package io.dra4j.cli;

import io.dra4j.kubelet.dra.ClaimLookup;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** What the long-running node commands share: claims from a file or the API server, and running until stopped. */
final class NodeRuntime {
    private NodeRuntime() {
    }

    /** The claims of manifest files, or null after printing their problems. */
    static List<ResourceClaim> claims(List<Path> files, PrintWriter err) {
        Manifests m = ManifestReader.read(files.toArray(Path[]::new));
        if (!m.problems().isEmpty()) {
            m.problems().forEach(p -> err.println("dra4j: " + p));
            return null;
        }
        return m.resourceClaims();
    }

    /** Claims looked up in manifest files, read again on every lookup so that edits are seen. */
    static ClaimLookup fileLookup(List<Path> files) {
        return (namespace, name) -> {
            Manifests m = ManifestReader.read(files.toArray(Path[]::new));
            if (!m.problems().isEmpty()) {
                throw new IllegalStateException(m.problems().get(0).toString());
            }
            return m.resourceClaims().stream()
                    .filter(c -> name.equals(c.getMetadata().getName())
                            && namespace.equals(c.getMetadata().getNamespace() == null ? Manifests.DEFAULT_NAMESPACE
                            : c.getMetadata().getNamespace()))
                    .findFirst().orElse(null);
        };
    }

    static KubernetesClient client(Path kubeconfig) {
        Config config = kubeconfig == null ? Config.autoConfigure(null)
                : Config.fromKubeconfig(null, readKubeconfig(kubeconfig), kubeconfig.toString());
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static String readKubeconfig(Path p) {
        try {
            return java.nio.file.Files.readString(p);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot read kubeconfig " + p + ": " + e.getMessage(), e);
        }
    }

    /** Blocks until the process is told to stop (SIGTERM, SIGINT) or the thread is interrupted, then runs {@code stop}. */
    static void runUntilStopped(Runnable stop) {
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.run();
            done.countDown();
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            done.await();
        } catch (InterruptedException e) {
            Runtime.getRuntime().removeShutdownHook(hook);
            stop.run();
            Thread.currentThread().interrupt();
        }
    }
}
