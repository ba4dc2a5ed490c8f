package io.cloudg.fleet.worker;

import io.cloudg.resilience.time.TimeSource;
import java.time.Duration;

/**
 * What the probes report. Live: the consumer loop went round recently (a stuck loop is restarted).
 * Ready: started, not stopping, and the last poll reached Kafka.
 */
public final class WorkerHealth {
    private final TimeSource time;
    private final Duration stall;
    private volatile long lastLoop;
    private volatile boolean started;
    private volatile boolean stopping;
    private volatile int inFlight;
    private volatile long tasksDone;

    WorkerHealth(TimeSource time, Duration stall) {
        this.time = time;
        this.stall = stall;
        this.lastLoop = time.epochMillis();
    }

    void loop(int running, long done) {
        lastLoop = time.epochMillis();
        started = true;
        inFlight = running;
        tasksDone = done;
    }

    void stopping() {
        stopping = true;
    }

    /** Tasks running at the last round of the consumer loop. */
    public int inFlight() {
        return inFlight;
    }

    public boolean live() {
        return time.epochMillis() - lastLoop < stall.toMillis();
    }

    public boolean ready() {
        return started && !stopping && live();
    }

    public String describe() {
        return "{\"live\":" + live() + ",\"ready\":" + ready() + ",\"in_flight\":" + inFlight + ",\"tasks_done\":"
                + tasksDone + "}";
    }
}
