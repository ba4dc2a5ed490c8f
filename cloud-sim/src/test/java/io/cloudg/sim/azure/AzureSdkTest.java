package io.cloudg.sim.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.management.profile.AzureProfile;
import com.azure.resourcemanager.resourcegraph.ResourceGraphManager;
import com.azure.resourcemanager.resourcegraph.models.QueryRequest;
import com.azure.resourcemanager.resourcegraph.models.QueryRequestOptions;
import com.azure.resourcemanager.resourcegraph.models.QueryResponse;
import com.azure.resourcemanager.resourcegraph.models.ResultFormat;
import com.azure.resourcemanager.resources.ResourceManager;
import com.azure.resourcemanager.resources.models.GenericResource;
import com.azure.resourcemanager.resources.models.ResourceGroup;
import com.azure.resourcemanager.resources.models.Subscription;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.Http;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.quota.BucketStats;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** The real Azure SDK (resources + resourcegraph) against the simulator. */
class AzureSdkTest {
    static CloudSim sim;
    static HttpClient http;

    @BeforeAll
    static void start() {
        sim = CloudSim.start(SimOptions.builder().seed(3).estate(EstateSpec.fromYaml("""
            aws: {accounts: 1, regions: [us-east-1], resources: {}}
            azure:
              subscriptions: 5
              locations: [eastus, westeurope]
              resource_groups: 3
              page_size: 4
              resources: {Microsoft.Compute/virtualMachines: 5, Microsoft.Storage/storageAccounts: 3,
                          Microsoft.Network/virtualNetworks: 2}
            # refills slow enough that the throttling tests do not depend on how fast the machine is
            quotas: {azure: {resource_graph: {rate: 0.001, burst: 10}, arm_reads: {rate: 0.01, burst: 250}}}
            """)).build());
        http = new LoopbackHttpClient(new NettyAsyncHttpClientBuilder().build(), "127.0.0.1:" + sim.port());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    static AzureProfile profile(String subscription) {
        String base = sim.azureSdkEndpoint() + "/";
        AzureEnvironment env = new AzureEnvironment(Map.of("resourceManagerEndpointUrl", base,
            "activeDirectoryEndpointUrl", base, "managementEndpointUrl", base));
        return new AzureProfile(sim.azureTenantId(), subscription, env);
    }

    static TokenCredential token(String value) {
        return request -> Mono.just(new AccessToken(value, OffsetDateTime.now().plusHours(1)));
    }

    static ResourceManager.Authenticated arm(String token, int retries) {
        return ResourceManager.configure().withHttpClient(http)
            .withRetryOptions(new RetryOptions(new FixedDelayOptions(retries, Duration.ofMillis(10))))
            .authenticate(token(token), profile(sim.estate().azure().subscriptions().get(0).id()));
    }

    @Test
    void subscriptionsResourceGroupsAndResourcesPageToTheTruth() {
        ResourceManager.Authenticated auth = arm("token-a", 3);
        Set<String> subs = auth.subscriptions().list().stream().map(Subscription::subscriptionId).collect(Collectors.toSet());
        assertThat(subs).hasSize(5).isEqualTo(ids(a -> a.type().equals("Microsoft.Resources/subscriptions")).stream()
            .map(id -> id.substring("/subscriptions/".length())).collect(Collectors.toSet()));
        for (String sub : subs) {
            ResourceManager rm = auth.withSubscription(sub);
            List<String> resources = rm.genericResources().list().stream().map(GenericResource::id).toList();
            Set<String> truth = ids(a -> a.account().equals(sub) && !a.type().startsWith("Microsoft.Resources/"));
            assertThat(new HashSet<>(resources)).isEqualTo(truth).hasSize(resources.size()).hasSize(10);
            List<String> groups = rm.resourceGroups().list().stream().map(ResourceGroup::id).toList();
            assertThat(new HashSet<>(groups)).isEqualTo(ids(a -> a.account().equals(sub)
                && a.type().equals("Microsoft.Resources/resourceGroups"))).hasSize(3);
        }
    }

    @Test
    void resourceGraphPagesWithSkipTokenAndFilters() {
        ResourceGraphManager rg = ResourceGraphManager.configure().withHttpClient(http)
            .withRetryOptions(new RetryOptions(new FixedDelayOptions(5, Duration.ofMillis(500))))
            .authenticate(token("graph-user"), profile(sim.estate().azure().subscriptions().get(0).id()));
        List<String> subs = sim.estate().azure().subscriptions().stream().map(s -> s.id()).toList();
        Set<String> seen = new HashSet<>();
        int pages = 0;
        String skip = null;
        do {
            QueryResponse r = rg.resourceProviders().resources(new QueryRequest().withSubscriptions(subs)
                .withQuery("Resources | project id, name, type, location, subscriptionId")
                .withOptions(new QueryRequestOptions().withTop(15).withSkipToken(skip).withResultFormat(ResultFormat.OBJECT_ARRAY)));
            assertThat(r.totalRecords()).isEqualTo(50);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> rows = (List<Map<String, Object>>) r.data();
            rows.forEach(row -> seen.add((String) row.get("id")));
            skip = r.skipToken();
            pages++;
        } while (skip != null);
        assertThat(pages).isEqualTo(4);
        assertThat(seen).isEqualTo(ids(a -> a.provider().equals("azure") && !a.type().startsWith("Microsoft.Resources/")));

        QueryResponse vms = rg.resourceProviders().resources(new QueryRequest().withSubscriptions(subs)
            .withQuery("Resources | where type =~ 'Microsoft.Compute/virtualMachines' | project id"));
        assertThat(vms.totalRecords()).isEqualTo(25);
        QueryResponse containers = rg.resourceProviders().resources(new QueryRequest().withSubscriptions(subs.subList(0, 1))
            .withQuery("ResourceContainers | where type == 'microsoft.resources/subscriptions/resourcegroups'"));
        assertThat(containers.totalRecords()).isEqualTo(3);
        assertThatThrownBy(() -> rg.resourceProviders().resources(new QueryRequest().withSubscriptions(subs)
            .withQuery("Resources | summarize count() by type")))
            .isInstanceOfSatisfying(ManagementException.class, e -> assertThat(e.getResponse().getStatusCode()).isEqualTo(400));
    }

    @Test
    void armAnswers429WithRetryAfterAndRateLimitHeaders() {
        String sub = sim.estate().azure().subscriptions().get(1).id();
        ResourceManager rm = arm("hammer", 0).withSubscription(sub);
        int throttled = 0;
        int ok = 0;
        for (int i = 0; i < 400 && throttled == 0; i++) {
            try {
                rm.resourceGroups().list().stream().count();
                ok++;
            } catch (ManagementException e) {
                assertThat(e.getResponse().getStatusCode()).isEqualTo(429);
                assertThat(e.getValue().getCode()).isEqualTo("SubscriptionRequestsThrottled");
                assertThat(e.getResponse().getHeaders().getValue(com.azure.core.http.HttpHeaderName.RETRY_AFTER)).matches("\\d+");
                throttled++;
            }
        }
        assertThat(throttled).isEqualTo(1);
        assertThat(ok).isEqualTo(250);
        BucketStats b = sim.stats().buckets().stream().filter(x -> x.key().startsWith("azure/" + sub + "/")).findFirst()
            .orElseThrow();
        assertThat(b.throttled()).isEqualTo(1);
        assertThat(b.burst()).isEqualTo(250);
        assertThat((double) b.maxAdmittedPerSecond()).isLessThanOrEqualTo(b.rate() + b.burst());
    }

    @Test
    void rawHttpShowsQuotaHeadersAndArmErrorShapes() {
        String sub = sim.estate().azure().subscriptions().get(2).id();
        HttpResponse<String> ok = Http.send(HttpRequest.newBuilder(URI.create(sim.azureEndpoint() + "/subscriptions/" + sub
            + "/resources?api-version=2021-04-01")).header("Authorization", "Bearer raw").GET());
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("x-ms-ratelimit-remaining-subscription-reads")).hasValue("249");
        assertThat(ok.body()).contains("\"nextLink\":\"http://127.0.0.1:" + sim.port() + "/subscriptions/" + sub);

        HttpResponse<String> graph = Http.send(HttpRequest.newBuilder(URI.create(sim.azureEndpoint()
                + "/providers/Microsoft.ResourceGraph/resources?api-version=2021-03-01"))
            .header("Authorization", "Bearer raw").header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"query\":\"Resources | limit 1\"}")));
        assertThat(graph.statusCode()).isEqualTo(200);
        assertThat(graph.headers().firstValue("x-ms-user-quota-remaining")).hasValue("9");
        // one token at 0.001/s: about 1,000 s until the bucket is full again
        assertThat(graph.headers().firstValue("x-ms-user-quota-resets-after").orElseThrow()).matches("00:16:[34]\\d");

        HttpResponse<String> noAuth = Http.get(URI.create(sim.azureEndpoint() + "/subscriptions?api-version=2020-01-01"));
        assertThat(noAuth.statusCode()).isEqualTo(401);
        assertThat(noAuth.body()).contains("\"code\":\"AuthenticationFailed\"");
        HttpResponse<String> missing = Http.send(HttpRequest.newBuilder(URI.create(sim.azureEndpoint()
            + "/subscriptions/00000000-0000-0000-0000-000000000000/resources?api-version=2021-04-01"))
            .header("Authorization", "Bearer raw").GET());
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("SubscriptionNotFound");
        HttpResponse<String> unknown = Http.send(HttpRequest.newBuilder(URI.create(sim.azureEndpoint()
            + "/subscriptions/" + sub + "/providers/Microsoft.Compute/virtualMachines?api-version=2024-01-01"))
            .header("Authorization", "Bearer raw").GET());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).startsWith("{\"error\":{\"code\":\"InvalidResourceType\"");
    }

    @Test
    void resourceGraphThrottlesPerUserWith429() {
        ResourceGraphManager rg = ResourceGraphManager.configure().withHttpClient(http)
            .withRetryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
            .authenticate(token("graph-hammer"), profile(sim.estate().azure().subscriptions().get(0).id()));
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            try {
                rg.resourceProviders().resources(new QueryRequest().withQuery("Resources | limit 1"));
                statuses.add(200);
            } catch (ManagementException e) {
                statuses.add(e.getResponse().getStatusCode());
                assertThat(e.getValue().getCode()).isEqualTo("RateLimiting");
                assertThat(e.getResponse().getHeaders().getValue(
                    com.azure.core.http.HttpHeaderName.fromString("x-ms-user-quota-remaining"))).isEqualTo("0");
            }
        }
        assertThat(statuses).contains(429);
        assertThat(statuses.stream().filter(s -> s == 200).count()).isEqualTo(10L);
    }

    private static Set<String> ids(java.util.function.Predicate<Asset> p) {
        return sim.truth().select(a -> a.provider().equals("azure") && p.test(a)).stream().map(Asset::id)
            .collect(Collectors.toSet());
    }
}
