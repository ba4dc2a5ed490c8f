package io.cloudg.bench.governor;

import io.cloudg.Governors;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.spi.GovernorListener;
import io.cloudg.resilience.time.TimeSource;
import io.micrometer.core.instrument.FunctionCounter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * What metrics cost per governed call, measured in CPU time rather than wall time: on a machine whose cores
 * are shared with other jobs, wall time per call includes waiting for a core, and JMH's errors there exceed
 * the effect measured. One JVM per contender ({@code none}: no listener, {@code prometheus}: the registry a
 * worker serves), so that each JIT-compiles only its own listener; the calling thread's CPU time over
 * {@code batch} governed calls ({@code open}, {@code beforeSend}, {@code onSuccess}, {@code close}), {@code
 * rounds} times after a warm-up; prints the median ns per call. {@code scripts/metrics-cost.sh} alternates
 * the two JVMs and reports the paired ratios. The leaves are 20 EC2 operations in {@code leaves / 20}
 * accounts (an estate's shape: many accounts, the same operations, so the label sets are the 20
 * operations). Fails unless the registry counted every call.
 *
 * <pre>java -cp benchmarks.jar io.cloudg.bench.governor.MetricsCost prometheus 1000 [threads] [rounds] [batch]</pre>
 *
 * <p>With several threads, each measures its own CPU time and a round's cost is their sum over all their
 * calls: contention on the shared counters (the same label set from every thread) is CPU time too.
 */
public final class MetricsCost {
    private MetricsCost() {
    }

    public static void main(String[] args) throws Exception {
        String metrics = args[0];
        int leaves = Integer.parseInt(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 15;
        int batch = args.length > 4 ? Integer.parseInt(args[4]) : 300_000;
        RateLimitConfig config = RateLimitConfig.builder()
                .aws(a -> a.service("ec2", GovernorBenchmark.RATE, GovernorBenchmark.RATE)).build();
        CloudgMetrics registry = switch (metrics) {
            case "none" -> CloudgMetrics.none();
            case "prometheus" -> CloudgMetrics.open(MetricsSettings.DEFAULTS, "bench", TimeSource.system());
            default -> throw new IllegalArgumentException("none or prometheus, not " + metrics);
        };
        Governor governor = Governors.build(Governor.builder().config(config), registry);
        if (metrics.equals("none") != (governor.listener() == GovernorListener.NONE)) {
            throw new IllegalStateException("expected " + metrics + ", the listener is " + governor.listener());
        }
        io.cloudg.resilience.spi.Scope[] scopes = new io.cloudg.resilience.spi.Scope[leaves];
        for (int i = 0; i < leaves; i++) {
            scopes[i] = io.cloudg.resilience.spi.Scope.of("aws", String.format(Locale.ROOT, "%012d", 100_000_000_000L + i / 20),
                    "us-east-1", "ec2", "Describe" + (i % 20));
            governor.call(scopes[i], () -> 200);
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        // each thread warms up, then measures rounds x batch calls; a round's cost is the CPU time all threads
        // spent in it over the calls they made (contention on shared counters shows up as CPU time)
        long[][] cpuNanos = new long[threads][rounds];
        java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(threads);
        Thread[] workers = new Thread[threads];
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers[t] = new Thread(() -> {
                try {
                    long x = 0x9E3779B97F4A7C15L * (id + 1);
                    for (int i = 0; i < 5 * batch; i++) {
                        x = call(governor, scopes, x);
                    }
                    for (int r = 0; r < rounds; r++) {
                        barrier.await();
                        long t0 = cpu.getCurrentThreadCpuTime();
                        for (int i = 0; i < batch; i++) {
                            x = call(governor, scopes, x);
                        }
                        cpuNanos[id][r] = cpu.getCurrentThreadCpuTime() - t0;
                    }
                } catch (Throwable e) {
                    failure[0] = e;
                }
            });
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        if (failure[0] != null) {
            throw new IllegalStateException(failure[0]);
        }
        double[] nsPerCall = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long sum = 0;
            for (int t = 0; t < threads; t++) {
                sum += cpuNanos[t][r];
            }
            nsPerCall[r] = sum / (double) (batch * (long) threads);
        }
        long calls = governor.stats().totals().calls();
        if (registry.enabled()) {
            double counted = registry.registry().find("cloudg.governor.calls").tag("outcome", "success").functionCounters().stream()
                    .mapToDouble(FunctionCounter::count).sum();
            if (counted != calls) {
                throw new IllegalStateException("the registry counted " + counted + " of " + calls + " calls");
            }
        }
        if (governor.stats().totals().waitNanos() != 0) {
            throw new IllegalStateException("a call waited: this measures bookkeeping, not pacing");
        }
        Arrays.sort(nsPerCall);
        System.out.printf(Locale.ROOT, "%s leaves=%d threads=%d median_cpu_ns_per_call=%.1f min=%.1f max=%.1f calls=%d%n",
                metrics, leaves, threads, nsPerCall[rounds / 2], nsPerCall[0], nsPerCall[rounds - 1], calls);
        governor.close();
        registry.close();
    }

    private static long call(Governor g, io.cloudg.resilience.spi.Scope[] scopes, long x) throws InterruptedException {
        x = Xorshift.next(x);
        try (GovernedCall c = g.open(scopes[Xorshift.pick(x, scopes.length)])) {
            c.beforeSend();
            c.onSuccess();
        }
        return x;
    }
}
