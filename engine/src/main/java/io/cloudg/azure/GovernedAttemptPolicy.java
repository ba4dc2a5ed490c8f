package io.cloudg.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.BinaryData;
import io.cloudg.resilience.AttemptDecision;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import reactor.core.publisher.Mono;

/**
 * The per-attempt throttle policy, after the retry policy (and after authentication), so it runs once per
 * HTTP attempt:
 * <ul>
 *   <li>before sending: the breaker (an open one fails the attempt at once, and the retry policy does not
 *       retry that), tokens at every level (waited for without holding a thread), one bulkhead slot;</li>
 *   <li>after: a 2xx/3xx answer lets the leaf recover and closes the breaker; any other answer is turned
 *       into the SDK's exception for it and classified (429 and ARM's throttling codes are THROTTLED, with
 *       the Retry-After and Resource Graph quota headers read: a throttle's window, sized from what earlier
 *       answers showed, {@link UserQuotaWindow}), which
 *       feeds AIMD, counts, and decides: retry (the answer goes back as a {@link RetrySignal} for
 *       {@link GovernedRetryStrategy}), or not (the answer goes back as it came, and a give-up is recorded
 *       in the task ledger). The slot is released after each attempt.</li>
 * </ul>
 */
final class GovernedAttemptPolicy implements HttpPipelinePolicy {
    private final Governor governor;
    private final UserQuotaWindow userQuota = new UserQuotaWindow();

    GovernedAttemptPolicy(Governor governor) {
        this.governor = governor;
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
        return HttpPipelinePosition.PER_RETRY;
    }

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        GovernedCall call = callOf(context);
        if (call == null) {
            return next.process();
        }
        Mono<HttpResponse> send = Mono.defer(next::process)
                .onErrorMap(e -> failed(call, e))
                .flatMap(r -> answered(call, r));
        return Mono.fromFuture(call::beforeSendAsync).then(send);
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
        GovernedCall call = callOf(context);
        if (call == null) {
            return next.processSync();
        }
        try {
            call.beforeSend();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the rate limit of " + call.scope(), e);
        }
        HttpResponse r;
        try {
            r = next.processSync();
        } catch (RuntimeException e) {
            Throwable f = failed(call, e);
            throw f instanceof RuntimeException ? (RuntimeException) f : e;
        }
        userQuota.observe(r.getHeaders());
        if (r.getStatusCode() < 400) {
            call.onSuccess();
            return r;
        }
        HttpResponse buffered = r.buffer();
        BinaryData body = buffered.getBodyAsBinaryData();
        return judged(call, buffered, body == null ? "" : body.toString());
    }

    private static GovernedCall callOf(HttpPipelineCallContext context) {
        Object c = context.getData(GovernedCallPolicy.CALL).orElse(null);
        return c instanceof GovernedCall ? (GovernedCall) c : null;
    }

    private Mono<HttpResponse> answered(GovernedCall call, HttpResponse r) {
        userQuota.observe(r.getHeaders());
        if (r.getStatusCode() < 400) {
            call.onSuccess();
            return Mono.just(r);
        }
        HttpResponse buffered = r.buffer();
        return buffered.getBodyAsString().defaultIfEmpty("").map(body -> judged(call, buffered, body));
    }

    private HttpResponse judged(GovernedCall call, HttpResponse buffered, String body) {
        Throwable e = AzureFailures.of(buffered, body);
        AttemptDecision d = call.onFailure(e, userQuota.amend(governor.classifier().explain(e, governor.time().epochMillis())));
        return d.retry() ? new RetrySignal.Response(buffered, d) : buffered;
    }

    /** A send that failed without an answer (connection reset, timeout). */
    private static Throwable failed(GovernedCall call, Throwable e) {
        if (e instanceof RetrySignal) {
            return e;
        }
        AttemptDecision d = call.onFailure(e);
        return d.retry() ? new RetrySignal.Failure(e, d) : e;
    }
}
