package io.cloudg.sim.gcp;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The plaintext gRPC server hosting {@link GcpAssetService}. */
public final class GcpServer implements AutoCloseable {
    private final Server server;
    private final ScheduledExecutorService timer;
    private final GcpAssetService service;

    /** Starts serving; handlers are non-blocking and run on the transport threads. */
    public GcpServer(String host, int port, java.util.function.Function<ScheduledExecutorService, GcpAssetService> service) {
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cloud-sim-gcp-timer");
            t.setDaemon(true);
            return t;
        });
        this.service = service.apply(timer);
        try {
            this.server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port)).directExecutor()
                .addService(this.service.definition()).build().start();
        } catch (IOException e) {
            timer.shutdownNow();
            throw new UncheckedIOException("cannot start the GCP gRPC server on " + host + ":" + port, e);
        }
    }

    /** The service it hosts (the REST front end answers from the same one). */
    public GcpAssetService service() {
        return service;
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.shutdownNow();
        try {
            server.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.shutdownNow();
    }
}
