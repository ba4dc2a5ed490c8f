package io.cloudg.mcp.scan;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * How one check went over a dataset.
 *
 * @param id the check
 * @param title what it looks for
 * @param severity high, medium or low
 * @param assetType the type it reads
 * @param evaluated assets it decided
 * @param failed assets it failed (each one a finding)
 * @param notEvaluated assets it could not decide
 * @param notEvaluatedReasons why, with how many assets each
 */
@JsonPropertyOrder({"id", "title", "severity", "asset_type", "evaluated", "failed", "not_evaluated", "not_evaluated_reasons"})
public record CheckSummary(
        @JsonProperty("id") String id,
        @JsonProperty("title") String title,
        @JsonProperty("severity") String severity,
        @JsonProperty("asset_type") String assetType,
        @JsonProperty("evaluated") long evaluated,
        @JsonProperty("failed") long failed,
        @JsonProperty("not_evaluated") long notEvaluated,
        @JsonProperty("not_evaluated_reasons") Map<String, Long> notEvaluatedReasons) {
}
