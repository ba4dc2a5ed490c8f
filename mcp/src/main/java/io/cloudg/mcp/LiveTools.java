package io.cloudg.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.mcp.dataset.DatasetMeta;
import io.cloudg.mcp.dataset.DatasetStore;
import io.cloudg.mcp.guard.GuardOutcome;
import io.cloudg.mcp.guard.LiveCall;
import io.cloudg.mcp.guard.LiveOperationGuard;
import io.cloudg.mcp.guard.LiveScope;
import io.cloudg.mcp.guard.LiveScopes;
import io.cloudg.mcp.guard.Principal;
import io.cloudg.mcp.live.CollectSpec;
import io.cloudg.mcp.live.Collector;
import io.cloudg.mcp.live.EmbeddedCollector;
import io.cloudg.mcp.scan.CheckSummary;
import io.cloudg.mcp.scan.Checks;
import io.cloudg.mcp.scan.Finding;
import io.cloudg.mcp.scan.ScanReport;
import io.cloudg.mcp.scan.Scanner;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The live tools: {@code map_inventory}, {@code collect_assets}, {@code run_scanners} and
 * {@code run_pipeline}. Each one is a {@link LiveCall} (its identity: the tool and its normalized
 * arguments; its scopes: from the configuration) run by the {@link LiveOperationGuard}; each successful
 * run saves a dataset. Refusals surface as -31029 errors, failed runs as {@code isError} results.
 */
final class LiveTools {
    static final Pattern PROVIDER = Pattern.compile("aws|azure|gcp");
    static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-\\d+");
    static final Pattern SLICE_REGION = Pattern.compile("global|[a-z]{2}(-[a-z]+)+-\\d+");
    static final Pattern ACCOUNT = Pattern.compile("\\d{12}|[0-9a-fA-F-]{36}|[a-z][a-z0-9-]{4,28}[a-z0-9]");
    static final Pattern SERVICE = Pattern.compile("[a-z0-9_]+");
    /** Findings shown inline; every finding is in the dataset's findings.json. */
    static final int FINDINGS_SHOWN = 100;
    static final int INCOMPLETE_SHOWN = 20;

    private final CloudGConfig config;
    private final LiveOperationGuard guard;
    private final DatasetStore datasets;
    private final Collector collector;
    private final Scanner scanner = Scanner.builtIn();

    LiveTools(CloudGConfig config, LiveOperationGuard guard, DatasetStore datasets, Collector collector) {
        this.config = config;
        this.guard = guard;
        this.datasets = datasets;
        this.collector = collector;
    }

    /** The result of a map: the dataset saved, the run's numbers, what is incomplete, the throttling. */
    @JsonPropertyOrder({"dataset", "summary", "incomplete", "throttling"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record MapPayload(@JsonProperty("dataset") DatasetMeta dataset, @JsonProperty("summary") Summary summary,
                      @JsonProperty("incomplete") List<String> incomplete,
                      @JsonProperty("throttling") Map<String, Object> throttling) {
    }

    /** The result of a scan: the dataset, the checks, the findings (the first {@value #FINDINGS_SHOWN}). */
    @JsonPropertyOrder({"dataset", "summary", "incomplete", "checks", "findings_total", "findings"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ScanPayload(@JsonProperty("dataset") DatasetMeta dataset, @JsonProperty("summary") Summary summary,
                       @JsonProperty("incomplete") List<String> incomplete,
                       @JsonProperty("checks") List<CheckSummary> checks,
                       @JsonProperty("findings_total") int findingsTotal,
                       @JsonProperty("findings") List<Finding> findings) {

        static ScanPayload of(DatasetMeta m, Summary s, List<String> incomplete, ScanReport r) {
            return new ScanPayload(m, s, incomplete, r.checks(), r.findings().size(),
                    r.findings().subList(0, Math.min(FINDINGS_SHOWN, r.findings().size())));
        }
    }

    private static final String GUARD_NOTE = " Live: calls the cloud under guard rails (one operation per scope, "
            + "a cooldown after each, identical calls in flight share one run). A refusal is error -31029 with "
            + "reason, retry_after_seconds and use_dataset: read that dataset instead of retrying. Check "
            + "rate_limit_status first (its may_run_live says whether this caller may run live tools at all: by "
            + "default the admin and operator roles; else error -31033). force=true skips the cooldown "
            + "(admin/operator only).";

    List<ToolDef> defs() {
        return List.of(
                new ToolDef(ToolDef.define("map_inventory", "Map the inventory",
                        "Maps every resource of the configured providers and saves the map as a dataset." + GUARD_NOTE,
                        """
                        {"type": "object", "additionalProperties": false, "properties": {
                          "providers": {"type": "array", "items": {"type": "string", "enum": ["aws", "azure", "gcp"]},
                                        "description": "default: every configured provider"},
                          "regions": {"type": "array", "items": {"type": "string"}, "description": "AWS regions; default: the configuration's"},
                          "force": {"type": "boolean", "description": "skip the cooldown (admin, operator)"}}}
                        """, true), this::mapInventory),
                new ToolDef(ToolDef.define("collect_assets", "Collect one slice",
                        "Collects one provider/account/region/service slice (e.g. aws 123456789012 us-east-1 vpc; "
                                + "region global for global services such as iam_users and s3_buckets) and saves it as a "
                                + "dataset." + GUARD_NOTE,
                        """
                        {"type": "object", "additionalProperties": false, "required": ["provider", "account", "region", "service"],
                         "properties": {
                          "provider": {"type": "string", "enum": ["aws", "azure", "gcp"]},
                          "account": {"type": "string", "description": "account, subscription or project id"},
                          "region": {"type": "string", "description": "a region, or global"},
                          "service": {"type": "string", "description": "a collector: vpc, instances, s3_buckets, iam_users, ..."},
                          "force": {"type": "boolean"}}}
                        """, true), this::collectAssets),
                new ToolDef(ToolDef.define("run_scanners", "Run the security scanners",
                        "Collects what the security checks read (S3 buckets, security groups, IAM users), saves it as a "
                                + "dataset with its findings and returns them: S3 buckets open to the public, security "
                                + "groups open to 0.0.0.0/0 on SSH/RDP, IAM users without MFA. To re-check a saved "
                                + "dataset without calling a cloud, use scan_dataset." + GUARD_NOTE,
                        """
                        {"type": "object", "additionalProperties": false, "properties": {"force": {"type": "boolean"}}}
                        """, true), this::runScanners),
                new ToolDef(ToolDef.define("run_pipeline", "Map, scan and save",
                        "Maps the configured providers, runs the security checks over the map and saves both as one "
                                + "dataset." + GUARD_NOTE,
                        """
                        {"type": "object", "additionalProperties": false, "properties": {
                          "providers": {"type": "array", "items": {"type": "string", "enum": ["aws", "azure", "gcp"]}},
                          "regions": {"type": "array", "items": {"type": "string"}},
                          "force": {"type": "boolean"}}}
                        """, true), this::runPipeline));
    }

    private List<String> providers(ToolArgs a) {
        List<String> asked = a.strings("providers", PROVIDER, "aws, azure or gcp");
        List<String> p = asked.isEmpty() ? config.providers() : asked;
        if (p.isEmpty()) {
            throw new ToolArgs.InvalidArgumentException("no provider is configured (providers in the cloudg config)");
        }
        for (String x : p) {
            if (!config.providers().contains(x)) {
                throw ToolArgs.invalid("providers entry", "a configured provider (" + String.join(", ", config.providers()) + ")", x);
            }
        }
        return List.copyOf(new TreeSet<>(p));
    }

    private Object mapInventory(Principal p, ToolArgs a) throws InterruptedException {
        List<String> providers = providers(a);
        List<String> regions = List.copyOf(new TreeSet<>(a.strings("regions", REGION, "a region like us-east-1")));
        LiveCall call = new LiveCall("map_inventory", "map_inventory providers=" + providers + " regions=" + regions,
                LiveScopes.of(config, providers));
        return guarded(call, p, a.flag("force"), opId -> {
            Saved s = collectAndSave(CollectSpec.map(providers, regions), source("map", call, p, opId, providers, null), false);
            return new MapPayload(s.meta(), s.result().summary(), incomplete(s.result()), throttling(s.result()));
        });
    }

    private Object collectAssets(Principal p, ToolArgs a) throws InterruptedException {
        String provider = a.required("provider", PROVIDER, "aws, azure or gcp");
        String account = a.required("account", ACCOUNT, "an account id, subscription id or project id");
        String region = a.required("region", SLICE_REGION, "a region like us-east-1, or global");
        String service = a.required("service", SERVICE, "a collector name like vpc");
        if (!config.providers().contains(provider)) {
            throw ToolArgs.invalid("provider", "a configured provider (" + String.join(", ", config.providers()) + ")", provider);
        }
        CollectSpec.Slice slice = new CollectSpec.Slice(provider, account, region, service);
        String problem = EmbeddedCollector.checkSlice(slice);
        if (problem != null) {
            throw new ToolArgs.InvalidArgumentException(problem);
        }
        List<LiveScope> scopes = LiveScopes.account(config, provider, account).orElseThrow(() ->
                ToolArgs.invalid("account", "one of the configured accounts", account));
        LiveCall call = new LiveCall("collect_assets", "collect_assets " + provider + "/" + account + "/" + region + "/" + service,
                scopes);
        return guarded(call, p, a.flag("force"), opId -> {
            Saved s = collectAndSave(CollectSpec.slice(slice), source("slice", call, p, opId, List.of(provider),
                    Map.of("provider", provider, "account", account, "region", region, "service", service)), false);
            return new MapPayload(s.meta(), s.result().summary(), incomplete(s.result()), throttling(s.result()));
        });
    }

    private Object runScanners(Principal p, ToolArgs a) throws InterruptedException {
        if (!config.providers().contains("aws")) {
            throw new ToolArgs.InvalidArgumentException("the security checks read AWS assets, and aws is not configured");
        }
        LiveCall call = new LiveCall("run_scanners", "run_scanners", LiveScopes.of(config, List.of("aws")));
        return guarded(call, p, a.flag("force"), opId -> {
            Saved s = collectAndSave(CollectSpec.only(List.of("aws"), Checks.collectors()),
                    source("scan", call, p, opId, List.of("aws"), null), true);
            return ScanPayload.of(s.meta(), s.result().summary(), incomplete(s.result()), s.scan());
        });
    }

    private Object runPipeline(Principal p, ToolArgs a) throws InterruptedException {
        List<String> providers = providers(a);
        List<String> regions = List.copyOf(new TreeSet<>(a.strings("regions", REGION, "a region like us-east-1")));
        LiveCall call = new LiveCall("run_pipeline", "run_pipeline providers=" + providers + " regions=" + regions,
                LiveScopes.of(config, providers));
        return guarded(call, p, a.flag("force"), opId -> {
            Saved s = collectAndSave(CollectSpec.map(providers, regions), source("pipeline", call, p, opId, providers, null), true);
            return ScanPayload.of(s.meta(), s.result().summary(), incomplete(s.result()), s.scan());
        });
    }

    private static DatasetStore.Source source(String kind, LiveCall call, Principal p, String opId, List<String> providers,
                                              Map<String, String> slice) {
        return new DatasetStore.Source(kind, call.tool(), p.name(), opId, providers, call.scopeNames(), slice);
    }

    private record Saved(DatasetMeta meta, InventoryResult result, ScanReport scan) {
    }

    /** Collects into a draft, optionally scans the collected assets, and saves the dataset (or nothing). */
    private Saved collectAndSave(CollectSpec spec, DatasetStore.Source source, boolean scan) throws InterruptedException {
        DatasetStore.Draft d = datasets.begin();
        try {
            InventoryResult r = collector.collect(spec, d.dir());
            ScanReport report = null;
            if (scan) {
                try (Stream<io.cloudg.inventory.Asset> assets = r.assets()) {
                    report = scanner.scan(assets);
                }
                datasets.writeFindings(d, report);
            }
            r.discardSpool();
            if (Thread.currentThread().isInterrupted()) {
                // timed out or cancelled while finishing: its callers were told so, it saves nothing
                throw new InterruptedException("the operation was cancelled before its dataset was saved");
            }
            DatasetMeta meta = datasets.commit(d, source, r, report == null ? null : report.findings().size());
            return new Saved(meta, r, report);
        } catch (InterruptedException | RuntimeException e) {
            datasets.abandon(d);
            throw e;
        }
    }

    private static List<String> incomplete(InventoryResult r) {
        List<String> out = new ArrayList<>();
        for (CoverageRecord rec : r.coverage()) {
            for (ServiceCoverage c : rec.services()) {
                if (c.status() != CoverageStatus.SUCCESS && out.size() < INCOMPLETE_SHOWN) {
                    out.add(c.status() + " " + rec.provider() + "/" + rec.accountId() + "/" + rec.region() + " "
                            + c.service() + ": " + c.error());
                }
            }
        }
        return out;
    }

    private static Map<String, Object> throttling(InventoryResult r) {
        return r.throttling() == null ? null : r.throttling().summary();
    }

    /** Runs a live call under the guard; a success is its payload plus the operation's id and joined flag. */
    private Object guarded(LiveCall call, Principal p, boolean force, io.cloudg.mcp.guard.LiveWork<Object> work)
            throws InterruptedException {
        GuardOutcome<Object> o = guard.run(call, p, force, work);
        if (!o.succeeded()) {
            return McpErrors.operationFailed(call.tool(), o);
        }
        ObjectNode out = Json.tree(o.value());
        out.put("tool", call.tool());
        out.put("operation_id", o.operationId());
        out.put("joined", o.joined());
        out.put("duration_seconds", o.durationMillis() / 1000.0);
        return out;
    }

    /** Whether a result is a failed-operation result rather than a payload. */
    static boolean isResult(Object o) {
        return o instanceof McpSchema.CallToolResult;
    }
}
