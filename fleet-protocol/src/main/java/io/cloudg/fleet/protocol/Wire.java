package io.cloudg.fleet.protocol;

/**
 * Every protocol error is worded here; the message records call these from their constructors, so an
 * unusable message fails to decode with a reason a person can act on.
 */
public final class Wire {
    /** The protocol version this build writes and the highest it reads. */
    public static final int VERSION = 1;

    private Wire() {
    }

    public static MalformedMessageException missing(String field) {
        return new MalformedMessageException("missing " + field, null);
    }

    public static MalformedMessageException invalid(String field, String expectation, Object value) {
        return new MalformedMessageException(field + " must be " + expectation + ", but was " + value, null);
    }

    public static MalformedMessageException unsupportedVersion(int v) {
        return new MalformedMessageException("protocol version " + v + " is not supported (this build reads "
                + (VERSION == 1 ? "1" : "1 to " + VERSION) + ")", null);
    }

    public static MalformedMessageException unreadable(String what, String detail, Throwable cause) {
        return new MalformedMessageException("not a readable " + what + " message: " + detail, cause);
    }

    /** The fields every message about one execution of a task carries: version, run, task, attempt, execution, worker. */
    static void execution(int v, String runId, String taskId, int attempt, String executionId, String workerId) {
        version(v);
        required("run_id", runId);
        required("task_id", taskId);
        atLeast("attempt", attempt, 1);
        required("execution_id", executionId);
        required("worker_id", workerId);
    }

    static int version(int v) {
        if (v < 1) {
            throw missing("v (the protocol version)");
        }
        if (v > VERSION) {
            throw unsupportedVersion(v);
        }
        return v;
    }

    static String required(String field, String value) {
        if (value == null || value.isBlank()) {
            throw missing(field);
        }
        return value;
    }

    static <T> T required(String field, T value) {
        if (value == null) {
            throw missing(field);
        }
        return value;
    }

    static int atLeast(String field, int value, int min) {
        if (value < min) {
            throw invalid(field, "at least " + min, value);
        }
        return value;
    }

    static long atLeast(String field, long value, long min) {
        if (value < min) {
            throw invalid(field, "at least " + min, value);
        }
        return value;
    }
}
