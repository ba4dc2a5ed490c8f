package io.cloudg.fleet.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntSupplier;

/**
 * TCP ports nothing listens on right now, for a broker or server started next (by this process or a child).
 *
 * <p>Chosen at random below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}, 32768-60999 by
 * default), from which the OS hands ports to every outgoing connection and every bind to port 0: between the check
 * here and the server's own bind (seconds while a JVM starts on a loaded machine) a port in that range can go to any
 * client socket on the host, and did (a simulator's gRPC port, while the fleet tests ran beside it). Below the range,
 * only another caller's explicit choice can take it. Where the range starts too low to leave room, ports come from
 * the OS as before.
 */
public final class FreePorts {
    /** The lowest port chosen: under it are the well-known and commonly configured ports. */
    static final int LOWEST = 10_000;

    private FreePorts() {
    }

    /** A free port. */
    public static int next() {
        return pick(1);
    }

    /** A free port P with P + 1 free too (a server that binds two neighbours, e.g. {@code cloudg sim --port P}). */
    public static int pair() {
        return pick(2);
    }

    private static int pick(int count) {
        int below = ephemeralRangeStart();
        return pick(count, below - count > LOWEST
                ? () -> ThreadLocalRandom.current().nextInt(LOWEST, below - count + 1) : FreePorts::fromTheOs);
    }

    /** The first of {@code candidate}'s ports with {@code count - 1} free neighbours above it, itself free. */
    static int pick(int count, IntSupplier candidate) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int p = candidate.getAsInt();
            if (p + count - 1 <= 65535 && allFree(p, count)) {
                return p;
            }
        }
        throw new IllegalStateException((count == 1 ? "no free port" : "no " + count + " neighbouring free ports")
                + " in 100 attempts");
    }

    private static boolean allFree(int first, int count) {
        for (int p = first; p < first + count; p++) {
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    private static int fromTheOs() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port: " + e.getMessage(), e);
        }
    }

    /** The first port of the kernel's ephemeral range (32768 where it cannot be read: /proc is Linux's). */
    static int ephemeralRangeStart() {
        try {
            return Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
