package io.cloudg.cli;

import io.cloudg.InventoryResult;
import io.cloudg.cli.log.LogSetup;
import io.cloudg.destination.DestinationStatus;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * A finished map's closing lines as one log event ({@code --log-format json}): standard output stays for data,
 * and a log pipeline gets the run's outcome as fields instead of text to parse. The message is the text
 * format's totals line; the fields (beside the ECS ones, see docs/logging.md):
 * {@code event.action} ({@code map-finished}), {@code run_id}, {@code exit_code}, {@code assets},
 * {@code duration_seconds}, {@code coverage} (entries by status), {@code providers} (each as the map's
 * {@code summary.providers}), {@code not_success} (the first {@value #SHOWN} entries not SUCCESS: status,
 * provider, account, region, collector, error) and {@code not_success_total}, {@code skipped_accounts}
 * (counts by reason), {@code throttled_scopes}, {@code destinations}, {@code write_problem} and {@code map}
 * (the file's absolute path). INFO when the map exits 0, WARN otherwise.
 */
final class SummaryEvent {
    static final int SHOWN = 20;

    private SummaryEvent() {
    }

    /** Logs {@code r}'s summary on {@value LogSetup#SUMMARY_LOGGER}. */
    static void log(InventoryResult r) {
        Summary s = r.summary();
        int exit = OutputOptions.exitCode(r);
        LoggingEventBuilder e = LoggerFactory.getLogger(LogSetup.SUMMARY_LOGGER)
                .atLevel(exit == ExitCodes.OK ? Level.INFO : Level.WARN)
                .setMessage(totals(s));
        fields(r).forEach(e::addKeyValue);
        e.log();
    }

    /** {@code Mapped 412 assets in 3.2s; coverage entries (account x region x collector): 80 SUCCESS, 0 PARTIAL, 0 FAILED}. */
    static String totals(Summary s) {
        return String.format(Locale.ROOT, "Mapped %d assets in %.1fs; coverage entries (account x region x collector): "
                        + "%d SUCCESS, %d PARTIAL, %d FAILED", s.assets(), s.durationSeconds(),
                s.services().get(CoverageStatus.SUCCESS), s.services().get(CoverageStatus.PARTIAL),
                s.services().get(CoverageStatus.FAILED));
    }

    /** The event's fields, in order. */
    static Map<String, Object> fields(InventoryResult r) {
        Summary s = r.summary();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("event.action", "map-finished");
        if (r.runId() != null) {
            f.put("run_id", r.runId());
        }
        f.put("exit_code", OutputOptions.exitCode(r));
        f.put("assets", s.assets());
        f.put("duration_seconds", s.durationSeconds());
        f.put("coverage", byStatus(s.services()));
        Map<String, Object> providers = new LinkedHashMap<>();
        s.providers().forEach((name, p) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            if (p.assets() != null) {
                m.put("assets", p.assets());
            }
            m.put("accounts", p.accounts());
            m.put("regions", p.regions());
            m.put("coverage", byStatus(p.services()));
            providers.put(name, m);
        });
        f.put("providers", providers);
        List<Map<String, Object>> notSuccess = new ArrayList<>();
        int total = 0;
        for (CoverageRecord rec : r.coverage()) {
            for (ServiceCoverage c : rec.services()) {
                if (c.status() != CoverageStatus.SUCCESS && total++ < SHOWN) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("status", c.status().name());
                    m.put("provider", rec.provider());
                    m.put("account", rec.accountId());
                    m.put("region", rec.region());
                    m.put("collector", c.service());
                    m.put("error", c.error());
                    notSuccess.add(m);
                }
            }
        }
        f.put("not_success", notSuccess);
        f.put("not_success_total", total);
        if (!s.skippedAccounts().isEmpty()) {
            Map<String, Integer> why = new TreeMap<>();
            s.skippedAccounts().forEach(a -> why.merge(a.reason(), 1, Integer::sum));
            f.put("skipped_accounts", why);
        }
        if (r.throttling() != null) {
            f.put("throttled_scopes", r.throttling().messages().size());
        }
        if (!r.destinations().isEmpty()) {
            List<Map<String, Object>> d = new ArrayList<>();
            for (DestinationStatus ds : r.destinations()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("type", ds.type());
                m.put("target", ds.target());
                m.put("status", ds.status().name());
                m.put("assets_written", ds.assetsWritten());
                if (ds.error() != null) {
                    m.put("error", ds.error());
                }
                d.add(m);
            }
            f.put("destinations", d);
        }
        if (r.writeProblem() != null) {
            f.put("write_problem", r.writeProblem());
        }
        f.put("map", r.mapFile().toAbsolutePath().toString());
        return f;
    }

    private static Map<String, Integer> byStatus(Map<CoverageStatus, Integer> counts) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (CoverageStatus st : CoverageStatus.values()) {
            m.put(st.name(), counts.getOrDefault(st, 0));
        }
        return m;
    }
}
