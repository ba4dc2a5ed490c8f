package io.cloudg.collect;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.MDC;

/**
 * The logging context of a run and its tasks: {@code run_id}, {@code task_id}, {@code provider},
 * {@code account} and {@code region} in the MDC of every thread that works for a task, so that every line a
 * task writes says which (the JSON log format prints them as fields; the text format after the message).
 * A binding restores what the thread had before when closed; {@link #wrap} carries the caller's context
 * to a task's helper threads (per-item calls).
 */
public final class LogContext implements AutoCloseable {
    public static final String RUN_ID = "run_id";
    public static final String TASK_ID = "task_id";
    public static final String PROVIDER = "provider";
    public static final String ACCOUNT = "account";
    public static final String REGION = "region";

    private final Map<String, String> previous;

    private LogContext(Map<String, String> previous) {
        this.previous = previous;
    }

    /** Binds {@code run_id} on this thread until closed. */
    public static LogContext run(String runId) {
        return bind(Map.of(RUN_ID, runId));
    }

    /**
     * Binds {@code task}'s provider, account and region on this thread, and its id as {@code task_id}
     * unless the thread already has one (a fleet task's id, which names the delivery the worker runs).
     */
    public static LogContext task(CollectionTask task) {
        Map<String, String> m = new HashMap<>();
        if (MDC.get(TASK_ID) == null) {
            m.put(TASK_ID, task.id());
        }
        m.put(PROVIDER, task.provider());
        if (task.accountId() != null) {
            m.put(ACCOUNT, task.accountId());
        }
        if (task.region() != null) {
            m.put(REGION, task.region());
        }
        return bind(m);
    }

    /** Binds each entry of {@code values} (null values are skipped) on this thread until closed. */
    public static LogContext bind(Map<String, String> values) {
        Map<String, String> previous = new HashMap<>();
        values.forEach((k, v) -> {
            if (v != null) {
                previous.put(k, MDC.get(k));
                MDC.put(k, v);
            }
        });
        return new LogContext(previous);
    }

    /** {@code c} running with the calling thread's context (whatever thread runs it). */
    public static <T> Callable<T> wrap(Callable<T> c) {
        Map<String, String> captured = MDC.getCopyOfContextMap();
        if (captured == null || captured.isEmpty()) {
            return c;
        }
        return () -> {
            try (LogContext b = bind(captured)) {
                return c.call();
            }
        };
    }

    /** {@code r} running with the calling thread's context (whatever thread runs it). */
    public static Runnable wrap(Runnable r) {
        Map<String, String> captured = MDC.getCopyOfContextMap();
        if (captured == null || captured.isEmpty()) {
            return r;
        }
        return () -> {
            try (LogContext b = bind(captured)) {
                r.run();
            }
        };
    }

    @Override
    public void close() {
        previous.forEach((k, v) -> {
            if (v == null) {
                MDC.remove(k);
            } else {
                MDC.put(k, v);
            }
        });
    }
}
