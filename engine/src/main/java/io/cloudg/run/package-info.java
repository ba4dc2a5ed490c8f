/**
 * Running a map: provider planners, their plans, the one error that means "could not start", run ids that
 * sort by time ({@link io.cloudg.run.RunIds}), and where a run's results go ({@link io.cloudg.run.RunOutput}:
 * the spool, the destinations, the run's files).
 */
package io.cloudg.run;
