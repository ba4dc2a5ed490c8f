package io.cloudg.mcp.scan;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The result of the checks over a set of assets: {@code findings.json} of a scanned dataset.
 *
 * @param checks one summary per check
 * @param findings every failed check, one per asset and check
 */
@JsonPropertyOrder({"checks", "findings"})
public record ScanReport(
        @JsonProperty("checks") List<CheckSummary> checks,
        @JsonProperty("findings") List<Finding> findings) {
    public ScanReport {
        checks = List.copyOf(checks);
        findings = List.copyOf(findings);
    }
}
