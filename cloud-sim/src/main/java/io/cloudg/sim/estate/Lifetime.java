package io.cloudg.sim.estate;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * When a resource exists, in nanoseconds after the simulator started: from {@code fromNanos} (inclusive) to
 * {@code untilNanos} (exclusive). A stable resource exists throughout ({@link #ALWAYS}); a churned one was
 * created or is deleted while a map may be running.
 */
@JsonPropertyOrder({"kind", "at_ms"})
public record Lifetime(@JsonIgnore long fromNanos, @JsonIgnore long untilNanos) {
    /** Exists from before the start to after the end. */
    public static final Lifetime ALWAYS = new Lifetime(Long.MIN_VALUE, Long.MAX_VALUE);

    /** Created at {@code nanos} after the start. */
    public static Lifetime createdAt(long nanos) {
        return new Lifetime(nanos, Long.MAX_VALUE);
    }

    /** Deleted at {@code nanos} after the start. */
    public static Lifetime deletedAt(long nanos) {
        return new Lifetime(Long.MIN_VALUE, nanos);
    }

    public boolean stable() {
        return fromNanos == Long.MIN_VALUE && untilNanos == Long.MAX_VALUE;
    }

    public boolean existsAt(long elapsedNanos) {
        return elapsedNanos >= fromNanos && elapsedNanos < untilNanos;
    }

    /** {@code created} or {@code deleted}; null when stable. */
    @JsonProperty("kind")
    public String kind() {
        return stable() ? null : fromNanos != Long.MIN_VALUE ? "created" : "deleted";
    }

    /** When it was created or deleted, in milliseconds after the simulator started; null when stable. */
    @JsonProperty("at_ms")
    public Long atMillis() {
        return stable() ? null : (fromNanos != Long.MIN_VALUE ? fromNanos : untilNanos) / 1_000_000L;
    }
}
