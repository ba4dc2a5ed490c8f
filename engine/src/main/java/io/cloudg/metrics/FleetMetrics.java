package io.cloudg.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The fleet's metrics, on the side that sees each event, so that a sum over the fleet counts each once.
 *
 * <p>Workers: {@code cloudg_fleet_tasks_started_total}, {@code cloudg_fleet_tasks_done_total} (results
 * acknowledged by Kafka), {@code cloudg_fleet_tasks_abandoned_total{reason="timeout"|"handed_back"}},
 * {@code cloudg_fleet_tasks_dead_lettered_total} (task messages a worker could not use) and the gauge
 * {@code cloudg_fleet_tasks_in_flight}.
 *
 * <p>The coordinator: {@code cloudg_fleet_tasks_published_total} (first attempts),
 * {@code cloudg_fleet_tasks_retried_total} (further attempts), {@code cloudg_fleet_tasks_given_up_total},
 * {@code cloudg_fleet_results_dead_lettered_total} (result messages of the run it could not use),
 * {@code cloudg_fleet_result_delivery_seconds} (from a worker's send of a result to the coordinator's
 * read of it, by the Kafka record's timestamp), and the gauges {@code cloudg_fleet_tasks_lag} (messages on
 * the tasks topic the workers' group has not consumed yet: what KEDA scales on; -1 until first read),
 * {@code cloudg_fleet_run_tasks{state="planned"|"done"}} and {@code cloudg_fleet_workers_busy}.
 */
public final class FleetMetrics {
    /** Result delivery: from milliseconds (an idle fleet) to minutes (a coordinator catching up). */
    static final Duration[] DELIVERY_BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(25), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(300)};

    private final MeterRegistry registry;

    private FleetMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public static FleetMetrics of(CloudgMetrics metrics) {
        return new FleetMetrics(metrics.registry());
    }

    private Counter counter(String name, String description, String... tags) {
        return Counter.builder(name).tags(tags).description(description).register(registry);
    }

    /** A worker's meters. */
    public Worker worker(Supplier<Number> inFlight) {
        return new Worker(inFlight);
    }

    /** The coordinator's meters. */
    public Coordinator coordinator() {
        return new Coordinator();
    }

    /** What a worker counts. */
    public final class Worker {
        private final Counter started = counter("cloudg.fleet.tasks.started", "Task deliveries a worker started");
        private final Counter done = counter("cloudg.fleet.tasks.done", "Tasks whose results Kafka acknowledged");
        private final Counter timedOut = counter("cloudg.fleet.tasks.abandoned", "Task executions a worker abandoned",
                "reason", "timeout");
        private final Counter handedBack = counter("cloudg.fleet.tasks.abandoned", "Task executions a worker abandoned",
                "reason", "handed_back");
        private final Counter deadLettered = counter("cloudg.fleet.tasks.dead.lettered",
                "Task messages a worker could not use, sent to the dead-letter topic");

        private Worker(Supplier<Number> inFlight) {
            Gauge.builder("cloudg.fleet.tasks.in.flight", inFlight).description("Tasks this worker is running")
                    .register(registry);
        }

        public void started() {
            started.increment();
        }

        public void done() {
            done.increment();
        }

        public void abandoned(boolean handedBackOnShutdown) {
            (handedBackOnShutdown ? handedBack : timedOut).increment();
        }

        public void deadLettered() {
            deadLettered.increment();
        }
    }

    /** What the coordinator counts. */
    public final class Coordinator {
        private final Counter published = counter("cloudg.fleet.tasks.published", "First attempts published to the tasks topic");
        private final Counter retried = counter("cloudg.fleet.tasks.retried", "Further attempts published to the tasks topic");
        private final Counter givenUp = counter("cloudg.fleet.tasks.given.up", "Tasks the coordinator gave up (FAILED coverage)");
        private final Counter resultsLettered = counter("cloudg.fleet.results.dead.lettered",
                "Result messages the coordinator could not use, sent to the dead-letter topic");
        private final Timer delivery = Timer.builder("cloudg.fleet.result.delivery")
                .description("From a worker's send of a result message to the coordinator's read of it")
                .serviceLevelObjectives(DELIVERY_BUCKETS).register(registry);
        /** -1 until the coordinator has read the group's lag once. */
        private final AtomicLong lag = new AtomicLong(-1);
        private final AtomicLong planned = new AtomicLong();
        private final AtomicLong done = new AtomicLong();
        private final AtomicLong busy = new AtomicLong();

        private Coordinator() {
            Gauge.builder("cloudg.fleet.tasks.lag", lag, AtomicLong::get).strongReference(true)
                    .description("Messages on the tasks topic the workers' group has not consumed (-1: not read yet)").register(registry);
            Gauge.builder("cloudg.fleet.run.tasks", planned, AtomicLong::get).strongReference(true).tag("state", "planned")
                    .description("Tasks of the run being followed").register(registry);
            Gauge.builder("cloudg.fleet.run.tasks", done, AtomicLong::get).strongReference(true).tag("state", "done")
                    .description("Tasks of the run being followed").register(registry);
            Gauge.builder("cloudg.fleet.workers.busy", busy, AtomicLong::get).strongReference(true)
                    .description("Workers running a task of the run, as the coordinator sees them").register(registry);
        }

        public void published(int n) {
            published.increment(n);
        }

        public void retried() {
            retried.increment();
        }

        public void givenUp() {
            givenUp.increment();
        }

        /** A result message of the run could not be used and went to the dead-letter topic. */
        public void resultDeadLettered() {
            resultsLettered.increment();
        }

        /** A result read {@code millis} after its worker sent it (negative values, from clock skew, count as 0). */
        public void delivered(long millis) {
            delivery.record(Math.max(0, millis), TimeUnit.MILLISECONDS);
        }

        public void lag(long messages) {
            lag.set(messages);
        }

        public void run(int plannedTasks, int doneTasks, int busyWorkers) {
            planned.set(plannedTasks);
            done.set(doneTasks);
            busy.set(busyWorkers);
        }
    }
}
