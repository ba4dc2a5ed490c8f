package io.cloudg.azure;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.profile.AzureProfile;
import com.azure.identity.ClientSecretCredentialBuilder;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.resourcemanager.resourcegraph.ResourceGraphManager;
import com.azure.resourcemanager.resourcegraph.models.ResourceProviders;
import com.azure.resourcemanager.resources.fluent.ResourceManagementClient;
import com.azure.resourcemanager.resources.fluent.SubscriptionsClient;
import com.azure.resourcemanager.resources.implementation.ResourceManagementClientBuilder;
import com.azure.resourcemanager.resources.implementation.SubscriptionClientBuilder;
import io.cloudg.config.AzureSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.time.TimeSource;
import java.net.URI;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.publisher.Mono;
import reactor.netty.resources.ConnectionProvider;

/**
 * The Azure SDK clients of a run, all on one governed {@link AzurePipeline}: the subscription listing,
 * one ARM resource client per subscription, and Resource Graph. Against {@code azure.endpoint_url} every
 * ARM endpoint of the environment is that URL (kept https, see {@link EndpointHttpClient}) and the token
 * is a static one; otherwise the public cloud with a client secret or the default credential chain.
 */
public final class AzureClients {
    /** What a simulator or proxy endpoint gets as a bearer token: any token is accepted there. */
    static final String ENDPOINT_TOKEN = "cloudg";

    private final AzureSettings settings;
    private final AzureEnvironment environment;
    private final AzureProfile profile;
    private final HttpPipeline pipeline;
    private final Governor governor;
    private final String tenantAccount;
    private final Map<String, ResourceManagementClient> arm = new ConcurrentHashMap<>();
    private volatile SubscriptionsClient subscriptions;
    private volatile ResourceProviders graph;

    public AzureClients(AzureSettings settings, Governor governor) {
        this.settings = settings;
        this.governor = governor;
        this.environment = environment(settings.endpointUrl());
        this.profile = new AzureProfile(settings.tenantId(), null, environment);
        this.tenantAccount = settings.clientId() != null ? settings.clientId()
                : settings.tenantId() != null ? settings.tenantId() : "tenant";
        this.pipeline = AzurePipeline.build(httpClient(settings.endpointUrl(), governor.config().maxCallsInFlight()),
                credential(settings, governor.time()),
                environment, governor, tenantAccount);
    }

    public AzureSettings settings() {
        return settings;
    }

    /** The governor every call of these clients goes through. */
    public Governor governor() {
        return governor;
    }

    /**
     * The account part of tenant-wide scopes (the subscription listing) and of Resource Graph's, which
     * Azure throttles per user: the client id, else the tenant id, else {@code tenant}.
     */
    public String tenantAccount() {
        return tenantAccount;
    }

    public SubscriptionsClient subscriptions() {
        SubscriptionsClient s = subscriptions;
        if (s == null) {
            s = new SubscriptionClientBuilder().pipeline(pipeline).endpoint(environment.getResourceManagerEndpoint())
                    .buildClient().getSubscriptions();
            subscriptions = s;
        }
        return s;
    }

    /**
     * The ARM resource client of one subscription (generic resources, resource groups), built directly on
     * the pipeline. Not through {@code ResourceManager.Authenticated.withSubscription}: that stores the
     * subscription in a field it shares between callers and reads it back, so two subscriptions' clients
     * built at once could both get one subscription's id (and list the wrong subscription).
     */
    public ResourceManagementClient arm(String subscription) {
        return arm.computeIfAbsent(subscription, id -> new ResourceManagementClientBuilder().pipeline(pipeline)
                .endpoint(environment.getResourceManagerEndpoint()).subscriptionId(id).buildClient());
    }

    public ResourceProviders graph() {
        ResourceProviders g = graph;
        if (g == null) {
            g = ResourceGraphManager.authenticate(pipeline, profile).resourceProviders();
            graph = g;
        }
        return g;
    }

    static AzureEnvironment environment(URI endpoint) {
        if (endpoint == null) {
            return AzureEnvironment.AZURE;
        }
        String base = "https://" + endpoint.getHost() + (endpoint.getPort() < 0 ? "" : ":" + endpoint.getPort()) + "/";
        return new AzureEnvironment(Map.of("resourceManagerEndpointUrl", base, "activeDirectoryEndpointUrl", base,
                "managementEndpointUrl", base));
    }

    /** How long a pooled connection may stay unused before it is closed. */
    static final Duration IDLE = Duration.ofSeconds(20);

    /**
     * The HTTP client every Azure call of the run shares (reactor-netty): a pool of at most {@code connections}
     * (what the process can have in flight, {@code ratelimit.max_calls_in_flight}; Azure's own bulkheads hold each
     * subscription to 16) that closes connections left unused for {@link #IDLE}. The governor's policy admits a
     * call before the pipeline reaches this client, so a call waiting on the governor holds no connection.
     */
    static HttpClient httpClient(URI endpoint, int connections) {
        ConnectionProvider pool = ConnectionProvider.builder("cloudg-azure").maxConnections(Math.max(8, connections))
                .pendingAcquireMaxCount(-1).pendingAcquireTimeout(Duration.ofSeconds(60)).maxIdleTime(IDLE)
                .evictInBackground(IDLE).build();
        HttpClient http = new NettyAsyncHttpClientBuilder().connectionProvider(pool).build();
        if (endpoint != null && "http".equalsIgnoreCase(endpoint.getScheme())) {
            return new EndpointHttpClient(http, endpoint.getHost() + (endpoint.getPort() < 0 ? "" : ":" + endpoint.getPort()));
        }
        return http;
    }

    static TokenCredential credential(AzureSettings s, TimeSource time) {
        if (s.clientId() != null) {
            return new ClientSecretCredentialBuilder().tenantId(s.tenantId()).clientId(s.clientId())
                    .clientSecret(s.clientSecret()).build();
        }
        if (s.endpointUrl() != null) {
            return request -> Mono.just(new AccessToken(ENDPOINT_TOKEN,
                    OffsetDateTime.ofInstant(time.instant(), ZoneOffset.UTC).plusHours(1)));
        }
        DefaultAzureCredentialBuilder b = new DefaultAzureCredentialBuilder();
        if (s.tenantId() != null) {
            b.tenantId(s.tenantId());
        }
        return b.build();
    }
}
