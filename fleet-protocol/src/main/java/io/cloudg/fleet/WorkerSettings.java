package io.cloudg.fleet;

import io.cloudg.config.BindAddress;
import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.resilience.config.ConfigErrors;
import java.time.Duration;
import java.util.Set;

/**
 * The {@code fleet.worker} block.
 *
 * @param id this worker's name in the group and in results; null: the host name (the pod name) and pid
 * @param maxInFlight tasks one worker runs at once; {@link #AUTO} (the default, the key absent): as many as the
 *        governor has room for, taking another task whenever the process's calls are below
 *        {@code ratelimit.max_calls_in_flight} with none waiting, no job waits for a job place and one is free
 *        (with {@code threads} unset: fewer jobs wait than the worker's CPU-led window), up to as many tasks as
 *        places
 * @param threads collector jobs one worker runs at once over all its tasks, each on a virtual thread (waiting
 *        on the network or the governor holds no platform thread); {@link #AUTO} (the default): as many places
 *        as {@code ratelimit.max_calls_in_flight}, of which the worker runs as many at once as its CPU allows
 *        (its job window)
 * @param shutdownGrace on SIGTERM, how long in-flight tasks may finish before they are handed back
 * @param healthPort the port of {@code /healthz}, {@code /readyz} and {@code /metrics}; 0: no probe server
 * @param chunkAssets the most assets in one results message
 * @param chunkBytes the most bytes of assets in one results message
 * @param healthHost the address the probe server listens on; null: every interface (the default)
 */
public record WorkerSettings(String id, int maxInFlight, int threads, Duration shutdownGrace, int healthPort,
                             int chunkAssets, int chunkBytes, String healthHost) {
    static final Set<String> KEYS = Set.of("id", "max_in_flight", "threads", "shutdown_grace_seconds", "health_port",
            "health_host", "chunk_assets", "chunk_bytes");

    /**
     * {@code max_in_flight} not set: tasks are taken while the governor has room; {@code threads} not set: as many
     * job places as {@code ratelimit.max_calls_in_flight}.
     */
    public static final int AUTO = 0;

    public static final WorkerSettings DEFAULTS = new WorkerSettings(null, AUTO, AUTO, Duration.ofSeconds(25), 8081, 500,
            256 * 1024, null);

    public WorkerSettings {
        if (id != null && !id.matches("[A-Za-z0-9._:-]{1,128}")) {
            throw ConfigErrors.mustBe("fleet.worker.id", "1-128 characters of [A-Za-z0-9._:-]", id);
        }
        if (maxInFlight < 0) {
            throw ConfigErrors.mustBe("fleet.worker.max_in_flight", "an integer >= 1", maxInFlight);
        }
        if (threads < 0) {
            throw ConfigErrors.mustBe("fleet.worker.threads", "an integer >= 1", threads);
        }
        if (shutdownGrace == null || shutdownGrace.isNegative()) {
            throw ConfigErrors.mustBe("fleet.worker.shutdown_grace_seconds", "a number >= 0", shutdownGrace);
        }
        if (healthPort < 0 || healthPort > 65535) {
            throw ConfigErrors.mustBe("fleet.worker.health_port", "a port from 0 to 65535", healthPort);
        }
        if (chunkAssets < 1) {
            throw ConfigErrors.mustBe("fleet.worker.chunk_assets", "an integer >= 1", chunkAssets);
        }
        if (chunkBytes < 1024) {
            throw ConfigErrors.mustBe("fleet.worker.chunk_bytes", "an integer >= 1024", chunkBytes);
        }
        BindAddress.check("fleet.worker.health_host", healthHost);
    }

    public WorkerSettings withId(String newId) {
        return new WorkerSettings(newId, maxInFlight, threads, shutdownGrace, healthPort, chunkAssets, chunkBytes, healthHost);
    }

    public WorkerSettings withMaxInFlight(int n) {
        if (n < 1) {
            throw ConfigErrors.mustBe("fleet.worker.max_in_flight", "an integer >= 1", n);
        }
        return new WorkerSettings(id, n, threads, shutdownGrace, healthPort, chunkAssets, chunkBytes, healthHost);
    }

    public WorkerSettings withThreads(int n) {
        if (n < 1) {
            throw ConfigErrors.mustBe("fleet.worker.threads", "an integer >= 1", n);
        }
        return new WorkerSettings(id, maxInFlight, n, shutdownGrace, healthPort, chunkAssets, chunkBytes, healthHost);
    }

    /**
     * The collector jobs one worker runs at once: {@code threads} when set, else {@code maxCallsInFlight}
     * ({@code ratelimit.max_calls_in_flight}).
     */
    public int jobs(int maxCallsInFlight) {
        return threads != AUTO ? threads : maxCallsInFlight;
    }

    public WorkerSettings withHealthPort(int port) {
        return new WorkerSettings(id, maxInFlight, threads, shutdownGrace, port, chunkAssets, chunkBytes, healthHost);
    }

    /** These settings with the probes on {@code host} (null: every interface). */
    public WorkerSettings withHealthHost(String host) {
        return new WorkerSettings(id, maxInFlight, threads, shutdownGrace, healthPort, chunkAssets, chunkBytes, host);
    }

    public WorkerSettings withShutdownGrace(Duration d) {
        return new WorkerSettings(id, maxInFlight, threads, d, healthPort, chunkAssets, chunkBytes, healthHost);
    }

    static WorkerSettings load(ConfigNode y) {
        y.warnUnknown(KEYS);
        WorkerSettings d = DEFAULTS;
        double grace = y.seconds("shutdown_grace_seconds", d.shutdownGrace.toMillis() / 1000.0, true);
        return new WorkerSettings(y.string("id", d.id), y.integer("max_in_flight", d.maxInFlight, 1),
                y.integer("threads", d.threads, 1), Duration.ofMillis(Math.round(grace * 1000)),
                y.integer("health_port", d.healthPort, 0), y.integer("chunk_assets", d.chunkAssets, 1),
                y.integer("chunk_bytes", d.chunkBytes, 1024), y.string("health_host", d.healthHost));
    }
}
