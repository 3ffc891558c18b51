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
