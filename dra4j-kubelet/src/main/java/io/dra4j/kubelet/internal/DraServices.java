package io.dra4j.kubelet.internal;

import io.dra4j.kubelet.dra.ClaimPrepared;
import io.dra4j.kubelet.dra.ClaimRef;
import io.dra4j.kubelet.dra.DraPlugin;
import io.dra4j.kubelet.dra.NodeDevice;
import io.dra4j.kubelet.proto.dra.v1.DRAPluginGrpc;
import io.dra4j.kubelet.proto.dra.v1.Device;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourceResponse;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourcesRequest;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourcesResponse;
import io.dra4j.kubelet.proto.dra.v1.NodeUnprepareResourceResponse;
import io.dra4j.kubelet.proto.dra.v1.NodeUnprepareResourcesRequest;
import io.dra4j.kubelet.proto.dra.v1.NodeUnprepareResourcesResponse;
import io.grpc.BindableService;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The gRPC faces of a {@link DraPlugin}: one implementation under v1 and v1beta1 (v1beta1 has no share ID), plus the
 * health service (v1 and v1alpha1) when the plugin reports health.
 */
public final class DraServices {
    private DraServices() {}

    /** The DRA services of {@code plugin}, and the versions of {@code health} asked for when it is not null. */
    public static List<BindableService> of(
            DraPlugin plugin, boolean v1beta1, HealthService health, boolean healthV1, boolean healthV1alpha1) {
        List<BindableService> services = new ArrayList<>();
        services.add(new V1(plugin));
        if (v1beta1) {
            services.add(new V1beta1(plugin));
        }
        if (health != null) {
            services.addAll(health.services(healthV1, healthV1alpha1));
        }
        return services;
    }

    private static final class V1 extends DRAPluginGrpc.DRAPluginImplBase {
        private final DraPlugin plugin;

        V1(DraPlugin plugin) {
            this.plugin = plugin;
        }

        @Override
        public void nodePrepareResources(
                NodePrepareResourcesRequest request, StreamObserver<NodePrepareResourcesResponse> response) {
            List<ClaimRef> refs = request.getClaimsList().stream()
                    .map(c -> new ClaimRef(c.getNamespace(), c.getName(), c.getUid()))
                    .toList();
            reply(response, () -> {
                NodePrepareResourcesResponse.Builder out = NodePrepareResourcesResponse.newBuilder();
                for (Map.Entry<String, ClaimPrepared> e : plugin.prepare(refs).entrySet()) {
                    NodePrepareResourceResponse.Builder c = NodePrepareResourceResponse.newBuilder()
                            .setError(e.getValue().error());
                    for (NodeDevice d : e.getValue().devices()) {
                        Device.Builder b = Device.newBuilder()
                                .addAllRequestNames(d.requestNames())
                                .setPoolName(d.pool())
                                .setDeviceName(d.device())
                                .addAllCdiDeviceIds(d.cdiDeviceIds());
                        if (d.shareId() != null) {
                            b.setShareId(d.shareId());
                        }
                        c.addDevices(b);
                    }
                    out.putClaims(e.getKey(), c.build());
                }
                return out.build();
            });
        }

        @Override
        public void nodeUnprepareResources(
                NodeUnprepareResourcesRequest request, StreamObserver<NodeUnprepareResourcesResponse> response) {
            List<ClaimRef> refs = request.getClaimsList().stream()
                    .map(c -> new ClaimRef(c.getNamespace(), c.getName(), c.getUid()))
                    .toList();
            reply(response, () -> {
                NodeUnprepareResourcesResponse.Builder out = NodeUnprepareResourcesResponse.newBuilder();
                plugin.unprepare(refs)
                        .forEach((uid, error) -> out.putClaims(
                                uid,
                                NodeUnprepareResourceResponse.newBuilder()
                                        .setError(error)
                                        .build()));
                return out.build();
            });
        }
    }

    private static final class V1beta1 extends io.dra4j.kubelet.proto.dra.v1beta1.DRAPluginGrpc.DRAPluginImplBase {
        private final DraPlugin plugin;

        V1beta1(DraPlugin plugin) {
            this.plugin = plugin;
        }

        @Override
        public void nodePrepareResources(
                io.dra4j.kubelet.proto.dra.v1beta1.NodePrepareResourcesRequest request,
                StreamObserver<io.dra4j.kubelet.proto.dra.v1beta1.NodePrepareResourcesResponse> response) {
            List<ClaimRef> refs = request.getClaimsList().stream()
                    .map(c -> new ClaimRef(c.getNamespace(), c.getName(), c.getUid()))
                    .toList();
            reply(response, () -> {
                var out = io.dra4j.kubelet.proto.dra.v1beta1.NodePrepareResourcesResponse.newBuilder();
                for (Map.Entry<String, ClaimPrepared> e : plugin.prepare(refs).entrySet()) {
                    var c = io.dra4j.kubelet.proto.dra.v1beta1.NodePrepareResourceResponse.newBuilder()
                            .setError(e.getValue().error());
                    for (NodeDevice d : e.getValue().devices()) {
                        c.addDevices(io.dra4j.kubelet.proto.dra.v1beta1.Device.newBuilder()
                                .addAllRequestNames(d.requestNames())
                                .setPoolName(d.pool())
                                .setDeviceName(d.device())
                                .addAllCdiDeviceIds(d.cdiDeviceIds()));
                    }
                    out.putClaims(e.getKey(), c.build());
                }
                return out.build();
            });
        }

        @Override
        public void nodeUnprepareResources(
                io.dra4j.kubelet.proto.dra.v1beta1.NodeUnprepareResourcesRequest request,
                StreamObserver<io.dra4j.kubelet.proto.dra.v1beta1.NodeUnprepareResourcesResponse> response) {
            List<ClaimRef> refs = request.getClaimsList().stream()
                    .map(c -> new ClaimRef(c.getNamespace(), c.getName(), c.getUid()))
                    .toList();
            reply(response, () -> {
                var out = io.dra4j.kubelet.proto.dra.v1beta1.NodeUnprepareResourcesResponse.newBuilder();
                plugin.unprepare(refs)
                        .forEach((uid, error) -> out.putClaims(
                                uid,
                                io.dra4j.kubelet.proto.dra.v1beta1.NodeUnprepareResourceResponse.newBuilder()
                                        .setError(error)
                                        .build()));
                return out.build();
            });
        }
    }

    private static <T> void reply(StreamObserver<T> response, java.util.function.Supplier<T> body) {
        T value;
        try {
            value = body.get();
        } catch (RuntimeException e) {
            response.onError(
                    Status.INTERNAL.withDescription(e.getMessage()).withCause(e).asRuntimeException());
            return;
        }
        response.onNext(value);
        response.onCompleted();
    }
}
