package io.cloudg.sim.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.Http;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.quota.BucketStats;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * ARM as a client sees it on the wire: the api-version check (missing, unknown: 400 with ARM's error body,
 * before any quota is spent), the remaining-reads header named by the call's scope (tenant or subscription),
 * and on a 429 the header of the bucket that refused, at zero, and no other.
 */
class ArmWireTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static HttpResponse<String> get(CloudSim sim, String principal, String pathAndQuery) {
        return Http.send(HttpRequest.newBuilder(URI.create(sim.azureEndpoint() + pathAndQuery))
            .header("Authorization", "Bearer " + principal).GET());
    }

    static HttpResponse<String> graph(CloudSim sim, String principal, String apiVersion) {
        return Http.send(HttpRequest.newBuilder(URI.create(sim.azureEndpoint()
                + "/providers/Microsoft.ResourceGraph/resources?api-version=" + apiVersion))
            .header("Authorization", "Bearer " + principal).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"Resources | limit 1\"}")));
    }

    static JsonNode error(HttpResponse<String> r) throws Exception {
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        return JSON.readTree(r.body()).path("error");
    }

    static String principalBucket(String scope, String principal) {
        return "azure/" + scope + "/principal-" + Integer.toHexString(principal.hashCode()) + "/reads";
    }

    @Test
    void aMissingOrUnknownApiVersionIsA400WithArmsErrorBodyAndSpendsNoQuota() throws Exception {
        try (CloudSim sim = StrictAzureQuotasTest.start(new ManualClock(), "")) {
            String sub = sim.estate().azure().subscriptions().get(0).id();
            HttpResponse<String> missing = get(sim, "dave", "/subscriptions/" + sub + "/resourcegroups");
            assertThat(missing.statusCode()).isEqualTo(400);
            assertThat(error(missing).path("code").asText()).isEqualTo("MissingApiVersionParameter");
            assertThat(error(missing).path("message").asText()).contains("api-version");

            for (String path : new String[] {"/subscriptions", "/tenants", "/subscriptions/" + sub,
                "/subscriptions/" + sub + "/resourcegroups", "/subscriptions/" + sub + "/resources"}) {
                HttpResponse<String> unknown = get(sim, "dave", path + "?api-version=2099-01-01");
                assertThat(unknown.statusCode()).as(path).isEqualTo(400);
                JsonNode e = error(unknown);
                assertThat(e.path("code").asText()).as(path).isEqualTo("InvalidApiVersionParameter");
                assertThat(e.path("message").asText()).as(path).startsWith("The api-version '2099-01-01' is invalid. "
                    + "The supported versions are '2025-04-01,2024-08-01,").contains("2022-12-01");
                assertThat(get(sim, "dave", path + "?api-version=not-a-version").statusCode()).isEqualTo(400);
            }
            HttpResponse<String> graphUnknown = graph(sim, "dave", "2020-01-01");
            assertThat(graphUnknown.statusCode()).isEqualTo(400);
            assertThat(error(graphUnknown).path("code").asText()).isEqualTo("NoRegisteredProviderFound");
            assertThat(error(graphUnknown).path("message").asText()).contains("'2020-01-01'").contains("2024-04-01");
            assertThat(sim.stats().buckets()).as("a refused api-version spends no quota").isEmpty();

            // what the SDKs send: Java SubscriptionClient 2022-12-01, resources 2025-04-01 (also Node arm-resources 8),
            // Resource Graph 2021-03-01 (Java) and 2024-04-01 (Node arm-resourcegraph 5)
            assertThat(get(sim, "dave", "/subscriptions?api-version=2022-12-01").statusCode()).isEqualTo(200);
            assertThat(get(sim, "dave", "/subscriptions/" + sub + "/resources?api-version=2025-04-01").statusCode())
                .isEqualTo(200);
            assertThat(graph(sim, "dave", "2021-03-01").statusCode()).isEqualTo(200);
            assertThat(graph(sim, "dave", "2024-04-01").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void tenantScopeCallsReportTheTenantReadsHeader() {
        try (CloudSim sim = StrictAzureQuotasTest.start(new ManualClock(), "")) {
            String sub = sim.estate().azure().subscriptions().get(0).id();
            for (String path : new String[] {"/subscriptions", "/tenants"}) {
                HttpResponse<String> r = get(sim, "erin", path + "?api-version=2022-12-01");
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.headers().firstValue("x-ms-ratelimit-remaining-tenant-reads")).as(path).isPresent();
                assertThat(r.headers().firstValue("x-ms-ratelimit-remaining-subscription-reads")).as(path).isEmpty();
                assertThat(r.headers().firstValue("x-ms-ratelimit-remaining-subscription-global-reads")).as(path).isEmpty();
            }
            assertThat(get(sim, "erin", "/tenants?api-version=2022-12-01").headers()
                .firstValue("x-ms-ratelimit-remaining-tenant-reads")).hasValue("247");
            HttpResponse<String> scoped = get(sim, "erin", "/subscriptions/" + sub + "?api-version=2022-12-01");
            assertThat(scoped.headers().firstValue("x-ms-ratelimit-remaining-subscription-reads")).hasValue("249");
            assertThat(scoped.headers().firstValue("x-ms-ratelimit-remaining-subscription-global-reads")).hasValue("3749");
            assertThat(scoped.headers().firstValue("x-ms-ratelimit-remaining-tenant-reads")).isEmpty();
        }
    }

    @Test
    void a429CarriesTheRemainingReadsOfTheBucketThatRefusedAndNoOther() throws Exception {
        try (CloudSim sim = StrictAzureQuotasTest.start(new ManualClock(), """
            quotas: {azure: {arm_reads: {rate: 0.01, burst: 2}, arm_global_reads: {rate: 0.01, burst: 3}}}
            """)) {
            String sub = sim.estate().azure().subscriptions().get(0).id();
            String groups = "/subscriptions/" + sub + "/resourcegroups?api-version=2025-04-01";
            get(sim, "frank", groups);
            get(sim, "frank", groups);
            HttpResponse<String> own = get(sim, "frank", groups);
            assertThat(own.statusCode()).as("frank's own bucket refuses").isEqualTo(429);
            assertThat(error(own).path("code").asText()).isEqualTo("SubscriptionRequestsThrottled");
            assertThat(own.headers().firstValue("x-ms-ratelimit-remaining-subscription-reads")).hasValue("0");
            assertThat(own.headers().firstValue("x-ms-ratelimit-remaining-subscription-global-reads"))
                .as("the subscription-wide bucket did not refuse").isEmpty();
            assertThat(sim.stats().bucket(principalBucket(sub, "frank")).throttled()).isEqualTo(1);

            assertThat(get(sim, "grace", groups).statusCode()).isEqualTo(200);
            HttpResponse<String> wide = get(sim, "grace", groups);
            assertThat(wide.statusCode()).as("grace has one left, the subscription none").isEqualTo(429);
            assertThat(wide.headers().firstValue("x-ms-ratelimit-remaining-subscription-global-reads")).hasValue("0");
            assertThat(wide.headers().firstValue("x-ms-ratelimit-remaining-subscription-reads"))
                .as("grace's own bucket did not refuse").isEmpty();
            assertThat(sim.stats().bucket("azure/" + sub + "/reads").throttled()).isEqualTo(1);

            get(sim, "heidi", "/subscriptions?api-version=2022-12-01");
            get(sim, "heidi", "/subscriptions?api-version=2022-12-01");
            HttpResponse<String> tenant = get(sim, "heidi", "/subscriptions?api-version=2022-12-01");
            assertThat(tenant.statusCode()).isEqualTo(429);
            assertThat(error(tenant).path("code").asText()).isEqualTo("TenantRequestsThrottled");
            assertThat(tenant.headers().firstValue("x-ms-ratelimit-remaining-tenant-reads")).hasValue("0");
            assertThat(tenant.headers().firstValue("x-ms-ratelimit-remaining-subscription-reads")).isEmpty();
            BucketStats t = sim.stats().bucket(principalBucket("tenant", "heidi"));
            assertThat(t.throttled()).isEqualTo(1);

            // the real SDK (SubscriptionClient, 2022-12-01) sees the same
            com.azure.resourcemanager.resources.ResourceManager.Authenticated sdk =
                com.azure.resourcemanager.resources.ResourceManager.configure()
                    .withHttpClient(StrictAzureQuotasTest.http(sim))
                    .withRetryOptions(new com.azure.core.http.policy.RetryOptions(
                        new com.azure.core.http.policy.FixedDelayOptions(0, java.time.Duration.ofMillis(1))))
                    .authenticate(StrictAzureQuotasTest.token("heidi"), StrictAzureQuotasTest.profile(sim));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> sdk.subscriptions().list().stream().count())
                .isInstanceOfSatisfying(com.azure.core.management.exception.ManagementException.class, e -> {
                    assertThat(e.getResponse().getStatusCode()).isEqualTo(429);
                    assertThat(e.getValue().getCode()).isEqualTo("TenantRequestsThrottled");
                    assertThat(e.getResponse().getHeaders().getValue(com.azure.core.http.HttpHeaderName.fromString(
                        "x-ms-ratelimit-remaining-tenant-reads"))).isEqualTo("0");
                });
        }
    }
}
