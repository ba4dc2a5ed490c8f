package io.cloudg.fleet.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * What a worker reports about one execution of a task, on the results topic (keyed by task id, so one
 * execution's messages stay in order on one partition): {@code started}, then {@code assets} chunks, then
 * either {@code done} (coverage and throttling counters; the execution's results are complete) or
 * {@code abandoned}. An execution is one worker's run of one delivery of a task message; its id tells
 * redeliveries apart, so the coordinator keeps exactly one execution per task.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = TaskStarted.class, name = "started"),
        @JsonSubTypes.Type(value = AssetChunk.class, name = "assets"),
        @JsonSubTypes.Type(value = TaskDone.class, name = "done"),
        @JsonSubTypes.Type(value = TaskAbandoned.class, name = "abandoned")})
public sealed interface ResultMessage permits TaskStarted, AssetChunk, TaskDone, TaskAbandoned {
    int v();

    String runId();

    String taskId();

    String executionId();
}
