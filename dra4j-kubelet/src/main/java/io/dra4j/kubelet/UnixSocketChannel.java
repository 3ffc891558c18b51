package io.dra4j.kubelet;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A plaintext gRPC client connection to a Unix domain socket (Netty epoll), with authority {@code localhost} as the kubelet uses. */
public final class UnixSocketChannel implements AutoCloseable {
    private final Path path;
    private final ManagedChannel channel;
    private final EventLoopGroup group;

    private UnixSocketChannel(Path path, ManagedChannel channel, EventLoopGroup group) {
        this.path = path;
        this.channel = channel;
        this.group = group;
    }

    /** A channel to {@code socket}; it connects lazily, on the first call. */
    public static UnixSocketChannel dial(Path socket) {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        ManagedChannel channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .channelType(EpollDomainSocketChannel.class)
                .eventLoopGroup(group)
                .overrideAuthority("localhost")
                .usePlaintext()
                .build();
        return new UnixSocketChannel(socket, channel, group);
    }

    /**
     * Connects and waits until the connection is ready, as the kubelet's blocking dial does (it gives up after
     * 10 s); false when it is not ready in time.
     */
    public boolean awaitReady(java.time.Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        io.grpc.ConnectivityState state = channel.getState(true);
        while (state != io.grpc.ConnectivityState.READY) {
            if (state == io.grpc.ConnectivityState.SHUTDOWN || System.nanoTime() > deadline) {
                return false;
            }
            java.util.concurrent.CountDownLatch changed = new java.util.concurrent.CountDownLatch(1);
            channel.notifyWhenStateChanged(state, changed::countDown);
            try {
                changed.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            state = channel.getState(true);
        }
        return true;
    }

    public Path path() {
        return path;
    }

    public ManagedChannel channel() {
        return channel;
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
