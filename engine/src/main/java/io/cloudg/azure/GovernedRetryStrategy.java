package io.cloudg.azure;

import com.azure.core.http.policy.RequestRetryCondition;
import com.azure.core.http.policy.RetryStrategy;
import io.cloudg.resilience.AttemptDecision;
import java.time.Duration;

/**
 * The retry strategy of the explicit {@code RetryPolicy} cloudg puts in every Azure pipeline: at most
 * {@code ratelimit.azure.max_retries} retries, and each one only when the governor granted it (the
 * per-attempt policy's {@link RetrySignal}), after the governor's backoff (decorrelated jitter capped at
 * {@code max_backoff_seconds}, never shorter than the server's Retry-After). The governor also ends the
 * loop on the call's {@code deadline_seconds}, an empty retry budget, or a fatal answer.
 */
final class GovernedRetryStrategy implements RetryStrategy {
    /**
     * The header {@code RetryPolicy} is told to read its delay from. Nothing sends it, so the policy asks
     * this strategy for every delay instead of reading {@code Retry-After} itself (the governor already
     * folded Retry-After into its backoff).
     */
    static final String DELAY_FROM_STRATEGY = "x-cloudg-delay-from-strategy";

    private final int maxRetries;

    GovernedRetryStrategy(int maxRetries) {
        this.maxRetries = maxRetries;
    }

    @Override
    public int getMaxRetries() {
        return maxRetries;
    }

    @Override
    public boolean shouldRetryCondition(RequestRetryCondition condition) {
        return decision(condition) != null;
    }

    @Override
    public Duration calculateRetryDelay(RequestRetryCondition condition) {
        AttemptDecision d = decision(condition);
        return d == null ? Duration.ZERO : Duration.ofNanos(d.backoffNanos());
    }

    @Override
    public Duration calculateRetryDelay(int retryAttempts) {
        return Duration.ZERO; // only reached without a condition, which this policy never retries
    }

    private static AttemptDecision decision(RequestRetryCondition c) {
        AttemptDecision d = RetrySignal.of(c.getResponse());
        if (d == null) {
            d = RetrySignal.of(c.getThrowable());
        }
        return d != null && d.retry() ? d : null;
    }
}
