package io.cloudg.fleet.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * The run journal, on the runs topic keyed by run id: what a coordinator needs to continue a run whose
 * coordinator died ({@code cloudg map --resume RUN_ID}). The plan is written in {@code plan} chunks first
 * and sealed by {@code planned}; {@code finished} marks a run that wrote its map.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = PlanChunk.class, name = "plan"),
        @JsonSubTypes.Type(value = RunPlanned.class, name = "planned"),
        @JsonSubTypes.Type(value = RunFinished.class, name = "finished")})
public sealed interface JournalEntry permits PlanChunk, RunPlanned, RunFinished {
    int v();

    String runId();
}
