package io.cloudg.sim.aws.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallLocation;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.core.traits.TimestampFormatTrait;

/**
 * Serializes SDK objects as awsJson / restJson bodies: members by unmarshall location name, timestamps
 * as epoch seconds unless the member says otherwise, blobs in base64.
 */
public final class JsonWriter {
    private static final JsonFactory JSON = new JsonFactory();

    private JsonWriter() {
    }

    /** The JSON body for {@code pojo}'s payload members. */
    public static byte[] write(SdkPojo pojo) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            writeObject(g, pojo);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The JSON for one value of member {@code f}. */
    public static byte[] writeValue(SdkField<?> f, Object v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            value(g, f, v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static void writeObject(JsonGenerator g, SdkPojo pojo) throws IOException {
        g.writeStartObject();
        for (SdkField<?> f : pojo.sdkFields()) {
            if (f.location() != MarshallLocation.PAYLOAD) {
                continue;
            }
            Object v = f.getValueOrDefault(pojo);
            if (Pojos.unset(v)) {
                continue;
            }
            g.writeFieldName(f.unmarshallLocationName());
            value(g, f, v);
        }
        g.writeEndObject();
    }

    private static void value(JsonGenerator g, SdkField<?> f, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
            return;
        }
        switch (Pojos.kind(f)) {
            case LIST -> {
                SdkField<?> member = f.getTrait(ListTrait.class).memberFieldInfo();
                g.writeStartArray();
                for (Object item : (List<?>) v) {
                    value(g, member, item);
                }
                g.writeEndArray();
            }
            case MAP -> {
                SdkField<?> valueField = f.getTrait(MapTrait.class).valueFieldInfo();
                g.writeStartObject();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    g.writeFieldName(String.valueOf(e.getKey()));
                    value(g, valueField, e.getValue());
                }
                g.writeEndObject();
            }
            case SDK_POJO -> writeObject(g, (SdkPojo) v);
            case STRING -> g.writeString((String) v);
            case BOOLEAN -> g.writeBoolean((Boolean) v);
            case INTEGER, SHORT, BYTE -> g.writeNumber(((Number) v).intValue());
            case LONG -> g.writeNumber((Long) v);
            case FLOAT -> g.writeNumber((Float) v);
            case DOUBLE -> g.writeNumber((Double) v);
            case BIG_DECIMAL -> g.writeNumber((BigDecimal) v);
            case INSTANT -> {
                TimestampFormatTrait.Format fmt = f.getOptionalTrait(TimestampFormatTrait.class)
                    .map(TimestampFormatTrait::format).orElse(TimestampFormatTrait.Format.UNIX_TIMESTAMP);
                Instant i = (Instant) v;
                if (fmt == TimestampFormatTrait.Format.UNIX_TIMESTAMP) {
                    g.writeNumber(BigDecimal.valueOf(i.toEpochMilli(), 3));
                } else if (fmt == TimestampFormatTrait.Format.UNIX_TIMESTAMP_MILLIS) {
                    g.writeNumber(i.toEpochMilli());
                } else {
                    g.writeString(XmlWriter.formatInstant(i, fmt));
                }
            }
            case SDK_BYTES -> g.writeString(Base64.getEncoder().encodeToString(((SdkBytes) v).asByteArrayUnsafe()));
            default -> g.writeNull();
        }
    }
}
