package io.cloudg.destination;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.inventory.Asset;
import io.cloudg.config.StartupException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's destinations, fed while it runs: asset lines (as the spool writes them) are gathered into
 * batches, and each destination writes the batches on a thread of its own through a small bounded queue,
 * so collectors never wait on a database round trip (they wait only when a destination falls a few batches
 * behind). A destination that throws is FAILED from then on: its batches are dropped, the others go on, the
 * JSON map is written in full, and {@link #finish} reports it. Thread-safe.
 */
public final class Destinations implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.destinations");
    private static final ObjectMapper READ = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final List<String> END = java.util.Collections.unmodifiableList(new ArrayList<>(0));
    /** Assets per batch by default: one COPY and three statements per batch. */
    public static final int DEFAULT_BATCH = 5000;
    /** Batches a destination may fall behind before collectors wait for it. */
    static final int QUEUE = 4;

    private final List<Lane> lanes;
    private final int batchSize;
    private List<String> batch;
    private boolean finished;

    private Destinations(List<Lane> lanes, int batchSize) {
        this.lanes = lanes;
        this.batchSize = batchSize;
        this.batch = new ArrayList<>(batchSize);
    }

    /** No destination: accepting is free. */
    public static Destinations none() {
        return new Destinations(List.of(), 1);
    }

    /**
     * Connects every destination and tells it the run started; a destination that cannot be reached fails
     * the start ({@link StartupException}, one line naming it) after closing those already open.
     */
    public static Destinations open(List<DestinationSpec> specs, RunStart start, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, but was " + batchSize);
        }
        List<Lane> lanes = new ArrayList<>();
        try {
            for (DestinationSpec spec : specs) {
                Destination d = spec.open();
                Lane lane = new Lane(spec.type(), d);
                lanes.add(lane);
                try {
                    d.begin(start);
                } catch (Exception e) {
                    throw new StartupException(spec.describe() + ": " + message(e), e);
                }
            }
        } catch (RuntimeException e) {
            lanes.forEach(l -> l.destination.close());
            throw e;
        }
        lanes.forEach(Lane::start);
        return new Destinations(lanes, batchSize);
    }

    public boolean isEmpty() {
        return lanes.isEmpty();
    }

    /** One asset, as its JSON line. */
    public void accept(String assetLine) {
        if (lanes.isEmpty()) {
            return;
        }
        List<String> full = null;
        synchronized (this) {
            if (finished) {
                throw new IllegalStateException("the run's destinations are finished");
            }
            batch.add(assetLine);
            if (batch.size() >= batchSize) {
                full = batch;
                batch = new ArrayList<>(batchSize);
            }
        }
        if (full != null) {
            hand(full);
        }
    }

    private void hand(List<String> lines) {
        for (Lane l : lanes) {
            l.offer(lines);
        }
    }

    /** Writes what is left, tells each destination the run ended, closes them; how each fared. */
    public List<DestinationStatus> finish(RunEnd end) {
        List<String> rest;
        synchronized (this) {
            if (finished) {
                throw new IllegalStateException("the run's destinations are finished");
            }
            finished = true;
            rest = batch;
            batch = List.of();
        }
        if (!rest.isEmpty()) {
            hand(rest);
        }
        List<DestinationStatus> out = new ArrayList<>();
        for (Lane l : lanes) {
            l.end();
            if (l.failure == null) {
                try {
                    l.destination.finish(end);
                } catch (Exception e) {
                    l.fail(e);
                }
            }
            l.destination.close();
            out.add(l.status());
        }
        return out;
    }

    /** Stops without finishing (the run was stopped or could not complete): nothing more is written. */
    @Override
    public void close() {
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
        }
        for (Lane l : lanes) {
            l.abort();
            l.destination.close();
        }
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        return (m == null || m.isBlank() ? e.getClass().getSimpleName() : m).lines().findFirst().orElse("").trim();
    }

    /** One destination and its writer thread. */
    private static final class Lane {
        final String type;
        final Destination destination;
        final BlockingQueue<List<String>> queue = new ArrayBlockingQueue<>(QUEUE);
        final AtomicLong written = new AtomicLong();
        volatile Throwable failure;
        volatile boolean aborted;
        Thread writer;

        Lane(String type, Destination destination) {
            this.type = type;
            this.destination = destination;
        }

        void start() {
            writer = new Thread(this::drain, "cloudg-destination-" + type);
            writer.setDaemon(true);
            writer.start();
        }

        void offer(List<String> lines) {
            if (failure != null || aborted) {
                return;
            }
            try {
                queue.put(lines);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail(new IOException("interrupted while handing assets over"));
            }
        }

        private void drain() {
            while (true) {
                List<String> lines;
                try {
                    lines = queue.take();
                } catch (InterruptedException e) {
                    return;
                }
                if (lines == END) {
                    return;
                }
                if (failure != null || aborted) {
                    continue;
                }
                try {
                    List<Asset> assets = new ArrayList<>(lines.size());
                    for (String line : lines) {
                        assets.add(READ.readValue(line, Asset.class));
                    }
                    destination.write(assets);
                    written.addAndGet(assets.size());
                } catch (Exception | LinkageError e) {
                    fail(e);
                }
            }
        }

        void fail(Throwable e) {
            if (failure == null) {
                failure = e;
                LOG.warn("destination {} failed: {} (the JSON map is still written in full)", destination.describe(),
                        message(e));
                LOG.debug("destination {} failed", destination.describe(), e);
            }
        }

        void end() {
            try {
                queue.put(END);
                writer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail(new IOException("interrupted while finishing"));
                writer.interrupt();
            }
        }

        void abort() {
            aborted = true;
            queue.clear();
            writer.interrupt();
            try {
                writer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        DestinationStatus status() {
            return failure == null
                    ? new DestinationStatus(type, destination.describe(), DestinationStatus.State.OK, written.get(), null)
                    : new DestinationStatus(type, destination.describe(), DestinationStatus.State.FAILED, written.get(),
                            message(failure));
        }
    }
}
