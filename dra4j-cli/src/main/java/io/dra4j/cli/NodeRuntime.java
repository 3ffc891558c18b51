package io.dra4j.cli;

import io.dra4j.kubelet.dra.ClaimLookup;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** What the long-running node commands share: claims from a file or the API server, and running until stopped. */
final class NodeRuntime {
    private NodeRuntime() {}

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
                            && namespace.equals(
                                    c.getMetadata().getNamespace() == null
                                            ? Manifests.DEFAULT_NAMESPACE
                                            : c.getMetadata().getNamespace()))
                    .findFirst()
                    .orElse(null);
        };
    }

    static KubernetesClient client(Path kubeconfig) {
        return new KubernetesClientBuilder().withConfig(config(kubeconfig)).build();
    }

    /** Seconds a driver's client waits to connect to the API server, per attempt. */
    static final int DRIVER_CONNECT_TIMEOUT_SECONDS = 5;
    /** Seconds a driver's client waits for the API server's answer, per attempt. */
    static final int DRIVER_REQUEST_TIMEOUT_SECONDS = 10;
    /** Retries after the first attempt (fabric8's default is 10, about 100 s of backoff against a down server). */
    static final int DRIVER_RETRIES = 1;
    /** Milliseconds before the retry. */
    static final int DRIVER_RETRY_INTERVAL_MS = 500;

    /**
     * A client for a DRA driver: each call the kubelet makes may read claims, and the kubelet gives a call 45 s
     * ({@code defaultClientCallTimeout}), so one read gives up after at most 2 x (5 s + 10 s) + 0.5 s = 30.5 s
     * instead of fabric8's default retries, and the kubelet gets the per-claim error before its deadline.
     */
    static KubernetesClient driverClient(Path kubeconfig) {
        Config config = new ConfigBuilder(config(kubeconfig))
                .withConnectionTimeout(DRIVER_CONNECT_TIMEOUT_SECONDS * 1000)
                .withRequestTimeout(DRIVER_REQUEST_TIMEOUT_SECONDS * 1000)
                .withRequestRetryBackoffLimit(DRIVER_RETRIES)
                .withRequestRetryBackoffInterval(DRIVER_RETRY_INTERVAL_MS)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /**
     * Claim lookups through a driver's client whose failures name the API server and the cause (fabric8's own
     * message says only that the operation failed).
     */
    static ClaimLookup driverLookup(KubernetesClient client) {
        ClaimLookup lookup = ClaimLookup.of(client);
        String server = client.getConfiguration().getMasterUrl().replaceAll("/$", "");
        return (namespace, name) -> {
            try {
                return lookup.get(namespace, name);
            } catch (KubernetesClientException e) {
                Throwable root = e;
                while (root.getCause() != null && root.getCause() != root) {
                    root = root.getCause();
                }
                if (root == e || e.getCode() > 0) {
                    throw e;
                }
                throw new IOException(
                        "API server " + server + " unreachable (gave up after " + (DRIVER_RETRIES + 1)
                                + " attempts): " + root.getClass().getSimpleName()
                                + (root.getMessage() == null ? "" : ": " + root.getMessage()),
                        e);
            }
        };
    }

    private static Config config(Path kubeconfig) {
        return kubeconfig == null
                ? Config.autoConfigure(null)
                : Config.fromKubeconfig(null, readKubeconfig(kubeconfig), kubeconfig.toString());
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
