package io.cloudg.resilience.core;

/**
 * What a breaker says to a call about to be sent.
 *
 * @param kind PERMIT (closed), PROBE (this call is the single half-open probe) or REJECT (open)
 * @param probeGeneration the probe's generation, to be handed back with its outcome
 * @param retryInNanos for REJECT, how long until a call may probe
 */
public record BreakerDecision(Kind kind, long probeGeneration, long retryInNanos) {
    public enum Kind { PERMIT, PROBE, REJECT }

    public static final BreakerDecision PERMIT = new BreakerDecision(Kind.PERMIT, 0, 0);

    public boolean rejected() {
        return kind == Kind.REJECT;
    }

    public boolean probe() {
        return kind == Kind.PROBE;
    }
}
