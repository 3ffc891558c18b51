package io.dra4j.kubelet;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A plaintext gRPC server on a Unix domain socket (Netty epoll), as the kubelet expects for plugins.
 *
 * <p>The socket never exists with wider permissions than owner-only: it is bound inside a fresh owner-only
 * directory next to its final path, made owner-only ({@code rw-------}) and then renamed into place, so that no
 * other user can connect during the window between bind and chmod. A stale socket file at the path is removed
 * first; the socket file is removed again on {@link #close()}.
 */
public final class UnixSocketServer implements AutoCloseable {
    /** Longest path a Unix socket address can hold on Linux (sun_path without its terminating NUL). */
    public static final int MAX_SOCKET_PATH_BYTES = 107;

    private final Path path;
    private final Server server;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;

    private UnixSocketServer(Path path, Server server, EventLoopGroup boss, EventLoopGroup workers) {
        this.path = path;
        this.server = server;
        this.boss = boss;
        this.workers = workers;
    }

    /** Starts serving {@code services} at {@code socket}; the directory must exist. */
    public static UnixSocketServer start(Path socket, List<BindableService> services) throws IOException {
        Path path = socket.toAbsolutePath();
        checkLength(path);
        Path dir = path.getParent();
        if (!Files.isDirectory(dir)) {
            throw new IOException("socket directory " + dir + " does not exist");
        }
        Files.deleteIfExists(path);
        Path staging = Files.createTempDirectory(
                dir, ".sock-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path temp = staging.resolve("s");
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
        try {
            NettyServerBuilder builder = NettyServerBuilder.forAddress(new DomainSocketAddress(temp.toString()))
                    .channelType(EpollServerDomainSocketChannel.class)
                    .bossEventLoopGroup(boss)
                    .workerEventLoopGroup(workers);
            services.forEach(builder::addService);
            Server server = builder.build().start();
            Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-------"));
            try {
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                server.shutdownNow();
                throw new IOException("cannot move socket into " + dir + ": " + e.getMessage(), e);
            }
            return new UnixSocketServer(path, server, boss, workers);
        } catch (IOException | RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e instanceof IOException io
                    ? io
                    : new IOException("cannot serve on " + path + ": " + e.getMessage(), e);
        } finally {
            Files.deleteIfExists(temp);
            Files.deleteIfExists(staging);
        }
    }

    static void checkLength(Path path) throws IOException {
        int bytes = path.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_SOCKET_PATH_BYTES) {
            throw new IOException("socket path " + path + " is " + bytes
                    + " bytes long; a Unix socket path holds at most " + MAX_SOCKET_PATH_BYTES);
        }
    }

    /** The socket's absolute path. */
    public Path path() {
        return path;
    }

    /** Whether the socket file is still where it was created (the kubelet may have wiped the directory). */
    public boolean socketPresent() {
        return Files.exists(path);
    }

    /** Stops serving, waits briefly for calls in flight and removes the socket file. */
    @Override
    public void close() {
        server.shutdown();
        try {
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.shutdownNow();
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // the directory may have been wiped or made unwritable; nothing is left to clean up then
        }
    }
}
