package io.cloudg.fleet.worker;

import java.time.Clock;
import java.time.Duration;

/**
 * What the probes report. Live: the consumer loop went round recently (a stuck loop is restarted).
 * Ready: started, not stopping, and the last poll reached Kafka.
 */
public final class WorkerHealth {
    private final Clock clock;
    private final Duration stall;
    private volatile long lastLoop;
    private volatile boolean started;
    private volatile boolean stopping;
    private volatile int inFlight;
    private volatile long tasksDone;

    WorkerHealth(Clock clock, Duration stall) {
        this.clock = clock;
        this.stall = stall;
        this.lastLoop = clock.millis();
    }

    void loop(int running, long done) {
        lastLoop = clock.millis();
        started = true;
        inFlight = running;
        tasksDone = done;
    }

    void stopping() {
        stopping = true;
    }

    public boolean live() {
        return clock.millis() - lastLoop < stall.toMillis();
    }

    public boolean ready() {
        return started && !stopping && live();
    }

    public String describe() {
        return "{\"live\":" + live() + ",\"ready\":" + ready() + ",\"in_flight\":" + inFlight + ",\"tasks_done\":"
                + tasksDone + "}";
    }
}
