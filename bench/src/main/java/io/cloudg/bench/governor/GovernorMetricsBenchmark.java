package io.cloudg.bench.governor;

import io.cloudg.Governors;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.resilience.AttemptDecision;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.report.Counts;
import io.cloudg.resilience.spi.GovernorListener;
import io.cloudg.resilience.time.TimeSource;
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
 * What metrics cost per governed call: the same governor and calls as {@link GovernorBenchmark} (the leaves
 * being 20 EC2 operations in {@code leaves / 20} accounts, as in an estate), once
 * without metrics ({@code none}: {@link GovernorListener#NONE}, what a one-shot map runs with) and once
 * with the Prometheus registry a worker serves ({@code prometheus}: one counter increment per attempt
 * through the governor's listener), side by side in one run. The trial fails if the registry did not count
 * every call (so the cheap result cannot come from counting nothing). See BENCHMARKS.md, "Metrics".
 */
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class GovernorMetricsBenchmark {
    private static final Callable<Integer> SEND = () -> 200;

    @Param({"none", "prometheus"})
    public String metrics;

    @Param({"1", "1000"})
    public int leaves;

    CloudgMetrics registry;
    Governor governor;
    io.cloudg.resilience.spi.Scope[] scopes;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        RateLimitConfig config = RateLimitConfig.builder()
                .aws(a -> a.service("ec2", GovernorBenchmark.RATE, GovernorBenchmark.RATE)).build();
        registry = metrics.equals("none") ? CloudgMetrics.none()
                : CloudgMetrics.open(MetricsSettings.DEFAULTS, "bench", TimeSource.system());
        governor = Governors.build(Governor.builder().config(config), registry);
        if (metrics.equals("none") != (governor.listener() == GovernorListener.NONE)) {
            throw new IllegalStateException("expected " + metrics + " but the listener is " + governor.listener());
        }
        scopes = new io.cloudg.resilience.spi.Scope[leaves];
        for (int i = 0; i < leaves; i++) {
            // an estate's shape: the same 20 operations in leaves / 20 accounts (20 label sets, not one per leaf)
            scopes[i] = io.cloudg.resilience.spi.Scope.of("aws", String.format(java.util.Locale.ROOT, "%012d",
                    100_000_000_000L + i / 20), "us-east-1", "ec2", "Describe" + (i % 20));
            governor.call(scopes[i], SEND);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        Counts t = governor.stats().totals();
        if (t.waitNanos() != 0 || t.rejected() != 0 || t.throttled() != 0) {
            throw new IllegalStateException("the benchmark waited or was rejected: " + t);
        }
        if (registry.enabled()) {
            double counted = registry.registry().find("cloudg.governor.calls").tag("outcome", "success").functionCounters()
                    .stream().mapToDouble(io.micrometer.core.instrument.FunctionCounter::count).sum();
            if (counted != t.calls()) {
                throw new IllegalStateException("the registry counted " + counted + " successes of " + t.calls() + " calls");
            }
        }
        governor.close();
        registry.close();
    }

    /** The leaf of each call, as {@link GovernorBenchmark.Cursor} picks it. */
    @State(Scope.Thread)
    public static class Cursor {
        long x;
        int size;

        @Setup(Level.Trial)
        public void setUp(GovernorMetricsBenchmark b, ThreadParams t) {
            size = b.leaves;
            x = 0x9E3779B97F4A7C15L * (t.getThreadIndex() + 1);
        }

        int advance() {
            x = Xorshift.next(x);
            return Xorshift.pick(x, size);
        }
    }

    /** The SDK integrations' path: open, admit and take a slot, success, close. */
    @Benchmark
    public AttemptDecision governedCall(Cursor c) throws InterruptedException {
        try (GovernedCall call = governor.open(scopes[c.advance()])) {
            call.beforeSend();
            return call.onSuccess();
        }
    }

    /** The same through {@link Governor#call}. */
    @Benchmark
    public Integer governorCall(Cursor c) throws Exception {
        return governor.call(scopes[c.advance()], SEND);
    }
}
