package io.cloudg.sim.fault;

import io.cloudg.sim.config.FaultRule;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.SimClock;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/** Decides which fault, if any, a call gets. Thread-safe. */
public final class FaultEngine {
    private final SimClock clock;
    private final long startNanos;
    private final long seed;
    private volatile Armed armed;

    private static final class Armed {
        final List<FaultRule> rules;
        final AtomicLong[] seen;
        final SplittableRandom[] random;

        Armed(FaultSpec spec, long seed) {
            this.rules = spec.rules();
            this.seen = new AtomicLong[rules.size()];
            this.random = new SplittableRandom[rules.size()];
            for (int i = 0; i < rules.size(); i++) {
                seen[i] = new AtomicLong();
                random[i] = new SplittableRandom(seed * 31 + i);
            }
        }
    }

    public FaultEngine(FaultSpec spec, SimClock clock, long seed) {
        this.clock = clock;
        this.startNanos = clock.nanoTime();
        this.seed = seed;
        this.armed = new Armed(spec, seed);
    }

    /** Replaces the rules; counts and random streams start afresh. */
    public void set(FaultSpec spec) {
        this.armed = new Armed(spec, seed);
    }

    public FaultSpec current() {
        return new FaultSpec(armed.rules);
    }

    /** The rule that fires for this call, or null. */
    public FaultRule decide(CallScope scope) {
        Armed a = armed;
        if (a.rules.isEmpty()) {
            return null;
        }
        long elapsed = clock.nanoTime() - startNanos;
        for (int i = 0; i < a.rules.size(); i++) {
            FaultRule r = a.rules.get(i);
            if (!r.match().matches(scope)) {
                continue;
            }
            if (r.from() != null && elapsed < r.from().toNanos()) {
                continue;
            }
            if (r.until() != null && elapsed >= r.until().toNanos()) {
                continue;
            }
            if (r.count() != null && a.seen[i].incrementAndGet() > r.count()) {
                continue;
            }
            if (r.probability() != null) {
                double draw;
                synchronized (a.random[i]) {
                    draw = a.random[i].nextDouble();
                }
                if (draw >= r.probability()) {
                    continue;
                }
            }
            return r;
        }
        return null;
    }
}
