package io.cloudg.resilience.core;

import io.cloudg.resilience.core.BreakerState.Phase;

/**
 * The circuit breaker's state machine, as pure functions. Transitions:
 *
 * <pre>
 * CLOSED    --threshold consecutive FAILUREs-->          OPEN (cooldown = base)
 * CLOSED    --SUCCESS or REACHABLE-->                    CLOSED (count reset)
 * OPEN      --call after cooldown-->                     HALF_OPEN, the call is the probe (leased)
 * HALF_OPEN --probe SUCCESS or REACHABLE-->              CLOSED (cooldown back to base)
 * HALF_OPEN --probe FAILURE-->                           OPEN (cooldown doubled, at most the cap)
 * HALF_OPEN --probe NEUTRAL-->                           HALF_OPEN, lease released: the next call probes
 * HALF_OPEN --call after the probe's lease expired-->    HALF_OPEN, that call is the new probe
 * </pre>
 *
 * Calls refused while OPEN (or while a probe runs) never reach the provider and never count. Outcomes of
 * calls admitted before the breaker opened, and of expired probes, are ignored while not CLOSED.
 */
public final class Breakers {
    private Breakers() {
    }

    /** The decision for a call about to be sent, and the state after it. */
    public record Admit(BreakerState state, BreakerDecision decision) {
    }

    public static Admit admit(BreakerState s, long now, BreakerLimit limit) {
        BreakerState c = s == null ? BreakerState.closed(limit) : s;
        switch (c.phase()) {
            case CLOSED:
                return new Admit(c, BreakerDecision.PERMIT);
            case OPEN:
                if (now - c.openedAt() < c.cooldownNanos()) {
                    return reject(c, now);
                }
                return probe(c, now, limit);
            case HALF_OPEN:
                if (now < c.probeUntil()) {
                    return reject(c, now);
                }
                return probe(c, now, limit);
            default:
                throw new AssertionError(c.phase());
        }
    }

    private static Admit reject(BreakerState c, long now) {
        return new Admit(c, new BreakerDecision(BreakerDecision.Kind.REJECT, 0, Math.max(1, c.retryInNanos(now))));
    }

    private static Admit probe(BreakerState c, long now, BreakerLimit limit) {
        long gen = c.probeGeneration() + 1;
        BreakerState next = new BreakerState(Phase.HALF_OPEN, c.failures(), c.openedAt(), c.cooldownNanos(),
                now + limit.probeLeaseNanos(), gen, c.trips());
        return new Admit(next, new BreakerDecision(BreakerDecision.Kind.PROBE, gen, 0));
    }

    /**
     * The end of a call. {@code probeGeneration} is the generation from its {@link BreakerDecision} (0 for
     * a call that was not a probe).
     */
    public static BreakerState onCallEnd(BreakerState s, long now, BreakerLimit limit, CallVerdict verdict,
                                         long probeGeneration) {
        BreakerState c = s == null ? BreakerState.closed(limit) : s;
        if (verdict == CallVerdict.NONE) {
            return c;
        }
        switch (c.phase()) {
            case CLOSED:
                switch (verdict) {
                    case SUCCESS:
                    case REACHABLE:
                        return c.failures() == 0 ? c : new BreakerState(Phase.CLOSED, 0, c.openedAt(),
                                limit.cooldownNanos(), Time.NEVER, c.probeGeneration(), c.trips());
                    case FAILURE:
                        int failures = c.failures() + 1;
                        if (failures >= limit.threshold()) {
                            return new BreakerState(Phase.OPEN, 0, now, limit.cooldownNanos(), Time.NEVER,
                                    c.probeGeneration(), c.trips() + 1);
                        }
                        return new BreakerState(Phase.CLOSED, failures, c.openedAt(), c.cooldownNanos(), Time.NEVER,
                                c.probeGeneration(), c.trips());
                    default:
                        return c;
                }
            case HALF_OPEN:
                if (probeGeneration == 0 || probeGeneration != c.probeGeneration()) {
                    return c; // not the current probe
                }
                switch (verdict) {
                    case SUCCESS:
                    case REACHABLE:
                        return new BreakerState(Phase.CLOSED, 0, c.openedAt(), limit.cooldownNanos(), Time.NEVER,
                                c.probeGeneration(), c.trips());
                    case FAILURE:
                        long doubled = c.cooldownNanos() > limit.maxCooldownNanos() / 2
                                ? limit.maxCooldownNanos() : Math.min(limit.maxCooldownNanos(), c.cooldownNanos() * 2);
                        return new BreakerState(Phase.OPEN, 0, now, doubled, Time.NEVER, c.probeGeneration(),
                                c.trips() + 1);
                    default: // NEUTRAL: give the lease back so the next call probes
                        return new BreakerState(Phase.HALF_OPEN, c.failures(), c.openedAt(), c.cooldownNanos(), now,
                                c.probeGeneration(), c.trips());
                }
            case OPEN:
            default:
                return c;
        }
    }
}
