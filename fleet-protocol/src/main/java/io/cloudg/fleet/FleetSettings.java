package io.cloudg.fleet;

import io.cloudg.config.ConfigFile;
import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.resilience.config.ConfigErrors;
import java.time.Duration;
import java.util.Set;

/**
 * The {@code fleet} block of {@code cloudg.yaml}: Kafka, topics, the workers' consumer group, how tasks
 * are cut and timed, and the workers' own settings. Immutable; the CLI's {@code --kafka} replaces the
 * bootstrap servers.
 *
 * <pre>{@code
 * fleet:
 *   kafka: {bootstrap_servers: kafka:9092}
 *   topics: {prefix: cloudg, task_partitions: 24}
 *   group: cloudg-workers
 *   task_timeout_seconds: 900        # an execution running longer is abandoned and retried elsewhere
 *   max_attempts: 3                  # then the task's coverage is FAILED with the reason
 *   max_collectors_per_task: 12      # a region's collectors are split into groups of at most this many
 *   worker: {threads: 16, shutdown_grace_seconds: 25, health_port: 8081}   # max_in_flight: unset, tasks while a thread idles
 * }</pre>
 *
 * @param lostGrace how long past its timeout a started execution may stay silent before the coordinator
 *        takes it for lost (its worker died or hangs) and retries the task
 * @param handbackWait how long a task handed back by a stopping worker may wait for Kafka to redeliver it
 *        before the coordinator publishes it again
 * @param progressInterval how often the coordinator logs its progress line when not on a terminal
 */
public record FleetSettings(KafkaSettings kafka, Topics topics, String group, Duration taskTimeout, int maxAttempts,
                            int maxCollectorsPerTask, Duration lostGrace, Duration handbackWait,
                            Duration progressInterval, WorkerSettings worker) {
    static final Set<String> KEYS = Set.of("kafka", "topics", "group", "task_timeout_seconds", "max_attempts",
            "max_collectors_per_task", "lost_grace_seconds", "handback_wait_seconds", "progress_interval_seconds",
            "worker");

    public static final FleetSettings DEFAULTS = new FleetSettings(KafkaSettings.DEFAULTS, Topics.DEFAULTS,
            "cloudg-workers", Duration.ofMinutes(15), 3, 12, Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(10), WorkerSettings.DEFAULTS);

    public FleetSettings {
        if (kafka == null || topics == null || worker == null) {
            throw ConfigErrors.invalid("fleet", "kafka, topics and worker settings are required");
        }
        if (group == null || !group.matches("[A-Za-z0-9._-]{1,200}")) {
            throw ConfigErrors.mustBe("fleet.group", "1-200 characters of [A-Za-z0-9._-]", group);
        }
        positive("fleet.task_timeout_seconds", taskTimeout);
        if (maxAttempts < 1) {
            throw ConfigErrors.mustBe("fleet.max_attempts", "an integer >= 1", maxAttempts);
        }
        if (maxCollectorsPerTask < 1) {
            throw ConfigErrors.mustBe("fleet.max_collectors_per_task", "an integer >= 1", maxCollectorsPerTask);
        }
        positive("fleet.lost_grace_seconds", lostGrace);
        positive("fleet.handback_wait_seconds", handbackWait);
        positive("fleet.progress_interval_seconds", progressInterval);
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw ConfigErrors.mustBe(key, "a positive number of seconds", d == null ? null : d.toMillis() / 1000.0);
        }
    }

    /** Every key of the {@code fleet} section as a dotted path (the configuration reference is checked against it). */
    public static java.util.SortedSet<String> documentedKeys() {
        java.util.SortedSet<String> out = new java.util.TreeSet<>();
        KEYS.stream().filter(k -> !Set.of("kafka", "topics", "worker").contains(k)).forEach(k -> out.add("fleet." + k));
        KafkaSettings.KEYS.stream().filter(k -> !k.equals("properties")).forEach(k -> out.add("fleet.kafka." + k));
        out.add("fleet.kafka.properties.<name>");
        Topics.KEYS.forEach(k -> out.add("fleet.topics." + k));
        WorkerSettings.KEYS.forEach(k -> out.add("fleet.worker." + k));
        return out;
    }

    /** Reads the {@code fleet} section of {@code file} (absent: the defaults); unknown keys become the file's warnings. */
    public static FleetSettings from(ConfigFile file) {
        return load(file.section("fleet"));
    }

    static FleetSettings load(ConfigNode y) {
        y.warnUnknown(KEYS);
        FleetSettings d = DEFAULTS;
        return new FleetSettings(KafkaSettings.load(y.section("kafka")), Topics.load(y.section("topics")),
                y.string("group", d.group), seconds(y, "task_timeout_seconds", d.taskTimeout),
                y.integer("max_attempts", d.maxAttempts, 1), y.integer("max_collectors_per_task", d.maxCollectorsPerTask, 1),
                seconds(y, "lost_grace_seconds", d.lostGrace), seconds(y, "handback_wait_seconds", d.handbackWait),
                seconds(y, "progress_interval_seconds", d.progressInterval), WorkerSettings.load(y.section("worker")));
    }

    private static Duration seconds(ConfigNode y, String key, Duration dflt) {
        return Duration.ofMillis(Math.round(y.seconds(key, dflt.toMillis() / 1000.0, false) * 1000));
    }

    public FleetSettings withKafka(KafkaSettings k) {
        return new FleetSettings(k, topics, group, taskTimeout, maxAttempts, maxCollectorsPerTask, lostGrace,
                handbackWait, progressInterval, worker);
    }

    public FleetSettings withTopics(Topics t) {
        return new FleetSettings(kafka, t, group, taskTimeout, maxAttempts, maxCollectorsPerTask, lostGrace,
                handbackWait, progressInterval, worker);
    }

    public FleetSettings withGroup(String g) {
        return new FleetSettings(kafka, topics, g, taskTimeout, maxAttempts, maxCollectorsPerTask, lostGrace,
                handbackWait, progressInterval, worker);
    }

    public FleetSettings withTiming(Duration timeout, int attempts, Duration grace, Duration handback) {
        return new FleetSettings(kafka, topics, group, timeout, attempts, maxCollectorsPerTask, grace, handback,
                progressInterval, worker);
    }

    public FleetSettings withMaxCollectorsPerTask(int n) {
        return new FleetSettings(kafka, topics, group, taskTimeout, maxAttempts, n, lostGrace, handbackWait,
                progressInterval, worker);
    }

    public FleetSettings withProgressInterval(Duration d) {
        return new FleetSettings(kafka, topics, group, taskTimeout, maxAttempts, maxCollectorsPerTask, lostGrace,
                handbackWait, d, worker);
    }

    public FleetSettings withWorker(WorkerSettings w) {
        return new FleetSettings(kafka, topics, group, taskTimeout, maxAttempts, maxCollectorsPerTask, lostGrace,
                handbackWait, progressInterval, w);
    }
}
