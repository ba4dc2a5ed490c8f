package io.cloudg.fleet.worker;

import io.cloudg.fleet.protocol.DeadLetter;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.Wire;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a message nobody can use on the dead-letter topic, with the reason, its origin, bytes and headers;
 * the original key and {@code cloudg-run} header are kept on the dead letter, so that the coordinator of
 * that run hears of it. Used by workers (tasks) and the coordinator (results) alike.
 */
public final class DeadLetters {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.fleet.dead-letters");

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final MessageCodec codec;
    private final String refusedBy;
    private final Clock clock;

    public DeadLetters(Producer<String, byte[]> producer, String topic, MessageCodec codec, String refusedBy, Clock clock) {
        this.producer = producer;
        this.topic = topic;
        this.codec = codec;
        this.refusedBy = refusedBy;
        this.clock = clock;
    }

    /** Completes when the dead letter is stored. */
    public CompletableFuture<Void> send(ConsumerRecord<String, byte[]> record, String reason) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header h : record.headers()) {
            headers.put(h.key(), h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8));
        }
        byte[] raw = record.value();
        String text = raw == null ? null : utf8(raw);
        DeadLetter d = new DeadLetter(Wire.VERSION, reason, record.topic(), record.partition(), record.offset(),
                record.key(), text, raw != null && text == null ? Base64.getEncoder().encodeToString(raw) : null, headers,
                refusedBy, clock.millis());
        LOG.warn("dead letter from {}-{}@{} (key {}): {}", record.topic(), record.partition(), record.offset(), record.key(),
                reason);
        ProducerRecord<String, byte[]> out = new ProducerRecord<>(topic, record.key(), codec.encode(d));
        String run = headers.get(MessageCodec.RUN_HEADER);
        if (run != null) {
            out.headers().add(MessageCodec.RUN_HEADER, run.getBytes(StandardCharsets.UTF_8));
        }
        CompletableFuture<Void> f = new CompletableFuture<>();
        try {
            producer.send(out, (m, e) -> {
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

    private static String utf8(byte[] raw) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
