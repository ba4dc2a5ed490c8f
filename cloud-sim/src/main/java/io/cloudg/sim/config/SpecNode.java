package io.cloudg.sim.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A strict, path-aware view of a parsed YAML document. Every accessor names the full dotted path in its
 * error, and {@link #onlyKeys} refuses keys nobody reads, so a misspelt key never passes silently.
 */
final class SpecNode {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final String path;
    private final JsonNode node;

    private SpecNode(String path, JsonNode node) {
        this.path = path;
        this.node = node;
    }

    static SpecNode parse(String rootName, String yaml) {
        try {
            JsonNode n = YAML.readTree(yaml);
            return new SpecNode(rootName, n == null ? MissingNode.getInstance() : n);
        } catch (Exception e) {
            String msg = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new SpecException((rootName.isEmpty() ? "fault file" : rootName) + ": not valid YAML: " + msg, e);
        }
    }

    String path() {
        return path;
    }

    boolean present() {
        return !node.isMissingNode() && !node.isNull();
    }

    SpecNode get(String key) {
        JsonNode child = node.isObject() ? node.get(key) : null;
        return new SpecNode(join(key), child == null ? MissingNode.getInstance() : child);
    }

    /** Requires a mapping (or nothing) and refuses any key not listed. */
    SpecNode onlyKeys(String... keys) {
        if (!present()) {
            return this;
        }
        if (!node.isObject()) {
            throw error("expected a mapping, got " + describe());
        }
        Set<String> allowed = new LinkedHashSet<>(Arrays.asList(keys));
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new SpecException(join(k) + ": unknown key (expected one of: "
                    + String.join(", ", allowed) + ")");
            }
        }
        return this;
    }

    /** Entries of a mapping, in file order. */
    Map<String, SpecNode> entries() {
        Map<String, SpecNode> out = new LinkedHashMap<>();
        if (!present()) {
            return out;
        }
        if (!node.isObject()) {
            throw error("expected a mapping, got " + describe());
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            out.put(e.getKey(), new SpecNode(join(e.getKey()), e.getValue()));
        }
        return out;
    }

    boolean isList() {
        return node.isArray();
    }

    List<SpecNode> items() {
        List<SpecNode> out = new ArrayList<>();
        if (!present()) {
            return out;
        }
        if (!node.isArray()) {
            throw error("expected a list, got " + describe());
        }
        for (int i = 0; i < node.size(); i++) {
            out.add(new SpecNode(path + "[" + i + "]", node.get(i)));
        }
        return out;
    }

    int positiveInt(int dflt) {
        if (!present()) {
            return dflt;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.asInt() < 1) {
            throw error("expected a positive integer, got " + describe());
        }
        return node.asInt();
    }

    int nonNegativeInt(int dflt) {
        if (!present()) {
            return dflt;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.asInt() < 0) {
            throw error("expected a non-negative integer, got " + describe());
        }
        return node.asInt();
    }

    long longValue(long dflt) {
        if (!present()) {
            return dflt;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw error("expected an integer, got " + describe());
        }
        return node.asLong();
    }

    double positiveNumber(double dflt) {
        if (!present()) {
            return dflt;
        }
        if (!node.isNumber() || !(node.asDouble() > 0)) {
            throw error("expected a positive number, got " + describe());
        }
        return node.asDouble();
    }

    double nonNegativeNumber(double dflt) {
        if (!present()) {
            return dflt;
        }
        if (!node.isNumber() || node.asDouble() < 0) {
            throw error("expected a non-negative number, got " + describe());
        }
        return node.asDouble();
    }

    /** A number in [0, 1] (inclusive) or, when {@code openTop}, [0, 1). */
    double fraction(double dflt, boolean openTop) {
        if (!present()) {
            return dflt;
        }
        double v = node.isNumber() ? node.asDouble() : Double.NaN;
        if (!(v >= 0) || (openTop ? v >= 1 : v > 1)) {
            throw error("expected a number from 0 to 1" + (openTop ? " (exclusive)" : "") + ", got " + describe());
        }
        return v;
    }

    boolean bool(boolean dflt) {
        if (!present()) {
            return dflt;
        }
        if (!node.isBoolean()) {
            throw error("expected true or false, got " + describe());
        }
        return node.asBoolean();
    }

    String string(String dflt) {
        if (!present()) {
            return dflt;
        }
        if (!node.isTextual() && !node.isNumber()) {
            throw error("expected a string, got " + describe());
        }
        String s = node.asText();
        if (s.isBlank()) {
            throw error("expected a non-empty string, got \"\"");
        }
        return s;
    }

    /** A string matching {@code regex}; {@code what} describes the expected form in the error. */
    String matching(String regex, String what, String dflt) {
        if (!present()) {
            return dflt;
        }
        String s = node.isTextual() || node.isNumber() ? node.asText() : null;
        if (s == null || !s.matches(regex)) {
            throw error("expected " + what + ", got " + describe());
        }
        return s;
    }

    List<String> stringList(List<String> dflt) {
        if (!present()) {
            return dflt;
        }
        List<String> out = new ArrayList<>();
        for (SpecNode item : items()) {
            out.add(item.string(null));
        }
        if (out.isEmpty()) {
            throw error("expected a non-empty list");
        }
        return List.copyOf(out);
    }

    private String join(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    SpecException error(String message) {
        return new SpecException(path + ": " + message);
    }

    String describe() {
        if (node.isMissingNode() || node.isNull()) {
            return "nothing";
        }
        if (node.isTextual()) {
            return "\"" + node.asText() + "\"";
        }
        if (node.isObject()) {
            return "a mapping";
        }
        if (node.isArray()) {
            return "a list";
        }
        return node.toString();
    }
}
