package io.dra4j.testkit.controlplane;

import io.dra4j.testkit.controlplane.internal.Credentials;
import io.dra4j.testkit.controlplane.internal.FreePorts;
import io.dra4j.testkit.controlplane.internal.Https;
import io.dra4j.testkit.controlplane.internal.ManagedProcess;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real Kubernetes control plane on loopback for tests: etcd and kube-apiserver, and when the options ask,
 * kube-scheduler and kube-controller-manager, each on free ports in a fresh temporary directory with fresh
 * credentials (a service account key pair, a bearer token in {@code system:masters}; the API server serves TLS
 * with the self-signed certificate it writes into its cert dir). {@link #start} returns once every component
 * answers ready; {@link #close} stops them in reverse order, waits for each to exit and removes the directory. A
 * shutdown hook does the same at JVM exit, and a watchdog per process ends the components if the JVM is killed.
 *
 * <p>No kubelet and no token controller run, so two admission plugins are off: {@code ServiceAccount} (it would
 * demand a service account and a token volume for pods that never run) and {@code TaintNodesByCondition} (it
 * would taint every node {@code not-ready} forever). Nodes keep the status they are created with.
 */
public final class ControlPlane implements AutoCloseable {
    /** The kubeconfig's context, cluster and user name. */
    public static final String CONTEXT = "dra4j-test";

    private static final int START_ATTEMPTS = 3;
    private static final Duration POLL = Duration.ofMillis(100);

    private final Path directory;
    private final List<ManagedProcess> processes;
    private final ApiServerLaunch apiServerLaunch;
    private final URI server;
    private final Path kubeconfig;
    private final String token;
    private final KubernetesClient client;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;

    /** How kube-apiserver was started, to start it again on the same port, certificates and etcd data. */
    private record ApiServerLaunch(
            List<String> command, Path log, URI readyz, Path servingCertificate, String token, Duration readyTimeout) {}

    private ControlPlane(
            Path directory,
            List<ManagedProcess> processes,
            ApiServerLaunch apiServerLaunch,
            URI server,
            Path kubeconfig,
            String token) {
        this.directory = directory;
        this.processes = new ArrayList<>(processes);
        this.apiServerLaunch = apiServerLaunch;
        this.server = server;
        this.kubeconfig = kubeconfig;
        this.token = token;
        this.shutdownHook = new Thread(this::stop, "dra4j-control-plane-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        this.client = newClient();
    }

    /** Starts the control plane from the binaries {@link ControlPlaneBinaries#locate()} finds. */
    public static ControlPlane start(ControlPlaneOptions options) {
        return start(ControlPlaneBinaries.locate(), options);
    }

    /**
     * Starts the control plane and waits until it is ready.
     *
     * @throws ControlPlaneException when a binary is missing or a component does not become ready in time
     */
    public static ControlPlane start(ControlPlaneBinaries binaries, ControlPlaneOptions options) {
        binaries.unavailableReason().ifPresent(reason -> {
            throw new ControlPlaneException(reason);
        });
        Path root;
        try {
            root = Files.createTempDirectory("dra4j-control-plane-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for the control plane", e);
        }
        // Free ports can be taken by someone else between the check and the bind: try again on fresh ones.
        for (int attempt = 1; ; attempt++) {
            Path directory = root.resolve("run-" + attempt);
            List<ManagedProcess> started = new ArrayList<>();
            try {
                Files.createDirectories(directory);
                return launch(binaries, options, root, directory, started);
            } catch (RuntimeException | IOException e) {
                stopAll(started);
                boolean portTaken =
                        started.stream().anyMatch(p -> p.logTail(200).contains("address already in use"));
                if (!portTaken || attempt == START_ATTEMPTS) {
                    deleteTree(root);
                    if (e instanceof ControlPlaneException c) {
                        throw c;
                    }
                    throw new ControlPlaneException("cannot start the control plane: " + e.getMessage(), e);
                }
            }
        }
    }

    private static ControlPlane launch(
            ControlPlaneBinaries binaries,
            ControlPlaneOptions options,
            Path root,
            Path directory,
            List<ManagedProcess> started)
            throws IOException {
        Instant deadline = Instant.now().plus(options.readyTimeout());
        List<Integer> ports = FreePorts.take(5);
        int etcdClient = ports.get(0);
        int etcdPeer = ports.get(1);
        int apiPort = ports.get(2);
        Credentials credentials = Credentials.create(directory);

        // etcd first: the API server exits when it cannot reach its storage.
        ManagedProcess etcd = ManagedProcess.start(
                "etcd",
                List.of(
                        binaries.etcd().toString(),
                        "--name=dra4j",
                        "--data-dir=" + directory.resolve("etcd"),
                        "--listen-client-urls=http://127.0.0.1:" + etcdClient,
                        "--advertise-client-urls=http://127.0.0.1:" + etcdClient,
                        "--listen-peer-urls=http://127.0.0.1:" + etcdPeer,
                        "--initial-advertise-peer-urls=http://127.0.0.1:" + etcdPeer,
                        "--initial-cluster=dra4j=http://127.0.0.1:" + etcdPeer,
                        "--unsafe-no-fsync",
                        "--log-level=warn"),
                directory.resolve("etcd.log"));
        started.add(etcd);
        URI etcdHealth = URI.create("http://127.0.0.1:" + etcdClient + "/health");
        Https plain = Https.plain();
        awaitReady(
                etcd,
                deadline,
                () -> plain.get(etcdHealth)
                        .filter(r -> r.statusCode() == 200 && r.body().contains("\"health\":\"true\""))
                        .isPresent());

        // kube-apiserver: the serving certificate it generates into its cert dir is the kubeconfig's CA.
        Path apiCerts = directory.resolve("apiserver-certs");
        List<String> api = new ArrayList<>(List.of(
                binaries.apiServer().toString(),
                "--etcd-servers=http://127.0.0.1:" + etcdClient,
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                "--secure-port=" + apiPort,
                "--cert-dir=" + apiCerts,
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + credentials.serviceAccountPublicKey(),
                "--service-account-signing-key-file=" + credentials.serviceAccountKey(),
                "--service-cluster-ip-range=10.0.0.0/24",
                "--endpoint-reconciler-type=none",
                "--token-auth-file=" + credentials.tokenFile(),
                "--authorization-mode=RBAC",
                "--disable-admission-plugins=ServiceAccount,TaintNodesByCondition"));
        if (!options.runtimeConfig().isEmpty()) {
            api.add("--runtime-config=" + String.join(",", options.runtimeConfig()));
        }
        featureGates(options).ifPresent(api::add);
        api.addAll(options.extraApiServerFlags());
        ManagedProcess apiServer = ManagedProcess.start("kube-apiserver", api, directory.resolve("kube-apiserver.log"));
        started.add(apiServer);
        URI server = URI.create("https://127.0.0.1:" + apiPort);
        Path serving = apiCerts.resolve("apiserver.crt");
        awaitReady(
                apiServer, deadline, probe(() -> Optional.of(serving), credentials.token(), server.resolve("/readyz")));

        Path kubeconfig = directory.resolve("kubeconfig");
        Files.writeString(
                kubeconfig,
                kubeconfig(server, Files.readAllBytes(serving), credentials.token()),
                StandardCharsets.UTF_8);

        if (options.scheduler()) {
            List<String> scheduler =
                    new ArrayList<>(List.of(binaries.scheduler().toString()));
            scheduler.addAll(componentFlags(kubeconfig, ports.get(3), directory.resolve("scheduler-certs")));
            featureGates(options).ifPresent(scheduler::add);
            started.add(startComponent(
                    "kube-scheduler",
                    scheduler,
                    directory,
                    ports.get(3),
                    directory.resolve("scheduler-certs"),
                    "/readyz",
                    deadline));
        }
        if (!options.controllers().isEmpty()) {
            List<String> manager =
                    new ArrayList<>(List.of(binaries.controllerManager().toString()));
            manager.addAll(componentFlags(kubeconfig, ports.get(4), directory.resolve("controller-manager-certs")));
            manager.add("--controllers=" + String.join(",", options.controllers()));
            featureGates(options).ifPresent(manager::add);
            started.add(startComponent(
                    "kube-controller-manager",
                    manager,
                    directory,
                    ports.get(4),
                    directory.resolve("controller-manager-certs"),
                    "/healthz",
                    deadline));
        }
        ApiServerLaunch launch = new ApiServerLaunch(
                List.copyOf(api),
                directory.resolve("kube-apiserver.log"),
                server.resolve("/readyz"),
                serving,
                credentials.token(),
                options.readyTimeout());
        return new ControlPlane(root, started, launch, server, kubeconfig, credentials.token());
    }

    private static List<String> componentFlags(Path kubeconfig, int port, Path certs) {
        return List.of(
                "--kubeconfig=" + kubeconfig,
                "--authentication-kubeconfig=" + kubeconfig,
                "--authorization-kubeconfig=" + kubeconfig,
                "--bind-address=127.0.0.1",
                "--secure-port=" + port,
                "--cert-dir=" + certs,
                "--leader-elect=false");
    }

    private static ManagedProcess startComponent(
            String name,
            List<String> command,
            Path directory,
            int port,
            Path certs,
            String healthPath,
            Instant deadline) {
        ManagedProcess process = ManagedProcess.start(name, command, directory.resolve(name + ".log"));
        URI health = URI.create("https://127.0.0.1:" + port + healthPath);
        try {
            awaitReady(process, deadline, probe(() -> servingCertificate(certs), null, health));
        } catch (RuntimeException e) {
            process.stop();
            throw e;
        }
        return process;
    }

    /**
     * A readiness check of {@code uri} that answers 200, over TLS trusting the certificate file once the component
     * has written it; the client is made once and reused for every poll.
     */
    private static Supplier<Boolean> probe(Supplier<Optional<Path>> certificate, String token, URI uri) {
        AtomicReference<Https> client = new AtomicReference<>();
        return () -> {
            if (client.get() == null) {
                certificate.get().flatMap(pem -> Https.trusting(pem, token)).ifPresent(client::set);
            }
            return client.get() != null
                    && client.get().get(uri).filter(r -> r.statusCode() == 200).isPresent();
        };
    }

    /** The self-signed serving certificate a component wrote into its cert dir ({@code <name>.crt}). */
    private static Optional<Path> servingCertificate(Path certs) {
        if (!Files.isDirectory(certs)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(certs)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".crt"))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> featureGates(ControlPlaneOptions options) {
        if (options.featureGates().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("--feature-gates="
                + options.featureGates().entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(",")));
    }

    private static void awaitReady(ManagedProcess process, Instant deadline, Supplier<Boolean> ready) {
        while (!ready.get()) {
            if (!process.isAlive()) {
                throw new ControlPlaneException(
                        process.name() + " exited before it became ready; its log ends:\n" + process.logTail(30));
            }
            if (Instant.now().isAfter(deadline)) {
                throw new ControlPlaneException(
                        process.name() + " did not become ready in time; its log ends:\n" + process.logTail(30));
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ControlPlaneException("interrupted while waiting for " + process.name());
            }
        }
    }

    static String kubeconfig(URI server, byte[] certificateAuthority, String token) {
        String ca = Base64.getEncoder().encodeToString(certificateAuthority);
        return String.join(
                "\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: " + CONTEXT,
                "  cluster:",
                "    server: " + server,
                "    certificate-authority-data: " + ca,
                "users:",
                "- name: " + CONTEXT,
                "  user:",
                "    token: " + token,
                "contexts:",
                "- name: " + CONTEXT,
                "  context:",
                "    cluster: " + CONTEXT,
                "    user: " + CONTEXT,
                "current-context: " + CONTEXT,
                "");
    }

    /** The API server's URL, {@code https://127.0.0.1:<port>}. */
    public URI server() {
        return server;
    }

    /** A kubeconfig file for the API server (CA embedded, bearer token), context {@value #CONTEXT}. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /** The bearer token of a {@code system:masters} user. */
    public String token() {
        return token;
    }

    /** A client for the API server, owned by this control plane and closed with it. */
    public KubernetesClient client() {
        return client;
    }

    /** A new client for the API server; the caller closes it. */
    public KubernetesClient newClient() {
        try {
            String text = Files.readString(kubeconfig, StandardCharsets.UTF_8);
            return new KubernetesClientBuilder()
                    .withConfig(Config.fromKubeconfig(text))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + kubeconfig, e);
        }
    }

    /**
     * Stops kube-apiserver and waits until it has exited; etcd and the other components keep running, so that
     * {@link #startApiServer} brings back the same objects. Clients see connection errors meanwhile.
     */
    public void stopApiServer() {
        synchronized (processes) {
            apiServerProcess().ifPresent(p -> {
                p.stop();
                processes.remove(p);
            });
        }
    }

    /**
     * Starts kube-apiserver again after {@link #stopApiServer}, with the same flags, port, serving certificate and
     * etcd data (so the kubeconfig stays valid), and returns once it answers ready.
     *
     * @throws ControlPlaneException when it is still running or does not become ready in time
     */
    public void startApiServer() {
        synchronized (processes) {
            if (closed.get() || apiServerProcess().isPresent()) {
                throw new ControlPlaneException("kube-apiserver is " + (closed.get() ? "closed" : "already running"));
            }
            ApiServerLaunch l = apiServerLaunch;
            ManagedProcess apiServer = ManagedProcess.start("kube-apiserver", l.command(), l.log());
            try {
                awaitReady(
                        apiServer,
                        Instant.now().plus(l.readyTimeout()),
                        probe(() -> Optional.of(l.servingCertificate()), l.token(), l.readyz()));
            } catch (RuntimeException e) {
                apiServer.stop();
                throw e;
            }
            processes.add(1, apiServer);
        }
    }

    private Optional<ManagedProcess> apiServerProcess() {
        return processes.stream().filter(p -> p.name().equals("kube-apiserver")).findFirst();
    }

    /** Each running component's log so far, by component name ({@code etcd}, {@code kube-apiserver}, ...). */
    public Map<String, String> logs() {
        synchronized (processes) {
            return logsOf(List.copyOf(processes));
        }
    }

    private static Map<String, String> logsOf(List<ManagedProcess> processes) {
        return processes.stream()
                .collect(Collectors.toMap(
                        ManagedProcess::name, p -> p.logTail(Integer.MAX_VALUE), (a, b) -> a, LinkedHashMap::new));
    }

    /** Stops every component, waits for them to exit and removes the temporary directory. Idempotent. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down and runs the hook itself.
        }
    }

    private void stop() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (client != null) {
            client.close();
        }
        synchronized (processes) {
            stopAll(processes);
        }
        deleteTree(directory);
    }

    /** Stops the components last-started first: the API server outlives its clients, etcd outlives the server. */
    private static void stopAll(List<ManagedProcess> started) {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).stop();
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + root, e);
        }
    }
}
