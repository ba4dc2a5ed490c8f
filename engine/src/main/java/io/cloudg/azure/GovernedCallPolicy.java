package io.cloudg.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import io.cloudg.resilience.CallOptions;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import reactor.core.publisher.Mono;

/**
 * Opens one governed call per ARM request, before the retry policy, so that all the request's attempts
 * count as one call (its retries, its deadline, its share of the retry budget), and closes it when the
 * request ends however it ends (answered, failed, cancelled). The call takes its slots per attempt
 * ({@link CallOptions.SlotMode#PER_ATTEMPT}): {@link GovernedAttemptPolicy} does that, after the retry
 * policy, for each HTTP attempt.
 */
final class GovernedCallPolicy implements HttpPipelinePolicy {
    static final String CALL = "cloudg.azure.call";

    private final Governor governor;
    private final String tenantAccount;

    /** @param tenantAccount the scope account of tenant-wide and Resource Graph requests */
    GovernedCallPolicy(Governor governor, String tenantAccount) {
        this.governor = governor;
        this.tenantAccount = tenantAccount;
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
        return HttpPipelinePosition.PER_CALL;
    }

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        return Mono.using(() -> open(context), call -> next.process(), GovernedCall::close);
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
        try (GovernedCall call = open(context)) {
            return next.processSync();
        }
    }

    private GovernedCall open(HttpPipelineCallContext context) {
        AzureTarget target = AzureTarget.of(context, tenantAccount);
        GovernedCall call = governor.open(target.scope(), CallOptions.perAttempt().withLedger(target.ledger()));
        context.setData(CALL, call);
        return call;
    }
}
