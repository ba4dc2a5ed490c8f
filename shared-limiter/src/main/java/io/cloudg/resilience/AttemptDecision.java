package io.cloudg.resilience;

/**
 * What the governor decides after an attempt.
 *
 * @param kind DONE (success), RETRY (wait {@code backoffNanos}, then pass the gate again), FAIL (a fatal
 *        error: re-raise it) or GIVE_UP (retries, deadline or budget ran out: the call is recorded as lost)
 * @param backoffNanos for RETRY, how long to wait before the next attempt
 * @param error for FAIL and GIVE_UP, the attempt's error
 * @param reason for GIVE_UP, the ledger's text, e.g.
 *        {@code throttled: DescribeSubnets (retries exhausted): RequestLimitExceeded: Request limit exceeded.}
 */
public record AttemptDecision(Kind kind, long backoffNanos, Throwable error, String reason) {
    public enum Kind { DONE, RETRY, FAIL, GIVE_UP }

    static final AttemptDecision DONE = new AttemptDecision(Kind.DONE, 0, null, null);

    public boolean retry() {
        return kind == Kind.RETRY;
    }
}
