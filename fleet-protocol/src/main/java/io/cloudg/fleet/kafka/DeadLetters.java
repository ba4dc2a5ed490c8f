package io.cloudg.fleet.kafka;

import io.cloudg.fleet.protocol.DeadLetter;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.Wire;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import io.cloudg.resilience.time.TimeSource;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
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
    private final TimeSource time;

    public DeadLetters(Producer<String, byte[]> producer, String topic, MessageCodec codec, String refusedBy, TimeSource time) {
        this.producer = producer;
        this.topic = topic;
        this.codec = codec;
        this.refusedBy = refusedBy;
        this.time = time;
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
                refusedBy, time.epochMillis());
        LOG.warn("dead letter from {}-{}@{} (key {}): {}", record.topic(), record.partition(), record.offset(), record.key(),
                reason);
        return Sends.send(producer, Sends.record(topic, null, record.key(), codec.encode(d),
                headers.get(MessageCodec.RUN_HEADER)));
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
