package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.StateStoreUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How the parts of a {@link RedisStateStore} run a script and wait for its reply: queued on the store's
 * {@link ScriptRunner}, awaited at most the store's call timeout, and any failure turned into the store's
 * exceptions by {@link RedisErrors} in one place (a {@link StateStoreUnavailableException} when Redis cannot be
 * reached, counted as an outage; a {@link StateFormatException} for state of another format). A reply that
 * does not come in time drops the runner's connections, so the next script does not queue behind a stuck one.
 * The static helpers read replies: integers, numbers as text, tables.
 */
final class ScriptCalls {
    private final ScriptRunner runner;
    private final long timeoutMs;
    private final String where;
    /** Times Redis was found out of reach: the server may have restarted without its keys since. */
    private final AtomicLong outages = new AtomicLong();

    ScriptCalls(ScriptRunner runner, long timeoutMs, String where) {
        this.runner = runner;
        this.timeoutMs = timeoutMs;
        this.where = where;
    }

    /** Queues {@code script} with its keys and arguments (laid out as {@link ScriptArgs} says). */
    CompletableFuture<Object> call(Script script, Object[] keys, Object[] argv) {
        return runner.call(script, keys, argv);
    }

    /** {@code f}'s reply, waited for at most the call timeout; {@code what} names the operation in errors. */
    Object await(CompletableFuture<?> f, String what) {
        try {
            return f.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RedisErrors.unavailable(what, where, e);
        } catch (TimeoutException e) {
            runner.reset(); // do not queue the next script behind a stuck connection
            throw counted(RedisErrors.translate(e, what, where));
        } catch (Exception e) {
            throw counted(RedisErrors.translate(e, what, where));
        }
    }

    /** {@code e} as the store's exception (a {@link StateFormatException} or the store's own pass as they are). */
    RuntimeException translate(Throwable e, String what) {
        return RedisErrors.translate(e, what, where);
    }

    /** {@code e}, counted as an outage when it is one (the accounts are registered again afterwards). */
    private RuntimeException counted(RuntimeException e) {
        if (e instanceof StateStoreUnavailableException) {
            outages.incrementAndGet();
        }
        return e;
    }

    /**
     * Changes whenever Redis may have lost what this store wrote once (its registrations): an outage seen, or a
     * server that had lost the scripts (a restart, a failover, a flush).
     */
    long lossEpoch() {
        return outages.get() + runner.scriptsLost();
    }

    long timeoutMs() {
        return timeoutMs;
    }

    /** The store's address and key prefix, for messages. */
    String where() {
        return where;
    }

    /** An integer reply (or a number as text). */
    static long longOf(Object o) {
        return o instanceof Long ? (Long) o : (long) Double.parseDouble(o.toString());
    }

    /** A number reply: an integer, or a number as text. */
    static double doubleOf(Object o) {
        return o instanceof Long ? (Long) o : Double.parseDouble(o.toString());
    }

    /** A table reply. */
    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    /** A bulk string reply (bytes or text) as text. */
    static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : reply.toString();
    }
}
