package io.dra4j.kubelet.internal;

import io.dra4j.kubelet.dra.DeviceHealth;
import io.dra4j.kubelet.proto.health.v1alpha1.DRAResourceHealthGrpc;
import io.dra4j.kubelet.proto.health.v1alpha1.DeviceIdentifier;
import io.dra4j.kubelet.proto.health.v1alpha1.HealthStatus;
import io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesRequest;
import io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * {@code v1alpha1.DRAResourceHealth}: every NodeWatchResources stream stays open and gets the driver's complete
 * device list each time the driver reports one, starting with the latest report when the stream opens. Like
 * upstream's helper it never resends on the driver's behalf: a driver that stops reporting lets the kubelet's view
 * decay to Unknown, which is the truth.
 */
public final class HealthService extends DRAResourceHealthGrpc.DRAResourceHealthImplBase {
    private final Set<ServerCallStreamObserver<NodeWatchResourcesResponse>> streams = new CopyOnWriteArraySet<>();
    private volatile NodeWatchResourcesResponse latest;

    @Override
    public void nodeWatchResources(NodeWatchResourcesRequest request,
                                   StreamObserver<NodeWatchResourcesResponse> response) {
        ServerCallStreamObserver<NodeWatchResourcesResponse> stream =
                (ServerCallStreamObserver<NodeWatchResourcesResponse>) response;
        stream.setOnCancelHandler(() -> streams.remove(stream));
        streams.add(stream);
        NodeWatchResourcesResponse now = latest;
        if (now != null) {
            send(stream, now);
        }
    }

    /** Sends {@code devices}, the complete list, on every open stream and keeps it for streams opened later. */
    public void report(List<DeviceHealth> devices) {
        NodeWatchResourcesResponse.Builder msg = NodeWatchResourcesResponse.newBuilder();
        for (DeviceHealth d : devices) {
            msg.addDevices(io.dra4j.kubelet.proto.health.v1alpha1.DeviceHealth.newBuilder()
                    .setDevice(DeviceIdentifier.newBuilder().setPoolName(d.pool()).setDeviceName(d.device()))
                    .setHealth(switch (d.status()) {
                        case UNKNOWN -> HealthStatus.UNKNOWN;
                        case HEALTHY -> HealthStatus.HEALTHY;
                        case UNHEALTHY -> HealthStatus.UNHEALTHY;
                    })
                    .setLastUpdatedTime(d.lastUpdated().getEpochSecond())
                    .setHealthCheckTimeoutSeconds(d.healthCheckTimeout() == null ? 0 : d.healthCheckTimeout().toSeconds())
                    .setMessage(d.message()));
        }
        NodeWatchResourcesResponse built = msg.build();
        latest = built;
        for (ServerCallStreamObserver<NodeWatchResourcesResponse> s : streams) {
            send(s, built);
        }
    }

    /** Ends every stream (the plugin stops); the kubelet re-opens them against the next instance. */
    public void close() {
        for (ServerCallStreamObserver<NodeWatchResourcesResponse> s : streams) {
            try {
                s.onCompleted();
            } catch (RuntimeException e) {
                // already cancelled by the kubelet
            }
        }
        streams.clear();
    }

    private void send(ServerCallStreamObserver<NodeWatchResourcesResponse> stream, NodeWatchResourcesResponse msg) {
        synchronized (stream) {
            if (stream.isCancelled()) {
                streams.remove(stream);
                return;
            }
            try {
                stream.onNext(msg);
            } catch (RuntimeException e) {
                streams.remove(stream);
            }
        }
    }
}
