package io.cloudg.sim.core;

import java.util.concurrent.atomic.LongAdder;

/** Whole-simulator counters (per-bucket ones live in the buckets). */
public final class Counters {
    final LongAdder requests = new LongAdder();
    final LongAdder calls = new LongAdder();
    final LongAdder admitted = new LongAdder();
    final LongAdder throttled = new LongAdder();
    final LongAdder faults = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LongAdder retries = new LongAdder();
    final InFlight inFlight = new InFlight();

    /** Calls in flight now, and the most at once, overall and per account. */
    public InFlight inFlight() {
        return inFlight;
    }

    /** An HTTP request or gRPC call arrived (including admin and malformed ones). */
    public void request() {
        requests.increment();
    }

    /** A request was refused before reaching the gate (unknown action, bad parameter, ...). */
    public void error() {
        errors.increment();
    }

    /** A call reached the gate. */
    public void call() {
        calls.increment();
    }

    /** A call was answered normally. */
    public void admitted() {
        admitted.increment();
    }

    /** A call was answered with a throttling error (a bucket's or an injected one). */
    public void throttled() {
        throttled.increment();
    }

    /** A call got an injected fault. */
    public void fault() {
        faults.increment();
    }

    /** A request the client marked as a retry (AWS {@code amz-sdk-request: attempt=N}, N > 1). */
    public void retry() {
        retries.increment();
    }

    public Totals snapshot() {
        return new Totals(requests.sum(), calls.sum(), admitted.sum(), throttled.sum(), faults.sum(), errors.sum(),
            retries.sum());
    }

    /**
     * @param requests  HTTP requests and gRPC calls received
     * @param calls     API calls that reached the gate
     * @param admitted  calls answered normally
     * @param throttled calls answered with a throttling error (buckets and injected)
     * @param faults    calls that got an injected fault (throttle, transient, reset, close, access_denied, slow)
     * @param errors    requests refused with a client error before the gate (unknown action, bad input)
     * @param retries   AWS requests the SDK marked as retries ({@code amz-sdk-request: attempt=2} and later)
     */
    public record Totals(long requests, long calls, long admitted, long throttled, long faults, long errors,
                         long retries) {
    }
}
