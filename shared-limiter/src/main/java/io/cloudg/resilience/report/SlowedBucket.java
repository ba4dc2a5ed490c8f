package io.cloudg.resilience.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** A leaf running below its ceiling when the report was made. */
@JsonPropertyOrder({"rate_rps", "ceiling_rps", "throttles"})
public record SlowedBucket(@JsonProperty("rate_rps") double rateRps,
                           @JsonProperty("ceiling_rps") double ceilingRps,
                           @JsonProperty("throttles") long throttles) {
}
