package io.cloudg.cli.log;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.event.KeyValuePair;

/**
 * Log events as JSON lines in the Elastic Common Schema's logging layout (the ecs-logging spec, which Filebeat,
 * Elastic Agent, Fluent Bit's and Vector's ECS mappings, Datadog and Loki's JSON parser read as is): one object per
 * line, in this order:
 * <ul>
 *   <li>{@code @timestamp}: ISO-8601 in UTC to the millisecond ({@code 2026-12-05T09:14:03.217Z});</li>
 *   <li>{@code log.level}: {@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARN} or {@code ERROR}, the names of
 *       the text format;</li>
 *   <li>{@code message}: the formatted message;</li>
 *   <li>{@code ecs.version}, {@code service.name} ({@code cloudg}), {@code log.logger},
 *       {@code process.thread.name};</li>
 *   <li>the MDC's entries as top-level fields ({@code run_id}, {@code task_id}, {@code provider}, {@code account},
 *       {@code region}: none of them an ECS field set's name);</li>
 *   <li>the event's key-value pairs (SLF4J's {@code addKeyValue}) as top-level fields, numbers as numbers and
 *       objects as objects ({@code jobs}, {@code calls}, {@code status}, a map's {@code summary}...); a pair
 *       named like a field above is dropped rather than written twice;</li>
 *   <li>an exception as {@code error.type}, {@code error.message} and {@code error.stack_trace}.</li>
 * </ul>
 * Dotted names are written as dotted keys, as the ecs-logging spec asks (its readers expand them).
 */
public final class EcsEncoder extends EncoderBase<ILoggingEvent> {
    /** The ECS release the field names follow. */
    public static final String ECS_VERSION = "8.11.0";
    static final String SERVICE = "cloudg";
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final Set<String> OWN = Set.of("@timestamp", "log.level", "message", "ecs.version", "service.name",
            "log.logger", "process.thread.name", "error.type", "error.message", "error.stack_trace");
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        IThrowableProxy proxy = event.getThrowableProxy();
        String stack = proxy == null ? null : ThrowableProxyUtil.asString(proxy);
        return line(Instant.ofEpochMilli(event.getTimeStamp()), event.getLevel().toString(), event.getFormattedMessage(),
                event.getLoggerName(), event.getThreadName(), event.getMDCPropertyMap(), event.getKeyValuePairs(),
                proxy == null ? null : proxy.getClassName(), proxy == null ? null : proxy.getMessage(), stack);
    }

    /**
     * One line (with its {@code \n}) for a notice written outside the logger: a start-up failure, an internal error
     * ({@code error} not null: its class, message and stack trace).
     */
    public static byte[] line(Instant at, String level, String message, String logger, Throwable error) {
        String stack = null;
        if (error != null) {
            java.io.StringWriter w = new java.io.StringWriter();
            error.printStackTrace(new java.io.PrintWriter(w));
            stack = w.toString();
        }
        return line(at, level, message, logger, Thread.currentThread().getName(), Map.of(), List.of(),
                error == null ? null : error.getClass().getName(), error == null ? null : error.getMessage(), stack);
    }

    /** As {@link #line(Instant, String, String, String, Throwable)}, with {@code fields} after the message's. */
    public static byte[] line(Instant at, String level, String message, String logger, Map<String, ?> fields) {
        List<KeyValuePair> kv = new java.util.ArrayList<>();
        fields.forEach((k, v) -> kv.add(new KeyValuePair(k, v)));
        return line(at, level, message, logger, Thread.currentThread().getName(), Map.of(), kv, null, null, null);
    }

    private static byte[] line(Instant at, String level, String message, String logger, String thread,
                               Map<String, String> mdc, List<KeyValuePair> pairs, String errorType, String errorMessage,
                               String stack) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            g.setCodec(JSON);
            g.writeStartObject();
            g.writeStringField("@timestamp", TIMESTAMP.format(at));
            g.writeStringField("log.level", level);
            g.writeStringField("message", message == null ? "" : message);
            g.writeStringField("ecs.version", ECS_VERSION);
            g.writeStringField("service.name", SERVICE);
            g.writeStringField("log.logger", logger);
            g.writeStringField("process.thread.name", thread);
            Set<String> written = new java.util.HashSet<>(OWN);
            if (mdc != null) {
                for (Map.Entry<String, String> e : new java.util.TreeMap<>(mdc).entrySet()) {
                    if (e.getValue() != null && written.add(e.getKey())) {
                        g.writeStringField(e.getKey(), e.getValue());
                    }
                }
            }
            if (pairs != null) {
                for (KeyValuePair p : pairs) {
                    if (p.key != null && written.add(p.key)) {
                        g.writeFieldName(p.key);
                        writeValue(g, p.value);
                    }
                }
            }
            if (errorType != null) {
                g.writeStringField("error.type", errorType);
                if (errorMessage != null) {
                    g.writeStringField("error.message", errorMessage);
                }
                g.writeStringField("error.stack_trace", stack);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.write('\n');
        return out.toByteArray();
    }

    private static void writeValue(JsonGenerator g, Object v) throws IOException {
        if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean) {
            g.writeObject(v);
            return;
        }
        if (v instanceof Map || v instanceof Iterable || v instanceof Record || v.getClass().isArray()) {
            com.fasterxml.jackson.databind.JsonNode tree;
            try {
                tree = JSON.valueToTree(v); // whole before anything is written: a failure leaves the line intact
            } catch (RuntimeException e) {
                tree = null;
            }
            if (tree != null) {
                g.writeTree(tree);
                return;
            }
        }
        g.writeString(String.valueOf(v));
    }
}
