package io.cloudg.mcp.dataset;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * A saved dataset, as {@code dataset.json} and {@code list_datasets} show it.
 *
 * @param id {@code ds-<UTC time>-<random>}, sortable by time
 * @param kind {@code map} (map_inventory), {@code slice} (collect_assets), {@code scan} (run_scanners) or
 *        {@code pipeline} (run_pipeline)
 * @param tool the MCP tool that produced it
 * @param principal who called it
 * @param operationId the live operation
 * @param createdAt when it was saved (UTC, ISO-8601)
 * @param createdAtMillis the same in epoch milliseconds
 * @param providers the providers it covers, sorted
 * @param scopes the guard scopes of the operation
 * @param slice for a slice: provider, account, region and service; else null
 * @param assetCount assets in {@code inventory-map.json}
 * @param services coverage entries by status (SUCCESS, PARTIAL, FAILED)
 * @param complete whether every coverage entry is SUCCESS
 * @param findings findings of the scan saved with it, or null if it was not scanned
 */
@JsonPropertyOrder({"id", "kind", "tool", "principal", "operation_id", "created_at", "created_at_ms", "providers", "scopes",
        "slice", "asset_count", "services", "complete", "findings"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DatasetMeta(
        @JsonProperty("id") String id,
        @JsonProperty("kind") String kind,
        @JsonProperty("tool") String tool,
        @JsonProperty("principal") String principal,
        @JsonProperty("operation_id") String operationId,
        @JsonProperty("created_at") String createdAt,
        @JsonProperty("created_at_ms") long createdAtMillis,
        @JsonProperty("providers") List<String> providers,
        @JsonProperty("scopes") List<String> scopes,
        @JsonProperty("slice") Map<String, String> slice,
        @JsonProperty("asset_count") long assetCount,
        @JsonProperty("services") Map<String, Integer> services,
        @JsonProperty("complete") boolean complete,
        @JsonProperty("findings") Integer findings) {

    public DatasetMeta {
        providers = List.copyOf(providers);
        scopes = List.copyOf(scopes);
        slice = slice == null ? null : Map.copyOf(slice);
        services = services == null ? Map.of() : Map.copyOf(services);
    }

    /** Whether it covers every one of {@code wanted} providers. */
    public boolean covers(java.util.Collection<String> wanted) {
        return providers.containsAll(wanted);
    }
}
