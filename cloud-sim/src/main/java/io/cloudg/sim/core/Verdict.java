package io.cloudg.sim.core;

import io.cloudg.sim.config.FaultKind;

/** What the {@link Gate} decided about one call; the front end renders it in the provider's wire shape. */
public sealed interface Verdict {

    /** Delay before the answer is sent (latency model plus any {@code slow} fault). */
    long delayNanos();

    /**
     * Answer normally.
     *
     * @param remaining whole tokens left in the call's bucket (-1 when the call has no bucket)
     */
    record Proceed(long delayNanos, long remaining, long fullAfterNanos) implements Verdict {
    }

    /**
     * Answer with the provider's throttling error.
     *
     * @param retryAfterNanos time until the bucket has a token again
     * @param injected        true when a fault rule, not the bucket, throttled
     */
    record Throttled(long delayNanos, long retryAfterNanos, long fullAfterNanos, boolean injected) implements Verdict {
    }

    /** Answer with an injected fault (transient, reset or access_denied). */
    record Faulted(long delayNanos, FaultKind kind) implements Verdict {
    }
}
