package io.dra4j.kubelet.deviceplugin;

import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.UnixSocketServer;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.AllocateRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.AllocateResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.CDIDevice;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ContainerAllocateResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ContainerPreferredAllocationResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.DevicePluginGrpc;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.DevicePluginOptions;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.DeviceSpec;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.Empty;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.Mount;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.NUMANode;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.PreStartContainerRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.PreStartContainerResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.PreferredAllocationResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.RegisterRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.RegistrationGrpc;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.TopologyInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Serves a {@link DevicePlugin} on {@code <dir>/<socketName>} and registers it with the kubelet on
 * {@code <dir>/kubelet.sock}. A kubelet that starts afresh wipes the directory and creates a new kubelet.sock, so a
 * watcher checks every {@code pollMillis}: when kubelet.sock is a new file or the plugin's own socket is gone, the
 * server is restarted and registered again. ListAndWatch sends the full device list at once and again after every
 * {@link #update}; each message replaces the whole list.
 */
public final class DevicePluginServer implements AutoCloseable {
    public static final String VERSION = "v1beta1";
    public static final String KUBELET_SOCKET = "kubelet.sock";
    public static final Path DEFAULT_DIRECTORY = Path.of("/var/lib/kubelet/device-plugins");
    private static final long REGISTER_TIMEOUT_MS = 10_000;

    private final DevicePlugin plugin;
    private final Path directory;
    private final String socketName;
    private final long pollMillis;
    private final Consumer<String> log;
    private final AtomicReference<List<PluginDevice>> devices;
    private final Set<Stream> streams = new CopyOnWriteArraySet<>();
    private final AtomicInteger registrations = new AtomicInteger();
    private final Object lifecycle = new Object();
    private UnixSocketServer server;
    private Object kubeletSocketKey;
    private volatile boolean closed;
    private Thread watcher;

    private record Stream(ServerCallStreamObserver<ListAndWatchResponse> observer) {}

    private DevicePluginServer(
            DevicePlugin plugin,
            Path directory,
            String socketName,
            List<PluginDevice> initial,
            long pollMillis,
            Consumer<String> log) {
        this.plugin = plugin;
        this.directory = directory.toAbsolutePath();
        this.socketName = socketName;
        this.pollMillis = pollMillis;
        this.log = log;
        this.devices = new AtomicReference<>(List.copyOf(initial));
    }

    /**
     * Serves and registers {@code plugin}; fails with the kubelet's answer when registration is refused or
     * kubelet.sock does not answer.
     */
    public static DevicePluginServer start(
            DevicePlugin plugin,
            Path directory,
            String socketName,
            List<PluginDevice> initial,
            long pollMillis,
            Consumer<String> log)
            throws IOException {
        if (socketName.contains("/") || socketName.equals(KUBELET_SOCKET)) {
            throw new IllegalArgumentException(
                    "socket name " + socketName + " must be a plain file name other than " + KUBELET_SOCKET);
        }
        DevicePluginServer s =
                new DevicePluginServer(Objects.requireNonNull(plugin), directory, socketName, initial, pollMillis, log);
        synchronized (s.lifecycle) {
            s.serveAndRegister();
        }
        s.watcher = new Thread(s::watch, "device-plugin-watch-" + socketName);
        s.watcher.setDaemon(true);
        s.watcher.start();
        return s;
    }

    /** Replaces the device list and sends it on every open ListAndWatch stream. */
    public void update(List<PluginDevice> next) {
        devices.set(List.copyOf(next));
        ListAndWatchResponse msg = listMessage();
        for (Stream s : streams) {
            send(s, msg);
        }
    }

    public List<PluginDevice> devices() {
        return devices.get();
    }

    /** How many times the plugin registered with a kubelet (1 after start; more after kubelet restarts). */
    public int registrations() {
        return registrations.get();
    }

    public Path socket() {
        return directory.resolve(socketName);
    }

    private void serveAndRegister() throws IOException {
        if (server != null) {
            server.close();
        }
        streams.forEach(s -> s.observer().onCompleted());
        streams.clear();
        server = UnixSocketServer.start(socket(), List.of(new Service()));
        selfCheck();
        kubeletSocketKey = fileKey(directory.resolve(KUBELET_SOCKET));
        register();
    }

    /** Makes sure the server answers before the kubelet is told about it. */
    private void selfCheck() throws IOException {
        try (UnixSocketChannel ch = UnixSocketChannel.dial(socket())) {
            DevicePluginGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(5, TimeUnit.SECONDS)
                    .getDevicePluginOptions(Empty.getDefaultInstance());
        } catch (StatusRuntimeException e) {
            throw new IOException("device plugin socket " + socket() + " does not answer: " + e.getStatus(), e);
        }
    }

    private void register() throws IOException {
        Path kubelet = directory.resolve(KUBELET_SOCKET);
        try (UnixSocketChannel ch = UnixSocketChannel.dial(kubelet)) {
            RegistrationGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(REGISTER_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .register(RegisterRequest.newBuilder()
                            .setVersion(VERSION)
                            .setEndpoint(socketName)
                            .setResourceName(plugin.resourceName())
                            .setOptions(options())
                            .build());
        } catch (StatusRuntimeException e) {
            throw new IOException(
                    "registration of " + plugin.resourceName() + " with the kubelet at " + kubelet + " failed: "
                            + e.getStatus().getCode() + ": " + e.getStatus().getDescription(),
                    e);
        }
        registrations.incrementAndGet();
        log.accept("registered " + plugin.resourceName() + " with the kubelet at " + kubelet);
    }

    private static Object fileKey(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return List.of(String.valueOf(a.fileKey()), a.creationTime().toMillis());
        } catch (IOException e) {
            return null;
        }
    }

    /** Restarts and registers again when the kubelet restarted (new kubelet.sock) or wiped the plugin's socket. */
    private void watch() {
        while (!closed) {
            try {
                Thread.sleep(pollMillis);
            } catch (InterruptedException e) {
                return;
            }
            synchronized (lifecycle) {
                if (closed) {
                    return;
                }
                Object key = fileKey(directory.resolve(KUBELET_SOCKET));
                boolean kubeletNew = key != null && !key.equals(kubeletSocketKey);
                boolean ownGone = !server.socketPresent();
                if (key != null && (kubeletNew || ownGone)) {
                    try {
                        log.accept(
                                kubeletNew
                                        ? "kubelet.sock was re-created: the kubelet restarted; registering again"
                                        : "socket " + socket() + " was removed; serving and registering again");
                        serveAndRegister();
                    } catch (IOException e) {
                        log.accept("re-registration failed, retrying: " + e.getMessage());
                        kubeletSocketKey = null;
                    }
                }
            }
        }
    }

    private DevicePluginOptions options() {
        return DevicePluginOptions.newBuilder()
                .setPreStartRequired(plugin.preStartRequired())
                .setGetPreferredAllocationAvailable(plugin.preferredAllocationAvailable())
                .build();
    }

    private ListAndWatchResponse listMessage() {
        ListAndWatchResponse.Builder b = ListAndWatchResponse.newBuilder();
        for (PluginDevice d : devices.get()) {
            TopologyInfo.Builder t = TopologyInfo.newBuilder();
            d.numaNodes().forEach(n -> t.addNodes(NUMANode.newBuilder().setID(n)));
            io.dra4j.kubelet.proto.deviceplugin.v1beta1.Device.Builder db =
                    io.dra4j.kubelet.proto.deviceplugin.v1beta1.Device.newBuilder()
                            .setID(d.id())
                            .setHealth(d.healthy() ? PluginDevice.HEALTHY : PluginDevice.UNHEALTHY);
            if (!d.numaNodes().isEmpty()) {
                db.setTopology(t);
            }
            b.addDevices(db);
        }
        return b.build();
    }

    private void send(Stream s, ListAndWatchResponse msg) {
        synchronized (s) {
            if (s.observer().isCancelled()) {
                streams.remove(s);
                return;
            }
            try {
                s.observer().onNext(msg);
            } catch (RuntimeException e) {
                streams.remove(s);
            }
        }
    }

    private final class Service extends DevicePluginGrpc.DevicePluginImplBase {
        @Override
        public void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> response) {
            response.onNext(options());
            response.onCompleted();
        }

        @Override
        public void listAndWatch(Empty request, StreamObserver<ListAndWatchResponse> response) {
            Stream s = new Stream((ServerCallStreamObserver<ListAndWatchResponse>) response);
            s.observer().setOnCancelHandler(() -> streams.remove(s));
            streams.add(s);
            send(s, listMessage());
        }

        @Override
        public void getPreferredAllocation(
                PreferredAllocationRequest request, StreamObserver<PreferredAllocationResponse> response) {
            PreferredAllocationResponse.Builder out = PreferredAllocationResponse.newBuilder();
            for (ContainerPreferredAllocationRequest c : request.getContainerRequestsList()) {
                out.addContainerResponses(ContainerPreferredAllocationResponse.newBuilder()
                        .addAllDeviceIDs(PreferredAllocation.choose(
                                devices.get(),
                                c.getAvailableDeviceIDsList(),
                                c.getMustIncludeDeviceIDsList(),
                                c.getAllocationSize())));
            }
            response.onNext(out.build());
            response.onCompleted();
        }

        @Override
        public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> response) {
            AllocateResponse.Builder out = AllocateResponse.newBuilder();
            Set<String> known = new java.util.HashSet<>();
            devices.get().forEach(d -> known.add(d.id()));
            for (ContainerAllocateRequest c : request.getContainerRequestsList()) {
                for (String id : c.getDevicesIdsList()) {
                    if (!known.contains(id)) {
                        response.onError(Status.INVALID_ARGUMENT
                                .withDescription("unknown device " + id + " of resource " + plugin.resourceName())
                                .asRuntimeException());
                        return;
                    }
                }
                ContainerAllocation a;
                try {
                    a = plugin.allocate(c.getDevicesIdsList());
                } catch (RuntimeException e) {
                    response.onError(Status.INTERNAL
                            .withDescription("allocate " + c.getDevicesIdsList() + ": " + e.getMessage())
                            .asRuntimeException());
                    return;
                }
                ContainerAllocateResponse.Builder r = ContainerAllocateResponse.newBuilder()
                        .putAllEnvs(a.envs())
                        .putAllAnnotations(a.annotations());
                a.mounts()
                        .forEach(m -> r.addMounts(Mount.newBuilder()
                                .setContainerPath(m.containerPath())
                                .setHostPath(m.hostPath())
                                .setReadOnly(m.readOnly())));
                a.devices()
                        .forEach(d -> r.addDevices(DeviceSpec.newBuilder()
                                .setContainerPath(d.containerPath())
                                .setHostPath(d.hostPath())
                                .setPermissions(d.permissions())));
                a.cdiDevices()
                        .forEach(n -> r.addCdiDevices(CDIDevice.newBuilder().setName(n)));
                out.addContainerResponses(r);
            }
            response.onNext(out.build());
            response.onCompleted();
        }

        @Override
        public void preStartContainer(
                PreStartContainerRequest request, StreamObserver<PreStartContainerResponse> response) {
            try {
                plugin.preStartContainer(request.getDevicesIdsList());
            } catch (RuntimeException e) {
                response.onError(Status.INTERNAL.withDescription(e.getMessage()).asRuntimeException());
                return;
            }
            response.onNext(PreStartContainerResponse.getDefaultInstance());
            response.onCompleted();
        }
    }

    @Override
    public void close() {
        synchronized (lifecycle) {
            closed = true;
            if (watcher != null) {
                watcher.interrupt();
            }
            streams.forEach(s -> s.observer().onCompleted());
            streams.clear();
            if (server != null) {
                server.close();
            }
        }
    }
}
