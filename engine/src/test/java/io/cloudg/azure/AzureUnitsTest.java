package io.cloudg.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.management.exception.ManagementException;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Classification;
import io.cloudg.resilience.Classifier;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.core.QuotaWindow;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The pieces of the Azure integration that need no server. */
class AzureUnitsTest {
    static final String SUB = "0d7bec37-0a7e-42a1-a6bd-2d48704eb7be";

    @Test
    void scopesFollowTheResourceProviderOfTheUrl() throws Exception {
        assertThat(AzureTarget.fromUrl(new URL("https://management.azure.com/subscriptions/" + SUB
                + "/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v?api-version=1"), "t"))
                .hasToString("azure/" + SUB + "/network");
        assertThat(AzureTarget.fromUrl(new URL("https://m/subscriptions/" + SUB + "/resources?api-version=1"), "t"))
                .hasToString("azure/" + SUB + "/resources");
        assertThat(AzureTarget.fromUrl(new URL("https://m/subscriptions?api-version=1"), "tenant-x"))
                .hasToString("azure/tenant-x/resources");
        assertThat(AzureTarget.fromUrl(new URL("https://m/providers/Microsoft.ResourceGraph/resources?api-version=1"),
                "principal")).hasToString("azure/principal/resourcegraph");
    }

    @Test
    void serviceKeysAreTheRateTableKeys() {
        assertThat(AzureService.keyOf("Microsoft.Network")).isEqualTo("network");
        assertThat(AzureService.keyOf("Microsoft.Storage")).isEqualTo("storage");
        assertThat(AzureService.keyOf("microsoft.resourcegraph")).isEqualTo("resourcegraph");
        assertThat(AzureCatalog.SERVICES).extracting(AzureService::coverageName).contains("azure_compute", "azure_network")
                .doesNotHaveDuplicates();
        assertThat(AzureCatalog.covers("microsoft.compute/VIRTUALMACHINES")).isTrue();
        assertThat(AzureCatalog.covers("Microsoft.Cache/redis")).isFalse();
        assertThatThrownBy(() -> new AzureService("Microsoft.Web", List.of("Microsoft.Sql/servers")))
                .hasMessageContaining("Microsoft.Sql/servers is not a type of Microsoft.Web");
    }

    @Test
    void typesAreReadFromIdsInTheProvidersCasing() {
        assertThat(AzureIds.typeOf("/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/vm-1"))
                .isEqualTo("Microsoft.Compute/virtualMachines");
        assertThat(AzureIds.typeOf("/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/x"))
                .isEqualTo("Microsoft.Network/virtualNetworks/subnets");
        assertThat(AzureIds.typeOf("/subscriptions/s/resourceGroups/g")).isNull();
        assertThat(AzureIds.namespaceOf("Microsoft.Web/sites")).isEqualTo("Microsoft.Web");
    }

    @Test
    void throttlingAnswersAreThrottledWithTheirWaitHints() throws Exception {
        Classifier c = Classifier.defaultClassifier();
        Classification arm = c.explain(AzureFailures.of(response(429, Map.of("Retry-After", "7")),
                "{\"error\":{\"code\":\"SubscriptionRequestsThrottled\",\"message\":\"Number of 'read' requests exceeded\"}}"), 0);
        assertThat(arm.errorClass()).isEqualTo(ErrorClass.THROTTLED);
        assertThat(arm.summary()).isEqualTo("SubscriptionRequestsThrottled: Number of 'read' requests exceeded");
        assertThat(arm.retryAfterNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(7));

        Classification graph = c.explain(AzureFailures.of(response(429, Map.of("x-ms-user-quota-remaining", "0",
                "x-ms-user-quota-resets-after", "00:00:03")), "{\"error\":{\"code\":\"RateLimiting\",\"message\":\"m\"}}"), 0);
        assertThat(graph.errorClass()).isEqualTo(ErrorClass.THROTTLED);
        assertThat(graph.retryAfterNanos()).as("no retry hint: the window's reset").isEqualTo(-1);
        assertThat(graph.window()).isEqualTo(QuotaWindow.resetsIn(TimeUnit.SECONDS.toNanos(3)));

        Classification ms = c.explain(AzureFailures.of(response(429, Map.of("retry-after-ms", "1500")), ""), 0);
        assertThat(ms.retryAfterNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(1500));
        assertThat(ms.summary()).isEqualTo("HTTP 429: Status code 429");
    }

    @Test
    void resourceGraphsWindowIsSizedFromTheAnswersBeforeTheThrottle() throws Exception {
        UserQuotaWindow w = new UserQuotaWindow();
        Classification throttled = Classifier.defaultClassifier().explain(AzureFailures.of(response(429, Map.of(
                "x-ms-user-quota-remaining", "0", "x-ms-user-quota-resets-after", "00:00:02")), ""), 0);
        assertThat(w.amend(throttled)).as("nothing seen yet: the reset alone").isSameAs(throttled);
        w.observe(response(200, Map.of("x-ms-user-quota-remaining", "11", "x-ms-user-quota-resets-after", "00:00:03"))
                .getHeaders());
        w.observe(response(200, Map.of("x-ms-user-quota-remaining", "14", "x-ms-user-quota-resets-after", "00:00:05"))
                .getHeaders());
        w.observe(response(200, Map.of("x-ms-user-quota-remaining", "3", "x-ms-user-quota-resets-after", "00:00:01"))
                .getHeaders());
        w.observe(response(200, Map.of()).getHeaders());
        assertThat(w.amend(throttled).window()).as("the most ever left plus one, in the longest window seen")
                .isEqualTo(new QuotaWindow(TimeUnit.SECONDS.toNanos(2), 15, TimeUnit.SECONDS.toNanos(5), null));
        assertThat(w.amend(throttled).window().spreadRps()).isEqualTo(15 / 5.5);
        Classification arm = Classifier.defaultClassifier().explain(AzureFailures.of(response(429,
                Map.of("Retry-After", "10")), ""), 0);
        assertThat(w.amend(arm)).as("an ARM throttle says no window").isSameAs(arm);
    }

    @Test
    void accessDeniedIsFatalServerErrorsTransientAnd503Throttling() throws Exception {
        Classifier c = Classifier.defaultClassifier();
        ManagementException denied = AzureFailures.of(response(403, Map.of()),
                "{\"error\":{\"code\":\"AuthorizationFailed\",\"message\":\"no\"}}");
        assertThat(c.classify(denied)).isEqualTo(ErrorClass.FATAL);
        assertThat(denied.getValue().getCode()).isEqualTo("AuthorizationFailed");
        assertThat(c.classify(AzureFailures.of(response(500, Map.of()), "not json"))).isEqualTo(ErrorClass.TRANSIENT);
        assertThat(c.classify(AzureFailures.of(response(503, Map.of()), "{\"error\":{\"code\":\"ServiceUnavailable\"}}")))
                .as("a 503 is the provider shedding load: throttling, whatever its code").isEqualTo(ErrorClass.THROTTLED);
    }

    @Test
    void fullIsPartialAsSoonAsOneListingIsIncomplete() {
        AzureFullSummary s = new AzureFullSummary();
        ServiceCoverage ok = s.summarize(List.of(ServiceCoverage.success("azure_resources", 3),
                ServiceCoverage.success("azure_compute", 4)));
        assertThat(ok).isEqualTo(ServiceCoverage.success("azure_full", 7));
        ServiceCoverage partial = s.summarize(List.of(ServiceCoverage.success("azure_resources", 3),
                new ServiceCoverage("azure_compute", CoverageStatus.FAILED, 0, "throttled: 1 call(s) gave up"),
                new ServiceCoverage("azure_web", CoverageStatus.PARTIAL, 2, "transient: 1 call(s) gave up")));
        assertThat(partial.status()).isEqualTo(CoverageStatus.PARTIAL);
        assertThat(partial.assetCount()).isEqualTo(5);
        assertThat(partial.error()).isEqualTo("throttled: 2 of 3 listing(s) incomplete: azure_compute FAILED "
                + "(throttled: 1 call(s) gave up); azure_web PARTIAL (transient: 1 call(s) gave up)");
        ServiceCoverage denied = s.summarize(List.of(new ServiceCoverage("azure_compute", CoverageStatus.FAILED, 0,
                "AuthorizationFailed: no")));
        assertThat(denied.error()).isEqualTo("1 of 1 listing(s) incomplete: azure_compute FAILED (AuthorizationFailed: no)");
    }

    @Test
    void onlyCredentialsThatGetNoTokenOrARejectedTokenStopTheMapARefusalIsReported() throws Exception {
        assertThat(AzureProvider.credentialsFailed(new com.azure.core.exception.ClientAuthenticationException(
                "DefaultAzureCredential failed to retrieve a token", null))).isTrue();
        assertThat(AzureProvider.credentialsFailed(new RuntimeException("wrapped",
                new com.azure.identity.CredentialUnavailableException("EnvironmentCredential unavailable")))).isTrue();
        assertThat(AzureProvider.credentialsFailed(new ManagementException("InvalidAuthenticationToken",
                response(401, Map.of())))).isTrue();
        assertThat(AzureProvider.credentialsFailed(new ManagementException("AuthorizationFailed",
                response(403, Map.of())))).as("an authenticated caller refused: the map says so").isFalse();
        assertThat(AzureProvider.credentialsFailed(new ManagementException("InternalServerError",
                response(500, Map.of())))).isFalse();
        assertThat(AzureProvider.credentialsFailed(new java.net.ConnectException("Connection refused"))).isFalse();
    }

    static HttpResponse response(int status, Map<String, String> headers) throws Exception {
        HttpRequest req = new HttpRequest(HttpMethod.GET, new URL("https://management.azure.com/subscriptions"));
        HttpHeaders h = new HttpHeaders();
        headers.forEach(h::set);
        return new HttpResponse(req) {
            @Override
            public int getStatusCode() {
                return status;
            }

            @Override
            @Deprecated
            public String getHeaderValue(String name) {
                return h.getValue(name);
            }

            @Override
            public HttpHeaders getHeaders() {
                return h;
            }

            @Override
            public Flux<ByteBuffer> getBody() {
                return Flux.empty();
            }

            @Override
            public Mono<byte[]> getBodyAsByteArray() {
                return Mono.empty();
            }

            @Override
            public Mono<String> getBodyAsString() {
                return Mono.empty();
            }

            @Override
            public Mono<String> getBodyAsString(Charset charset) {
                return Mono.empty();
            }
        };
    }

    @Test
    void aFleetTargetIsReplannedAsTheJobsItNames() throws Exception {
        io.cloudg.config.AzureSettings settings = io.cloudg.config.AzureSettings.DEFAULTS
                .withEndpoint(java.net.URI.create("http://127.0.0.1:1"));
        try (io.cloudg.resilience.Governor g = io.cloudg.resilience.Governor.builder().build()) {
            AzureProvider p = new AzureProvider(settings, new AzureClients(settings, g));
            io.cloudg.collect.CollectionTask all = p.taskFor(new io.cloudg.run.TaskTarget("azure", SUB, "global", List.of(), null));
            assertThat(all.jobs()).extracting(io.cloudg.collect.CollectorJob::service)
                    .startsWith("azure_resources", "azure_compute").endsWith("azure_other")
                    .hasSize(AzureCatalog.SERVICES.size() + 2);
            assertThat(all.summary()).isNull();
            io.cloudg.collect.CollectionTask part = p.taskFor(new io.cloudg.run.TaskTarget("azure", SUB, "global",
                    List.of("azure_storage", "azure_network"), null));
            assertThat(part.jobs()).extracting(io.cloudg.collect.CollectorJob::service)
                    .containsExactly("azure_network", "azure_storage");
            assertThatThrownBy(() -> p.taskFor(new io.cloudg.run.TaskTarget("gcp", SUB, "global", List.of(), null)))
                    .hasMessageContaining("not an Azure task");
        }
    }

    /**
     * Regression: the SDK's {@code ResourceManager.Authenticated.withSubscription} shares the subscription
     * in a field, so clients built at once could list another subscription. Rounds of sixteen threads
     * building the clients of 64 subscriptions at once; every client must be its own subscription's.
     */
    @Test
    void subscriptionClientsBuiltAtOnceEachKeepTheirSubscription() throws Exception {
        io.cloudg.config.AzureSettings settings = io.cloudg.config.AzureSettings.DEFAULTS
                .withEndpoint(java.net.URI.create("http://127.0.0.1:1"));
        List<String> subs = java.util.stream.IntStream.range(0, 64)
                .mapToObj(i -> String.format("00000000-0000-0000-0000-%012d", i)).toList();
        int threads = 16;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try (io.cloudg.resilience.Governor g = io.cloudg.resilience.Governor.builder().build()) {
            for (int round = 0; round < ROUNDS; round++) {
                AzureClients clients = new AzureClients(settings, g);
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
                List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int first = t;
                    done.add(pool.submit(() -> {
                        start.await(30, TimeUnit.SECONDS);
                        for (int i = first; i < subs.size(); i += threads) {
                            clients.arm(subs.get(i));
                        }
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
                assertThat(subs).allSatisfy(s -> assertThat(clients.arm(s).getSubscriptionId()).isEqualTo(s));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static final int ROUNDS = 200;
}
