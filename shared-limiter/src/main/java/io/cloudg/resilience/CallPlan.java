package io.cloudg.resilience;

import io.cloudg.resilience.config.BucketLimit;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.config.ProviderLimits;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.report.ScopeCounters;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.GovernorListener;
import io.cloudg.resilience.spi.LeafListener;
import io.cloudg.resilience.spi.SlotRequest;

/**
 * Everything the governor derives from a scope and the configuration, computed once per scope and
 * reused by every call: the leaf (bucket granularity), its limits, the account and provider levels, the
 * breaker and bulkhead settings, and the two ready-made admission requests. This is what keeps the hot
 * path free of string building and map lookups beyond one.
 */
final class CallPlan {
    final Scope scope;
    final Scope serviceScope;
    final Scope leaf;
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
    /** This process's last sight of a throttle on {@link #leaf}, shared by every plan of that leaf. */
    final ThrottleNotice throttles;
    /** Hears this scope's events (metrics); {@link LeafListener#NONE} without a listener. */
    final LeafListener listener;

    CallPlan(Scope scope, RateLimitConfig config, ScopeCounters counters, SlotGate gate,
             java.util.function.Function<Scope, ThrottleNotice> notices, GovernorListener listeners) {
        if (scope.service() == null) {
            throw new IllegalArgumentException("a governed call needs a scope with a service, but was " + scope);
        }
        this.scope = scope;
        this.serviceScope = scope.withoutOperation();
        this.provider = scope.provider();
        this.limits = config.provider(provider);
        this.enabled = config.enabled(provider);
        boolean perOp = limits.isPerOperation(scope.service(), scope.operation());
        this.leaf = perOp ? scope : serviceScope;
        this.leafLimit = limits.leafLimit(scope.service(), perOp ? scope.operation() : null);
        this.breaker = new BreakerLimit(limits.breakerThreshold(), limits.breakerCooldownNanos(),
                limits.breakerMaxCooldownNanos(), limits.breakerProbeTimeoutNanos());
        Scope account = scope.accountScope();
        this.slot = new SlotRequest(account, limits.maxConcurrency(), limits.slotLeaseNanos());
        BucketLimit accountLimit = limits.account();
        this.admitWithSlot = new AdmitRequest(provider, limits.global(), account, accountLimit, leaf, leafLimit,
                breaker, slot, 1);
        this.admitNoSlot = new AdmitRequest(provider, limits.global(), account, accountLimit, leaf, leafLimit,
                breaker, null, 1);
        this.admitQuota = new AdmitRequest(provider, null, account, null, leaf, leafLimit, null, null, 1);
        this.counters = counters;
        this.gate = gate;
        this.throttles = notices.apply(leaf);
        this.listener = listeners.leaf(leaf);
    }

    /** The name a give-up message uses: the operation, else the service. */
    String operationName() {
        return scope.operation() != null ? scope.operation() : scope.service();
    }
}
