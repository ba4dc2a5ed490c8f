package io.cloudg.sim.aws.wire;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
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
import software.amazon.awssdk.core.traits.XmlAttributeTrait;

/**
 * Serializes SDK objects as the XML the SDK's query (EC2, awsQuery) and restXml unmarshallers read:
 * members by their unmarshall location name, non-flattened lists wrapped with one element per member,
 * flattened lists repeated under the member's own name, maps as {@code entry/key/value}, attribute members
 * ({@code xsi:type}) as attributes of their structure's element.
 */
public final class XmlWriter {
    private XmlWriter() {
    }

    /** Writes every payload member of {@code pojo} as child elements. */
    public static void writeMembers(StringBuilder sb, SdkPojo pojo) {
        for (SdkField<?> f : pojo.sdkFields()) {
            if (f.location() != MarshallLocation.PAYLOAD || f.containsTrait(XmlAttributeTrait.class)) {
                continue;
            }
            Object v = f.getValueOrDefault(pojo);
            if (Pojos.unset(v)) {
                continue;
            }
            writeValue(sb, f, f.unmarshallLocationName(), v);
        }
    }

    /** Writes one value as element {@code name}. */
    public static void writeValue(StringBuilder sb, SdkField<?> f, String name, Object v) {
        switch (Pojos.kind(f)) {
            case LIST -> {
                ListTrait lt = f.getTrait(ListTrait.class);
                SdkField<?> member = lt.memberFieldInfo();
                List<?> items = (List<?>) v;
                if (lt.isFlattened()) {
                    for (Object item : items) {
                        writeValue(sb, member, name, item);
                    }
                } else {
                    String memberName = lt.memberLocationName() != null ? lt.memberLocationName()
                        : member.unmarshallLocationName();
                    open(sb, name);
                    for (Object item : items) {
                        writeValue(sb, member, memberName, item);
                    }
                    close(sb, name);
                }
            }
            case MAP -> {
                MapTrait mt = f.getTrait(MapTrait.class);
                Map<?, ?> map = (Map<?, ?>) v;
                if (!mt.isFlattened()) {
                    open(sb, name);
                }
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    String entry = mt.isFlattened() ? name : "entry";
                    open(sb, entry);
                    open(sb, mt.keyLocationName());
                    text(sb, String.valueOf(e.getKey()));
                    close(sb, mt.keyLocationName());
                    writeValue(sb, mt.valueFieldInfo(), mt.valueLocationName(), e.getValue());
                    close(sb, entry);
                }
                if (!mt.isFlattened()) {
                    close(sb, name);
                }
            }
            case SDK_POJO -> {
                openWithAttributes(sb, name, (SdkPojo) v);
                writeMembers(sb, (SdkPojo) v);
                close(sb, name);
            }
            default -> {
                open(sb, name);
                text(sb, scalarText(f, v));
                close(sb, name);
            }
        }
    }

    /** Text of a scalar: timestamps ISO-8601 unless the member says otherwise, bytes in base64. */
    public static String scalarText(SdkField<?> f, Object v) {
        if (v instanceof Instant i) {
            TimestampFormatTrait.Format fmt = f.getOptionalTrait(TimestampFormatTrait.class)
                .map(TimestampFormatTrait::format).orElse(TimestampFormatTrait.Format.ISO_8601);
            return formatInstant(i, fmt);
        }
        if (v instanceof SdkBytes b) {
            return Base64.getEncoder().encodeToString(b.asByteArrayUnsafe());
        }
        return String.valueOf(v);
    }

    static String formatInstant(Instant i, TimestampFormatTrait.Format fmt) {
        return switch (fmt) {
            case RFC_822 -> DateTimeFormatter.RFC_1123_DATE_TIME.format(i.atOffset(java.time.ZoneOffset.UTC));
            case UNIX_TIMESTAMP -> java.math.BigDecimal.valueOf(i.toEpochMilli(), 3).toPlainString();
            case UNIX_TIMESTAMP_MILLIS -> Long.toString(i.toEpochMilli());
            default -> DateTimeFormatter.ISO_INSTANT.format(i.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        };
    }

    /**
     * Opens element {@code name} with the members of {@code pojo} that are XML attributes (S3's
     * {@code <Grantee xmlns:xsi="..." xsi:type="Group">}), declaring the {@code xsi} prefix when one uses it.
     */
    static void openWithAttributes(StringBuilder sb, String name, SdkPojo pojo) {
        sb.append('<').append(name);
        StringBuilder attrs = new StringBuilder();
        boolean xsi = false;
        for (SdkField<?> f : pojo.sdkFields()) {
            if (!f.containsTrait(XmlAttributeTrait.class)) {
                continue;
            }
            Object v = f.getValueOrDefault(pojo);
            if (Pojos.unset(v)) {
                continue;
            }
            String attr = f.locationName();
            xsi |= attr.startsWith("xsi:");
            attrs.append(' ').append(attr).append("=\"");
            text(attrs, scalarText(f, v));
            attrs.append('"');
        }
        if (xsi) {
            sb.append(" xmlns:xsi=\"").append(XSI).append('"');
        }
        sb.append(attrs).append('>');
    }

    private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";

    public static void open(StringBuilder sb, String name) {
        sb.append('<').append(name).append('>');
    }

    public static void close(StringBuilder sb, String name) {
        sb.append("</").append(name).append('>');
    }

    /** Appends escaped text. */
    public static void text(StringBuilder sb, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> sb.append(c);
            }
        }
    }
}
