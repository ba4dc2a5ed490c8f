package io.cloudg.resilience.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** A breaker that is not closed, or that opened at least once. */
@JsonPropertyOrder({"state", "failures", "trips", "cooldown_seconds", "retry_in_seconds"})
public record BreakerEntry(@JsonProperty("state") String state,
                           @JsonProperty("failures") int failures,
                           @JsonProperty("trips") long trips,
                           @JsonProperty("cooldown_seconds") double cooldownSeconds,
                           @JsonProperty("retry_in_seconds") double retryInSeconds) {
}
