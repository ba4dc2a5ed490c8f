package io.cloudg.fleet.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JSON for every fleet message: snake_case field names, a {@code v} version in each, unknown fields
 * ignored (a newer writer may add some within a version), a version above {@link Wire#VERSION} refused.
 * Decoding never throws anything but {@link MalformedMessageException}, whose message is the reason a
 * dead letter carries. Thread-safe.
 */
public final class MessageCodec {
    /** The header naming a message's run, also on messages that fail to decode. */
    public static final String RUN_HEADER = "cloudg-run";

    /**
     * Field names are not canonicalized: a result's throttling counters are keyed by quota scope, and nearly
     * every scope of a run is new to the decoder, so Jackson's shared symbol table grew with the run and each
     * message's parser copied it before adding its names (a third of the coordinator's decoding).
     * A message's own absent fields are left out; a null inside a map is kept ({@code ALWAYS} content
     * inclusion), because an asset's attributes and tags must arrive exactly as found: a security group
     * rule's {@code from_port: null} is part of what an embedded run writes, and a distributed map of the
     * same estate must be the same map.
     */
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
                    .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS))
            .build();

    public byte[] encode(Object message) {
        try {
            return JSON.writeValueAsBytes(message);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot encode " + message.getClass().getSimpleName(), e);
        }
    }

    public TaskMessage task(byte[] bytes) {
        return decode(bytes, TaskMessage.class, "task");
    }

    public ResultMessage result(byte[] bytes) {
        return decode(bytes, ResultMessage.class, "result");
    }

    public JournalEntry journal(byte[] bytes) {
        return decode(bytes, JournalEntry.class, "run journal");
    }

    public DeadLetter deadLetter(byte[] bytes) {
        return decode(bytes, DeadLetter.class, "dead-letter");
    }

    private static <T> T decode(byte[] bytes, Class<T> type, String what) {
        if (bytes == null || bytes.length == 0) {
            throw Wire.unreadable(what, "the message is empty", null);
        }
        try {
            T value = JSON.readValue(bytes, type);
            if (value == null) {
                throw Wire.unreadable(what, "the message is JSON null", null);
            }
            return value;
        } catch (IOException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof MalformedMessageException m) {
                    throw m;
                }
            }
            String detail = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            int nl = detail == null ? -1 : detail.indexOf('\n');
            throw Wire.unreadable(what, nl < 0 ? String.valueOf(detail) : detail.substring(0, nl), e);
        } catch (RuntimeException e) {
            throw Wire.unreadable(what, e.toString(), e);
        }
    }
}
