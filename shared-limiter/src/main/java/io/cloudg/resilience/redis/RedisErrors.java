package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.StateStoreUnavailableException;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.redisson.RedissonShutdownException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisNoScriptException;

/**
 * Every error of the Redis backend is built here, from whatever the client threw:
 * <ul>
 *   <li>{@code NOSCRIPT} (Redis restarted or failed over): {@link #isNoScript} tells the runner to reload
 *       and retry; it never reaches a caller.</li>
 *   <li>State in an unknown format: {@link StateFormatException}, naming the key and the versions.</li>
 *   <li>A script bug: {@link IllegalStateException} (never hidden behind degraded mode).</li>
 *   <li>Anything else (connection refused, timeouts, LOADING, MASTERDOWN, CLUSTERDOWN, READONLY, auth
 *       failures): {@link StateStoreUnavailableException}, which the degrading wrapper answers with the
 *       local store.</li>
 * </ul>
 */
final class RedisErrors {
    static final String FORMAT_MARKER = "CLOUDG_STATE_FORMAT";

    private RedisErrors() {
    }

    static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    static boolean isNoScript(Throwable t) {
        Throwable e = unwrap(t);
        return e instanceof RedisNoScriptException
                || (e instanceof RedisException && e.getMessage() != null && e.getMessage().contains("NOSCRIPT"));
    }

    /** A function the library registers is not on the server (it restarted, failed over, or was flushed). */
    static boolean isNoFunction(Throwable t) {
        Throwable e = unwrap(t);
        return e instanceof RedisException && e.getMessage() != null && e.getMessage().contains("Function not found");
    }

    /** The exception a caller of the store sees for {@code t}, raised while doing {@code what}. */
    static RuntimeException translate(Throwable t, String what, String where) {
        Throwable e = unwrap(t);
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int marker = msg.indexOf(FORMAT_MARKER);
        if (marker >= 0) {
            String detail = msg.substring(marker + FORMAT_MARKER.length()).trim();
            int end = detail.indexOf(" (end)");
            return new StateFormatException("Redis governor state at " + where + " is in an unknown format: "
                    + (end > 0 ? detail.substring(0, end) : detail)
                    + ". Use another ratelimit.redis.key_prefix or run `cloudg ratelimit reset`.");
        }
        if (e instanceof RedisException && !(e instanceof RedisConnectionException)
                && (msg.contains("Error running script") || msg.contains("user_script") || msg.contains("CLOUDG_BAD_OP"))) {
            return new IllegalStateException("governor script failed during " + what + " at " + where + ": " + msg, e);
        }
        if (e instanceof RedisException || e instanceof RedissonShutdownException || e instanceof IOException
                || e instanceof TimeoutException || e instanceof java.util.concurrent.CancellationException) {
            return unavailable(what, where, e);
        }
        if (e instanceof RuntimeException) {
            return (RuntimeException) e;
        }
        return unavailable(what, where, e);
    }

    static StateStoreUnavailableException unavailable(String what, String where, Throwable cause) {
        return new StateStoreUnavailableException("Redis at " + where + " could not be reached during " + what + ": "
                + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()), cause);
    }
}
