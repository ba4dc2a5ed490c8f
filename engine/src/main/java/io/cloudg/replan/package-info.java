/**
 * Re-planning: each provider as a unit that can plan an estate in one process and re-plan any one of its
 * tasks in another, from the task's description alone ({@code io.cloudg.run.TaskTarget}), with that
 * process's own clients and credentials ({@link io.cloudg.replan.Replanner}). A fleet's coordinator plans
 * with it and its workers re-plan what they are sent; {@code cloudg map --retry-failed} re-plans the entries
 * an earlier map could not complete. {@link io.cloudg.replan.Replanners} opens them by name once per process
 * (eagerly to plan, on first use to re-plan) over one governor.
 */
package io.cloudg.replan;
