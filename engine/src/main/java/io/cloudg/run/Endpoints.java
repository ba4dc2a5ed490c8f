package io.cloudg.run;

import io.cloudg.config.StartupException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * The one check a run makes before its first call to a configured endpoint ({@code aws.endpoint_url},
 * {@code azure.endpoint_url}, {@code gcp.endpoint_url}): a TCP connection within a few seconds. A closed
 * port or an unknown host fails the start at once with one line naming the key, instead of the SDK's retry
 * loop spending minutes on connection refusals.
 */
public final class Endpoints {
    /** How long the check waits for the connection. */
    public static final int CONNECT_TIMEOUT_MS = 3_000;

    private Endpoints() {
    }

    /** Connects to {@code host:port} once; a failure is a {@link StartupException} naming {@code key}. */
    public static void requireReachable(String key, String shown, String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
        } catch (UnknownHostException e) {
            throw new StartupException("cannot reach " + key + " " + shown + ": unknown host " + host);
        } catch (IOException e) {
            throw new StartupException("cannot reach " + key + " " + shown + ": " + (e.getMessage() == null
                    ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    /** {@link #requireReachable(String, String, String, int)} for a URL; its port, else the scheme's. */
    public static void requireReachable(String key, URI url) {
        int port = url.getPort() > 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
        requireReachable(key, url.toString(), url.getHost(), port);
    }
}
