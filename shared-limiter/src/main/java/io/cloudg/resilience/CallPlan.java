package io.cloudg.resilience;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.config.ProviderLimits;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.report.ScopeCounters;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.GovernorListener;
import io.cloudg.resilience.spi.LeafListener;
import io.cloudg.resilience.spi.SlotRequest;

/**
 * Everything the governor derives from a leaf (the scope whose bucket and breaker pace a call) and the
 * configuration, computed once per leaf and reused by every call paced there, whatever its operation: the
 * leaf's limits, the account and provider levels, the breaker and bulkhead settings, and the ready-made
 * admission requests. One plan per leaf, not per call scope, because an organization-wide map makes most
 * of its calls in a scope of their own (one account x region x operation each): a plan per call scope was
 * built for nearly every call, and held by the governor for the rest of the process.
 */
final class CallPlan {
    final Scope leaf;
    /** The leaf without its operation: the scope counters and skip reasons are kept by. */
    final Scope serviceScope;
    final String provider;
    final boolean enabled;
    final ProviderLimits limits;
    final LeafLimit leafLimit;
    final BreakerLimit breaker;
    final SlotRequest slot;
    final AdmitRequest admitWithSlot;
    final AdmitRequest admitNoSlot;
    /** The admission of a call charged to this plan's leaf as a further quota: the leaf alone. */
    final AdmitRequest admitQuota;
    final ScopeCounters counters;
    final SlotGate gate;
    /** This process's last sight of a throttle on {@link #leaf}; kept when a new configuration replaces the plan. */
    final ThrottleNotice throttles;
    /** Hears this leaf's events (metrics); {@link LeafListener#NONE} without a listener. */
    final LeafListener listener;
    /** The counters of the run the last call here belonged to: calls of one leaf nearly always share a run. */
    private volatile RunCounters lastRun;

    /** The plan of {@code leaf}, which {@link Governor#leafOf} gave for {@code config}. */
    CallPlan(Scope leaf, RateLimitConfig config, ThrottlingStats stats, SlotGate gate, ThrottleNotice throttles,
             GovernorListener listeners) {
        this.leaf = leaf;
        this.serviceScope = leaf.withoutOperation();
        this.provider = leaf.provider();
        this.limits = config.provider(provider);
        this.enabled = config.enabled(provider);
        this.leafLimit = limits.leafLimit(leaf.service(), leaf.operation());
        this.breaker = new BreakerLimit(limits.breakerThreshold(), limits.breakerCooldownNanos(),
                limits.breakerMaxCooldownNanos(), limits.breakerProbeTimeoutNanos());
        Scope account = leaf.accountScope();
        this.slot = new SlotRequest(account, limits.maxConcurrency(), limits.slotLeaseNanos());
        BucketLimit accountLimit = limits.account();
        this.admitWithSlot = new AdmitRequest(provider, limits.global(), account, accountLimit, leaf, leafLimit,
                breaker, slot, 1);
        this.admitNoSlot = new AdmitRequest(provider, limits.global(), account, accountLimit, leaf, leafLimit,
                breaker, null, 1);
        this.admitQuota = new AdmitRequest(provider, null, account, null, leaf, leafLimit, null, null, 1);
        this.counters = stats.counters(serviceScope);
        this.gate = gate;
        this.throttles = throttles;
        this.listener = listeners.leaf(leaf);
    }

    /** The counters {@code run} keeps for this plan's service scope. */
    ScopeCounters runCounters(ThrottlingStats run) {
        RunCounters last = lastRun;
        if (last != null && last.run == run) {
            return last.counters;
        }
        ScopeCounters c = run.counters(serviceScope);
        lastRun = new RunCounters(run, c);
        return c;
    }

    private record RunCounters(ThrottlingStats run, ScopeCounters counters) {
    }
}
