package io.cloudg.aws;

import io.cloudg.config.AwsSettings;
import io.cloudg.resilience.Governor;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The AWS SDK clients of a run: one per service and region (the region fixes the partition), built on first
 * use and shared by every account, all on one HTTP connection pool, every one of them governed
 * ({@link GovernedAwsCalls}) with the SDK's own retry strategy in the configured mode and
 * {@code aws.max_retries}. They live for the run and are closed by {@link #close()}.
 *
 * <p>Building an SDK client is expensive (its configuration, its interceptor chain read from the class path,
 * its endpoint and auth resolvers): one per account x region x service made client builds most of a large
 * map's CPU. So an account is not a client: the account travels with each request, in its override
 * configuration ({@link AccountClient}): the account's credentials provider (the management account's own,
 * or the role assumed in a member account) and the {@link GovernedAwsCalls#ACCOUNT} execution attribute the
 * governor takes its scope from. The shared clients have no credentials of their own: a request that reached
 * one without an account fails, never runs as someone else.
 *
 * <p>Clients are built reflectively from the client interface's static {@code builder()}, so adding a
 * service is a line in {@link AwsServices}, not code here.
 */
public final class AwsClients implements AutoCloseable {
    private static final String CBOR = "aws.cborEnabled";
    private final AwsSettings settings;
    private final Governor governor;
    private final SdkHttpClient http;
    private final Map<ClientKey, SdkClient> cache = new ConcurrentHashMap<>();
    private final AtomicInteger builds = new AtomicInteger();
    private final ExecutorService items;
    /** How long a pooled connection may stay unused before the pool's reaper closes it. */
    static final Duration IDLE = Duration.ofSeconds(20);

    /**
     * @param maxConnections the calls these clients can have in flight at once
     *        ({@link io.cloudg.collect.CallCapacity}): the connection pool's size, shared by every client and account
     */
    public AwsClients(AwsSettings settings, Governor governor, int maxConnections) {
        this(settings, governor, maxConnections, itemPool());
    }

    /** With the threads that run per-item calls given (tests watch them). */
    AwsClients(AwsSettings settings, Governor governor, int maxConnections, ExecutorService items) {
        if (System.getProperty(CBOR) == null) {
            // Kinesis speaks CBOR by default; its listing calls answer the same in JSON, which every endpoint
            // (AWS and cloud-sim) reads. A user who sets aws.cborEnabled keeps their choice.
            System.setProperty(CBOR, "false");
        }
        this.settings = settings;
        this.governor = governor;
        // the pool opens connections as calls need them, up to the calls that can be in flight, and its reaper
        // closes those left unused (after a burst of per-item calls, an account's region done): sized by the
        // concurrency allowed, its footprint follows the concurrency used. The governor admits a call (tokens,
        // bulkhead slot, the ceiling on calls in flight) before the SDK asks the pool for a connection.
        this.http = ApacheHttpClient.builder().maxConnections(Math.max(8, maxConnections))
                .connectionMaxIdleTime(IDLE).useIdleConnectionReaper(true)
                .connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofSeconds(60)).build();
        this.items = items;
    }

    private static ExecutorService itemPool() {
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("cloudg-aws-item-", 0).factory());
    }

    /**
     * The threads that run collectors' per-item calls, a virtual thread per item: {@code aws.item_concurrency} at
     * most per collector job, a fairness cap (one collector's fan-out leaves room in its account's bulkhead for the
     * others), not the throughput's: the governor paces the calls and bounds them per account and per process.
     */
    ExecutorService itemThreads() {
        return items;
    }

    public Governor governor() {
        return governor;
    }

    public AwsSettings settings() {
        return settings;
    }

    /** How many SDK clients this run built (one per service x region used). */
    public int clientsBuilt() {
        return builds.get();
    }

    /**
     * The client of {@code type} in {@code region}, for {@code account}: the service's shared client there and
     * the override that makes each request the account's. For a global service the region is ignored: its
     * calls go to the default region and are paced in the scope region {@code global}.
     */
    public <C extends SdkClient> AccountClient<C> client(Class<C> type, AwsAccount account, String region) {
        AwsServices.Service svc = AwsServices.of(type);
        String callRegion = svc.global() ? settings.defaultRegion() : region;
        ClientKey key = new ClientKey(type, callRegion);
        SdkClient cached = cache.get(key); // a read first: this runs on every call, computeIfAbsent locks a bin
        SdkClient shared = cached != null ? cached : cache.computeIfAbsent(key, k -> build(type, svc, k.region()));
        return new AccountClient<>(type.cast(shared), account);
    }

    private SdkClient build(Class<?> type, AwsServices.Service svc, String region) {
        Object b;
        try {
            b = type.getMethod("builder").invoke(null);
        } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalArgumentException(type.getName() + " is not an AWS SDK v2 client interface", e);
        }
        builds.incrementAndGet();
        @SuppressWarnings("unchecked")
        AwsClientBuilder<?, ?> builder = (AwsClientBuilder<?, ?>) b;
        GovernedAwsCalls governed = new GovernedAwsCalls(governor, svc.global() ? "global" : region, svc.key());
        builder.region(Region.of(region)).credentialsProvider(AccountClient.NO_ACCOUNT);
        if (settings.endpointUrl() != null) {
            builder.endpointOverride(settings.endpointUrl());
        }
        builder.overrideConfiguration(o -> o.retryStrategy(governed.wrap(this::sdkRetryStrategy))
                .addExecutionInterceptor(governed.interceptor())
                .putAdvancedOption(SdkAdvancedClientOption.DISABLE_HOST_PREFIX_INJECTION, settings.endpointUrl() != null));
        ((AwsSyncClientBuilder<?, ?>) builder).httpClient(http);
        if (builder instanceof S3ClientBuilder) {
            // S3 is listed once per account from the default region; a bucket of another region answers
            // 301 PermanentRedirect, which cross-region access follows (to the bucket's region, or on an
            // endpoint override to the same endpoint signed for that region)
            S3ClientBuilder s3 = (S3ClientBuilder) builder;
            s3.forcePathStyle(settings.endpointUrl() != null).crossRegionAccessEnabled(true)
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        }
        return (SdkClient) builder.build();
    }

    /** A shared client's key: the service's client interface and the region its calls go to. */
    private record ClientKey(Class<?> type, String region) {
    }

    /** The SDK's own strategy for {@code aws.retry_mode}, with {@code aws.max_retries} retries. */
    private RetryStrategy sdkRetryStrategy() {
        int attempts = settings.maxRetries() + 1;
        switch (settings.retryMode()) {
            case "standard":
                return AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(attempts).build();
            case "legacy":
                return AwsRetryStrategy.legacyRetryStrategy().toBuilder().maxAttempts(attempts).build();
            default:
                return AwsRetryStrategy.adaptiveRetryStrategy().toBuilder().maxAttempts(attempts).build();
        }
    }

    @Override
    public void close() {
        List<RuntimeException> errors = new ArrayList<>();
        for (SdkClient c : cache.values()) {
            try {
                c.close();
            } catch (RuntimeException e) {
                errors.add(e);
            }
        }
        cache.clear();
        items.shutdownNow();
        http.close();
        if (!errors.isEmpty()) {
            throw errors.get(0);
        }
    }
}
