package io.cloudg.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.resilience.config.ConfigErrors;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads one block of the {@code fleet} configuration, naming keys by their full path in errors. */
final class FleetYaml {
    private final String path;
    private final JsonNode node;
    private final List<String> warnings;

    private FleetYaml(String path, JsonNode node, List<String> warnings) {
        this.path = path;
        this.node = node;
        this.warnings = warnings;
    }

    static FleetYaml of(String path, JsonNode node, List<String> warnings) {
        if (node != null && !node.isNull() && !node.isMissingNode() && !node.isObject()) {
            throw ConfigErrors.mustBe(path, "a mapping", node.toString());
        }
        return new FleetYaml(path, node == null || node.isNull() || node.isMissingNode() ? null : node, warnings);
    }

    FleetYaml section(String key) {
        return of(path + "." + key, node == null ? null : node.get(key), warnings);
    }

    /** Logs and collects a warning for every key not in {@code known}. */
    void warnUnknown(Set<String> known) {
        if (node == null) {
            return;
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) {
                warnings.add(ConfigErrors.unknownKey(path + "." + k));
            }
        }
    }

    private JsonNode value(String key) {
        JsonNode v = node == null ? null : node.get(key);
        return v == null || v.isNull() ? null : v;
    }

    String string(String key, String dflt) {
        JsonNode v = value(key);
        if (v == null) {
            return dflt;
        }
        if (!v.isValueNode()) {
            throw ConfigErrors.mustBe(path + "." + key, "a string", v.toString());
        }
        return v.asText();
    }

    int integer(String key, int dflt, int min) {
        JsonNode v = value(key);
        if (v == null) {
            return dflt;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber()) {
            throw ConfigErrors.mustBe(path + "." + key, "an integer >= " + min, v.isTextual() ? v.asText() : v.toString());
        }
        if (v.intValue() < min) {
            throw ConfigErrors.mustBe(path + "." + key, "an integer >= " + min, v.intValue());
        }
        return v.intValue();
    }

    double seconds(String key, double dflt, boolean zeroAllowed) {
        JsonNode v = value(key);
        if (v == null) {
            return dflt;
        }
        boolean ok = v.isNumber() && !Double.isInfinite(v.doubleValue())
                && (zeroAllowed ? v.doubleValue() >= 0 : v.doubleValue() > 0);
        if (!ok) {
            throw ConfigErrors.mustBe(path + "." + key, zeroAllowed ? "a number of seconds >= 0" : "a positive number of seconds",
                    v.isTextual() ? v.asText() : v.toString());
        }
        return v.doubleValue();
    }

    boolean bool(String key, boolean dflt) {
        JsonNode v = value(key);
        if (v == null) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw ConfigErrors.mustBe(path + "." + key, "true or false", v.isTextual() ? v.asText() : v.toString());
        }
        return v.booleanValue();
    }

    Map<String, String> strings(String key) {
        JsonNode v = value(key);
        Map<String, String> out = new LinkedHashMap<>();
        if (v == null) {
            return out;
        }
        if (!v.isObject()) {
            throw ConfigErrors.mustBe(path + "." + key, "a mapping of names to values", v.toString());
        }
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            if (!e.getValue().isValueNode()) {
                throw ConfigErrors.mustBe(path + "." + key + "." + e.getKey(), "a plain value", e.getValue().toString());
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
