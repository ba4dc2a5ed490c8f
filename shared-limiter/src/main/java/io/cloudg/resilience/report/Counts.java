package io.cloudg.resilience.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Counters of a scope or of a whole run, as the report prints them ({@code totals} and each entry of
 * {@code scopes}). {@code calls} counts logical calls (retries are not calls); {@code throttled} and
 * {@code transient_errors} count answers.
 */
@JsonPropertyOrder({"calls", "throttled", "transient_errors", "retries", "gave_up", "rejected", "breaker_trips",
        "wait_seconds"})
public record Counts(
        @JsonProperty("calls") long calls,
        @JsonProperty("throttled") long throttled,
        @JsonProperty("transient_errors") long transientErrors,
        @JsonProperty("retries") long retries,
        @JsonProperty("gave_up") long gaveUp,
        @JsonProperty("rejected") long rejected,
        @JsonProperty("breaker_trips") long breakerTrips,
        @JsonIgnore long waitNanos) {

    public static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0, 0, 0);

    /** Seconds spent waiting for tokens, to the millisecond. */
    @JsonProperty("wait_seconds")
    public double waitSeconds() {
        return Math.round(waitNanos / 1e6) / 1e3;
    }

    public Counts plus(Counts o) {
        return new Counts(calls + o.calls, throttled + o.throttled, transientErrors + o.transientErrors,
                retries + o.retries, gaveUp + o.gaveUp, rejected + o.rejected, breakerTrips + o.breakerTrips,
                waitNanos + o.waitNanos);
    }

    /**
     * Something the user should hear about: a throttle, a transient error, a give-up, a rejection, a
     * breaker trip, or at least a second spent waiting for tokens.
     */
    @JsonIgnore
    public boolean eventful() {
        return throttled > 0 || transientErrors > 0 || gaveUp > 0 || rejected > 0 || breakerTrips > 0
                || waitNanos >= 1_000_000_000L;
    }

    /** Any problem reported by the provider or the governor (waiting alone is not one). */
    @JsonIgnore
    public boolean troubled() {
        return throttled > 0 || transientErrors > 0 || gaveUp > 0 || rejected > 0 || breakerTrips > 0;
    }
}
