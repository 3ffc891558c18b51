package io.dra4j.kubelet.probe;

import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.internal.NodeSelection;
import io.dra4j.kubelet.proto.dra.v1.Claim;
import io.dra4j.kubelet.proto.dra.v1.DRAPluginGrpc;
import io.dra4j.kubelet.proto.dra.v1.Device;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourceResponse;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourcesRequest;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourcesResponse;
import io.dra4j.kubelet.proto.dra.v1.NodeUnprepareResourcesRequest;
import io.dra4j.kubelet.proto.dra.v1.NodeUnprepareResourcesResponse;
import io.dra4j.kubelet.proto.registration.InfoRequest;
import io.dra4j.kubelet.proto.registration.PluginInfo;
import io.dra4j.kubelet.proto.registration.RegistrationGrpc;
import io.dra4j.kubelet.proto.registration.RegistrationStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A kubelet stand-in for driver authors: finds the plugins in the registry directory and registers them as the
 * kubelet does (dial, GetInfo within 1 s, the kubelet's checks of name, endpoint and services, the first supported
 * DRA service in the plugin's order, NotifyRegistrationStatus), then calls NodePrepareResources and
 * NodeUnprepareResources for the claims allocated to each driver with the kubelet's 45 s deadline, checks the answers
 * and the CDI spec files against the rules, repeats each call to check idempotency, checks that a claim with a
 * wrong UID is refused and an unknown claim unprepares cleanly, and registers again as a restarted kubelet would.
 * Device plugins are driven by {@link DevicePluginProbe}; given the node's ResourceSlices, the probe also reports
 * devices that a device plugin and a DRA driver both advertise ({@link DoubleAdvertising}). A driver that advertises
 * the resource health service has its first health update checked ({@link HealthStreamProbe}), while its claims are
 * prepared; with {@link ProbeOptions#healthWatch()} the stream is then watched as the kubelet keeps the health of
 * the claims' pods, down to devices decaying to Unknown.
 */
public final class KubeletProbe {
    static final long GET_INFO_TIMEOUT_MS = 1_000;
    static final long NOTIFY_TIMEOUT_MS = 5_000;
    static final long DRA_CALL_TIMEOUT_MS = 45_000;
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private final ProbeOptions options;
    private final ProbeReport report = new ProbeReport();
    private final CdiResolver cdi;

    public KubeletProbe(ProbeOptions options) {
        this.options = options;
        this.cdi = new CdiResolver(options.cdiDirectories());
    }

    /** Runs every check and returns the report. */
    public ProbeReport run() {
        if (options.draPlugins()) {
            List<Path> sockets = waitForRegistrationSockets();
            if (sockets.isEmpty()) {
                fail(
                        "kubelet",
                        "plugins found in " + options.registryDirectory(),
                        "no plugin socket appeared within "
                                + options.waitForPlugins().toSeconds() + " s");
            }
            for (Path socket : sockets) {
                probeRegistration(socket);
            }
        }
        if (options.devicePlugins()) {
            DevicePluginProbe devicePlugins = new DevicePluginProbe(options, report, cdi);
            devicePlugins.run();
            if (!options.slices().isEmpty()) {
                List<DoubleAdvertising.Overlap> twice =
                        DoubleAdvertising.find(devicePlugins.advertised(), options.slices(), options.nodeName());
                record(
                        "node",
                        "no device is advertised by both a device plugin and a DRA driver",
                        twice.isEmpty(),
                        twice.isEmpty()
                                ? ""
                                : twice.size() + " device(s) twice, so the node can be over-admitted: "
                                        + twice.stream()
                                                .map(DoubleAdvertising.Overlap::toString)
                                                .collect(java.util.stream.Collectors.joining("; ")));
            }
        }
        return report;
    }

    private List<Path> waitForRegistrationSockets() {
        long deadline = System.nanoTime() + options.waitForPlugins().toNanos();
        while (true) {
            List<Path> found = registrationSockets();
            if (!found.isEmpty() || System.nanoTime() > deadline) {
                return found;
            }
            sleep(100);
        }
    }

    /** Socket files in the registry directory, as the plugin watcher sees them (names starting with '.' ignored). */
    List<Path> registrationSockets() {
        Path dir = options.registryDirectory();
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> !p.getFileName().toString().startsWith("."))
                    .filter(KubeletProbe::isSocket)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    static boolean isSocket(Path p) {
        try {
            Object mode = Files.getAttribute(p, "unix:mode");
            return mode instanceof Integer m && (m & 0170000) == 0140000;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private void probeRegistration(Path socket) {
        String suite = "plugin " + options.registryDirectory().relativize(socket);
        check(suite, "registration socket is owner-only", () -> ownerOnly(socket));
        PluginInfo info;
        String service;
        try (UnixSocketChannel ch = UnixSocketChannel.dial(socket)) {
            if (!ch.awaitReady(java.time.Duration.ofSeconds(10))) {
                fail(suite, "registration socket accepts a connection within 10 s", "no connection to " + socket);
                return;
            }
            long t0 = System.nanoTime();
            try {
                info = RegistrationGrpc.newBlockingStub(ch.channel())
                        .withDeadlineAfter(GET_INFO_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .getInfo(InfoRequest.getDefaultInstance());
                pass(suite, "GetInfo answers within 1 s", ms(t0) + " ms");
            } catch (RuntimeException e) {
                fail(suite, "GetInfo answers within 1 s", e.getMessage());
                return;
            }
            String validation = validatePluginInfo(info);
            boolean ok = validation == null;
            record(suite, "plugin info passes the kubelet's checks", ok, ok ? describe(info) : validation);
            service = ok && "DRAPlugin".equals(info.getType()) ? pickService(info.getSupportedVersionsList()) : null;
            if ("DRAPlugin".equals(info.getType())) {
                record(
                        suite,
                        "supported services include v1.DRAPlugin or v1beta1.DRAPlugin",
                        service != null,
                        "supported_versions " + info.getSupportedVersionsList()
                                + (service == null ? "" : ", kubelet picks " + service));
                record(
                        suite,
                        "v1.DRAPlugin is listed first",
                        !info.getSupportedVersionsList().isEmpty()
                                && "v1.DRAPlugin"
                                        .equals(info.getSupportedVersionsList().get(0)),
                        "a 1.32/1.33 kubelet prefers its own order, 1.34+ takes the plugin's first known entry");
            }
            boolean registered = ok && service != null;
            try {
                RegistrationGrpc.newBlockingStub(ch.channel())
                        .withDeadlineAfter(NOTIFY_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .notifyRegistrationStatus(RegistrationStatus.newBuilder()
                                .setPluginRegistered(registered)
                                .setError(
                                        registered
                                                ? ""
                                                : "probe: "
                                                        + (validation != null ? validation : "no supported service"))
                                .build());
                pass(
                        suite,
                        "NotifyRegistrationStatus accepted",
                        registered ? "registered" : "told the plugin it is not registered");
            } catch (RuntimeException e) {
                fail(suite, "NotifyRegistrationStatus accepted", e.getMessage());
            }
            if (!registered || !"DRAPlugin".equals(info.getType())) {
                return;
            }
        }
        new DraCalls(suite, info, service).run();
        // A restarted kubelet registers the plugin again from the same socket.
        try (UnixSocketChannel ch = UnixSocketChannel.dial(socket)) {
            ch.awaitReady(java.time.Duration.ofSeconds(10));
            PluginInfo again = RegistrationGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(GET_INFO_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .getInfo(InfoRequest.getDefaultInstance());
            RegistrationGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(NOTIFY_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .notifyRegistrationStatus(RegistrationStatus.newBuilder()
                            .setPluginRegistered(true)
                            .build());
            record(
                    suite,
                    "registers again after a kubelet restart",
                    again.equals(info),
                    again.equals(info) ? "same plugin info" : "plugin info changed: " + describe(again));
        } catch (RuntimeException e) {
            fail(suite, "registers again after a kubelet restart", e.getMessage());
        }
    }

    /** The kubelet's validation of a plugin's info (current master is the strictest); null when it passes. */
    String validatePluginInfo(PluginInfo info) {
        String type = info.getType();
        if (!Set.of("DRAPlugin", "DevicePlugin", "CSIPlugin").contains(type)) {
            return "no handler registered for plugin type: " + type;
        }
        if (!"DRAPlugin".equals(type)) {
            return null;
        }
        String name = info.getName();
        if (name.isEmpty() || name.length() > 63 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            return "invalid driver name \"" + name + "\": must be a DNS subdomain of at most 63 characters";
        }
        String endpoint = info.getEndpoint();
        if (endpoint.isEmpty()) {
            return null;
        }
        if (!endpoint.startsWith("/")) {
            return "endpoint \"" + endpoint + "\" is not an absolute path";
        }
        if (endpoint.getBytes(StandardCharsets.UTF_8).length > 108) {
            return "endpoint \"" + endpoint + "\" is longer than 108 bytes";
        }
        Path root = options.kubeletRoot().toAbsolutePath().normalize();
        if (!Path.of(endpoint).normalize().startsWith(root)) {
            return "endpoint \"" + endpoint + "\" is outside the kubelet root directory " + root;
        }
        if (!isSocket(Path.of(endpoint))) {
            return "endpoint \"" + endpoint + "\" is not a socket";
        }
        return null;
    }

    /** The kubelet (1.34+) walks the plugin's list in its order and takes the first service it knows. */
    static String pickService(List<String> versions) {
        for (String v : versions) {
            if ("v1.DRAPlugin".equals(v) || "v1beta1.DRAPlugin".equals(v)) {
                return v;
            }
        }
        return null;
    }

    /** The prepare/unprepare checks of one DRA driver. */
    private final class DraCalls {
        private final String suite;
        private final PluginInfo info;
        private final boolean v1;
        private final Path endpoint;

        DraCalls(String suite, PluginInfo info, String service) {
            this.suite = suite;
            this.info = info;
            this.v1 = "v1.DRAPlugin".equals(service);
            this.endpoint = Path.of(info.getEndpoint());
        }

        void run() {
            check(suite, "DRA socket is owner-only", () -> ownerOnly(endpoint));
            List<ResourceClaim> mine =
                    options.claims().stream().filter(this::forThisDriver).toList();
            try (UnixSocketChannel ch = UnixSocketChannel.dial(endpoint)) {
                if (!ch.awaitReady(java.time.Duration.ofSeconds(10))) {
                    fail(suite, "DRA socket accepts a connection within 10 s", "no connection to " + endpoint);
                    return;
                }
                check(suite, "empty NodePrepareResources answers", () -> {
                    NodePrepareResourcesResponse r = prepare(ch, List.of());
                    return r.getClaimsCount() == 0 ? null : "answered " + r.getClaimsCount() + " claims for none asked";
                });
                if (mine.isEmpty()) {
                    fail(
                            suite,
                            "claims allocated to driver " + info.getName(),
                            "the claims given hold no allocated " + "device of this driver"
                                    + (options.nodeName() == null ? "" : " on node " + options.nodeName()));
                } else {
                    pass(suite, "claims allocated to driver " + info.getName(), mine.size() + " claim(s)");
                }
                List<Claim> refs = mine.stream().map(KubeletProbe::claimRef).toList();
                List<HealthStreamProbe.PreparedDevice> prepared = List.of();
                if (!refs.isEmpty()) {
                    NodePrepareResourcesResponse first = checkedPrepare(ch, mine, "NodePrepareResources");
                    prepared = preparedDevices(first, refs);
                    NodePrepareResourcesResponse second =
                            checkedPrepare(ch, mine, "NodePrepareResources again (idempotent)");
                    if (first != null && second != null) {
                        record(
                                suite,
                                "repeated NodePrepareResources gives the same answer",
                                same(first, second),
                                same(first, second)
                                        ? ""
                                        : "first " + first.getClaimsMap() + ", then " + second.getClaimsMap());
                    }
                }
                check(suite, "claim with a wrong UID is refused", () -> wrongUidRefused(ch, mine));
                HealthStreamProbe.run(
                        report,
                        suite,
                        ch,
                        info.getSupportedVersionsList(),
                        info.getName(),
                        options.nodeName(),
                        options.slices(),
                        prepared,
                        options.healthWatch());
                if (!refs.isEmpty()) {
                    checkedUnprepare(ch, refs, "NodeUnprepareResources");
                    checkedUnprepare(ch, refs, "NodeUnprepareResources again (idempotent)");
                }
                Claim unknown = Claim.newBuilder()
                        .setNamespace("dra4j-probe")
                        .setName("never-prepared")
                        .setUid(UUID.randomUUID().toString())
                        .build();
                checkedUnprepare(ch, List.of(unknown), "NodeUnprepareResources of a never prepared claim");
            }
        }

        /**
         * The devices each claim got, as the kubelet keeps them for the claim's pods (the stand-in is the one pod of
         * each claim), named by claim.
         */
        private List<HealthStreamProbe.PreparedDevice> preparedDevices(
                NodePrepareResourcesResponse r, List<Claim> refs) {
            if (r == null) {
                return List.of();
            }
            List<HealthStreamProbe.PreparedDevice> out = new ArrayList<>();
            for (Claim c : refs) {
                var answer = r.getClaimsMap().get(c.getUid());
                if (answer == null || !answer.getError().isEmpty()) {
                    continue;
                }
                for (var d : answer.getDevicesList()) {
                    String id = d.getCdiDeviceIdsCount() > 0
                            ? d.getCdiDeviceIds(0)
                            : info.getName() + "/" + d.getPoolName() + "/" + d.getDeviceName();
                    out.add(new HealthStreamProbe.PreparedDevice(
                            c.getNamespace() + "/" + c.getName(), d.getPoolName(), d.getDeviceName(), id));
                }
            }
            return out;
        }

        private boolean forThisDriver(ResourceClaim c) {
            var alloc = c.getStatus() == null ? null : c.getStatus().getAllocation();
            if (alloc == null || alloc.getDevices() == null) {
                return false;
            }
            if (options.nodeName() != null
                    && !NodeSelection.selects(alloc.getNodeSelector(), options.nodeName(), Map.of())) {
                return false;
            }
            return alloc.getDevices().getResults().stream()
                    .anyMatch(r -> info.getName().equals(r.getDriver()));
        }

        private NodePrepareResourcesResponse prepare(UnixSocketChannel ch, List<Claim> claims) {
            if (v1) {
                return DRAPluginGrpc.newBlockingStub(ch.channel())
                        .withDeadlineAfter(DRA_CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
                                .addAllClaims(claims)
                                .build());
            }
            var req = io.dra4j.kubelet.proto.dra.v1beta1.NodePrepareResourcesRequest.newBuilder();
            claims.forEach(c -> req.addClaims(io.dra4j.kubelet.proto.dra.v1beta1.Claim.newBuilder()
                    .setNamespace(c.getNamespace())
                    .setName(c.getName())
                    .setUid(c.getUid())));
            var resp = io.dra4j.kubelet.proto.dra.v1beta1.DRAPluginGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(DRA_CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .nodePrepareResources(req.build());
            NodePrepareResourcesResponse.Builder out = NodePrepareResourcesResponse.newBuilder();
            resp.getClaimsMap().forEach((uid, c) -> {
                NodePrepareResourceResponse.Builder b =
                        NodePrepareResourceResponse.newBuilder().setError(c.getError());
                c.getDevicesList()
                        .forEach(d -> b.addDevices(Device.newBuilder()
                                .addAllRequestNames(d.getRequestNamesList())
                                .setPoolName(d.getPoolName())
                                .setDeviceName(d.getDeviceName())
                                .addAllCdiDeviceIds(d.getCdiDeviceIdsList())));
                out.putClaims(uid, b.build());
            });
            return out.build();
        }

        private NodeUnprepareResourcesResponse unprepare(UnixSocketChannel ch, List<Claim> claims) {
            if (v1) {
                return DRAPluginGrpc.newBlockingStub(ch.channel())
                        .withDeadlineAfter(DRA_CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder()
                                .addAllClaims(claims)
                                .build());
            }
            var req = io.dra4j.kubelet.proto.dra.v1beta1.NodeUnprepareResourcesRequest.newBuilder();
            claims.forEach(c -> req.addClaims(io.dra4j.kubelet.proto.dra.v1beta1.Claim.newBuilder()
                    .setNamespace(c.getNamespace())
                    .setName(c.getName())
                    .setUid(c.getUid())));
            var resp = io.dra4j.kubelet.proto.dra.v1beta1.DRAPluginGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(DRA_CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .nodeUnprepareResources(req.build());
            NodeUnprepareResourcesResponse.Builder out = NodeUnprepareResourcesResponse.newBuilder();
            resp.getClaimsMap()
                    .forEach((uid, c) -> out.putClaims(
                            uid,
                            io.dra4j.kubelet.proto.dra.v1.NodeUnprepareResourceResponse.newBuilder()
                                    .setError(c.getError())
                                    .build()));
            return out.build();
        }

        private NodePrepareResourcesResponse checkedPrepare(
                UnixSocketChannel ch, List<ResourceClaim> claims, String name) {
            long t0 = System.nanoTime();
            NodePrepareResourcesResponse r;
            try {
                r = prepare(ch, claims.stream().map(KubeletProbe::claimRef).toList());
            } catch (RuntimeException e) {
                fail(suite, name, e.getMessage());
                return null;
            }
            List<String> problems = new ArrayList<>();
            for (ResourceClaim c : claims) {
                String label = "claim " + c.getMetadata().getNamespace() + "/"
                        + c.getMetadata().getName();
                NodePrepareResourceResponse answer =
                        r.getClaimsMap().get(c.getMetadata().getUid());
                if (answer == null) {
                    problems.add(label + ": no entry in the answer (the kubelet reports \"left out\" claims)");
                    continue;
                }
                if (!answer.getError().isEmpty()) {
                    problems.add(label + ": " + answer.getError());
                    continue;
                }
                problems.addAll(checkDevices(label, c, answer.getDevicesList()));
            }
            record(
                    suite,
                    name,
                    problems.isEmpty(),
                    problems.isEmpty()
                            ? claims.size() + " claim(s) prepared in " + ms(t0) + " ms"
                            : String.join("; ", problems));
            return r;
        }

        private List<String> checkDevices(String label, ResourceClaim c, List<Device> devices) {
            List<String> problems = new ArrayList<>();
            List<DeviceRequestAllocationResult> results =
                    c.getStatus().getAllocation().getDevices().getResults().stream()
                            .filter(res -> info.getName().equals(res.getDriver()))
                            .toList();
            Set<String> answered = new HashSet<>();
            for (Device d : devices) {
                String id = d.getPoolName() + "/" + d.getDeviceName();
                answered.add(id);
                if (d.getPoolName().isEmpty() || d.getDeviceName().isEmpty()) {
                    problems.add(label + ": a device without pool or device name");
                    continue;
                }
                List<DeviceRequestAllocationResult> forDevice = results.stream()
                        .filter(res -> res.getPool().equals(d.getPoolName())
                                && res.getDevice().equals(d.getDeviceName()))
                        .toList();
                if (forDevice.isEmpty()) {
                    problems.add(
                            label + ": device " + id + " is not allocated to the claim by driver " + info.getName());
                }
                Set<String> requests = new TreeSet<>();
                forDevice.forEach(res -> requests.add(res.getRequest().split("/", 2)[0]));
                for (String rn : d.getRequestNamesList()) {
                    if (rn.contains("/")) {
                        problems.add(label + ": device " + id + ": request name " + rn
                                + " has a subrequest suffix; containers reference top-level requests");
                    } else if (!forDevice.isEmpty() && !requests.contains(rn)) {
                        problems.add(label + ": device " + id + ": request name " + rn
                                + " is not a request this device was allocated for " + requests);
                    }
                }
                for (String cdiId : d.getCdiDeviceIdsList()) {
                    String bad = cdi.problem(cdiId);
                    if (bad != null) {
                        problems.add(label + ": device " + id + ": " + bad);
                    }
                }
            }
            for (DeviceRequestAllocationResult res : results) {
                String id = res.getPool() + "/" + res.getDevice();
                if (!answered.contains(id)) {
                    problems.add(label + ": allocated device " + id + " (request " + res.getRequest()
                            + ") is missing from the answer");
                }
            }
            return problems;
        }

        private void checkedUnprepare(UnixSocketChannel ch, List<Claim> claims, String name) {
            long t0 = System.nanoTime();
            try {
                NodeUnprepareResourcesResponse r = unprepare(ch, claims);
                List<String> problems = new ArrayList<>();
                for (Claim c : claims) {
                    var answer = r.getClaimsMap().get(c.getUid());
                    if (answer == null) {
                        problems.add("claim " + c.getNamespace() + "/" + c.getName() + ": no entry in the answer");
                    } else if (!answer.getError().isEmpty()) {
                        problems.add("claim " + c.getNamespace() + "/" + c.getName() + ": " + answer.getError());
                    }
                }
                record(
                        suite,
                        name,
                        problems.isEmpty(),
                        problems.isEmpty()
                                ? claims.size() + " claim(s) in " + ms(t0) + " ms"
                                : String.join("; ", problems));
            } catch (RuntimeException e) {
                fail(suite, name, e.getMessage());
            }
        }

        private String wrongUidRefused(UnixSocketChannel ch, List<ResourceClaim> mine) {
            if (mine.isEmpty()) {
                return "no claim to try";
            }
            ResourceClaim c = mine.get(0);
            String uid = UUID.randomUUID().toString();
            Claim wrong = Claim.newBuilder()
                    .setNamespace(c.getMetadata().getNamespace())
                    .setName(c.getMetadata().getName())
                    .setUid(uid)
                    .build();
            NodePrepareResourcesResponse r;
            try {
                r = prepare(ch, List.of(wrong));
            } catch (RuntimeException e) {
                return null;
            }
            NodePrepareResourceResponse answer = r.getClaimsMap().get(uid);
            if (answer == null) {
                return "no entry in the answer for the claim";
            }
            if (answer.getError().isEmpty()) {
                unprepare(ch, List.of(wrong));
                return "the driver prepared claim " + c.getMetadata().getName() + " under UID " + uid
                        + ", which is not the claim's UID " + c.getMetadata().getUid();
            }
            return null;
        }
    }

    private static boolean same(NodePrepareResourcesResponse a, NodePrepareResourcesResponse b) {
        if (!a.getClaimsMap().keySet().equals(b.getClaimsMap().keySet())) {
            return false;
        }
        for (String uid : a.getClaimsMap().keySet()) {
            Set<Device> x = new LinkedHashSet<>(a.getClaimsMap().get(uid).getDevicesList());
            Set<Device> y = new LinkedHashSet<>(b.getClaimsMap().get(uid).getDevicesList());
            if (!x.equals(y)
                    || !a.getClaimsMap()
                            .get(uid)
                            .getError()
                            .equals(b.getClaimsMap().get(uid).getError())) {
                return false;
            }
        }
        return true;
    }

    static Claim claimRef(ResourceClaim c) {
        return Claim.newBuilder()
                .setNamespace(c.getMetadata().getNamespace())
                .setName(c.getMetadata().getName())
                .setUid(c.getMetadata().getUid())
                .build();
    }

    static String ownerOnly(Path socket) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(socket);
            Set<PosixFilePermission> others = java.util.EnumSet.noneOf(PosixFilePermission.class);
            perms.stream().filter(p -> !p.name().startsWith("OWNER")).forEach(others::add);
            return others.isEmpty() ? null : "socket " + socket + " is also accessible to " + others;
        } catch (IOException e) {
            return "cannot read permissions of " + socket + ": " + e.getMessage();
        }
    }

    private static String describe(PluginInfo info) {
        return "type " + info.getType() + ", name " + info.getName() + ", endpoint " + info.getEndpoint()
                + ", supported_versions " + info.getSupportedVersionsList();
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void check(String suite, String name, Callable<String> body) {
        check(report, suite, name, body);
    }

    static void check(ProbeReport report, String suite, String name, Callable<String> body) {
        long t0 = System.nanoTime();
        String problem;
        try {
            problem = body.call();
        } catch (Exception e) {
            problem = e.toString();
        }
        report.add(new ProbeReport.Check(suite, name, problem == null, problem == null ? "" : problem, ms(t0)));
    }

    private void record(String suite, String name, boolean passed, String detail) {
        report.add(new ProbeReport.Check(suite, name, passed, detail, 0));
    }

    private void pass(String suite, String name, String detail) {
        record(suite, name, true, detail);
    }

    private void fail(String suite, String name, String detail) {
        record(suite, name, false, detail);
    }
}
