package io.cloudg.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** A tool call's arguments, read by name with the argument named in every error. */
final class ToolArgs {
    private final Map<String, Object> raw;

    ToolArgs(Map<String, Object> raw) {
        this.raw = raw == null ? Map.of() : raw;
    }

    /** An argument was missing or wrong: an invalid-params error naming it. */
    static final class InvalidArgumentException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidArgumentException(String message) {
            super(message);
        }
    }

    static InvalidArgumentException invalid(String name, String expectation, Object value) {
        return new InvalidArgumentException("argument " + name + " must be " + expectation + ", but was "
                + (value instanceof String ? "\"" + value + "\"" : String.valueOf(value)));
    }

    boolean flag(String name) {
        Object v = raw.get(name);
        if (v == null) {
            return false;
        }
        if (!(v instanceof Boolean b)) {
            throw invalid(name, "true or false", v);
        }
        return b;
    }

    Optional<String> string(String name, Pattern pattern, String expectation) {
        Object v = raw.get(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof String s) || s.isBlank()) {
            throw invalid(name, "a non-empty string", v);
        }
        if (pattern != null && !pattern.matcher(s.trim()).matches()) {
            throw invalid(name, expectation, s);
        }
        return Optional.of(s.trim());
    }

    String required(String name, Pattern pattern, String expectation) {
        return string(name, pattern, expectation).orElseThrow(() -> new InvalidArgumentException(
                "argument " + name + " is required (" + expectation + ")"));
    }

    List<String> strings(String name, Pattern each, String expectation) {
        Object v = raw.get(name);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> l)) {
            throw invalid(name, "a list of strings", v);
        }
        List<String> out = new ArrayList<>();
        for (Object o : l) {
            if (!(o instanceof String s) || (each != null && !each.matcher(s).matches())) {
                throw invalid(name + " entry", expectation, o);
            }
            out.add(s);
        }
        return List.copyOf(out);
    }

    int integer(String name, int dflt, int min, int max) {
        Object v = raw.get(name);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.intValue() < min
                || n.intValue() > max) {
            throw invalid(name, "an integer from " + min + " to " + max, v);
        }
        return n.intValue();
    }
}
