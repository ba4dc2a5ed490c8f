package io.cloudg.gcp;

import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.FixedExecutorProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.ChannelPoolSettings;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.retrying.RetrySettings;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.api.gax.rpc.PagedCallSettings;
import com.google.api.gax.rpc.StatusCode;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.asset.v1.AssetServiceClient;
import com.google.cloud.asset.v1.AssetServiceSettings;
import io.cloudg.config.GcpSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.ProviderLimits;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.config.StartupException;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The Cloud Asset client of a run, over gRPC (the library's default transport), governed page by page
 * ({@link GovernedTracerFactory}) with gax's own retry loop per page, configured from {@code ratelimit.gcp}:
 * at most {@code max_retries} retries of a page, backoff capped at {@code max_backoff_seconds}, a page's
 * total time capped at {@code deadline_seconds}, and RESOURCE_EXHAUSTED retried along with UNAVAILABLE and
 * DEADLINE_EXCEEDED (the library's defaults retry only those two). With the governor off for GCP the
 * library's default retry settings stay. Against {@code gcp.endpoint_url} in plain text: a plaintext
 * channel and no credentials.
 *
 * <p>gax runs a page's retries on its background executor, where the governor's wait for tokens happens: that
 * executor's threads are virtual, so the wait parks and holds no platform thread. Its channels carry at most 100
 * calls each (what Google's front ends allow on one HTTP/2 connection), as many as the calls the process can have
 * in flight need, fewer when they are idle ({@link #channelPool}).
 *
 * <p>The consumer project Cloud Asset charges ({@link CloudAssetQuotas}) is {@code gcp.consumer_project}, else
 * the credentials' quota project or project (a service-account key's {@code project_id}). On a channel gax
 * builds (TLS) it is gax's quota project setting, which gax sends as {@code x-goog-user-project} (and which
 * takes precedence over the credentials' own); on the plaintext channel cloudg builds, gax sends no quota
 * project, so every call carries the header itself.
 */
public final class GcpClients implements AutoCloseable {
    static final Set<StatusCode.Code> RETRYABLE = Set.of(StatusCode.Code.RESOURCE_EXHAUSTED, StatusCode.Code.UNAVAILABLE,
            StatusCode.Code.DEADLINE_EXCEEDED);
    private static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";
    private static final Duration RPC_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(500);

    private final AssetServiceClient client;
    private final ManagedChannel channel;
    private final CloudAssetQuotas quotas;
    private final ScheduledExecutorService retries;

    /**
     * @param calls the calls this process's jobs can have in flight ({@link io.cloudg.collect.CallCapacity}): the
     *        virtual threads gax's retries may hold at once (a page waiting for tokens on a retry holds one) and
     *        what the channel pool is sized by
     */
    public GcpClients(GcpSettings settings, Governor governor, int calls) {
        this.retries = new ScheduledThreadPoolExecutor(Math.max(4, calls),
                Thread.ofVirtual().name("cloudg-gcp-retry-", 0).factory());
        AssetServiceSettings.Builder b = AssetServiceSettings.newBuilder();
        String credentialsProject = null;
        if (settings.plaintext()) {
            channel = ManagedChannelBuilder.forTarget(settings.endpointTarget()).usePlaintext()
                    .idleTimeout(1, TimeUnit.MINUTES).build();
            b.setTransportChannelProvider(FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel)))
                    .setCredentialsProvider(NoCredentialsProvider.create());
        } else {
            channel = null;
            if (settings.endpointUrl() != null) {
                b.setEndpoint(settings.endpointTarget());
            }
            b.setTransportChannelProvider(AssetServiceSettings.defaultGrpcTransportProviderBuilder()
                    .setChannelPoolSettings(channelPool(calls)).build());
            GoogleCredentials credentials = null;
            if (settings.credentialsFile() != null) {
                credentials = credentials(settings.credentialsFile());
                b.setCredentialsProvider(FixedCredentialsProvider.create(credentials));
            } else if (settings.consumerProject() == null) {
                credentials = applicationDefault();
            }
            credentialsProject = projectOf(credentials);
        }
        String consumer = consumerProject(settings, credentialsProject);
        if (!settings.plaintext() && consumer != null) {
            b.setQuotaProjectId(consumer);
        }
        this.quotas = new CloudAssetQuotas(consumer, settings.organization(), settings.plaintext());
        b.setBackgroundExecutorProvider(FixedExecutorProvider.create(retries));
        b.getStubSettingsBuilder().setTracerFactory(new GovernedTracerFactory(governor));
        if (governor.config().enabled("gcp")) {
            RetrySettings retry = retrySettings(governor.config().provider("gcp"));
            configure(b.listAssetsSettings(), retry);
            configure(b.searchAllResourcesSettings(), retry);
        }
        try {
            client = AssetServiceClient.create(b.build());
        } catch (IOException e) {
            close();
            throw new StartupException("GCP: cannot build the Cloud Asset client: " + e.getMessage(), e);
        }
    }

    public AssetServiceClient client() {
        return client;
    }

    /** The quotas Cloud Asset calls of this client are charged to. */
    CloudAssetQuotas quotas() {
        return quotas;
    }

    /**
     * The consumer project: {@code gcp.consumer_project}, else the credentials' project; null when neither says
     * (calls then name none, and Google charges the credentials' own project).
     */
    static String consumerProject(GcpSettings settings, String credentialsProject) {
        return settings.consumerProject() != null ? settings.consumerProject() : credentialsProject;
    }

    /** The project Google charges calls made with {@code c} to: its quota project, else its own; null if none. */
    static String projectOf(GoogleCredentials c) {
        if (c == null) {
            return null;
        }
        if (c.getQuotaProjectId() != null && !c.getQuotaProjectId().isBlank()) {
            return c.getQuotaProjectId();
        }
        if (c instanceof ServiceAccountCredentials && ((ServiceAccountCredentials) c).getProjectId() != null) {
            return ((ServiceAccountCredentials) c).getProjectId();
        }
        return null;
    }

    /** The application default credentials, for their project; null when there are none (the call will say so). */
    private static GoogleCredentials applicationDefault() {
        try {
            return GoogleCredentials.getApplicationDefault();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A page's retry loop from {@code ratelimit.gcp}. */
    static RetrySettings retrySettings(ProviderLimits gcp) {
        Duration cap = Duration.ofNanos(gcp.maxBackoffNanos());
        Duration deadline = Duration.ofNanos(gcp.deadlineNanos());
        return RetrySettings.newBuilder()
                .setMaxAttempts(gcp.maxRetries() + 1)
                .setInitialRetryDelayDuration(FIRST_BACKOFF.compareTo(cap) < 0 ? FIRST_BACKOFF : cap)
                .setRetryDelayMultiplier(2.0)
                .setMaxRetryDelayDuration(cap)
                .setJittered(true)
                .setInitialRpcTimeoutDuration(RPC_TIMEOUT.compareTo(deadline) < 0 ? RPC_TIMEOUT : deadline)
                .setRpcTimeoutMultiplier(1.0)
                .setMaxRpcTimeoutDuration(RPC_TIMEOUT.compareTo(deadline) < 0 ? RPC_TIMEOUT : deadline)
                .setTotalTimeoutDuration(deadline)
                .build();
    }

    private static void configure(PagedCallSettings.Builder<?, ?, ?> s, RetrySettings retry) {
        s.setRetrySettings(retry).setRetryableCodes(RETRYABLE);
    }

    private static GoogleCredentials credentials(String file) {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            return GoogleCredentials.fromStream(in).createScoped(CLOUD_PLATFORM);
        } catch (NoSuchFileException e) {
            throw ConfigErrors.mustBe("gcp.credentials_file", "an existing service-account key file", file);
        } catch (IOException e) {
            throw ConfigErrors.invalid("gcp.credentials_file", "cannot read " + file + ": " + e.getMessage());
        }
    }

    /** Channels of at most 100 calls each, as many as {@code calls} need; gax resizes the pool to the calls made. */
    static ChannelPoolSettings channelPool(int calls) {
        int channels = Math.max(1, (calls + 99) / 100);
        if (channels == 1) {
            return ChannelPoolSettings.staticallySized(1);
        }
        return ChannelPoolSettings.builder().setInitialChannelCount(1).setMinChannelCount(1).setMaxChannelCount(channels)
                .setMinRpcsPerChannel(0).setMaxRpcsPerChannel(100).build();
    }

    @Override
    public void close() {
        AssetServiceClient c = client;
        if (c != null) {
            c.close();
        }
        retries.shutdownNow();
        if (channel != null) {
            channel.shutdownNow();
            try {
                channel.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
