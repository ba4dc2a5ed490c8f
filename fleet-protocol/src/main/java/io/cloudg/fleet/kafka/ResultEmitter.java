package io.cloudg.fleet.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.cloudg.fleet.protocol.AssetChunk;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.ResultMessage;
import io.cloudg.fleet.protocol.TaskAbandoned;
import io.cloudg.fleet.protocol.TaskDone;
import io.cloudg.fleet.protocol.TaskMessage;
import io.cloudg.fleet.protocol.TaskStarted;
import io.cloudg.fleet.protocol.Wire;
import io.cloudg.fleet.protocol.WireThrottling;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSink;
import io.cloudg.inventory.ServiceCoverage;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Producer;

/**
 * Sends one execution's results: {@code started}, assets in chunks (bounded in count and bytes) as the
 * collectors find them, and {@code done} or {@code abandoned} last, all keyed by task id so that they keep
 * their order on one partition. The future of {@link #done} completes when Kafka has acknowledged every
 * message of the execution. After {@link #close} (an abandoned execution) the sink refuses assets, which
 * stops its collectors. Thread-safe.
 */
public final class ResultEmitter implements AssetSink {
    private static final ObjectWriter ASSET = new ObjectMapper().writerFor(Asset.class);

    /** Thrown into a collector of an execution that was abandoned, to end it. */
    static final class Abandoned extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Abandoned(String reason) {
            super(reason);
        }
    }

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final MessageCodec codec;
    private final TaskMessage task;
    private final String executionId;
    private final String workerId;
    private final int chunkAssets;
    private final int chunkBytes;
    private final List<CompletableFuture<Void>> sent = new ArrayList<>();
    private List<Asset> buffer = new ArrayList<>();
    private int bufferBytes;
    private int seq;
    private long assets;
    private String closed;

    public ResultEmitter(Producer<String, byte[]> producer, String topic, MessageCodec codec, TaskMessage task,
                  String executionId, String workerId, int chunkAssets, int chunkBytes) {
        this.producer = producer;
        this.topic = topic;
        this.codec = codec;
        this.task = task;
        this.executionId = executionId;
        this.workerId = workerId;
        this.chunkAssets = chunkAssets;
        this.chunkBytes = chunkBytes;
    }

    public synchronized void started(long at) {
        send(new TaskStarted(Wire.VERSION, task.runId(), task.taskId(), task.attempt(), executionId, workerId, at));
    }

    @Override
    public void accept(Asset asset) {
        int size;
        try {
            ByteCount count = new ByteCount();
            ASSET.writeValue(count, asset);
            size = count.bytes;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot serialize an asset: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot measure an asset", e);
        }
        synchronized (this) {
            if (closed != null) {
                throw new Abandoned(closed);
            }
            if (!buffer.isEmpty() && bufferBytes + size > chunkBytes) {
                flush();
            }
            buffer.add(asset);
            bufferBytes += size;
            assets++;
            if (buffer.size() >= chunkAssets) {
                flush();
            }
        }
    }

    private void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        send(new AssetChunk(Wire.VERSION, task.runId(), task.taskId(), executionId, seq++, buffer));
        buffer = new ArrayList<>();
        bufferBytes = 0;
    }

    /** The last chunk and {@code done}; completes when every message of the execution is acknowledged. */
    public synchronized CompletableFuture<Void> done(List<ServiceCoverage> coverage, WireThrottling throttling, long startedAt,
                                              long finishedAt) {
        if (closed != null) {
            return CompletableFuture.failedFuture(new Abandoned(closed));
        }
        flush();
        closed = "the execution already finished";
        send(new TaskDone(Wire.VERSION, task.runId(), task.taskId(), task.attempt(), executionId, workerId, seq, assets,
                coverage, throttling, startedAt, finishedAt));
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
    }

    /** Refuses further assets, drops the unsent ones, and says why; completes when {@code abandoned} is stored. */
    public synchronized CompletableFuture<Void> abandon(String reason, boolean handedBack, long at) {
        closed = reason;
        buffer = new ArrayList<>();
        return send(new TaskAbandoned(Wire.VERSION, task.runId(), task.taskId(), task.attempt(), executionId, workerId,
                reason, handedBack, at));
    }

    long assetCount() {
        synchronized (this) {
            return assets;
        }
    }

    /** Counts the UTF-8 bytes of an asset's JSON without keeping them (the chunk is encoded whole later). */
    private static final class ByteCount extends OutputStream {
        int bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }

    private CompletableFuture<Void> send(ResultMessage m) {
        CompletableFuture<Void> f = Sends.send(producer, Sends.record(topic, null, task.taskId(), codec.encode(m), task.runId()));
        sent.add(f);
        return f;
    }
}
