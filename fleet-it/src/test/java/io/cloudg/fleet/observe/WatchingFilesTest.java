package io.cloudg.fleet.observe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What people watch a fleet with stays true to the code: every metric the Grafana dashboard, the alert
 * rules and docs/fleet.md name is one the code exports; the rules pass {@code promtool check rules} and
 * their unit tests ({@code promtool test rules}); compose's Prometheus configuration passes
 * {@code promtool check config}; and the complete exposition passes {@code promtool check metrics}.
 */
class WatchingFilesTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path RULES = ROOT.resolve("deploy/prometheus/cloudg-alerts.yaml");
    /** A metric name of cloudg's or of the JVM and process binders, as PromQL or prose writes it. */
    static final Pattern NAME = Pattern.compile("\\b((?:cloudg|jvm|process|system)_[a-z0-9_]+)\\b");
    /** A series Prometheus itself makes for each target ({@code up}), which an alert on scrapes may use alone. */
    static final Pattern PROMETHEUS_OWN = Pattern.compile("\\bup\\{");

    static String exposition;
    static Set<String> exported;

    @BeforeAll
    static void exportEverything() throws Exception {
        exposition = ExportedNames.scrape();
        exported = ExportedNames.sampleNames(exposition);
    }

    static Set<String> namesIn(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = NAME.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void everyFamilyIsExported() {
        assertThat(exported).contains("cloudg_governor_calls_total", "cloudg_governor_retries_total",
                "cloudg_governor_breaker_trips_total", "cloudg_governor_token_wait_seconds_bucket",
                "cloudg_governor_slowed_leaves", "cloudg_governor_slowed_leaf_rate_per_second",
                "cloudg_governor_slowed_leaf_ceiling_per_second", "cloudg_governor_breakers",
                "cloudg_governor_retry_budget_remaining", "cloudg_governor_bulkhead_slots_in_use",
                "cloudg_governor_degraded", "cloudg_calls_in_flight", "cloudg_calls_in_flight_limit",
                "cloudg_redis_command_seconds_bucket", "cloudg_fleet_tasks_published_total",
                "cloudg_fleet_tasks_started_total", "cloudg_fleet_tasks_done_total", "cloudg_fleet_tasks_retried_total",
                "cloudg_fleet_tasks_dead_lettered_total", "cloudg_fleet_tasks_in_flight", "cloudg_fleet_tasks_lag",
                "cloudg_fleet_result_delivery_seconds_bucket", "cloudg_assets_mapped_total", "cloudg_coverage_entries_total",
                "cloudg_fleet_tasks_given_up_total", "cloudg_fleet_results_dead_lettered_total", "cloudg_fleet_run_tasks",
                "jvm_memory_used_bytes", "process_cpu_usage", "process_cpu_seconds_total", "process_uptime_seconds");
    }

    @Test
    void theDashboardQueriesOnlyExportedMetrics() throws Exception {
        List<String> queries = Dashboard.queries();
        assertThat(queries).hasSizeGreaterThan(20);
        for (String q : queries) {
            assertThat(namesIn(q)).as("metrics of %s", q).isSubsetOf(exported);
            assertThat(!namesIn(q).isEmpty() || PROMETHEUS_OWN.matcher(q).find()).as("%s shows a metric", q).isTrue();
        }
        Set<String> shown = new TreeSet<>();
        queries.forEach(q -> shown.addAll(namesIn(q)));
        assertThat(shown).as("the dashboard shows the governor and the fleet").contains("cloudg_governor_calls_total",
                "cloudg_governor_breakers", "cloudg_governor_slowed_leaf_rate_per_second", "cloudg_fleet_tasks_lag",
                "cloudg_fleet_tasks_in_flight", "cloudg_fleet_result_delivery_seconds_bucket");
        assertThat(queries).as("a panel for what each alert watches").anyMatch(q -> PROMETHEUS_OWN.matcher(q).find());
        for (String m : namesInRules()) {
            if (m.startsWith("cloudg_")) {
                assertThat(shown).as("the dashboard shows %s, which an alert watches", m).contains(m);
            }
        }
    }

    /** Every metric the alert rules name. */
    static Set<String> namesInRules() throws Exception {
        Set<String> out = new TreeSet<>();
        for (JsonNode group : new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile()).get("groups")) {
            for (JsonNode r : group.get("rules")) {
                out.addAll(namesIn(r.get("expr").asText()));
            }
        }
        return out;
    }

    @Test
    void theAlertRulesQueryOnlyExportedMetricsAndPassPromtool() throws Exception {
        JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile());
        List<String> alerts = new ArrayList<>();
        for (JsonNode group : rules.get("groups")) {
            for (JsonNode r : group.get("rules")) {
                alerts.add(r.get("alert").asText());
                String expr = r.get("expr").asText();
                assertThat(namesIn(expr)).as("metrics of %s", r.get("alert")).isSubsetOf(exported);
                assertThat(!namesIn(expr).isEmpty() || PROMETHEUS_OWN.matcher(expr).find())
                        .as("%s watches a metric cloudg exports, or Prometheus's own up", r.get("alert")).isTrue();
            }
        }
        assertThat(alerts).containsExactlyInAnyOrder("CloudgThrottledShareHigh", "CloudgBreakerOpen",
                "CloudgLagGrowingNoWorkerBusy", "CloudgGovernorDegraded", "CloudgDeadLettersGrowing", "CloudgTasksGivenUp",
                "CloudgScrapeTargetDown", "CloudgRunStuck", "CloudgLagNotDraining");
        Promtool.Result check = Promtool.checkRules(RULES);
        assertThat(check.ok()).as(check.output()).isTrue();
        Promtool.Result unit = Promtool.testRules(ROOT.resolve("deploy/prometheus/cloudg-alerts.test.yaml"));
        assertThat(unit.ok()).as(unit.output()).isTrue();
        Promtool.Result config = Promtool.checkConfig(ROOT.resolve("deploy/prometheus/prometheus-compose.yml"));
        assertThat(config.ok()).as(config.output()).isTrue();
    }

    @Test
    void theDocsNameOnlyExportedMetrics() throws Exception {
        String docs = Files.readString(ROOT.resolve("docs/fleet.md"));
        Set<String> named = namesIn(docs);
        named.removeIf(n -> n.endsWith("_")); // prefixes like cloudg_governor_
        assertThat(named).hasSizeGreaterThan(15);
        Set<String> families = new TreeSet<>(exported);
        exported.forEach(n -> families.add(n.replaceAll("_(bucket|count|sum|max)$", "")));
        assertThat(named).isSubsetOf(families);
    }

    @Test
    void theWholeExpositionPassesPromtool() throws Exception {
        Promtool.Result lint = Promtool.checkMetrics(exposition);
        assertThat(lint.ok()).as(lint.output()).isTrue();
    }
}
