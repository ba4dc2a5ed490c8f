package io.cloudg.gcp;

import com.google.api.gax.tracing.ApiTracer;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.SearchAllResourcesRequest;
import io.cloudg.resilience.AttemptDecision;
import io.cloudg.resilience.CallOptions;
import io.cloudg.resilience.Classification;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.TaskLedger;
import java.time.Duration;

/**
 * Governs one page (one gax operation) while gax runs the page's retry loop: a governed call opened at the
 * first attempt, in the listing's scope and under its {@code SlotHold} (the page takes no slot of its own),
 * and then, attempt by attempt:
 * <ul>
 *   <li>{@link #attemptStarted}: the breaker (an open one ends the page at once), tokens at every level,
 *       waited for here, on the thread sending the attempt; a RESOURCE_EXHAUSTED with RetryInfo pauses the
 *       leaf, so the wait honours the server's delay;</li>
 *   <li>{@link #attemptFailedDuration} (gax will retry): classify, count, AIMD, and the governor's say: an
 *       empty retry budget vetoes the retry, which the next {@link #attemptStarted} enforces by failing the
 *       attempt with {@link RetryVetoedException};</li>
 *   <li>retries exhausted or a non-retryable error: recorded as a give-up (or a fatal answer);</li>
 *   <li>success: the leaf recovers, the breaker closes, the budget gets its refund.</li>
 * </ul>
 * gax calls one tracer from one thread at a time (attempts are sequential), but not always the same
 * thread; the fields are guarded by the tracer's monitor.
 */
final class PageTracer implements ApiTracer {
    private final Governor governor;
    private final ListingTracer listing;
    private final String method;
    private GovernedCall call;
    private AttemptDecision veto;
    /** The last attempt was ended by cloudg (breaker, deadline, veto): gax's verdict on it is not news. */
    private boolean endedByUs;

    PageTracer(Governor governor, ListingTracer listing, String method) {
        this.governor = governor;
        this.listing = listing;
        this.method = method;
    }

    @Override
    public void attemptStarted(int attemptNumber) {
        attemptStarted(null, attemptNumber);
    }

    @Override
    public synchronized void attemptStarted(Object request, int attemptNumber) {
        if (call == null) {
            call = open(request);
        }
        if (veto != null) {
            endedByUs = true;
            throw new RetryVetoedException(veto);
        }
        try {
            call.waitForTokens(call.admit());
            call.awaitSlot();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            endedByUs = true;
            call.close();
            throw new IllegalStateException("interrupted while waiting for the rate limit of " + call.scope(), e);
        } catch (RuntimeException e) {
            endedByUs = true; // circuit open or deadline spent: admit() ended the call and recorded it
            throw e;
        }
        endedByUs = false;
    }

    private GovernedCall open(Object request) {
        if (listing != null) {
            return governor.open(listing.scope, CallOptions.held(listing.hold).withLedger(listing.ledger)
                    .charging(listing.charged));
        }
        io.cloudg.resilience.spi.Scope scope = scopeOf(request);
        return governor.open(scope, CallOptions.DEFAULT.withLedger(TaskLedger.current()));
    }

    private io.cloudg.resilience.spi.Scope scopeOf(Object request) {
        String parent = request instanceof ListAssetsRequest ? ((ListAssetsRequest) request).getParent()
                : request instanceof SearchAllResourcesRequest ? ((SearchAllResourcesRequest) request).getScope() : null;
        return parent == null || parent.isEmpty() ? io.cloudg.resilience.spi.Scope.of("gcp", "unknown", null, "cloudasset", method)
                : GcpParent.of(parent).scope(method);
    }

    @Override
    public synchronized void attemptSucceeded() {
        if (call != null) {
            call.onSuccess();
        }
    }

    @Override
    public synchronized void attemptFailedDuration(Throwable error, Duration delay) {
        if (call == null || endedByUs) {
            return;
        }
        AttemptDecision d = call.onSdkFailure(error, classify(error), true);
        if (!d.retry() && call.governed()) {
            veto = d;
        }
    }

    @Override
    public synchronized void attemptFailedRetriesExhausted(Throwable error) {
        gaveUp(error);
    }

    @Override
    public synchronized void attemptPermanentFailure(Throwable error) {
        gaveUp(error);
    }

    private void gaveUp(Throwable error) {
        if (call != null && !endedByUs) {
            call.onSdkFailure(error, classify(error), false);
        }
    }

    private Classification classify(Throwable error) {
        return governor.classifier().explain(error, governor.time().epochMillis());
    }

    @Override
    public synchronized void operationSucceeded() {
        close();
    }

    @Override
    public synchronized void operationCancelled() {
        close();
    }

    @Override
    public synchronized void operationFailed(Throwable error) {
        close();
    }

    private void close() {
        if (call != null) {
            call.close();
        }
    }
}
