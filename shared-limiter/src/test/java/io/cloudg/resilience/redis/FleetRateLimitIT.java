package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Four JVMs share one 20 rps leaf (burst 40) through Redis for 10 s, each with 4 callers that always want
 * more. Together they may send at most rate x window + burst, and at least 95% of the rate.
 */
class FleetRateLimitIT {
    static final int PROCESSES = 4;
    static final int THREADS = 4;
    static final double RATE = 20;
    static final double BURST = 40;
    static final long WINDOW_MS = 10_000;

    @Test
    void separateProcessesShareOneLeafAsOneProcessWould() throws Exception {
        try (TestRedis redis = TestRedis.embedded()) {
            List<FleetProcesses.Worker> workers = new ArrayList<>();
            try {
                for (int i = 0; i < PROCESSES; i++) {
                    workers.add(FleetProcesses.start("rate", redis.url(), "fleet", Integer.toString(THREADS)));
                }
                for (FleetProcesses.Worker w : workers) {
                    w.await("READY");
                }
                long start = System.currentTimeMillis() + 500;
                for (FleetProcesses.Worker w : workers) {
                    w.send("GO " + start + " " + WINDOW_MS);
                }
                long total = 0;
                List<Long> each = new ArrayList<>();
                for (FleetProcesses.Worker w : workers) {
                    long n = Long.parseLong(w.await("SENT ").substring(5));
                    each.add(n);
                    total += n;
                }
                System.out.println("fleet sends in " + WINDOW_MS + " ms: " + total + " " + each);
                double window = WINDOW_MS / 1000.0;
                assertThat(total).as("sends of all %d processes %s", PROCESSES, each)
                        .isLessThanOrEqualTo((long) (RATE * window + BURST))
                        .isGreaterThanOrEqualTo((long) Math.ceil(0.95 * RATE * window));
                assertThat(each).as("every process got a share").allSatisfy(n -> assertThat(n).isPositive());
            } finally {
                for (FleetProcesses.Worker w : workers) {
                    w.close();
                }
            }
        }
    }
}
