package io.cloudg.sim.aws.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallLocation;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;

/** Reads a JSON body into the payload members of an SDK request builder. */
public final class JsonReader {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonReader() {
    }

    public static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            return MAPPER.createObjectNode();
        }
        try {
            JsonNode n = MAPPER.readTree(body);
            if (n == null || !n.isObject()) {
                throw new WireException("The request body must be a JSON object");
            }
            return n;
        } catch (IOException e) {
            throw new WireException("The request body is not valid JSON");
        }
    }

    /** Fills payload members of {@code builder} from {@code body}; does not build. */
    public static void fill(SdkPojo builder, JsonNode body) {
        for (SdkField<?> f : builder.sdkFields()) {
            if (f.location() != MarshallLocation.PAYLOAD) {
                continue;
            }
            JsonNode n = body.get(f.locationName());
            if (n != null && !n.isNull()) {
                f.set(builder, value(f, f.locationName(), n));
            }
        }
    }

    private static Object value(SdkField<?> f, String name, JsonNode n) {
        switch (Pojos.kind(f)) {
            case LIST -> {
                if (!n.isArray()) {
                    throw new WireException("Value at '" + name + "' must be a list");
                }
                SdkField<?> member = f.getTrait(ListTrait.class).memberFieldInfo();
                List<Object> out = new ArrayList<>();
                for (JsonNode item : n) {
                    out.add(value(member, name, item));
                }
                return out;
            }
            case MAP -> {
                if (!n.isObject()) {
                    throw new WireException("Value at '" + name + "' must be a map");
                }
                SdkField<?> valueField = f.getTrait(MapTrait.class).valueFieldInfo();
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> e : n.properties()) {
                    out.put(e.getKey(), value(valueField, name, e.getValue()));
                }
                return out;
            }
            case SDK_POJO -> {
                if (!n.isObject()) {
                    throw new WireException("Value at '" + name + "' must be a structure");
                }
                SdkPojo nested = f.constructor().get();
                fill(nested, n);
                return Pojos.build(nested);
            }
            case DOCUMENT -> {
                return null;
            }
            default -> {
                if (n.isContainerNode()) {
                    throw new WireException("Value at '" + name + "' must be a scalar");
                }
                return Pojos.scalar(f, name, n.asText());
            }
        }
    }
}
