package io.cloudg.fleet.protocol;

/**
 * One task of a plan.
 *
 * @param taskId {@code <record>#<part>}, e.g. {@code aws/123456789012/us-east-1#1}
 * @param record the coverage record the task contributes to ({@code aws/123456789012/us-east-1})
 * @param part its place among the record's parts: the record's entries are the parts' entries in this order
 * @param target what to collect
 * @param local run by the coordinator itself (jobs built from what discovery found), not by a worker
 * @param cost the calls it is expected to make (from the previous map's sizes); 0 when not known (a plan
 *        journaled by a build without sizes reads so)
 */
public record PlannedTask(String taskId, String record, int part, WireTarget target, boolean local, long cost) {
    public PlannedTask {
        Wire.required("task_id", taskId);
        Wire.required("record", record);
        Wire.atLeast("part", part, 0);
        Wire.required("target", target);
        Wire.atLeast("cost", cost, 0L);
    }

    /** A task of unknown cost. */
    public PlannedTask(String taskId, String record, int part, WireTarget target, boolean local) {
        this(taskId, record, part, target, local, 0);
    }
}
