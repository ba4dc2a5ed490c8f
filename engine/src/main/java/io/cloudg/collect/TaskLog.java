package io.cloudg.collect;

import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * What a task's log says of its work ({@code cloudg.task}), in both modes:
 * <ul>
 *   <li>a collector that ended PARTIAL or FAILED: one WARN with its reason
 *       ({@code collector amis PARTIAL in 123456789012/us-east-1: throttled: ... (212 assets)});</li>
 *   <li>a task that ended: one line with its id, account, region, jobs, calls (when known), assets, time and
 *       status, the worst of its entries ({@code task ... ended PARTIAL: 17 jobs (1 PARTIAL), 230 calls, 45
 *       assets in 3.2 s}). A fleet worker writes it at INFO (what the worker did); an embedded map at DEBUG, its
 *       progress line being the running account and a map of 17,000 tasks not being 17,000 lines.</li>
 * </ul>
 * Each line carries the task's context ({@link LogContext}: {@code run_id}, {@code task_id}, {@code provider},
 * {@code account}, {@code region}) and its figures as key-value pairs ({@code collector}, {@code status},
 * {@code assets}, {@code error}; {@code jobs}, {@code calls}, {@code duration_ms}), fields of a JSON log line.
 */
public final class TaskLog {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.task");

    private TaskLog() {
    }

    /** Logs {@code entry} of {@code task} when it is not SUCCESS: a WARN with its reason. */
    public static void entry(CollectionTask task, ServiceCoverage entry) {
        if (entry.status() == CoverageStatus.SUCCESS || !LOG.isWarnEnabled()) {
            return;
        }
        try (LogContext c = LogContext.task(task)) {
            LOG.atWarn().setMessage(entryMessage(task, entry)).addKeyValue("collector", entry.service())
                    .addKeyValue("status", entry.status().name()).addKeyValue("assets", entry.assetCount())
                    .addKeyValue("error", entry.error()).log();
        }
    }

    /** {@code collector amis PARTIAL in 123456789012/us-east-1: throttled: ... (212 assets)}. */
    static String entryMessage(CollectionTask task, ServiceCoverage entry) {
        return "collector " + entry.service() + " " + entry.status() + " in " + where(task) + ": "
                + (entry.error() == null ? "(no reason given)" : entry.error()) + " (" + entry.assetCount() + " asset"
                + (entry.assetCount() == 1 ? "" : "s") + ")";
    }

    /**
     * Logs that {@code task} ended with {@code entries} at {@code level}.
     *
     * @param calls the calls its jobs made, or -1 when not counted per task
     * @param durationMs how long it ran, or -1 when its jobs did not run as one
     */
    public static void ended(CollectionTask task, List<ServiceCoverage> entries, long calls, long durationMs, Level level) {
        if (!LOG.isEnabledForLevel(level)) {
            return;
        }
        try (LogContext c = LogContext.task(task)) {
            String id = MDC.get(LogContext.TASK_ID);
            CoverageStatus status = status(entries);
            long assets = 0;
            for (ServiceCoverage e : entries) {
                assets += e.assetCount();
            }
            LoggingEventBuilder b = LOG.atLevel(level).setMessage(endedMessage(id, task, entries, calls, assets, durationMs))
                    .addKeyValue("status", status.name()).addKeyValue("jobs", entries.size());
            if (calls >= 0) {
                b = b.addKeyValue("calls", calls);
            }
            b = b.addKeyValue("assets", assets);
            if (durationMs >= 0) {
                b = b.addKeyValue("duration_ms", durationMs);
            }
            b.log();
        }
    }

    /** {@code task T ended PARTIAL in 123456789012/us-east-1: 17 jobs (1 PARTIAL), 230 calls, 45 assets in 3.2 s}. */
    static String endedMessage(String id, CollectionTask task, List<ServiceCoverage> entries, long calls, long assets,
                               long durationMs) {
        int partial = 0;
        int failed = 0;
        for (ServiceCoverage e : entries) {
            if (e.status() == CoverageStatus.PARTIAL) {
                partial++;
            } else if (e.status() == CoverageStatus.FAILED) {
                failed++;
            }
        }
        StringBuilder b = new StringBuilder("task ").append(id == null ? task.id() : id).append(" ended ")
                .append(status(entries)).append(" in ").append(where(task)).append(": ").append(entries.size())
                .append(entries.size() == 1 ? " job" : " jobs");
        if (partial + failed > 0) {
            b.append(" (");
            if (failed > 0) {
                b.append(failed).append(" FAILED");
            }
            if (partial > 0) {
                b.append(failed > 0 ? ", " : "").append(partial).append(" PARTIAL");
            }
            b.append(')');
        }
        if (calls >= 0) {
            b.append(", ").append(calls).append(calls == 1 ? " call" : " calls");
        }
        b.append(", ").append(assets).append(assets == 1 ? " asset" : " assets");
        if (durationMs >= 0) {
            b.append(String.format(Locale.ROOT, " in %.1f s", durationMs / 1000.0));
        }
        return b.toString();
    }

    /** The worst status of {@code entries}: FAILED, else PARTIAL, else SUCCESS (no entries: SUCCESS). */
    public static CoverageStatus status(List<ServiceCoverage> entries) {
        CoverageStatus worst = CoverageStatus.SUCCESS;
        for (ServiceCoverage e : entries) {
            if (e.status() == CoverageStatus.FAILED) {
                return CoverageStatus.FAILED;
            }
            if (e.status() == CoverageStatus.PARTIAL) {
                worst = CoverageStatus.PARTIAL;
            }
        }
        return worst;
    }

    private static String where(CollectionTask task) {
        String account = task.accountId() == null ? task.provider() : task.provider() + "/" + task.accountId();
        return task.region() == null ? account : account + "/" + task.region();
    }
}
