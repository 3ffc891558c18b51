package io.dra4j.kubelet.probe;

import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.UnixSocketServer;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.AllocateRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.AllocateResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.Device;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.DevicePluginGrpc;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.Empty;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.PreStartContainerRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.PreferredAllocationResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.RegisterRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.RegistrationGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The device-manager half of the probe: serves kubelet.sock in the device-plugins directory, accepts Register as
 * the kubelet does (version v1beta1, an extended resource name, the endpoint a socket file in the directory), then
 * drives each plugin through GetDevicePluginOptions, ListAndWatch, GetPreferredAllocation, Allocate and
 * PreStartContainer, and finally restarts: wipes the directory's sockets and creates a fresh kubelet.sock, as a
 * starting kubelet does, and expects every plugin to register again.
 */
final class DevicePluginProbe {
    private static final Pattern QUALIFIED_NAME = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)/([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)");

    private final ProbeOptions options;
    private final ProbeReport report;
    private final CdiResolver cdi;
    private final BlockingQueue<RegisterRequest> registrations = new LinkedBlockingQueue<>();
    private final Map<String, List<String>> advertised = new LinkedHashMap<>();

    DevicePluginProbe(ProbeOptions options, ProbeReport report, CdiResolver cdi) {
        this.options = options;
        this.report = report;
        this.cdi = cdi;
    }

    void run() {
        Path dir = options.devicePluginDirectory();
        List<RegisterRequest> first;
        try {
            Files.createDirectories(dir);
            try (UnixSocketServer kubelet = serveKubeletSocket(dir)) {
                first = await(1);
                if (first.isEmpty()) {
                    fail(
                            "kubelet",
                            "device plugins registered on " + kubelet.path(),
                            "no Register call within "
                                    + options.waitForPlugins().toSeconds() + " s");
                    return;
                }
                for (RegisterRequest r : first) {
                    drive(r);
                }
            }
            // A starting kubelet removes every socket of the directory and serves a new kubelet.sock.
            wipeSockets(dir);
            try (UnixSocketServer ignored = serveKubeletSocket(dir)) {
                List<RegisterRequest> again = await(first.size());
                for (RegisterRequest r : first) {
                    boolean back =
                            again.stream().anyMatch(a -> a.getResourceName().equals(r.getResourceName()));
                    record(
                            suite(r),
                            "registers again after the kubelet restarts and wipes " + dir,
                            back,
                            back
                                    ? ""
                                    : "no new Register within "
                                            + options.waitForPlugins().toSeconds() + " s");
                    if (back) {
                        check(suite(r), "serves ListAndWatch again after re-registration", () -> {
                            RegisterRequest a = again.stream()
                                    .filter(x -> x.getResourceName().equals(r.getResourceName()))
                                    .findFirst()
                                    .orElseThrow();
                            listOnce(dir.resolve(a.getEndpoint()));
                            return null;
                        });
                    }
                }
            }
        } catch (IOException e) {
            fail("kubelet", "serve kubelet.sock in " + dir, e.getMessage());
        }
    }

    /** The device IDs each plugin listed, by resource name, after {@link #run}. */
    Map<String, List<String>> advertised() {
        return advertised;
    }

    private UnixSocketServer serveKubeletSocket(Path dir) throws IOException {
        RegistrationGrpc.RegistrationImplBase service = new RegistrationGrpc.RegistrationImplBase() {
            @Override
            public void register(RegisterRequest request, StreamObserver<Empty> response) {
                String bad = validate(request);
                if (bad != null) {
                    response.onError(Status.UNKNOWN.withDescription(bad).asRuntimeException());
                    return;
                }
                registrations.add(request);
                response.onNext(Empty.getDefaultInstance());
                response.onCompleted();
            }
        };
        return UnixSocketServer.start(dir.resolve("kubelet.sock"), List.of(service));
    }

    /** The kubelet's checks of a Register call; null when it is accepted. */
    private String validate(RegisterRequest r) {
        String suite = suite(r);
        if (!"v1beta1".equals(r.getVersion())) {
            fail(suite, "Register is accepted", "Unsupported version \"" + r.getVersion() + "\"");
            return "requested device plugin API version " + r.getVersion() + " is not supported by kubelet";
        }
        String name = r.getResourceName();
        if (!QUALIFIED_NAME.matcher(name).matches()
                || name.startsWith("kubernetes.io/")
                || name.startsWith("requests.")) {
            fail(suite, "Register is accepted", "invalid extended resource name " + name);
            return "invalid name of device plugin socket: " + name;
        }
        if (r.getEndpoint().isEmpty() || r.getEndpoint().contains("/")) {
            fail(
                    suite,
                    "Register is accepted",
                    "endpoint \"" + r.getEndpoint() + "\" is not a file name in the directory");
            return "invalid endpoint " + r.getEndpoint();
        }
        pass(
                suite,
                "Register is accepted",
                "resource " + name + ", endpoint " + r.getEndpoint() + ", options {"
                        + r.getOptions().toString().replace('\n', ' ').trim() + "}");
        return null;
    }

    private List<RegisterRequest> await(int atLeast) {
        List<RegisterRequest> got = new ArrayList<>();
        long deadline = System.nanoTime() + options.waitForPlugins().toNanos();
        try {
            while (got.size() < atLeast) {
                long left = deadline - System.nanoTime();
                RegisterRequest r = left <= 0 ? null : registrations.poll(left, TimeUnit.NANOSECONDS);
                if (r == null) {
                    break;
                }
                got.add(r);
            }
            // Other plugins may register at about the same time.
            RegisterRequest more;
            while ((more = registrations.poll(500, TimeUnit.MILLISECONDS)) != null) {
                got.add(more);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return got;
    }

    private static String suite(RegisterRequest r) {
        return "device plugin " + r.getResourceName();
    }

    private void drive(RegisterRequest r) {
        String suite = suite(r);
        Path endpoint = options.devicePluginDirectory().resolve(r.getEndpoint());
        check(suite, "plugin socket is owner-only", () -> KubeletProbe.ownerOnly(endpoint));
        try (UnixSocketChannel ch = UnixSocketChannel.dial(endpoint)) {
            DevicePluginGrpc.DevicePluginBlockingStub stub = DevicePluginGrpc.newBlockingStub(ch.channel());
            DevicePluginOptions opts;
            try {
                opts = stub.withDeadlineAfter(10, TimeUnit.SECONDS).getDevicePluginOptions(Empty.getDefaultInstance());
                record(
                        suite,
                        "GetDevicePluginOptions matches Register",
                        opts.equals(r.getOptions()),
                        opts.equals(r.getOptions())
                                ? ""
                                : "Register said " + r.getOptions() + ", the plugin says " + opts);
            } catch (RuntimeException e) {
                fail(suite, "GetDevicePluginOptions answers", e.getMessage());
                return;
            }
            List<Device> devices;
            try {
                devices = listOnce(endpoint);
            } catch (RuntimeException e) {
                fail(suite, "ListAndWatch sends the device list at once", e.getMessage());
                return;
            }
            advertised.put(
                    r.getResourceName(), devices.stream().map(Device::getID).toList());
            List<String> problems = new ArrayList<>();
            Set<String> ids = new HashSet<>();
            for (Device d : devices) {
                if (!ids.add(d.getID())) {
                    problems.add("device ID " + d.getID() + " appears twice");
                }
                if (d.getID().isEmpty() || d.getID().length() > 63) {
                    problems.add("device ID \"" + d.getID() + "\" must have 1 to 63 characters");
                }
                if (!d.getHealth().equals("Healthy") && !d.getHealth().equals("Unhealthy")) {
                    problems.add("device " + d.getID() + " has health \"" + d.getHealth() + "\"");
                }
            }
            record(
                    suite,
                    "ListAndWatch sends the device list at once",
                    problems.isEmpty(),
                    problems.isEmpty()
                            ? devices.size() + " device(s), "
                                    + devices.stream()
                                            .filter(d -> d.getHealth().equals("Healthy"))
                                            .count() + " healthy"
                            : String.join("; ", problems));
            List<String> healthy = devices.stream()
                    .filter(d -> d.getHealth().equals("Healthy"))
                    .map(Device::getID)
                    .toList();
            if (opts.getGetPreferredAllocationAvailable() && healthy.size() >= 1) {
                check(suite, "GetPreferredAllocation returns a valid preference", () -> preferred(stub, healthy));
            }
            if (healthy.isEmpty()) {
                fail(suite, "Allocate", "no healthy device to allocate");
                return;
            }
            check(suite, "Allocate answers for one container", () -> {
                AllocateResponse a = stub.withDeadlineAfter(10, TimeUnit.SECONDS)
                        .allocate(AllocateRequest.newBuilder()
                                .addContainerRequests(
                                        ContainerAllocateRequest.newBuilder().addDevicesIds(healthy.get(0)))
                                .build());
                if (a.getContainerResponsesCount() != 1) {
                    return "expected 1 container response, got " + a.getContainerResponsesCount();
                }
                List<String> bad = new ArrayList<>();
                a.getContainerResponses(0).getCdiDevicesList().forEach(c -> {
                    String p = cdi.problem(c.getName());
                    if (p != null) {
                        bad.add(p);
                    }
                });
                var resp = a.getContainerResponses(0);
                if (resp.getCdiDevicesCount() == 0
                        && resp.getEnvsCount() == 0
                        && resp.getDevicesCount() == 0
                        && resp.getMountsCount() == 0
                        && resp.getAnnotationsCount() == 0) {
                    bad.add("the answer gives the container nothing (no CDI device, env, device node or mount)");
                }
                return bad.isEmpty() ? null : String.join("; ", bad);
            });
            if (opts.getPreStartRequired()) {
                check(suite, "PreStartContainer answers within 30 s", () -> {
                    stub.withDeadlineAfter(30, TimeUnit.SECONDS)
                            .preStartContainer(PreStartContainerRequest.newBuilder()
                                    .addDevicesIds(healthy.get(0))
                                    .build());
                    return null;
                });
            }
        }
    }

    private String preferred(DevicePluginGrpc.DevicePluginBlockingStub stub, List<String> healthy) {
        int size = Math.min(2, healthy.size());
        List<String> must = List.of(healthy.get(healthy.size() - 1));
        PreferredAllocationResponse p = stub.withDeadlineAfter(10, TimeUnit.SECONDS)
                .getPreferredAllocation(PreferredAllocationRequest.newBuilder()
                        .addContainerRequests(ContainerPreferredAllocationRequest.newBuilder()
                                .addAllAvailableDeviceIDs(healthy)
                                .addAllMustIncludeDeviceIDs(must)
                                .setAllocationSize(size))
                        .build());
        if (p.getContainerResponsesCount() != 1) {
            return "expected 1 container response, got " + p.getContainerResponsesCount();
        }
        List<String> got = p.getContainerResponses(0).getDeviceIDsList();
        if (got.size() != size) {
            return "asked for " + size + " device(s), got " + got;
        }
        if (!healthy.containsAll(got)) {
            return "preferred " + got + " are not all among the available " + healthy;
        }
        if (!got.containsAll(must)) {
            return "preferred " + got + " leave out the must-include " + must;
        }
        return null;
    }

    private List<Device> listOnce(Path endpoint) {
        try (UnixSocketChannel ch = UnixSocketChannel.dial(endpoint)) {
            Iterator<ListAndWatchResponse> it = DevicePluginGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .listAndWatch(Empty.getDefaultInstance());
            if (!it.hasNext()) {
                throw new IllegalStateException("the stream ended without a device list");
            }
            return it.next().getDevicesList();
        }
    }

    private static void wipeSockets(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                if (!Files.isDirectory(p) && !p.getFileName().toString().equals("kubelet_internal_checkpoint")) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private void check(String suite, String name, java.util.concurrent.Callable<String> body) {
        KubeletProbe.check(report, suite, name, body);
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
