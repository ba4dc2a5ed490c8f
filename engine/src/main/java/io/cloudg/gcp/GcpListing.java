package io.cloudg.gcp;

import com.google.api.gax.grpc.GrpcCallContext;
import com.google.api.gax.rpc.ApiCallContext;
import com.google.api.gax.rpc.UnaryCallable;
import io.cloudg.collect.TruncatedListingException;
import io.cloudg.resilience.CircuitOpenException;
import io.cloudg.resilience.DeadlineExceededException;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.SlotHold;
import io.cloudg.resilience.TaskLedger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One paged Cloud Asset listing, governed as the spec wants it: one bulkhead slot held for the whole
 * listing ({@link Governor#holdSlot}), each page a governed call with gax's retry loop ({@link PageTracer}).
 * Every page's results reach {@code onPage} before the next page is asked for, so when a page finally
 * fails with throttling or a transient error (or an open circuit, a spent deadline) the pages already read
 * stay mapped and the listing ends with a {@link TruncatedListingException} (recorded PARTIAL,
 * {@code listing truncated: throttled: ...}). A fatal error (no permission, a bad request) escapes as it is.
 * The pages are paced on the consumer project's leaf and charged to the organization's
 * ({@link CloudAssetQuotas}), and every page names the consumer project ({@code x-goog-user-project}).
 *
 * @param <Q> the request type
 * @param <R> the page type
 */
final class GcpListing<Q, R> {
    private final Governor governor;
    private final CloudAssetQuotas quotas;
    private final String method;
    private final UnaryCallable<Q, R> callable;
    private final Function<String, Q> request;
    private final Function<R, String> nextToken;

    /**
     * @param method the Cloud Asset method ({@code ListAssets}, {@code SearchAllResources}): its quotas
     * @param request the request for a page token ({@code ""} for the first page)
     * @param nextToken the page's next token, empty or null on the last page
     */
    GcpListing(Governor governor, CloudAssetQuotas quotas, String method, UnaryCallable<Q, R> callable,
               Function<String, Q> request, Function<R, String> nextToken) {
        this.governor = governor;
        this.quotas = quotas;
        this.method = method;
        this.callable = callable;
        this.request = request;
        this.nextToken = nextToken;
    }

    /** Lists every page, handing each to {@code onPage}; returns the number of pages. */
    int run(Consumer<R> onPage) throws TruncatedListingException, InterruptedException {
        Scope scope = quotas.scope(method);
        try (SlotHold hold = governor.holdSlot(scope)) {
            ApiCallContext context = GrpcCallContext.createDefault().withExtraHeaders(quotas.headers())
                    .withTracer(new ListingTracer(scope, quotas.organizationQuota(method), hold, TaskLedger.current()));
            String token = "";
            int pages = 0;
            do {
                R page;
                try {
                    page = callable.call(request.apply(token), context);
                } catch (RuntimeException e) {
                    if (cutShort(e)) {
                        throw new TruncatedListingException("listing", e);
                    }
                    throw e;
                }
                onPage.accept(page);
                pages++;
                token = nextToken.apply(page);
            } while (token != null && !token.isEmpty());
            return pages;
        }
    }

    /** Whether a retry could have cured the page's error: the listing was cut short, not refused. */
    private boolean cutShort(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CircuitOpenException || t instanceof DeadlineExceededException) {
                return true;
            }
        }
        return governor.classifier().classify(e) != ErrorClass.FATAL;
    }
}
