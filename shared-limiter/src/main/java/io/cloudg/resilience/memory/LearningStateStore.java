package io.cloudg.resilience.memory;

import io.cloudg.resilience.Scope;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.Time;
import io.cloudg.resilience.spi.ForwardingStateStore;
import io.cloudg.resilience.time.TimeSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded governor's store with a memory across runs: an {@link InMemoryStateStore} seeded at start
 * with the leaves an earlier run slowed ({@link LearnedRatesFile}, entries younger than the TTL), whose
 * slowed leaves are written back when the run ends ({@link #close()}, or {@link #save()} from a SIGTERM
 * hook). A restored leaf starts at its learned rate with an empty bucket (no burst) and recovers as any
 * slowed leaf does: a step of the ceiling per quiet interval. The file never fails a run: one warning, then
 * the built-in rates.
 */
public final class LearningStateStore extends ForwardingStateStore {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.ratelimit");

    private final InMemoryStateStore memory;
    private final LearnedRatesFile file;
    private final long ttlMillis;
    private final TimeSource time;
    private final int restored;
    private final AtomicBoolean saved = new AtomicBoolean();

    public LearningStateStore(InMemoryStateStore memory, LearnedRatesFile file, double ttlHours) {
        super(memory);
        this.memory = memory;
        this.file = file;
        this.ttlMillis = (long) (ttlHours * 3_600_000L);
        this.time = memory.timeSource();
        this.restored = restore();
    }

    private int restore() {
        List<LearnedRate> learned;
        try {
            learned = file.read(time.epochMillis(), ttlMillis);
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot read the learned rates in {} ({}); starting from the built-in rates", file.path(),
                    e.getMessage());
            return 0;
        }
        long nowNanos = time.nanoTime();
        long nowMillis = time.epochMillis();
        for (LearnedRate r : learned) {
            long throttledAt = nowNanos - Math.max(0, nowMillis - r.lastThrottleEpochMillis()) * 1_000_000L;
            memory.restoreLeaf(r.leaf(), new LeafState(0, nowNanos, r.rateRps(), r.ceilingRps(), Time.NEVER,
                    throttledAt, throttledAt, Time.NEVER, r.throttles()));
        }
        if (!learned.isEmpty()) {
            LOG.info("{} learned rate(s) from {}", learned.size(), file.path());
        }
        return learned.size();
    }

    /** How many leaves started from the file. */
    public int restored() {
        return restored;
    }

    public LearnedRatesFile file() {
        return file;
    }

    /** Writes this run's slowed leaves to the file (once; later calls do nothing). Never throws. */
    public void save() {
        if (!saved.compareAndSet(false, true)) {
            return;
        }
        long nowNanos = time.nanoTime();
        long nowMillis = time.epochMillis();
        List<LearnedRate> learned = new ArrayList<>();
        for (Map.Entry<Scope, LeafState> e : memory.slowedLeaves().entrySet()) {
            LeafState s = e.getValue();
            long last = s.lastThrottleAt() == Time.NEVER ? s.lastDecreaseAt() : s.lastThrottleAt();
            long at = last == Time.NEVER ? nowMillis : nowMillis - Math.max(0, nowNanos - last) / 1_000_000L;
            learned.add(new LearnedRate(e.getKey(), s.rate(), s.ceiling(), s.throttles(), at));
        }
        try {
            file.merge(learned, memory.knownLeaves(), nowMillis, ttlMillis);
            if (!learned.isEmpty()) {
                LOG.info("{} learned rate(s) kept in {}", learned.size(), file.path());
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot write the learned rates to {} ({}); the next run starts from the built-in rates",
                    file.path(), e.getMessage());
        }
    }

    @Override
    public String describe() {
        return "memory";
    }

    /** Saves the learned rates, then closes the memory store. */
    @Override
    public void close() {
        save();
        memory.close();
    }
}
