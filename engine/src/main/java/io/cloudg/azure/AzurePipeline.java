package io.cloudg.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.policy.AddDatePolicy;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.RequestIdPolicy;
import com.azure.core.http.policy.RetryPolicy;
import com.azure.core.http.policy.UserAgentPolicy;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.http.policy.ArmChallengeAuthenticationPolicy;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.ProviderLimits;
import java.time.temporal.ChronoUnit;

/**
 * The one HTTP pipeline every Azure client cloudg builds shares, in this order:
 * <ol>
 *   <li>user agent, request id;</li>
 *   <li>{@link GovernedCallPolicy}: one governed call per request, all its attempts included;</li>
 *   <li>an explicit {@link RetryPolicy} with {@link GovernedRetryStrategy}: {@code ratelimit.azure.max_retries},
 *       each retry granted by the governor after its backoff (bounded by {@code max_backoff_seconds},
 *       {@code deadline_seconds} and the retry budget);</li>
 *   <li>date, ARM bearer-token authentication (challenge-aware);</li>
 *   <li>{@link GovernedAttemptPolicy}: tokens and one bulkhead slot per HTTP attempt, classification,
 *       AIMD.</li>
 * </ol>
 * With the governor off for Azure ({@code ratelimit.enabled: false} or {@code ratelimit.azure.enabled:
 * false}) the retry override goes too: the SDK's default {@code RetryPolicy} retries on its own, and the
 * two governed policies only count.
 */
final class AzurePipeline {
    private AzurePipeline() {
    }

    static HttpPipeline build(HttpClient http, TokenCredential credential, AzureEnvironment environment,
                              Governor governor, String tenantAccount) {
        HttpPipelinePolicy[] policies = {
            new UserAgentPolicy("cloudg"),
            new RequestIdPolicy(),
            new GovernedCallPolicy(governor, tenantAccount),
            retryPolicy(governor),
            new AddDatePolicy(),
            new ArmChallengeAuthenticationPolicy(credential, environment.getManagementEndpoint() + "/.default"),
            new GovernedAttemptPolicy(governor),
        };
        return new HttpPipelineBuilder().httpClient(http).policies(policies).build();
    }

    /** The explicit retry policy from {@code ratelimit.azure}, or the SDK's default when not governed. */
    static RetryPolicy retryPolicy(Governor governor) {
        if (!governor.config().enabled("azure")) {
            return new RetryPolicy();
        }
        ProviderLimits limits = governor.config().provider("azure");
        return new RetryPolicy(new GovernedRetryStrategy(limits.maxRetries()),
                GovernedRetryStrategy.DELAY_FROM_STRATEGY, ChronoUnit.MILLIS);
    }
}
