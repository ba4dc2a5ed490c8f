package io.cloudg.resilience.spi;


/** A leaf bucket as a report sees it. */
public record LeafView(Scope leaf, double rateRps, double ceilingRps, long throttles, long pausedForNanos) {
    public boolean slowed() {
        return slowed(rateRps, ceilingRps);
    }

    /** Whether a leaf at {@code rateRps} under {@code ceilingRps} is slowed (what {@link #slowed()} says). */
    public static boolean slowed(double rateRps, double ceilingRps) {
        return rateRps < ceilingRps;
    }
}
