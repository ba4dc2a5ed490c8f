package io.cloudg.fleet.kafka;

import io.cloudg.fleet.protocol.MessageCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * How every fleet message goes out: a record keyed and tagged with its run (the {@link MessageCodec#RUN_HEADER}
 * header, so readers can skip other runs' messages without decoding them), sent with the producer's
 * callback turned into a future, and, where the sender must know, awaited with one wording of failure.
 */
public final class Sends {
    private Sends() {
    }

    /** A record for {@code topic} ({@code partition} null: by key) carrying run {@code runId}'s header. */
    public static ProducerRecord<String, byte[]> record(String topic, Integer partition, String key, byte[] value,
                                                        String runId) {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, partition, key, value);
        if (runId != null) {
            r.headers().add(MessageCodec.RUN_HEADER, runId.getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    /** Sends {@code r}; the future completes when Kafka acknowledges it, or with the reason it did not. */
    public static CompletableFuture<Void> send(Producer<String, byte[]> producer, ProducerRecord<String, byte[]> r) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        try {
            producer.send(r, (meta, e) -> {
                if (e == null) {
                    f.complete(null);
                } else {
                    f.completeExceptionally(e);
                }
            });
        } catch (RuntimeException e) {
            f.completeExceptionally(e);
        }
        return f;
    }

    /**
     * Waits for every send; the first failure is thrown as {@code Kafka did not take <what>: <reason>}.
     *
     * @throws IllegalStateException when a send failed or the wait was interrupted
     */
    public static void awaitAll(List<CompletableFuture<Void>> sent, String what) {
        for (CompletableFuture<Void> f : sent) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while sending " + what, e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("Kafka did not take " + what + ": " + e.getCause(), e.getCause());
            }
        }
    }
}
