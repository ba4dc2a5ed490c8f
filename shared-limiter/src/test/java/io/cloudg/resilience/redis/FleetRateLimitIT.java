package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Four JVMs share one 20 rps leaf (burst 40) through Redis for 10 seconds of Redis TIME, each with 4 callers
 * that always want more; every send is timed by Redis TIME (the fleet's one clock, never a JVM's). Counted
 * per Redis second, the fleet's sends in the first k seconds are at most rate x k + burst, for every k, and
 * over the whole window at least 95% of the rate.
 */
class FleetRateLimitIT {
    static final int PROCESSES = 4;
    static final int THREADS = 4;
    static final double RATE = 20;
    static final double BURST = 40;
    static final int SECONDS = 10;

    @Test
    void separateProcessesShareOneLeafAsOneProcessWould() throws Exception {
        try (TestRedis redis = TestRedis.embedded();
             RedisStateStore clock = FleetWorkerMain.store(redis.url(), "clock")) {
            List<FleetProcesses.Worker> workers = new ArrayList<>();
            try {
                for (int i = 0; i < PROCESSES; i++) {
                    workers.add(FleetProcesses.start("rate", redis.url(), "fleet", Integer.toString(THREADS)));
                }
                for (FleetProcesses.Worker w : workers) {
                    w.await("READY");
                }
                long start = clock.now() + FleetWorkerMain.SEC / 2;
                for (FleetProcesses.Worker w : workers) {
                    w.send("GO " + start + " " + SECONDS);
                }
                long[] perSecond = new long[SECONDS];
                List<Long> each = new ArrayList<>();
                for (FleetProcesses.Worker w : workers) {
                    long[] sent = Arrays.stream(w.await("SENT").substring(4).trim().split(" ")).mapToLong(Long::parseLong)
                            .toArray();
                    assertThat(sent).hasSize(SECONDS);
                    for (int s = 0; s < SECONDS; s++) {
                        perSecond[s] += sent[s];
                    }
                    each.add(Arrays.stream(sent).sum());
                }
                System.out.println("fleet sends per Redis second: " + Arrays.toString(perSecond) + ", per process " + each);
                long total = 0;
                for (int k = 1; k <= SECONDS; k++) {
                    total += perSecond[k - 1];
                    assertThat(total).as("sends of all %d processes in the first %d Redis seconds %s", PROCESSES, k,
                            Arrays.toString(perSecond)).isLessThanOrEqualTo((long) (RATE * k + BURST));
                }
                assertThat(total).as("sends of all %d processes in %d Redis seconds %s", PROCESSES, SECONDS,
                        Arrays.toString(perSecond)).isGreaterThanOrEqualTo((long) Math.ceil(0.95 * RATE * SECONDS));
                assertThat(each).as("every process got a share").allSatisfy(n -> assertThat(n).isPositive());
            } finally {
                for (FleetProcesses.Worker w : workers) {
                    w.close();
                }
            }
        }
    }
}
