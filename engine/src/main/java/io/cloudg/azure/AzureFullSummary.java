package io.cloudg.azure;

import io.cloudg.collect.TaskSummary;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Reasons;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code azure_full}, one per subscription: SUCCESS when every {@code azure_<service>} listing of the
 * subscription is, PARTIAL as soon as one failed or lost calls, with the asset count of them all. Its
 * error names the incomplete listings, e.g. {@code throttled: 1 of 13 listing(s) incomplete: azure_compute
 * FAILED (throttled: ...)}, and starts with {@code throttled:} when throttling is among the causes.
 */
final class AzureFullSummary implements TaskSummary {
    private static final int MAX_ERROR = 1000;

    @Override
    public ServiceCoverage summarize(List<ServiceCoverage> entries) {
        long assets = 0;
        List<String> incomplete = new ArrayList<>();
        boolean throttled = false;
        for (ServiceCoverage e : entries) {
            assets += e.assetCount();
            if (e.status() != CoverageStatus.SUCCESS) {
                incomplete.add(e.service() + " " + e.status() + (e.error() == null ? "" : " (" + e.error() + ")"));
                throttled |= Reasons.throttled(e.error());
            }
        }
        if (incomplete.isEmpty()) {
            return ServiceCoverage.success(AzureCatalog.FULL_ENTRY, assets);
        }
        String error = (throttled ? Reasons.THROTTLED : "") + incomplete.size() + " of " + entries.size()
                + " listing(s) incomplete: " + String.join("; ", incomplete);
        if (error.length() > MAX_ERROR) {
            error = error.substring(0, MAX_ERROR) + "...";
        }
        return new ServiceCoverage(AzureCatalog.FULL_ENTRY, CoverageStatus.PARTIAL, assets, error);
    }
}
