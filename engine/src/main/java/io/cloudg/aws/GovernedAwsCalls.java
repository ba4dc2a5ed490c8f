package io.cloudg.aws;

import io.cloudg.resilience.AttemptDecision;
import io.cloudg.resilience.CallOptions;
import io.cloudg.resilience.CircuitOpenException;
import io.cloudg.resilience.Classification;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.Scope;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RecordSuccessResponse;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.RetryToken;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;

/**
 * Puts every call of one AWS SDK client (one service in one region, shared by every account) through the
 * governor while the SDK keeps its own retry loop (adaptive mode, {@code aws.max_retries}).
 *
 * <p>The account is the request's, not the client's: each request carries it in the execution attribute
 * {@link #ACCOUNT} (in its override configuration, with the account's credentials: {@link AccountClient}), and the
 * governor's scope is {@code aws / that account / the client's region / service / operation}. The SDK's own
 * strategy keeps its state (the adaptive mode's rate, the retry quota) per account too: one instance per
 * account, built on first use, since quotas are per account.
 *
 * <p>Two hooks, installed together on each client cloudg builds: an {@link ExecutionInterceptor} notes
 * the operation and the account when a call starts and closes the governed call when it ends, whatever
 * happened; a {@link RetryStrategy} wrapped around the SDK's own passes each attempt through the governor:
 * <ul>
 *   <li>initial token: the breaker (an open one fails the call at once), tokens at every level (their
 *       wait becomes the SDK's delay), one bulkhead slot for the whole call and a place under the process's
 *       ceiling on calls in flight. All of it before the SDK sends anything: the HTTP client leases its pooled
 *       connection only after this, so a call waiting on the governor holds no connection; on a virtual thread
 *       it holds no platform thread either (the waits park);</li>
 *   <li>refresh (a failed attempt): the governor classifies and counts it, halves the leaf on throttling,
 *       and may end the loop (a fatal error, an empty retry budget); otherwise the next attempt's tokens
 *       are reserved and the delay is the longest of the SDK's backoff, Retry-After and the token wait;</li>
 *   <li>success: the leaf recovers, the breaker closes, the budget gets its refund.</li>
 * </ul>
 * The SDK's loop is the SDK's: {@code aws.max_retries} and the SDK's backoff decide it, never the governor's
 * {@code max_retries}, {@code max_backoff_seconds} or {@code deadline_seconds}; a call the SDK's own total
 * timeout ends is recorded as given up ({@code throttled:} / {@code transient:} in coverage), not as fatal.
 * The SDK runs a sync client's pipeline on the caller's thread, which is how the interceptor and the
 * strategy find each other (a per-thread stack, since credential refreshes nest calls).
 */
public final class GovernedAwsCalls {
    private static final ThreadLocal<Deque<Frame>> FRAMES = ThreadLocal.withInitial(ArrayDeque::new);
    private static final ExecutionAttribute<Frame> FRAME = new ExecutionAttribute<>("cloudg.governedFrame");
    /** The account a request is made for (its governor scope's account); every request MUST carry it. */
    public static final ExecutionAttribute<String> ACCOUNT = new ExecutionAttribute<>("cloudg.account");

    private final Governor governor;
    private final String region;
    private final String service;

    /** One call in flight on this thread. */
    private static final class Frame {
        final String operation;
        final String account;
        GovernedCall call;

        Frame(String operation, String account) {
            this.operation = operation;
            this.account = account;
        }
    }

    /**
     * @param service the governor's service key ({@code ec2}, {@code iam}...)
     * @param region the scope's region ({@code global} for global services)
     */
    public GovernedAwsCalls(Governor governor, String region, String service) {
        this.governor = governor;
        this.region = region;
        this.service = service;
    }

    public ExecutionInterceptor interceptor() {
        return new Interceptor();
    }

    /**
     * The governed strategy over the SDK's: {@code sdkStrategies} gives a new SDK strategy for each account
     * (its state is per account), on first use.
     */
    public RetryStrategy wrap(Supplier<RetryStrategy> sdkStrategies) {
        return new Strategy(sdkStrategies);
    }

    private final class Interceptor implements ExecutionInterceptor {
        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attrs) {
            String account = attrs.getAttribute(ACCOUNT);
            if (account == null) {
                throw new IllegalStateException("an AWS " + service + " call without an account: requests to cloudg's "
                        + "shared clients carry an AccountClient's override");
            }
            Frame f = new Frame(attrs.getAttribute(SdkExecutionAttribute.OPERATION_NAME), account);
            attrs.putAttribute(FRAME, f);
            FRAMES.get().push(f);
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attrs) {
            finish(attrs);
        }

        @Override
        public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attrs) {
            Frame f = attrs.getAttribute(FRAME);
            if (f != null && f.call != null && context.exception() instanceof ApiCallTimeoutException) {
                f.call.onDeadline(context.exception()); // the SDK's total timeout ended the loop: a give-up, not a fatal error
            }
            finish(attrs);
        }

        private void finish(ExecutionAttributes attrs) {
            Frame f = attrs.getAttribute(FRAME);
            if (f == null) {
                return;
            }
            if (f.call != null) {
                f.call.close();
                f.call = null;
            }
            Deque<Frame> frames = FRAMES.get();
            frames.remove(f);
            if (frames.isEmpty()) {
                FRAMES.remove();
            }
        }
    }

    /** The SDK's token, with the SDK strategy that issued it and the governed call it belongs to. */
    private static final class Token implements RetryToken {
        final RetryToken sdk;
        final RetryStrategy strategy;
        final GovernedCall call;

        Token(RetryToken sdk, RetryStrategy strategy, GovernedCall call) {
            this.sdk = sdk;
            this.strategy = strategy;
            this.call = call;
        }
    }

    private final class Strategy implements RetryStrategy {
        private final Supplier<RetryStrategy> sdkStrategies;
        private final RetryStrategy prototype;
        private final Map<String, RetryStrategy> perAccount = new ConcurrentHashMap<>();

        Strategy(Supplier<RetryStrategy> sdkStrategies) {
            this.sdkStrategies = sdkStrategies;
            this.prototype = sdkStrategies.get();
        }

        @Override
        public AcquireInitialTokenResponse acquireInitialToken(AcquireInitialTokenRequest request) {
            Frame frame = FRAMES.get().peek();
            if (frame == null) {
                throw new IllegalStateException("an AWS " + service + " call that did not pass cloudg's interceptor");
            }
            RetryStrategy known = perAccount.get(frame.account); // a read first: computeIfAbsent locks a bin
            RetryStrategy sdk = known != null ? known
                    : perAccount.computeIfAbsent(frame.account, a -> sdkStrategies.get());
            GovernedCall call = governor.open(Scope.of("aws", frame.account, region, service, frame.operation),
                    CallOptions.forSdkLoop());
            frame.call = call;
            long wait;
            try {
                wait = call.admit();
                if (call.needsSlot()) {
                    call.waitForTokens(wait);
                    wait = 0;
                }
                call.awaitSlot(); // the slot if still needed, then a place under ratelimit.max_calls_in_flight
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                call.close();
                throw new IllegalStateException("interrupted while waiting for the rate limit of " + call.scope(), e);
            } catch (CircuitOpenException e) {
                call.close();
                throw e;
            }
            AcquireInitialTokenResponse r = sdk.acquireInitialToken(request);
            return AcquireInitialTokenResponse.create(new Token(r.token(), sdk, call),
                    longest(r.delay(), wait));
        }

        @Override
        public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
            Token t = (Token) request.token();
            RefreshRetryTokenResponse sdkAnswer = null;
            TokenAcquisitionFailedException sdkRefusal = null;
            try {
                sdkAnswer = t.strategy.refreshRetryToken(request.toBuilder().token(t.sdk).build());
            } catch (TokenAcquisitionFailedException e) {
                sdkRefusal = e;
            }
            Classification c = governor.classifier().explain(request.failure(), governor.time().epochMillis());
            AttemptDecision d = t.call.onSdkFailure(request.failure(), c, sdkRefusal == null);
            if (!t.call.governed()) {
                if (sdkRefusal != null) {
                    throw sdkRefusal;
                }
                return RefreshRetryTokenResponse.create(new Token(sdkAnswer.token(), t.strategy, t.call), sdkAnswer.delay());
            }
            if (!d.retry()) {
                String why = d.reason() != null ? d.reason() : c.summary();
                throw new TokenAcquisitionFailedException(why, t, request.failure());
            }
            long wait;
            try {
                wait = t.call.admit();
            } catch (CircuitOpenException e) {
                throw new TokenAcquisitionFailedException(e.getMessage(), t, request.failure());
            }
            long delay = Math.max(d.backoffNanos(), wait);
            return RefreshRetryTokenResponse.create(new Token(sdkAnswer.token(), t.strategy, t.call), longest(sdkAnswer.delay(), delay));
        }

        @Override
        public RecordSuccessResponse recordSuccess(RecordSuccessRequest request) {
            Token t = (Token) request.token();
            t.call.onSuccess();
            t.strategy.recordSuccess(RecordSuccessRequest.create(t.sdk));
            return RecordSuccessResponse.create(t);
        }

        @Override
        public int maxAttempts() {
            return prototype.maxAttempts();
        }

        @Override
        public boolean useClientDefaults() {
            return false;
        }

        @Override
        public Builder<?, ?> toBuilder() {
            return new WrappingBuilder(prototype.toBuilder());
        }
    }

    /**
     * The longer of the SDK's delay and ours, rounded up to a whole millisecond: the SDK sleeps in
     * milliseconds and truncates, and a request sent even a fraction of a millisecond before its reserved
     * time can find the provider's bucket empty.
     */
    static Duration longest(Duration sdkDelay, long nanos) {
        long ms = (Math.max(0, nanos) + 999_999) / 1_000_000;
        Duration ours = Duration.ofMillis(ms);
        return sdkDelay == null || ours.compareTo(sdkDelay) > 0 ? ours : sdkDelay;
    }

    /** Rebuilding the strategy (the SDK may customise it) keeps it governed. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private final class WrappingBuilder implements RetryStrategy.Builder<WrappingBuilder, RetryStrategy> {
        private final RetryStrategy.Builder inner;

        WrappingBuilder(RetryStrategy.Builder<?, ?> inner) {
            this.inner = inner;
        }

        @Override
        public WrappingBuilder retryOnException(java.util.function.Predicate<Throwable> p) {
            inner.retryOnException(p);
            return this;
        }

        @Override
        public WrappingBuilder maxAttempts(int n) {
            inner.maxAttempts(n);
            return this;
        }

        @Override
        public WrappingBuilder backoffStrategy(software.amazon.awssdk.retries.api.BackoffStrategy b) {
            inner.backoffStrategy(b);
            return this;
        }

        @Override
        public WrappingBuilder throttlingBackoffStrategy(software.amazon.awssdk.retries.api.BackoffStrategy b) {
            inner.throttlingBackoffStrategy(b);
            return this;
        }

        @Override
        public WrappingBuilder treatAsThrottling(java.util.function.Predicate<Throwable> p) {
            inner.treatAsThrottling(p);
            return this;
        }

        @Override
        public RetryStrategy build() {
            return new Strategy(() -> (RetryStrategy) inner.build());
        }
    }
}
