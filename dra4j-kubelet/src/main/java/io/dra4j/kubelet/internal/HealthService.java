package io.dra4j.kubelet.internal;

import com.google.protobuf.Message;
import io.dra4j.kubelet.dra.DeviceHealth;
import io.dra4j.kubelet.proto.health.v1.DRAResourceHealthGrpc;
import io.dra4j.kubelet.proto.health.v1.DeviceIdentifier;
import io.dra4j.kubelet.proto.health.v1.HealthStatus;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesRequest;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesResponse;
import io.grpc.BindableService;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * {@code v1.DRAResourceHealth} and {@code v1alpha1.DRAResourceHealth} (the same messages under the older package,
 * as upstream's helper serves both so that a kubelet picks the newest it knows): every NodeWatchResources stream
 * stays open and gets the driver's complete device list each time the driver reports one, starting with the latest
 * report when the stream opens. Like upstream's helper it never resends on the driver's behalf: a driver that stops
 * reporting lets the kubelet's view decay to Unknown, which is the truth.
 */
public final class HealthService {
    private final Set<Stream> streams = new CopyOnWriteArraySet<>();
    private volatile Report latest;

    /** One open stream and the version of the messages it takes. */
    private record Stream(ServerCallStreamObserver<Message> observer, boolean v1alpha1) {}

    /** A report in both versions, built once. */
    private record Report(
            NodeWatchResourcesResponse v1, io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse v1alpha1) {
        Message in(boolean alpha) {
            return alpha ? v1alpha1 : v1;
        }
    }

    /** The gRPC services of the versions asked for: v1 first, then v1alpha1. */
    public List<BindableService> services(boolean v1, boolean v1alpha1) {
        List<BindableService> out = new ArrayList<>();
        if (v1) {
            out.add(new V1());
        }
        if (v1alpha1) {
            out.add(new V1alpha1());
        }
        return out;
    }

    /** Sends {@code devices}, the complete list, on every open stream and keeps it for streams opened later. */
    public void report(List<DeviceHealth> devices) {
        NodeWatchResourcesResponse.Builder msg = NodeWatchResourcesResponse.newBuilder();
        for (DeviceHealth d : devices) {
            msg.addDevices(io.dra4j.kubelet.proto.health.v1.DeviceHealth.newBuilder()
                    .setDevice(
                            DeviceIdentifier.newBuilder().setPoolName(d.pool()).setDeviceName(d.device()))
                    .setHealth(
                            switch (d.status()) {
                                case UNKNOWN -> HealthStatus.UNKNOWN;
                                case HEALTHY -> HealthStatus.HEALTHY;
                                case UNHEALTHY -> HealthStatus.UNHEALTHY;
                            })
                    .setLastUpdatedTime(d.lastUpdated().getEpochSecond())
                    .setHealthCheckTimeoutSeconds(
                            d.healthCheckTimeout() == null
                                    ? 0
                                    : d.healthCheckTimeout().toSeconds())
                    .setMessage(d.message()));
        }
        NodeWatchResourcesResponse v1 = msg.build();
        Report built = new Report(v1, toV1alpha1(v1));
        latest = built;
        for (Stream s : streams) {
            send(s, built);
        }
    }

    /** Ends every stream (the plugin stops); the kubelet re-opens them against the next instance. */
    public void close() {
        for (Stream s : streams) {
            try {
                s.observer().onCompleted();
            } catch (RuntimeException e) {
                // already cancelled by the kubelet
            }
        }
        streams.clear();
    }

    /**
     * The v1 response under v1alpha1: the messages are field for field the same, so the bytes are too (upstream's
     * conversion copies each field).
     */
    static io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse toV1alpha1(NodeWatchResourcesResponse r) {
        try {
            return io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse.parseFrom(r.toByteString());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException("v1 and v1alpha1 health messages differ", e);
        }
    }

    @SuppressWarnings("unchecked")
    private void open(StreamObserver<? extends Message> response, boolean v1alpha1) {
        Stream stream = new Stream((ServerCallStreamObserver<Message>) response, v1alpha1);
        stream.observer().setOnCancelHandler(() -> streams.remove(stream));
        streams.add(stream);
        Report now = latest;
        if (now != null) {
            send(stream, now);
        }
    }

    private void send(Stream stream, Report report) {
        ServerCallStreamObserver<Message> o = stream.observer();
        synchronized (o) {
            if (o.isCancelled()) {
                streams.remove(stream);
                return;
            }
            try {
                o.onNext(report.in(stream.v1alpha1()));
            } catch (RuntimeException e) {
                streams.remove(stream);
            }
        }
    }

    private final class V1 extends DRAResourceHealthGrpc.DRAResourceHealthImplBase {
        @Override
        public void nodeWatchResources(
                NodeWatchResourcesRequest request, StreamObserver<NodeWatchResourcesResponse> response) {
            open(response, false);
        }
    }

    private final class V1alpha1
            extends io.dra4j.kubelet.proto.health.v1alpha1.DRAResourceHealthGrpc.DRAResourceHealthImplBase {
        @Override
        public void nodeWatchResources(
                io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesRequest request,
                StreamObserver<io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse> response) {
            open(response, true);
        }
    }
}
