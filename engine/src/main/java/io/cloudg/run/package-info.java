/**
 * A run's plan and its bookkeeping, shared by the embedded map, a fleet and a retry: what a provider's
 * discovery produced ({@link io.cloudg.run.ProviderPlan}, from a {@link io.cloudg.run.ProviderPlanner}), a
 * task as data that can travel and be re-planned ({@link io.cloudg.run.TaskTarget}), how many calls each
 * collector job is expected to make ({@link io.cloudg.run.CallShape}, supplied per provider through
 * {@link io.cloudg.run.CallShapeSource}; {@link io.cloudg.run.CallEstimates} at the previous run's sizes,
 * {@link io.cloudg.run.PriorRun}), the work left and the ETA for progress lines ({@link io.cloudg.run.WorkLeft},
 * {@link io.cloudg.run.EtaModel}), and run ids that sort by time ({@link io.cloudg.run.RunIds}). Nothing here
 * knows a provider or a run's output: providers depend on this package, never the reverse.
 */
package io.cloudg.run;
