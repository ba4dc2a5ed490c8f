package io.cloudg.sim.azure;

import com.azure.resourcemanager.resources.ResourceManager;
import io.cloudg.sim.CloudSim;

/** Points the real Azure SDK at a simulator (for tests outside this package). */
public final class AzureClients {
    private AzureClients() {
    }

    /** An ARM client of one subscription, no retries, any token. */
    public static ResourceManager arm(CloudSim sim, String subscription) {
        return StrictAzureQuotasTest.arm(sim, "generations", subscription);
    }
}
