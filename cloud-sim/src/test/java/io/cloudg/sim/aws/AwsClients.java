package io.cloudg.sim.aws;

import io.cloudg.sim.CloudSim;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.model.Credentials;

/** Points real SDK clients at a simulator, the way cloudg's worker does. */
public final class AwsClients {
    private AwsClients() {
    }

    public static AwsCredentialsProvider management() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
    }

    public static AwsCredentialsProvider of(Credentials c) {
        return StaticCredentialsProvider.create(AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(),
            c.sessionToken()));
    }

    private static final software.amazon.awssdk.http.SdkHttpClient SHARED =
        software.amazon.awssdk.http.apache.ApacheHttpClient.builder().maxConnections(64).build();

    /** Like {@link #aim} but sharing one connection pool between clients (cheap to build many). */
    public static <B extends AwsClientBuilder<B, C> & software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder<B, C>, C>
        B aimShared(B builder, CloudSim sim, Region region, AwsCredentialsProvider creds) {
        aim(builder, sim, region, creds);
        builder.httpClient(SHARED);
        return builder;
    }

    /** A client builder aimed at the simulator, with the SDK's standard retries. */
    public static <B extends AwsClientBuilder<B, C>, C> B aim(B builder, CloudSim sim, Region region,
                                                               AwsCredentialsProvider creds) {
        return builder.endpointOverride(sim.awsEndpoint()).region(region).credentialsProvider(creds)
            .overrideConfiguration(ClientOverrideConfiguration.builder()
                .putAdvancedOption(SdkAdvancedClientOption.DISABLE_HOST_PREFIX_INJECTION, true)
                .apiCallTimeout(Duration.ofSeconds(30))
                .build());
    }

    /** Same, with SDK retries off so a test sees the first answer. */
    public static <B extends AwsClientBuilder<B, C>, C> B aimNoRetry(B builder, CloudSim sim, Region region,
                                                                      AwsCredentialsProvider creds) {
        return builder.endpointOverride(sim.awsEndpoint()).region(region).credentialsProvider(creds)
            .overrideConfiguration(ClientOverrideConfiguration.builder()
                .putAdvancedOption(SdkAdvancedClientOption.DISABLE_HOST_PREFIX_INJECTION, true)
                .retryStrategy(RetryMode.STANDARD).retryStrategy(b -> b.maxAttempts(1))
                .apiCallTimeout(Duration.ofSeconds(30))
                .build());
    }
}
