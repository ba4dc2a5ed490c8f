package io.cloudg.azure;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpResponse;
import com.azure.core.management.exception.ManagementError;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.spi.ErrorFacts;
import io.cloudg.resilience.spi.ErrorInspector;
import reactor.netty.http.client.PrematureCloseException;

/**
 * Teaches the governor's classifier to read Azure SDK errors ({@link HttpResponseException} and its ARM
 * subclass {@code ManagementException}): ARM's error code ({@code SubscriptionRequestsThrottled},
 * {@code RateLimiting}...) and message, the HTTP status (a 429 is throttling whatever the code), the
 * server's wait hint ({@code Retry-After}, else {@code retry-after-ms} / {@code x-ms-retry-after-ms}), and
 * Resource Graph's quota window: when its {@code x-ms-user-quota-remaining} is 0, the window resets after
 * {@code x-ms-user-quota-resets-after} ({@code hh:mm:ss}), a {@link QuotaWindow} the governor pauses the leaf
 * for (its size comes from earlier answers, {@link UserQuotaWindow}). Also the failures of its Netty transport that carry no response: a read or write timeout and a
 * connection the server closed before answering are transient. Registered through {@code META-INF/services}.
 */
public final class AzureErrorInspector implements ErrorInspector {
    @Override
    public ErrorFacts inspect(Throwable t) {
        if (t instanceof io.netty.handler.timeout.TimeoutException || t instanceof PrematureCloseException) {
            return ErrorFacts.builder().message(String.valueOf(t.getMessage())).sdkVerdict(ErrorClass.TRANSIENT).build();
        }
        if (!(t instanceof HttpResponseException)) {
            return null;
        }
        HttpResponseException e = (HttpResponseException) t;
        HttpResponse r = e.getResponse();
        ErrorFacts.Builder b = ErrorFacts.builder();
        if (e.getValue() instanceof ManagementError) {
            ManagementError m = (ManagementError) e.getValue();
            b.code(m.getCode()).message(m.getMessage());
        } else {
            b.message(e.getMessage());
        }
        if (r != null) {
            b.httpStatus(r.getStatusCode()).retryAfter(retryAfter(r));
            if (UserQuotaWindow.remaining(r.getHeaders()) == 0) {
                long reset = UserQuotaWindow.resetsAfterNanos(r.getHeaders());
                if (reset >= 0) {
                    b.window(QuotaWindow.resetsIn(reset));
                }
            }
        }
        return b.build();
    }

    /** The server's wait hint in the form {@code RetryAfter} reads (seconds or an HTTP date), or null. */
    static String retryAfter(HttpResponse r) {
        String v = r.getHeaderValue("Retry-After");
        if (v != null && !v.isBlank()) {
            return v.trim();
        }
        for (String ms : new String[] {"retry-after-ms", "x-ms-retry-after-ms"}) {
            String m = r.getHeaderValue(ms);
            if (m != null && m.trim().matches("\\d+")) {
                return Double.toString(Long.parseLong(m.trim()) / 1000.0);
            }
        }
        return null;
    }
}
