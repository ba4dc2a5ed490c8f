package io.cloudg.resilience.redis;

import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.config.TlsProblem;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.redisson.client.RedisAuthRequiredException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.RedisWrongPasswordException;

/**
 * Whether the Redis of {@code ratelimit.redis} can be used, asked once at start on one plain connection (no
 * pool, no client-side retries): resolve the host, connect, the TLS handshake, AUTH, SELECT, PING. A failure is
 * a {@link StateStoreUnavailableException} whose one-line message says what failed and which setting to look
 * at: a wrong password, a password required but not set, a certificate the configured CA (or the JVM's trust
 * store) does not trust or that names another host, an unknown host, a refused connection, no answer in time.
 * An answer from the server (a refused password, a handshake alert) fails at once; only silence waits, at most
 * {@code connect_timeout_ms} plus {@code timeout_ms} for each exchange. Silence is asked again,
 * {@value #SILENT_TRIES} times in all, each on a new connection: the first exchange of a cold JVM on a busy host
 * (class loading, a worker starting beside others, a collection pause) can take longer than the timeouts while the
 * server is fine, and a worker that exits on it only restarts into the same race. (So a {@code rediss://} URL on a
 * plain port, which stays silent, is told after three handshake timeouts.)
 *
 * <p>In sentinel mode the addresses are sentinels, whose credentials are theirs: only the transport (name,
 * connection, TLS) is checked here, and the master through the pool once the store is built.
 */
public final class RedisPreflight {
    private static final String URL_KEYS = "ratelimit.redis.url or --redis";
    /** How many times a silent address is asked in all, each time on a new connection. */
    static final int SILENT_TRIES = 3;

    private RedisPreflight() {
    }

    /**
     * Checks that {@code s}'s Redis answers with the credentials and the trust it is configured with; returns
     * when one node does.
     *
     * @throws StateStoreUnavailableException naming the problem and the setting, when none does
     * @throws io.cloudg.resilience.config.ConfigException for an unset password variable or an unusable CA file
     */
    public static void check(RedisSettings s, Function<String, String> env) {
        boolean sentinel = s.mode() == RedisSettings.Mode.SENTINEL;
        String username = sentinel ? null : s.resolvedUsername();
        String password = sentinel ? null : s.resolvedPassword(env);
        TrustManagerFactory trust = RedisTrust.trustManagers(s, env);
        List<String> addresses = s.addresses();
        StateStoreUnavailableException first = null;
        for (String address : addresses) {
            Throwable failure = ping(s, address, username, password, trust);
            if (failure == null || (sentinel && answered(failure))) {
                return;
            }
            StateStoreUnavailableException e = new StateStoreUnavailableException(
                    explain(s, address, failure, env, timedOut(failure) ? SILENT_TRIES : 1), failure);
            if (answered(failure) || first == null) {
                first = e;
            }
            if (answered(failure)) {
                break; // the server said no: every node of one deployment would say the same
            }
        }
        if (addresses.size() > 1 && !answered(first.getCause())) {
            throw new StateStoreUnavailableException(first.getMessage() + "; nor any of the other " + (addresses.size() - 1)
                    + " node(s)", first.getCause());
        }
        throw first;
    }

    /**
     * Null when {@code address} answered PING on a plain connection ({@link RedissonInternals#ping}), else what
     * went wrong (a {@link java.util.concurrent.TimeoutException} for silence).
     */
    private static Throwable ping(RedisSettings s, String address, String username, String password,
                                  TrustManagerFactory trust) {
        Throwable failure = null;
        for (int attempt = 1; attempt <= SILENT_TRIES; attempt++) {
            failure = RedissonInternals.ping(address, s.connectTimeoutMs(), s.timeoutMs(), username, password,
                    s.mode() == RedisSettings.Mode.STANDALONE ? s.database() : null, trust);
            if (failure == null || !timedOut(failure)) {
                return failure;
            }
        }
        return failure;
    }

    /** Whether {@code t} is silence: a timeout, with no answer from the server and no TLS problem. */
    static boolean timedOut(Throwable t) {
        List<Throwable> chain = chain(t);
        return (has(chain, RedisTimeoutException.class) || has(chain, TimeoutException.class)) && !answered(t)
                && TlsProblem.of(t) == null;
    }

    /** Whether the server answered (with an error or a TLS alert), as opposed to staying out of reach. */
    private static boolean answered(Throwable t) {
        for (Throwable e = t; e != null; e = e.getCause()) {
            if (e instanceof SSLException) {
                return true;
            }
            if (e instanceof RedisException && !(e instanceof RedisConnectionException)
                    && !(e instanceof RedisTimeoutException)) {
                return true;
            }
        }
        return false;
    }

    /** The start-up failure for {@code cause}, met talking to {@code address}: one line naming the setting. */
    public static StateStoreUnavailableException failure(RedisSettings s, String address, Throwable cause,
                                                         Function<String, String> env) {
        return new StateStoreUnavailableException(explain(s, address, cause, env, 1), cause);
    }

    /** The one line for {@code cause}; {@code tries} is how many times the address was asked (said when more than one). */
    static String explain(RedisSettings s, String address, Throwable cause, Function<String, String> env, int tries) {
        String host = URI.create(address.split(",")[0].trim()).getHost();
        String at = "Redis at " + address;
        List<Throwable> chain = chain(cause);
        String server = serverMessage(chain);
        if (has(chain, RedisWrongPasswordException.class) || contains(server, "WRONGPASS", "invalid password")) {
            String user = s.resolvedUsername();
            String source = s.passwordSource(env);
            return at + " refused " + (user == null ? "the password" : "user " + user + " with the password")
                    + (source == null ? "" : " from " + source) + " (" + server + ")";
        }
        if (has(chain, RedisAuthRequiredException.class) || contains(server, "NOAUTH")) {
            return at + " requires a password, and none is set: put it in $" + (s.passwordEnv() == null
                    ? RedisSettings.DEFAULT_PASSWORD_ENV : s.passwordEnv())
                    + " (or name another variable in ratelimit.redis.password_env)";
        }
        if (contains(server, "without any password configured", "no password is set")) {
            return at + " has no password, but " + s.passwordSource(env) + " gives one: remove it, or set the "
                    + "password on the server";
        }
        if (contains(server, "DB index is out of range", "invalid DB index")) {
            return at + " has no database " + s.database() + " (the path of ratelimit.redis.url)";
        }
        if (TlsProblem.of(cause) != null) {
            return tlsFailure(s, at, host, cause);
        }
        if (has(chain, UnknownHostException.class)) {
            return "cannot reach " + at + ": unknown host " + host + " (" + URL_KEYS + ")";
        }
        if (has(chain, NoRouteToHostException.class)) {
            return "cannot reach " + at + ": no route to host (" + URL_KEYS + ")";
        }
        if (anyMessage(chain, "connection timed out") || chain.stream().anyMatch(e -> e.getClass().getSimpleName()
                .equals("ConnectTimeoutException"))) {
            return "cannot reach " + at + ": no connection within " + s.connectTimeoutMs() + " ms (" + URL_KEYS
                    + "; ratelimit.redis.connect_timeout_ms)";
        }
        if (has(chain, ConnectException.class)) {
            return "cannot reach " + at + ": connection refused (" + URL_KEYS + ")";
        }
        if (has(chain, TimeoutException.class) || has(chain, RedisTimeoutException.class)) {
            long waited = has(chain, RedisTimeoutException.class) ? s.timeoutMs() : s.connectTimeoutMs() + 3L * s.timeoutMs();
            String asked = tries > 1 ? ", " + tries + " tries" : "";
            return s.tls()
                    ? at + " did not complete a TLS handshake within " + waited + " ms" + asked + ": does that port serve "
                            + "TLS? (rediss:// in " + URL_KEYS + ")"
                    : at + " did not answer within " + waited + " ms" + asked + " (ratelimit.redis.timeout_ms); if that "
                            + "port serves TLS, use rediss:// in " + URL_KEYS;
        }
        if (anyMessage(chain, "Can't decode")) {
            String reply = message(find(chain, IllegalStateException.class));
            int colon = reply.indexOf(':');
            return at + " does not speak the Redis protocol (it answered \"" + (colon >= 0 ? reply.substring(colon + 1).trim()
                    : reply) + "\"): check " + URL_KEYS;
        }
        if (server != null) {
            return at + " answered " + server;
        }
        Throwable root = chain.get(chain.size() - 1);
        return "cannot reach " + at + ": " + root.getClass().getSimpleName() + (root.getMessage() == null ? ""
                : ": " + oneLine(root.getMessage())) + " (" + URL_KEYS + ")";
    }

    private static String tlsFailure(RedisSettings s, String at, String host, Throwable cause) {
        String trust = s.trustSource();
        return switch (TlsProblem.of(cause)) {
            case EXPIRED -> "the TLS certificate of " + at + " is outside its validity period (" + TlsProblem.message(cause) + ")";
            case WRONG_HOST -> "the TLS certificate of " + at + " does not name host " + host + ": connect by a name it holds ("
                    + URL_KEYS + ")";
            case UNTRUSTED -> trust == null
                    ? "the TLS certificate of " + at + " is not trusted: no CA in the JVM's trust store signed it; give "
                            + "the CA's certificate in ratelimit.redis.ca_file (PEM) or ratelimit.redis.trust_store"
                    : "the TLS certificate of " + at + " is not trusted: the CA in " + trust + " did not sign it";
            case CLIENT_CERTIFICATE -> at + " asks for a client certificate, which cloudg does not send (set "
                    + "tls-auth-clients no or optional on the server)";
            default -> "the TLS handshake with " + at + " failed: " + oneLine(TlsProblem.message(cause));
        };
    }

    /** The server's error reply, without what Redisson appends to it (channel, command data). */
    private static String serverMessage(List<Throwable> chain) {
        for (Throwable e : chain) {
            if (e instanceof RedisException && !(e instanceof RedisConnectionException) && !(e instanceof RedisTimeoutException)
                    && e.getMessage() != null) {
                String m = e.getMessage();
                int cut = m.indexOf(". channel:");
                m = (cut >= 0 ? m.substring(0, cut) : m).trim();
                return m.endsWith(".") ? m.substring(0, m.length() - 1) : m;
            }
        }
        return null;
    }

    private static List<Throwable> chain(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        for (Throwable e = t; e != null && out.size() < 20; e = e.getCause()) {
            out.add(e);
        }
        return out;
    }

    private static boolean has(List<Throwable> chain, Class<? extends Throwable> type) {
        return find(chain, type) != null;
    }

    private static <T extends Throwable> T find(List<Throwable> chain, Class<T> type) {
        for (Throwable e : chain) {
            if (type.isInstance(e)) {
                return type.cast(e);
            }
        }
        return null;
    }

    private static boolean anyMessage(List<Throwable> chain, String... parts) {
        for (Throwable e : chain) {
            if (contains(e.getMessage(), parts)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(String text, String... parts) {
        if (text == null) {
            return false;
        }
        String t = text.toLowerCase(Locale.ROOT);
        for (String p : parts) {
            if (t.contains(p.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static String message(Throwable t) {
        return t == null || t.getMessage() == null ? (t == null ? "" : t.getClass().getSimpleName()) : t.getMessage();
    }

    private static String oneLine(String m) {
        String s = m.replaceAll("\\s*\\R\\s*", " ").trim();
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }
}
