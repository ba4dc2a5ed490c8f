package io.cloudg.resilience.memory;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.LeafState;
import io.cloudg.resilience.core.Time;
import io.cloudg.resilience.spi.EstateKeyed;
import io.cloudg.resilience.spi.ForwardingStateStore;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.TimeSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded governor's store with a memory across runs, kept per estate: an {@link InMemoryStateStore}
 * that, once a provider's estate is known ({@link #useEstate}, after its discovery), starts with the leaves an
 * earlier run of the same estate slowed ({@link LearnedRatesFile}, entries younger than the TTL); its slowed
 * leaves are written back under their provider's estate when the run ends ({@link #close()}, or {@link #save()}
 * from a SIGTERM hook). A restored leaf starts at its learned rate with an empty bucket (no burst) and
 * recovers as any slowed leaf does: a step of the ceiling per quiet interval. Rates learned against another
 * estate (another organization, another endpoint: a simulator whose account ids match a real estate's) are
 * never used, and leaves of a provider whose estate was never told are not kept. The file never fails a run:
 * one warning, then the built-in rates.
 */
public final class LearningStateStore extends ForwardingStateStore implements EstateKeyed {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.ratelimit");

    private final InMemoryStateStore memory;
    private final LearnedRatesFile file;
    private final long ttlMillis;
    private final TimeSource time;
    /** The file's entries not expired at start, legacy ones included. */
    private final List<LearnedRate> available;
    private final Map<String, EstateUse> uses = new LinkedHashMap<>();
    private boolean saved;

    public LearningStateStore(InMemoryStateStore memory, LearnedRatesFile file, double ttlHours) {
        super(memory);
        this.memory = memory;
        this.file = file;
        this.ttlMillis = (long) (ttlHours * 3_600_000L);
        this.time = memory.timeSource();
        this.available = read();
    }

    /** The learning store inside {@code store}, if that is one. */
    public static Optional<LearningStateStore> in(StateStore store) {
        return store instanceof LearningStateStore l ? Optional.of(l) : Optional.empty();
    }

    private List<LearnedRate> read() {
        List<LearnedRate> learned;
        try {
            learned = file.read(time.epochMillis(), ttlMillis);
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot read the learned rates in {} ({}); starting from the built-in rates", file.path(),
                    e.getMessage());
            return List.of();
        }
        long legacy = learned.stream().filter(LearnedRate::legacy).count();
        long estates = learned.stream().filter(r -> !r.legacy()).map(LearnedRate::estate).distinct().count();
        if (learned.size() > legacy) {
            LOG.info("{} learned rate(s) from {} ({} estate(s); a map starts from its own estate's only)",
                    learned.size() - legacy, file.path(), estates);
        }
        if (legacy > 0) { // the one INFO line is the drop's, when the file is written (save)
            LOG.debug("{} learned rate(s) in {} predate estates (a version-1 file): no map uses them, and this run's "
                    + "write drops them", legacy, file.path());
        }
        return learned;
    }

    /**
     * {@code provider}'s calls in this run go to {@code estate} ({@code aws:123456789012@aws}): its leaves start
     * from the rates learned against that estate (leaves this run has used already, in discovery, keep what
     * they learned), and its slowed leaves are kept under it at the end. The first estate told for a provider
     * holds for the run; another one later is refused with a warning (the governor's leaves are keyed by
     * scope: one process cannot tell two estates' equal account ids apart).
     *
     * @return how many leaves started from the file
     */
    @Override
    public synchronized int useEstate(String provider, String estate) {
        if (provider == null || estate == null || estate.isBlank() || LearnedRatesFile.LEGACY.equals(estate)) {
            throw new IllegalArgumentException("an estate must be named, but was " + estate + " for " + provider);
        }
        EstateUse before = uses.get(provider);
        if (before != null) {
            if (!before.estate().equals(estate)) {
                LOG.warn("{}: this process learned rates for estate {} already; those of {} are neither used nor kept",
                        provider, before.estate(), estate);
            }
            return before.estate().equals(estate) ? before.restored() : 0;
        }
        long nowNanos = time.nanoTime();
        long nowMillis = time.epochMillis();
        Set<Scope> known = memory.knownLeaves();
        int restored = 0;
        for (LearnedRate r : available) {
            if (!r.estate().equals(estate) || !r.leaf().provider().equals(provider) || known.contains(r.leaf())) {
                continue;
            }
            long throttledAt = nowNanos - Math.max(0, nowMillis - r.lastThrottleEpochMillis()) * 1_000_000L;
            memory.restoreLeaf(r.leaf(), new LeafState(0, nowNanos, r.rateRps(), r.ceilingRps(), Time.NEVER,
                    throttledAt, throttledAt, Time.NEVER, r.throttles()));
            restored++;
        }
        uses.put(provider, new EstateUse(provider, estate, restored));
        if (restored > 0) {
            LOG.info("{}: {} learned rate(s) of estate {} from {}", provider, restored, estate, file.path());
        } else {
            LOG.debug("{}: no learned rate of estate {} in {}", provider, estate, file.path());
        }
        return restored;
    }

    /** What the run took from the file so far, by provider in the order they were told. */
    @Override
    public synchronized List<EstateUse> uses() {
        return List.copyOf(uses.values());
    }

    /** How many leaves started from the file. */
    public synchronized int restored() {
        return uses.values().stream().mapToInt(EstateUse::restored).sum();
    }

    public LearnedRatesFile file() {
        return file;
    }

    @Override
    public Map<String, String> location() {
        return Map.of("file", file.path().toAbsolutePath().toString());
    }

    /**
     * Writes this run's slowed leaves to the file under their providers' estates (once; later calls do
     * nothing). Leaves of a provider whose estate was never told are not kept. Never throws.
     */
    public synchronized void save() {
        if (saved) {
            return;
        }
        saved = true;
        if (uses.isEmpty()) {
            return; // no estate known: nothing of this run can be kept, nothing of the file was used
        }
        long nowNanos = time.nanoTime();
        long nowMillis = time.epochMillis();
        List<LearnedRate> learned = new ArrayList<>();
        int unkept = 0;
        for (Map.Entry<Scope, LeafState> e : memory.slowedLeaves().entrySet()) {
            EstateUse use = uses.get(e.getKey().provider());
            if (use == null) {
                unkept++;
                continue;
            }
            LeafState s = e.getValue();
            long last = s.lastThrottleAt() == Time.NEVER ? s.lastDecreaseAt() : s.lastThrottleAt();
            long at = last == Time.NEVER ? nowMillis : nowMillis - Math.max(0, nowNanos - last) / 1_000_000L;
            learned.add(new LearnedRate(use.estate(), e.getKey(), s.rate(), s.ceiling(), s.throttles(), at));
        }
        Map<String, Set<Scope>> used = new HashMap<>();
        for (Scope leaf : memory.knownLeaves()) {
            EstateUse use = uses.get(leaf.provider());
            if (use != null) {
                used.computeIfAbsent(use.estate(), k -> new HashSet<>()).add(leaf);
            }
        }
        if (unkept > 0) {
            LOG.debug("{} slowed leaf/leaves of providers without a known estate are not kept", unkept);
        }
        try {
            int legacy = file.merge(learned, used, nowMillis, ttlMillis);
            if (!learned.isEmpty()) {
                LOG.info("{} learned rate(s) kept in {}", learned.size(), file.path());
            }
            if (legacy > 0) {
                LOG.info("dropped {} learned rate(s) of a version-1 file from {}: they named no estate", legacy,
                        file.path());
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
