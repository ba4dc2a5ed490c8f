package io.cloudg.bench.governor;

import io.cloudg.resilience.AttemptDecision;
import io.cloudg.resilience.CallOptions;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.SlotHold;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.report.Counts;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Acquire + outcome per call: the governor (two entry points) against resilience4j's RateLimiter and
 * Bucket4j's local bucket, on one leaf and spread over {@code leaves} leaves. Threads come from the
 * command line ({@code -t 1}, {@code -t 16}); see {@code package-info.java} and BENCHMARKS.md.
 */
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class GovernorBenchmark {
    /** So high that no caller ever waits: we measure the overhead, not the pacing. */
    static final double RATE = 1e9;
    static final String ACCOUNT = "123456789012";
    private static final Callable<Integer> SEND = () -> 200;

    /** Distinct leaves the calls are spread over (EC2 has a leaf per operation). */
    @Param({"1", "1000"})
    public int leaves;

    Governor governor;
    io.cloudg.resilience.spi.Scope[] scopes;
    RateLimiter[] limiters;
    Bucket[] buckets;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        RateLimitConfig config = RateLimitConfig.builder().aws(a -> a.service("ec2", RATE, RATE)).build();
        governor = Governor.create(config);
        RateLimiterConfig r4j = RateLimiterConfig.custom()
                .limitForPeriod((int) RATE)
                .limitRefreshPeriod(Duration.ofSeconds(1))
                .timeoutDuration(Duration.ZERO)
                .build();
        scopes = new io.cloudg.resilience.spi.Scope[leaves];
        limiters = new RateLimiter[leaves];
        buckets = new Bucket[leaves];
        for (int i = 0; i < leaves; i++) {
            scopes[i] = io.cloudg.resilience.spi.Scope.of("aws", ACCOUNT, "us-east-1", "ec2", "Describe" + i);
            limiters[i] = RateLimiter.of("leaf-" + i, r4j);
            buckets[i] = Bucket.builder()
                    .addLimit(Bandwidth.builder().capacity((long) RATE).refillGreedy((long) RATE, Duration.ofSeconds(1)).build())
                    .build();
            governor.call(scopes[i], SEND); // every leaf exists before the first measured call
        }
        if (!governor.leafOf(scopes[leaves - 1]).equals(scopes[leaves - 1])) {
            throw new IllegalStateException("expected a leaf per EC2 operation");
        }
    }

    /** Proves the premise: nobody waited for tokens, nobody was rejected. */
    @TearDown(Level.Trial)
    public void tearDown() {
        Counts t = governor.stats().totals();
        if (t.waitNanos() != 0 || t.rejected() != 0 || t.throttled() != 0) {
            throw new IllegalStateException("the benchmark waited or was rejected: " + t);
        }
        governor.close();
    }

    /**
     * Picks the leaf of each call: uniformly at random per thread (xorshift, a few ns, the same for every
     * contender). Random rather than round-robin, so threads that once met on a leaf do not stay in
     * lockstep (a convoy that a real workload would not form).
     */
    @State(Scope.Thread)
    public static class Cursor {
        long x;
        int size;
        SlotHold hold;
        CallOptions held;

        @Setup(Level.Trial)
        public void setUp(GovernorBenchmark b, ThreadParams t) throws InterruptedException {
            size = b.leaves;
            x = 0x9E3779B97F4A7C15L * (t.getThreadIndex() + 1);
            hold = b.governor.holdSlot(b.scopes[0]);
            held = CallOptions.held(hold);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            hold.close();
        }

        int advance() {
            x = Xorshift.next(x);
            return Xorshift.pick(x, size);
        }
    }

    /** The SDK integrations' path: open, admit and take a slot (no wait), success, close. */
    @Benchmark
    public AttemptDecision governedCall(Cursor c) throws InterruptedException {
        try (GovernedCall call = governor.open(scopes[c.advance()])) {
            call.beforeSend();
            return call.onSuccess();
        }
    }

    /**
     * As {@link #governedCall} under a bulkhead slot the thread holds for a larger unit of work (how GCP
     * listings run): no slot per call, so what is left is per leaf (breaker, bucket, AIMD) plus counters.
     * The difference to {@link #governedCall} is the price of the account's shared bulkhead.
     */
    @Benchmark
    public AttemptDecision governedCallHeldSlot(Cursor c) throws InterruptedException {
        try (GovernedCall call = governor.open(scopes[c.advance()], c.held)) {
            call.beforeSend();
            return call.onSuccess();
        }
    }

    /** The same through {@link Governor#call}: the retry loop around one successful attempt. */
    @Benchmark
    public Integer governorCall(Cursor c) throws Exception {
        return governor.call(scopes[c.advance()], SEND);
    }

    /** resilience4j: one permit, then the outcome (its only per-call bookkeeping). */
    @Benchmark
    public boolean resilience4j(Cursor c) {
        RateLimiter l = limiters[c.advance()];
        boolean ok = l.acquirePermission();
        l.onSuccess();
        return ok;
    }

    /** Bucket4j local (lock-free) bucket: one token; it has no notion of an outcome. */
    @Benchmark
    public boolean bucket4j(Cursor c) {
        return buckets[c.advance()].tryConsume(1);
    }
}
