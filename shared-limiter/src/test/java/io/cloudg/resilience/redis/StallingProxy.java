package io.cloudg.resilience.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy for tests that stands between a client and a server and can stall: while {@link #stall() stalled}
 * it accepts connections and reads what either side sends but forwards nothing, as a server too busy to reply
 * or a network that lost its route would look; {@link #flow()} delivers what was held and passes everything
 * again. Bytes are delayed, never dropped or reordered. Listens on a free port of the loopback interface.
 */
final class StallingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private final java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
    private boolean stalled;
    private volatile boolean closed;

    StallingProxy(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "stalling-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** How many client connections the proxy has accepted so far. */
    int connections() {
        return accepted.get();
    }

    /** Holds every byte from now on, both ways, until {@link #flow()}. */
    void stall() {
        synchronized (gate) {
            stalled = true;
        }
    }

    /** Delivers what was held and forwards again. */
    void flow() {
        synchronized (gate) {
            stalled = false;
            gate.notifyAll();
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                accepted.incrementAndGet();
                Socket upstream = new Socket();
                upstream.connect(target, 5_000);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    awaitFlow();
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // a side closed: close both
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "stalling-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void awaitFlow() throws InterruptedException {
        synchronized (gate) {
            while (stalled && !closed) {
                gate.wait();
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        flow();
        server.close();
        sockets.forEach(StallingProxy::closeQuietly);
    }
}
