package io.cloudg.destination;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How a destination fared in a run, as the map's run block lists it under {@code destinations}:
 * {@code {"type": "postgres", "target": "postgresql://cloudg@db:5432/inventory (schema cloudg)",
 * "status": "FAILED", "assets_written": 120000, "error": "..."}}.
 */
@JsonPropertyOrder({"type", "target", "status", "assets_written", "error"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DestinationStatus(
        @JsonProperty("type") String type,
        @JsonProperty("target") String target,
        @JsonProperty("status") State status,
        @JsonProperty("assets_written") long assetsWritten,
        @JsonProperty("error") String error) {

    /** OK: everything was written; FAILED: the destination stopped at {@code error}, the map has it all. */
    public enum State { OK, FAILED }

    public boolean failed() {
        return status == State.FAILED;
    }
}
