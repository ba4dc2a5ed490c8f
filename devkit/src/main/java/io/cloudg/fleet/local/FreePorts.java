package io.cloudg.fleet.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A TCP port nothing listens on right now (for local brokers and servers). */
public final class FreePorts {
    private FreePorts() {
    }

    public static int next() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port: " + e.getMessage(), e);
        }
    }
}
