package io.cloudg.resilience.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * The one typed, path-aware reader of cloudg's YAML configuration, used by every module's section
 * ({@code ratelimit}, {@code aws}, {@code fleet}, {@code mcp}, ...). A node is one mapping and the dotted
 * path that leads to it; every getter names the full key in its error, worded by {@link ConfigErrors}
 * ({@code aws.max_retries must be an integer >= 0, but was "ten"}), and {@link #warnUnknown} adds
 * {@code Unknown config key fleet.worker.threadz is ignored} to the warnings shared by the whole
 * document. YAML null and an absent key both mean "not set": the getter returns its default.
 */
public final class ConfigNode {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final String path;
    private final JsonNode node;
    private final List<String> warnings;

    private ConfigNode(String path, JsonNode node, List<String> warnings) {
        this.path = path;
        this.node = isSet(node) ? node : null;
        this.warnings = warnings;
    }

    /**
     * The root of a document. {@code warnings} collects the unknown keys every section finds.
     *
     * @throws ConfigException when the root is set but is not a mapping
     */
    public static ConfigNode root(JsonNode root, List<String> warnings) {
        if (isSet(root) && !root.isObject()) {
            throw ConfigErrors.mustBe("(config root)", "a mapping", show(root));
        }
        return new ConfigNode("", root, warnings);
    }

    /** A section read on its own (a test, a builder): {@code path} names its keys in errors. */
    public static ConfigNode at(String path, JsonNode node, List<String> warnings) {
        if (isSet(node) && !node.isObject()) {
            throw ConfigErrors.mustBe(path, "a mapping", show(node));
        }
        return new ConfigNode(path, node, warnings);
    }

    /** Parses YAML text; an empty text is an empty document. The error, one line, names the line and column. */
    public static JsonNode parse(String yaml) {
        return parse(yaml, "(config)");
    }

    /** As {@link #parse(String)}; an error is reported against {@code what} (a file or a section). */
    public static JsonNode parse(String yaml, String what) {
        try {
            JsonNode root = YAML.readTree(yaml == null ? "" : yaml);
            return root == null || root.isMissingNode() ? null : root;
        } catch (JsonProcessingException e) {
            String first = String.valueOf(e.getOriginalMessage()).split("\\R", 2)[0].trim();
            throw ConfigErrors.invalid(what, "the YAML could not be read: " + first
                    + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr()));
        }
    }

    /** Reads and parses a YAML file; a missing or unreadable file fails naming {@code flag} and the path. */
    public static JsonNode read(Path file, String flag) {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (NoSuchFileException e) {
            throw ConfigErrors.mustBe(flag, "an existing file", file.toString());
        } catch (IOException e) {
            throw ConfigErrors.invalid(flag, "cannot read " + file + ": " + e.getMessage());
        }
    }

    /** The dotted path of this mapping ({@code ""} for the root). */
    public String path() {
        return path;
    }

    /** The full key of {@code k} in this mapping. */
    public String key(String k) {
        return path.isEmpty() ? k : path + "." + k;
    }

    /** Whether this mapping is absent (or YAML null). */
    public boolean isEmpty() {
        return node == null || node.isEmpty();
    }

    private JsonNode get(String k) {
        if (node == null) {
            return null;
        }
        JsonNode v = node.get(k);
        return isSet(v) ? v : null;
    }

    /** Whether {@code k} is set (not absent, not null). */
    public boolean has(String k) {
        return get(k) != null;
    }

    /** The raw value of {@code k} (null when unset), for readers with their own structure. */
    public JsonNode raw(String k) {
        return get(k);
    }

    /** A nested mapping; an empty node when unset. */
    public ConfigNode section(String k) {
        JsonNode v = get(k);
        if (v != null && !v.isObject()) {
            throw ConfigErrors.mustBe(key(k), "a mapping", show(v));
        }
        return new ConfigNode(key(k), v, warnings);
    }

    /** A string (numbers are read as their text); an empty string is refused. */
    public String string(String k, String dflt) {
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

    /** A string matching {@code pattern}, else the error says {@code expectation}. */
    public String string(String k, String dflt, Pattern pattern, String expectation) {
        String s = string(k, dflt);
        if (s != null && !pattern.matcher(s).matches()) {
            throw ConfigErrors.mustBe(key(k), expectation, s);
        }
        return s;
    }

    /** One of {@code allowed}, compared as written. */
    public String oneOf(String k, String dflt, Set<String> allowed) {
        String s = string(k, dflt);
        if (s != null && !allowed.contains(s)) {
            throw ConfigErrors.mustBe(key(k), "one of " + String.join(", ", new java.util.TreeSet<>(allowed)), s);
        }
        return s;
    }

    public Boolean bool(String k, Boolean dflt) {
        JsonNode v = get(k);
        if (v == null) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw ConfigErrors.mustBe(key(k), "true or false", show(v));
        }
        return v.booleanValue();
    }

    /** An integer (a whole number written as {@code 10.0} too); range checks are the caller's. */
    public Integer integer(String k, Integer dflt) {
        JsonNode v = get(k);
        if (v == null) {
            return dflt;
        }
        if (!v.isNumber() || (!v.isIntegralNumber() && v.doubleValue() != Math.rint(v.doubleValue()))
                || Math.abs(v.doubleValue()) > Integer.MAX_VALUE) {
            throw ConfigErrors.mustBe(key(k), "an integer", show(v));
        }
        return (int) v.doubleValue();
    }

    /** An integer of at least {@code min}. */
    public Integer integer(String k, Integer dflt, int min) {
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

    /** A finite number; range checks are the caller's. */
    public Double number(String k, Double dflt) {
        JsonNode v = get(k);
        if (v == null) {
            return dflt;
        }
        if (!v.isNumber() || !Double.isFinite(v.doubleValue())) {
            throw ConfigErrors.mustBe(key(k), "a number", show(v));
        }
        return v.doubleValue();
    }

    /** A number of seconds, positive or (with {@code zeroAllowed}) at least zero. */
    public double seconds(String k, double dflt, boolean zeroAllowed) {
        JsonNode v = get(k);
        if (v == null) {
            return dflt;
        }
        boolean ok = v.isNumber() && Double.isFinite(v.doubleValue())
                && (zeroAllowed ? v.doubleValue() >= 0 : v.doubleValue() > 0);
        if (!ok) {
            throw ConfigErrors.mustBe(key(k), zeroAllowed ? "a number of seconds >= 0" : "a positive number of seconds",
                    show(v));
        }
        return v.doubleValue();
    }

    /** An absolute URL with a host ({@code example} shows the expected shape in the error). */
    public URI uri(String k, String example) {
        String s = string(k, null);
        if (s == null) {
            return null;
        }
        try {
            URI u = new URI(s);
            if (u.getScheme() == null || u.getHost() == null) {
                throw ConfigErrors.mustBe(key(k), "a URL like " + example, s);
            }
            return u;
        } catch (URISyntaxException e) {
            throw ConfigErrors.mustBe(key(k), "a URL like " + example, s);
        }
    }

    /** A list of strings; a single string is a list of one. Each entry must match {@code each} when given. */
    public List<String> strings(String k, List<String> dflt, Pattern each, String expectation) {
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

    /** A mapping of names to plain values, in the order written. */
    public Map<String, String> stringMap(String k) {
        JsonNode v = get(k);
        Map<String, String> out = new LinkedHashMap<>();
        if (v == null) {
            return out;
        }
        if (!v.isObject()) {
            throw ConfigErrors.mustBe(key(k), "a mapping of names to values", show(v));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode()) {
                throw ConfigErrors.mustBe(key(k) + "." + e.getKey(), "a plain value", show(e.getValue()));
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** Each key of this mapping with its node (nested mappings become nodes of their own). */
    public void forEach(BiConsumer<String, JsonNode> each) {
        if (node != null && node.isObject()) {
            node.fields().forEachRemaining(e -> each.accept(e.getKey(), e.getValue()));
        }
    }

    /** Adds a warning for every key of this mapping not in {@code known}. */
    public void warnUnknown(Set<String> known) {
        if (node == null || !node.isObject()) {
            return;
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) {
                warn(ConfigErrors.unknownKey(key(k)));
            }
        }
    }

    /** Adds a warning to the document's list. */
    public void warn(String warning) {
        warnings.add(warning);
    }

    /** The document's warning list (shared by every node of it). */
    public List<String> warnings() {
        return warnings;
    }

    private static boolean isSet(JsonNode v) {
        return v != null && !v.isNull() && !v.isMissingNode();
    }

    /** A value as written: text as text, anything else (a list, a mapping) unquoted. */
    public static Object show(JsonNode v) {
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isNumber()) {
            return v.numberValue();
        }
        String text = v.toString();
        return new Object() {
            @Override
            public String toString() {
                return text;
            }
        };
    }
}
