package io.cloudg.resilience;

import io.cloudg.resilience.spi.Scope;

/**
 * A call refused by an open circuit breaker. Nothing was sent to the provider, and the refusal never
 * counts as a failure. The message reads {@code circuit open for <scope> after repeated throttling;
 * retry in <n>s}.
 */
public final class CircuitOpenException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Scope scope;
    private final long retryInNanos;

    public CircuitOpenException(Scope scope, long retryInNanos) {
        super("circuit open for " + scope + " after repeated throttling; retry in "
                + Math.max(1, (long) Math.ceil(retryInNanos / 1e9)) + "s");
        this.scope = scope;
        this.retryInNanos = retryInNanos;
    }

    /** The breaker's scope (bucket granularity). */
    public Scope scope() {
        return scope;
    }

    public long retryInNanos() {
        return retryInNanos;
    }
}
