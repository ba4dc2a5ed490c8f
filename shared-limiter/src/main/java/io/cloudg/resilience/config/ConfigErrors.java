package io.cloudg.resilience.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every configuration error and warning is worded here, in one style:
 * {@code <key> must be <expectation>, but was <value>}.
 */
public final class ConfigErrors {
    /** Warnings about the configuration go to this logger, as {@code cloudg.config}. */
    public static final Logger LOG = LoggerFactory.getLogger("cloudg.config");

    private ConfigErrors() {
    }

    public static ConfigException mustBe(String key, String expectation, Object value) {
        return new ConfigException(key, key + " must be " + expectation + ", but was " + show(value));
    }

    public static ConfigException invalid(String key, String message) {
        return new ConfigException(key, key + ": " + message);
    }

    /** Logs the warning for a key nobody reads, and returns its text (for tests and diagnostics). */
    public static String unknownKey(String key) {
        String text = "Unknown config key " + key + " is ignored";
        LOG.warn(text);
        return text;
    }

    /**
     * Logs the warning for a key read under its old name ({@code workers} for {@code job_concurrency}), and
     * returns its text: the old name still works, the warning says which to write instead.
     */
    public static String renamedKey(String old, String now) {
        String text = old + " is renamed " + now + ": read as " + now + " for now; write " + now + " instead";
        LOG.warn(text);
        return text;
    }

    /**
     * Why a file could not be read, as the operating system says it ({@code no such file}, {@code permission
     * denied}, {@code is a directory}), for messages that already name the file.
     */
    public static String fileReason(java.io.IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(java.util.Locale.ROOT);
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    static double positive(String key, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw mustBe(key, "a positive number", v);
        }
        return v;
    }

    static double nonNegative(String key, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw mustBe(key, "a number >= 0", v);
        }
        return v;
    }

    static int atLeast(String key, int v, int min) {
        if (v < min) {
            throw mustBe(key, "an integer >= " + min, v);
        }
        return v;
    }

    static Double positiveOrNull(String key, Double v) {
        return v == null ? null : positive(key, v);
    }

    static String show(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof CharSequence) {
            return "\"" + value + "\"";
        }
        if (value instanceof Double) {
            double d = (Double) value;
            if (d == Math.rint(d) && !Double.isInfinite(d)) {
                return Long.toString((long) d);
            }
        }
        return String.valueOf(value);
    }
}
