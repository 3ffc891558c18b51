package io.dra4j.kubelet.registration;

import io.dra4j.kubelet.UnixSocketServer;
import io.dra4j.kubelet.proto.registration.InfoRequest;
import io.dra4j.kubelet.proto.registration.RegistrationGrpc;
import io.dra4j.kubelet.proto.registration.RegistrationStatus;
import io.dra4j.kubelet.proto.registration.RegistrationStatusResponse;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The registration service a plugin serves on a socket in the kubelet's {@code plugins_registry} directory: the
 * kubelet's plugin watcher finds the socket, calls GetInfo, and reports the outcome through NotifyRegistrationStatus.
 * Start it only after the service it advertises answers, so that the kubelet never registers a plugin that is not
 * ready.
 */
public final class RegistrationServer implements AutoCloseable {
    private final UnixSocketServer server;

    private RegistrationServer(UnixSocketServer server) {
        this.server = server;
    }

    /**
     * Serves {@code info} at {@code socket}; {@code onStatus} receives (registered, error) each time the kubelet
     * notifies.
     */
    public static RegistrationServer start(Path socket, PluginInfo info, BiConsumer<Boolean, String> onStatus)
            throws IOException {
        io.dra4j.kubelet.proto.registration.PluginInfo answer =
                io.dra4j.kubelet.proto.registration.PluginInfo.newBuilder()
                        .setType(info.type())
                        .setName(info.name())
                        .setEndpoint(info.endpoint())
                        .addAllSupportedVersions(info.supportedVersions())
                        .build();
        RegistrationGrpc.RegistrationImplBase service = new RegistrationGrpc.RegistrationImplBase() {
            @Override
            public void getInfo(
                    InfoRequest request, StreamObserver<io.dra4j.kubelet.proto.registration.PluginInfo> response) {
                response.onNext(answer);
                response.onCompleted();
            }

            @Override
            public void notifyRegistrationStatus(
                    RegistrationStatus request, StreamObserver<RegistrationStatusResponse> response) {
                onStatus.accept(request.getPluginRegistered(), request.getError());
                response.onNext(RegistrationStatusResponse.getDefaultInstance());
                response.onCompleted();
            }
        };
        return new RegistrationServer(UnixSocketServer.start(socket, List.of(service)));
    }

    public Path socket() {
        return server.path();
    }

    public boolean socketPresent() {
        return server.socketPresent();
    }

    @Override
    public void close() {
        server.close();
    }
}
