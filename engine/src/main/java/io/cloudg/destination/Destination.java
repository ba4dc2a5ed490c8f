package io.cloudg.destination;

import io.cloudg.inventory.Asset;
import java.util.List;

/**
 * Somewhere a run's results are written while it runs, besides {@code inventory-map.json}: a database, a
 * queue, a warehouse. {@link Destinations} drives it from one writer thread of its own, so that a slow or
 * failing destination never holds the map back nor loses a line of the JSON map.
 *
 * <p>Contract:
 * <ul>
 *   <li>calls come in this order, from one thread at a time: {@link #begin} once, {@link #write} any number
 *       of times, {@link #finish} once (unless a call before it threw), then {@link #close};</li>
 *   <li>{@link #write} MUST write its whole batch in a few round trips (COPY, batched statements), never
 *       one per asset, and MAY see an asset again (a resumed run): writing MUST be idempotent per run and
 *       asset identity ({@link Asset#key()});</li>
 *   <li>a call that throws makes the destination FAILED for the rest of the run: it is called no more
 *       except {@link #close}, and the run reports it (its exception's message, which MUST NOT carry a
 *       secret);</li>
 *   <li>{@link #describe()} names it for people and MUST NOT reveal a password;</li>
 *   <li>{@link #close} MUST NOT throw and releases its connections.</li>
 * </ul>
 */
public interface Destination extends AutoCloseable {
    /** What it is, for people: {@code postgres postgresql://cloudg@db:5432/inventory (schema cloudg)}. */
    String describe();

    /** A run starts (or resumes: the same run id again). */
    void begin(RunStart start) throws Exception;

    /** A batch of the run's assets, in the order they were found. */
    void write(List<Asset> batch) throws Exception;

    /** The run ended: its coverage, summary, throttling report and run block. */
    void finish(RunEnd end) throws Exception;

    @Override
    void close();
}
