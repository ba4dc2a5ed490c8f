package io.cloudg.sim.aws.wire;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingKnownType;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;
import software.amazon.awssdk.utils.builder.SdkBuilder;

/** Reflection-free access to SDK objects by member name, through their {@code sdkFields()}. */
public final class Pojos {
    private static final Map<Class<?>, Map<String, SdkField<?>>> FIELDS = new ConcurrentHashMap<>();

    private Pojos() {
    }

    private static Map<String, SdkField<?>> fields(SdkPojo p) {
        return FIELDS.computeIfAbsent(p.getClass(), c -> {
            Map<String, SdkField<?>> m = new HashMap<>();
            for (SdkField<?> f : p.sdkFields()) {
                m.put(f.memberName(), f);
            }
            return m;
        });
    }

    /** Whether the object's model has this member. */
    public static boolean has(SdkPojo pojo, String member) {
        return fields(pojo).containsKey(member);
    }

    /** The member's value, or null when unset (auto-constructed empty lists and maps count as unset). */
    public static Object get(SdkPojo pojo, String member) {
        SdkField<?> f = fields(pojo).get(member);
        if (f == null) {
            throw new IllegalArgumentException(pojo.getClass().getName() + " has no member " + member);
        }
        Object v = f.getValueOrDefault(pojo);
        return unset(v) ? null : v;
    }

    /** Sets a member on a builder. */
    public static void set(SdkPojo builder, String member, Object value) {
        SdkField<?> f = fields(builder).get(member);
        if (f == null) {
            throw new IllegalArgumentException(builder.getClass().getName() + " has no member " + member);
        }
        f.set(builder, value);
    }

    /** Builds a builder obtained from a generated {@code builder()} method. */
    public static SdkPojo build(SdkPojo builder) {
        return (SdkPojo) ((SdkBuilder<?, ?>) builder).build();
    }

    static boolean unset(Object v) {
        return v == null || v instanceof SdkAutoConstructList || v instanceof SdkAutoConstructMap;
    }

    static MarshallingKnownType kind(SdkField<?> f) {
        return f.marshallingType().getKnownType();
    }

    /** Converts wire text to the member's Java type. */
    static Object scalar(SdkField<?> f, String wireName, String s) {
        try {
            return switch (kind(f)) {
                case STRING -> s;
                case INTEGER -> Integer.valueOf(s.trim());
                case LONG -> Long.valueOf(s.trim());
                case SHORT -> Short.valueOf(s.trim());
                case BYTE -> Byte.valueOf(s.trim());
                case FLOAT -> Float.valueOf(s.trim());
                case DOUBLE -> Double.valueOf(s.trim());
                case BIG_DECIMAL -> new BigDecimal(s.trim());
                case BOOLEAN -> parseBoolean(wireName, s);
                case INSTANT -> parseInstant(wireName, s);
                case SDK_BYTES -> SdkBytes.fromByteArray(Base64.getDecoder().decode(s));
                default -> throw new WireException("Value for parameter " + wireName + " cannot be read");
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new WireException("Value '" + s + "' at '" + wireName + "' failed to satisfy constraint: "
                + "Member must be a valid " + kind(f).name().toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new WireException("Value '" + s + "' at '" + wireName + "' is not valid");
        }
    }

    private static Boolean parseBoolean(String wireName, String s) {
        if ("true".equalsIgnoreCase(s)) {
            return Boolean.TRUE;
        }
        if ("false".equalsIgnoreCase(s)) {
            return Boolean.FALSE;
        }
        throw new WireException("Value '" + s + "' at '" + wireName + "' failed to satisfy constraint: Member must be "
            + "true or false");
    }

    private static Instant parseInstant(String wireName, String s) {
        if (s.matches("\\d+(\\.\\d+)?")) {
            BigDecimal secs = new BigDecimal(s);
            return Instant.ofEpochSecond(secs.longValue(), secs.remainder(BigDecimal.ONE).movePointRight(9).longValue());
        }
        return Instant.parse(s);
    }

    static List<?> listOrNull(List<?> l) {
        return l.isEmpty() ? null : l;
    }
}
