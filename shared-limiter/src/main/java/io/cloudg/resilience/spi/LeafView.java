package io.cloudg.resilience.spi;

import io.cloudg.resilience.Scope;

/** A leaf bucket as a report sees it. */
public record LeafView(Scope leaf, double rateRps, double ceilingRps, long throttles, long pausedForNanos) {
    public boolean slowed() {
        return rateRps < ceilingRps;
    }
}
