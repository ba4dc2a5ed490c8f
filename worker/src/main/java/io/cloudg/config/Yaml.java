package io.cloudg.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Typed, path-aware reading of one mapping of the configuration. Every getter names the full key in its
 * error ({@code aws.max_retries must be an integer >= 0, but was "ten"}), and {@link #warnUnknown} logs
 * the keys nobody asked for, in the same words as the {@code ratelimit} block.
 */
final class Yaml {
    private final String path;
    private final JsonNode node;

    Yaml(String path, JsonNode node) {
        this.path = path;
        this.node = node;
    }

    static Yaml root(JsonNode node) {
        if (node != null && !node.isNull() && !node.isMissingNode() && !node.isObject()) {
            throw ConfigErrors.mustBe("(config root)", "a mapping", node.toString());
        }
        return new Yaml("", node);
    }

    private String key(String k) {
        return path.isEmpty() ? k : path + "." + k;
    }

    private JsonNode get(String k) {
        if (node == null || !node.isObject()) {
            return null;
        }
        JsonNode v = node.get(k);
        return v == null || v.isNull() || v.isMissingNode() ? null : v;
    }

    boolean has(String k) {
        return get(k) != null;
    }

    JsonNode raw(String k) {
        return node == null ? null : node.get(k);
    }

    /** A nested mapping (empty if absent). */
    Yaml section(String k) {
        JsonNode v = get(k);
        if (v != null && !v.isObject()) {
            throw ConfigErrors.mustBe(key(k), "a mapping", show(v));
        }
        return new Yaml(key(k), v);
    }

    String string(String k, String dflt) {
        JsonNode v = get(k);
        if (v == null) {
            return dflt;
        }
        if (!v.isTextual() && !v.isNumber()) {
            throw ConfigErrors.mustBe(key(k), "a string", show(v));
        }
        String s = v.asText().trim();
        if (s.isEmpty()) {
            throw ConfigErrors.mustBe(key(k), "a non-empty string", s);
        }
        return s;
    }

    String string(String k, String dflt, Pattern pattern, String expectation) {
        String s = string(k, dflt);
        if (s != null && !pattern.matcher(s).matches()) {
            throw ConfigErrors.mustBe(key(k), expectation, s);
        }
        return s;
    }

    String oneOf(String k, String dflt, Set<String> allowed) {
        String s = string(k, dflt);
        if (s != null && !allowed.contains(s)) {
            throw ConfigErrors.mustBe(key(k), "one of " + String.join(", ", allowed), s);
        }
        return s;
    }

    Boolean bool(String k, Boolean dflt) {
        JsonNode v = get(k);
        if (v == null) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw ConfigErrors.mustBe(key(k), "true or false", show(v));
        }
        return v.booleanValue();
    }

    Integer integer(String k, Integer dflt, int min) {
        JsonNode v = get(k);
        if (v == null) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw ConfigErrors.mustBe(key(k), "an integer", show(v));
        }
        if (v.intValue() < min) {
            throw ConfigErrors.mustBe(key(k), "an integer >= " + min, v.intValue());
        }
        return v.intValue();
    }

    URI uri(String k) {
        String s = string(k, null);
        if (s == null) {
            return null;
        }
        try {
            URI u = new URI(s);
            if (u.getScheme() == null || u.getHost() == null) {
                throw ConfigErrors.mustBe(key(k), "a URL like http://127.0.0.1:4566", s);
            }
            return u;
        } catch (URISyntaxException e) {
            throw ConfigErrors.mustBe(key(k), "a URL like http://127.0.0.1:4566", s);
        }
    }

    /** A list of strings; a single string is a list of one. */
    List<String> strings(String k, List<String> dflt, Pattern each, String expectation) {
        JsonNode v = get(k);
        if (v == null) {
            return dflt;
        }
        List<String> out = new ArrayList<>();
        if (v.isTextual() || v.isNumber()) {
            out.add(v.asText().trim());
        } else if (v.isArray()) {
            for (JsonNode e : v) {
                if (!e.isTextual() && !e.isNumber()) {
                    throw ConfigErrors.mustBe(key(k), "a list of strings", show(v));
                }
                out.add(e.asText().trim());
            }
        } else {
            throw ConfigErrors.mustBe(key(k), "a list of strings", show(v));
        }
        for (String s : out) {
            if (each != null && !each.matcher(s).matches()) {
                throw ConfigErrors.mustBe(key(k) + " entry", expectation, s);
            }
        }
        return List.copyOf(out);
    }

    /** Logs every key of this mapping not in {@code known}. */
    void warnUnknown(Set<String> known, List<String> warnings) {
        if (node == null || !node.isObject()) {
            return;
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) {
                warnings.add(ConfigErrors.unknownKey(key(k)));
            }
        }
    }

    void forEachEntry(Consumer<Map.Entry<String, JsonNode>> each) {
        if (node != null && node.isObject()) {
            node.fields().forEachRemaining(each);
        }
    }

    static ConfigException invalid(String key, String expectation, Object value) {
        return ConfigErrors.mustBe(key, expectation, value);
    }

    private static Object show(JsonNode v) {
        return v.isTextual() ? v.textValue() : new Object() {
            @Override
            public String toString() {
                return v.toString();
            }
        };
    }
}
