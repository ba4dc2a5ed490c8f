package io.cloudg.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.mcp.dataset.DatasetMeta;
import io.cloudg.mcp.dataset.DatasetStore;
import io.cloudg.mcp.guard.Principal;
import io.cloudg.mcp.scan.CheckSummary;
import io.cloudg.mcp.scan.Finding;
import io.cloudg.mcp.scan.ScanReport;
import io.cloudg.mcp.scan.Scanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Tools that read saved datasets and never call a cloud: {@code list_datasets}, {@code get_dataset},
 * {@code query_assets} and {@code scan_dataset}. They are not guarded (they cannot hammer an estate) and
 * are what a refusal's {@code use_dataset} points an agent to.
 */
final class DatasetTools {
    static final Pattern DATASET = Pattern.compile("ds-\\d{8}T\\d{6}Z-[0-9a-f]{6}");
    static final int MAX_ASSETS = 500;

    private final DatasetStore datasets;
    private final Scanner scanner = Scanner.builtIn();

    DatasetTools(DatasetStore datasets) {
        this.datasets = datasets;
    }

    @JsonPropertyOrder({"datasets", "total"})
    record DatasetList(@JsonProperty("datasets") List<DatasetMeta> datasets, @JsonProperty("total") int total) {
    }

    @JsonPropertyOrder({"dataset", "incomplete"})
    record DatasetView(@JsonProperty("dataset") DatasetMeta dataset, @JsonProperty("incomplete") List<String> incomplete) {
    }

    @JsonPropertyOrder({"dataset", "matched", "offset", "assets", "more"})
    record AssetPage(@JsonProperty("dataset") String dataset, @JsonProperty("matched") long matched,
                     @JsonProperty("offset") int offset, @JsonProperty("assets") List<Asset> assets,
                     @JsonProperty("more") boolean more) {
    }

    @JsonPropertyOrder({"dataset", "source", "checks", "findings_total", "findings"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record DatasetScan(@JsonProperty("dataset") DatasetMeta dataset, @JsonProperty("source") String source,
                       @JsonProperty("checks") List<CheckSummary> checks, @JsonProperty("findings_total") int total,
                       @JsonProperty("findings") List<Finding> findings) {
    }

    private static final String NOTE = " Reads saved datasets only: never calls a cloud, never refused by the guard.";

    List<ToolDef> defs() {
        return List.of(
                new ToolDef(ToolDef.define("list_datasets", "List saved datasets",
                        "Lists saved datasets, newest first: id, kind, providers, scopes, time, asset count, coverage, "
                                + "findings." + NOTE,
                        """
                        {"type": "object", "additionalProperties": false, "properties": {
                          "provider": {"type": "string", "enum": ["aws", "azure", "gcp"], "description": "only datasets covering it"},
                          "limit": {"type": "integer", "minimum": 1, "maximum": 200}}}
                        """, false), this::list),
                new ToolDef(ToolDef.define("get_dataset", "Describe a dataset",
                        "One dataset: what it covers and which coverage entries are incomplete (PARTIAL, FAILED) "
                                + "and why." + NOTE,
                        """
                        {"type": "object", "additionalProperties": false, "required": ["dataset"],
                         "properties": {"dataset": {"type": "string"}}}
                        """, false), this::get),
                new ToolDef(ToolDef.define("query_assets", "Query a dataset's assets",
                        "Assets of a dataset (default: the newest), filtered by type, account, region, service or "
                                + "a substring of id/name, a page at a time (limit at most 500)." + NOTE,
                        """
                        {"type": "object", "additionalProperties": false, "properties": {
                          "dataset": {"type": "string", "description": "default: the newest dataset"},
                          "type": {"type": "string", "description": "e.g. AWS::EC2::VPC"},
                          "account": {"type": "string"}, "region": {"type": "string"}, "service": {"type": "string"},
                          "contains": {"type": "string", "description": "substring of id or name (case-insensitive)"},
                          "limit": {"type": "integer", "minimum": 1, "maximum": 500},
                          "offset": {"type": "integer", "minimum": 0}}}
                        """, false), this::query),
                new ToolDef(ToolDef.define("scan_dataset", "Scan a saved dataset",
                        "The security checks over a saved dataset (default: the newest covering aws): the "
                                + "findings saved with it if it was scanned, else computed now from its assets." + NOTE,
                        """
                        {"type": "object", "additionalProperties": false, "properties": {"dataset": {"type": "string"}}}
                        """, false), this::scan));
    }

    private Object list(Principal p, ToolArgs a) {
        String provider = a.string("provider", LiveTools.PROVIDER, "aws, azure or gcp").orElse(null);
        int limit = a.integer("limit", 50, 1, 200);
        List<DatasetMeta> all = datasets.list().stream()
                .filter(m -> provider == null || m.providers().contains(provider)).toList();
        return new DatasetList(all.subList(0, Math.min(limit, all.size())), all.size());
    }

    private DatasetMeta dataset(ToolArgs a, Predicate<DatasetMeta> dflt, String what) {
        return a.string("dataset", DATASET, "a dataset id like ds-20260101T120000Z-3fa9c2")
                .map(datasets::get)
                .orElseGet(() -> datasets.newest(dflt).orElseThrow(() -> new ToolArgs.InvalidArgumentException(
                        "no saved dataset " + what + " yet; a live tool (map_inventory, run_pipeline, ...) saves one")));
    }

    private Object get(Principal p, ToolArgs a) {
        DatasetMeta m = datasets.get(a.required("dataset", DATASET, "a dataset id like ds-20260101T120000Z-3fa9c2"));
        List<String> incomplete = new ArrayList<>();
        for (CoverageRecord r : datasets.coverage(m)) {
            for (ServiceCoverage s : r.services()) {
                if (s.status() != CoverageStatus.SUCCESS) {
                    incomplete.add(s.status() + " " + r.provider() + "/" + r.accountId() + "/" + r.region() + " "
                            + s.service() + ": " + s.error());
                }
            }
        }
        return new DatasetView(m, incomplete);
    }

    private Object query(Principal p, ToolArgs a) {
        DatasetMeta m = dataset(a, x -> true, "");
        String type = a.string("type", null, null).orElse(null);
        String account = a.string("account", null, null).orElse(null);
        String region = a.string("region", null, null).orElse(null);
        String service = a.string("service", null, null).orElse(null);
        String contains = a.string("contains", null, null).map(s -> s.toLowerCase(Locale.ROOT)).orElse(null);
        int limit = a.integer("limit", 100, 1, MAX_ASSETS);
        int offset = a.integer("offset", 0, 0, Integer.MAX_VALUE);
        Predicate<Asset> match = x -> (type == null || type.equals(x.type()))
                && (account == null || account.equals(x.accountId()))
                && (region == null || region.equals(x.region()))
                && (service == null || service.equals(x.service()))
                && (contains == null || x.id().toLowerCase(Locale.ROOT).contains(contains)
                || (x.name() != null && x.name().toLowerCase(Locale.ROOT).contains(contains)));
        List<Asset> page = new ArrayList<>();
        long matched = 0;
        try (Stream<Asset> assets = datasets.assets(m)) {
            for (Asset x : (Iterable<Asset>) assets.filter(match)::iterator) {
                if (matched >= offset && page.size() < limit) {
                    page.add(x);
                }
                matched++;
            }
        }
        return new AssetPage(m.id(), matched, offset, page, offset + page.size() < matched);
    }

    private Object scan(Principal p, ToolArgs a) {
        DatasetMeta m = dataset(a, x -> x.providers().contains("aws"), "covering aws");
        ScanReport r = datasets.findings(m, ScanReport.class).orElse(null);
        String source = "findings.json";
        if (r == null) {
            try (Stream<Asset> assets = datasets.assets(m)) {
                r = scanner.scan(assets);
            }
            source = "computed from the dataset's assets";
        }
        return new DatasetScan(m, source, r.checks(), r.findings().size(),
                r.findings().subList(0, Math.min(LiveTools.FINDINGS_SHOWN, r.findings().size())));
    }
}
