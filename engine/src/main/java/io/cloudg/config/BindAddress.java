package io.cloudg.config;

import io.cloudg.resilience.config.ConfigErrors;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * The address one of cloudg's servers listens on ({@code mcp.http.host}, {@code metrics.host},
 * {@code fleet.worker.health_host}): an IP address or a host name, its form checked when the configuration
 * loads, resolved when the server starts. Null means every interface (IPv4 and IPv6), what the health and
 * metrics servers have always bound.
 */
public final class BindAddress {
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");
    static final String EXPECTED = "an IP address or a host name to listen on, like 127.0.0.1, 0.0.0.0 or ::";

    private BindAddress() {
    }

    /** {@code host} when it is an IP address or a host name (or null), else an error naming {@code key}. */
    public static String check(String key, String host) {
        if (host != null && !HOST.matcher(host).matches() && !ipv6(host)) {
            throw ConfigErrors.mustBe(key, EXPECTED, host);
        }
        return host;
    }

    /** Whether {@code host} is an IPv6 literal (parsed as a literal: no name lookup). */
    private static boolean ipv6(String host) {
        if (!IPV6.matcher(host).matches()) {
            return false;
        }
        try {
            return InetAddress.getByName(host) instanceof java.net.Inet6Address;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * The socket address to bind: {@code host} resolved (every interface when null), or a
     * {@link StartupException} naming {@code key} when the name does not resolve.
     */
    public static InetSocketAddress resolve(String key, String host, int port) {
        if (host == null) {
            return new InetSocketAddress(port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new StartupException("cannot listen on " + key + " \"" + host + "\": no such host", e);
        }
    }

    /** Whether every address {@code host} names is a loopback address (127.0.0.0/8, ::1); false when unknown. */
    public static boolean loopback(String host) {
        if (host == null) {
            return false;
        }
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            for (InetAddress a : all) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return all.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** {@code host} for messages: "every interface" when null. */
    public static String describe(String host) {
        return host == null ? "every interface" : host;
    }

    /**
     * Why binding {@code host:port} failed, in one line: the port in use (then {@code portHint} says how to
     * choose another), or the OS's reason (an address this machine does not have).
     */
    public static String bindFailure(java.net.BindException e, String hostKey, String host, int port, String portHint) {
        String reason = String.valueOf(e.getMessage());
        if (reason.toLowerCase(java.util.Locale.ROOT).contains("in use")) {
            return "port " + port + " is in use: " + portHint;
        }
        return "cannot listen on " + describe(host) + ":" + port + " (" + hostKey + "): " + reason;
    }
}
