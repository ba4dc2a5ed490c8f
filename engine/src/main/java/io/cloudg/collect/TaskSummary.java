package io.cloudg.collect;

import io.cloudg.inventory.ServiceCoverage;
import java.util.List;

/**
 * A coverage entry derived from the other entries of one task, added when the task's last job has ended
 * (Azure's {@code azure_full}: PARTIAL as soon as one {@code azure_<service>} listing failed or lost
 * calls). Contract:
 * <ul>
 *   <li>{@link #summarize(List)} MUST be a pure function of the entries it is given: it makes no cloud
 *       call, sees no asset and keeps no state;</li>
 *   <li>it MUST NOT throw and MUST return a non-null entry;</li>
 *   <li>it MUST be thread-safe: runners call it from whichever worker thread ended the task.</li>
 * </ul>
 */
@FunctionalInterface
public interface TaskSummary {
    /**
     * @param entries the task's job entries, in job order (never the summary itself)
     * @return the summary entry, appended after them
     */
    ServiceCoverage summarize(List<ServiceCoverage> entries);
}
