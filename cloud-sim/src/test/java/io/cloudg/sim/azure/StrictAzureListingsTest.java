package io.cloudg.sim.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.azure.resourcemanager.resources.models.GenericResource;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.Http;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.estate.Truth;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.ManualClock;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Strict ARM listings: short and empty pages that still carry a nextLink, and churn, through the real SDK. */
class StrictAzureListingsTest {

    @Test
    void armPagesAreSometimesShortOrEmptyAndTheSdkStillListsEverythingOnceWhileResourcesChurn() throws Exception {
        ManualClock clock = new ManualClock();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().seed(21).clock(clock).estate(EstateSpec.fromYaml("""
            realism: strict
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            azure: {subscriptions: 1, resource_groups: 2, page_size: 5,
                    resources: {Microsoft.Compute/virtualMachines: 30, Microsoft.Storage/storageAccounts: 30}}
            churn: {created: 0.2, deleted: 0.2, from: 0s, until: 30s}
            listings: {empty_pages: 0.25}
            quotas: {enabled: false}
            """)).build())) {
            String sub = sim.estate().azure().subscriptions().get(0).id();
            // on the wire: page sizes, following nextLink
            List<Integer> sizes = new ArrayList<>();
            String url = sim.azureEndpoint() + "/subscriptions/" + sub + "/resources?api-version=2021-04-01";
            while (url != null) {
                JsonNode page = new ObjectMapper().readTree(Http.send(HttpRequest.newBuilder(URI.create(url))
                    .header("Authorization", "Bearer raw").GET()).body());
                sizes.add(page.path("value").size());
                url = page.hasNonNull("nextLink") ? page.path("nextLink").asText() : null;
            }
            assertThat(sizes.subList(0, sizes.size() - 1)).as("%s", sizes).anyMatch(n -> n < 5);
            assertThat(sizes).as("%s", sizes).contains(0);

            // through the SDK, with time passing between pages
            Set<String> seen = new HashSet<>();
            var rm = StrictAzureQuotasTest.arm(sim, "mapper", sub);
            for (GenericResource r : rm.genericResources().list()) {
                assertThat(seen.add(r.id())).as("listed once: " + r.id()).isTrue();
                clock.advance(Duration.ofMillis(500));
            }
            Truth truth = sim.truth();
            assertThat(truth.churned()).anyMatch(a -> a.provider().equals("azure"));
            Truth.Check check = truth.check(seen, a -> a.provider().equals("azure") && a.account().equals(sub)
                && !a.type().startsWith("Microsoft.Resources/"), Asset::id);
            assertThat(check.equal()).as("%s", check).isTrue();
        }
    }
}
