package io.cloudg.resilience.core;

/** The outcome of taking tokens: the new state and how long the caller must wait before sending. */
public record Reservation<S>(S state, long waitNanos) {
}
