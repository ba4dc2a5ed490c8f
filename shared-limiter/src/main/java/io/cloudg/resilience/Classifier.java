package io.cloudg.resilience;

import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.spi.ErrorFacts;
import io.cloudg.resilience.spi.ErrorInspector;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;

/**
 * Sorts errors into {@link ErrorClass#THROTTLED}, {@link ErrorClass#TRANSIENT} and
 * {@link ErrorClass#FATAL}.
 *
 * <p>It reads structured facts first and message text last. For every link of the cause chain it asks
 * the {@link ErrorInspector}s (registered ones, then those found by {@link ServiceLoader}, then the
 * built-in one for {@link ProviderException}); the first link that yields facts decides, in this order:
 * a known throttling code, a known transient code, HTTP 429/503 (throttled), HTTP 408/500/502/504
 * (transient), any other code or status (fatal), the SDK's own verdict. Only when no link has facts do
 * the JDK's exception types (socket timeouts, connection resets) and then message text decide; an SDK's or
 * a transport's own types (an attempt timeout, a connection closed early) are known to the inspectors of
 * the module that has that SDK, never named here. Everything else is FATAL. Immutable and thread-safe.
 */
public final class Classifier {
    private static final Set<String> THROTTLING_CODES = caseInsensitive(
            // AWS (the botocore list and the EC2/S3 specifics)
            "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
            "TooManyRequestsException", "ProvisionedThroughputExceededException",
            "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded",
            "LimitExceededException", "RequestThrottled", "SlowDown", "PriorRequestNotComplete",
            "EC2ThrottledException", "RequestLimitExceededException",
            // Azure
            "SubscriptionRequestsThrottled", "ResourceRequestsThrottled", "ResourceCollectionRequestsThrottled",
            "TenantRequestsThrottled", "TooManyRequests", "RateLimitExceeded", "ServerBusy",
            // GCP
            "ResourceExhausted", "RESOURCE_EXHAUSTED", "RATE_LIMIT_EXCEEDED", "rateLimitExceeded",
            "userRateLimitExceeded",
            // a 503 by name: the provider is shedding load (AWS ServiceUnavailable, gRPC UNAVAILABLE is GCP's 503)
            "ServiceUnavailable", "ServiceUnavailableException", "UNAVAILABLE");
    private static final Set<String> TRANSIENT_CODES = caseInsensitive(
            "RequestTimeout", "RequestTimeoutException", "InternalError", "InternalFailure",
            "InternalServerError", "GatewayTimeout",
            "BadGateway", "OperationTimedOut", "IDPCommunicationError", "DEADLINE_EXCEEDED",
            "INTERNAL", "ABORTED", "backendError");

    private static final List<ErrorInspector> DISCOVERED = discover();
    private static final Classifier DEFAULT = new Classifier(List.of());
    private static final int MAX_DEPTH = 16;

    private final List<ErrorInspector> registered;
    private final List<ErrorInspector> inspectors;

    private Classifier(List<ErrorInspector> registered) {
        this.registered = List.copyOf(registered);
        List<ErrorInspector> all = new ArrayList<>(registered);
        all.addAll(DISCOVERED);
        all.add(Classifier::inspectProviderException);
        this.inspectors = List.copyOf(all);
    }

    /** The classifier with the built-in and {@link ServiceLoader}-discovered inspectors. */
    public static Classifier defaultClassifier() {
        return DEFAULT;
    }

    /** A classifier that asks {@code inspector} before the ones this classifier already has. */
    public Classifier with(ErrorInspector inspector) {
        List<ErrorInspector> reg = new ArrayList<>();
        reg.add(inspector);
        reg.addAll(registered);
        return new Classifier(reg);
    }

    /** THROTTLED, TRANSIENT or FATAL for {@code t}. */
    public ErrorClass classify(Throwable t) {
        return explain(t, 0L).errorClass();
    }

    /**
     * The verdict with what was read. {@code nowEpochMillis} turns an HTTP-date Retry-After into a delay.
     */
    public Classification explain(Throwable t, long nowEpochMillis) {
        if (t == null) {
            throw new IllegalArgumentException("cannot classify a null throwable");
        }
        List<Throwable> chain = chain(t);
        for (Throwable link : chain) {
            if (link instanceof InterruptedException || link instanceof CancellationException) {
                return new Classification(ErrorClass.FATAL, null, 0, RetryAfter.NONE, describe(link, null));
            }
        }
        for (Throwable link : chain) {
            ErrorFacts facts = factsOf(link);
            if (facts == null || facts.isEmpty()) {
                continue;
            }
            ErrorClass c = fromFacts(facts);
            long retryAfter = RetryAfter.parseNanos(facts.retryAfter(), nowEpochMillis);
            return new Classification(c, facts.code(), facts.httpStatus(), retryAfter, describe(link, facts),
                    c == ErrorClass.THROTTLED ? facts.window().resetAtMost(RetryAfter.MAX_NANOS) : QuotaWindow.NONE);
        }
        for (Throwable link : chain) {
            if (isTransientType(link)) {
                return new Classification(ErrorClass.TRANSIENT, null, 0, RetryAfter.NONE, describe(link, null));
            }
        }
        for (Throwable link : chain) {
            ErrorClass c = fromMessage(link.getMessage());
            if (c != null) {
                return new Classification(c, null, 0, RetryAfter.NONE, describe(link, null));
            }
        }
        return new Classification(ErrorClass.FATAL, null, 0, RetryAfter.NONE, describe(t, null));
    }

    /** Whether {@code code} is one of the known throttling codes (case-insensitive). */
    public static boolean isThrottlingCode(String code) {
        return code != null && THROTTLING_CODES.contains(code);
    }

    private static ErrorClass fromFacts(ErrorFacts f) {
        String code = f.code();
        int s = f.httpStatus();
        if ((code != null && THROTTLING_CODES.contains(code)) || s == 429 || s == 503) {
            return ErrorClass.THROTTLED; // a 503 is throttling whatever its code says
        }
        if (code != null && TRANSIENT_CODES.contains(code)) {
            return ErrorClass.TRANSIENT;
        }
        if (s == 408 || s == 500 || s == 502 || s == 504) {
            return ErrorClass.TRANSIENT;
        }
        if (code != null || s != 0) {
            return ErrorClass.FATAL;
        }
        return f.sdkVerdict() != null ? f.sdkVerdict() : ErrorClass.FATAL;
    }

    private ErrorFacts factsOf(Throwable link) {
        for (ErrorInspector inspector : inspectors) {
            ErrorFacts f;
            try {
                f = inspector.inspect(link);
            } catch (RuntimeException | LinkageError e) {
                continue; // an inspector MUST NOT throw; one that does is ignored for this error
            }
            if (f != null && !f.isEmpty()) {
                return f;
            }
        }
        return null;
    }

    private static ErrorFacts inspectProviderException(Throwable t) {
        if (t instanceof ProviderException) {
            ProviderException p = (ProviderException) t;
            return ErrorFacts.builder().code(p.code()).httpStatus(p.httpStatus()).retryAfter(p.retryAfter())
                    .message(p.getMessage()).build();
        }
        return null;
    }

    private static boolean isTransientType(Throwable t) {
        if (t instanceof SocketTimeoutException || t instanceof ConnectException
                || t instanceof HttpTimeoutException || t instanceof TimeoutException
                || t instanceof ClosedChannelException) {
            return true;
        }
        // connection reset, broken pipe, aborted, timed-out I/O; an SDK's own timeout types are its inspector's
        return t instanceof SocketException || t instanceof InterruptedIOException;
    }

    private static ErrorClass fromMessage(String message) {
        if (message == null) {
            return null;
        }
        String m = message.toLowerCase(Locale.ROOT);
        if (m.contains("throttl") || m.contains("rate exceeded") || m.contains("too many requests")
                || m.contains("request limit exceeded") || m.contains("rate limit exceeded")
                || m.contains("slow down") || m.contains("resource exhausted") || m.contains("resource_exhausted")) {
            return ErrorClass.THROTTLED;
        }
        if (m.contains("connection reset") || m.contains("timed out") || m.contains("timeout")
                || m.contains("broken pipe") || m.contains("connection refused") || m.contains("connection closed")
                || closedWithoutAnswer(m)) {
            return ErrorClass.TRANSIENT;
        }
        return null;
    }

    /**
     * The words HTTP clients use for a connection the server closed before a byte of the answer, as a server
     * or a load balancer closes an idle keep-alive connection just as the client sends on it: Apache HttpClient
     * ({@code The target server failed to respond}), the JDK's HttpClient ({@code HTTP/1.1 header parser
     * received no bytes}), {@code HttpURLConnection} ({@code Unexpected end of file from server}), Reactor
     * Netty ({@code Connection prematurely closed BEFORE response}). The inspectors of the modules that have
     * those clients know their types; this is for a client nobody taught the classifier.
     */
    private static boolean closedWithoutAnswer(String m) {
        return m.contains("failed to respond") || m.contains("received no bytes")
                || m.contains("unexpected end of file") || m.contains("prematurely closed");
    }

    private static String describe(Throwable t, ErrorFacts facts) {
        String code = facts == null ? null : facts.code();
        String message = facts != null && facts.message() != null ? facts.message() : t.getMessage();
        if (message != null) {
            message = message.strip();
            int nl = message.indexOf('\n');
            if (nl >= 0) {
                message = message.substring(0, nl).strip();
            }
            if (message.length() > 300) {
                message = message.substring(0, 300) + "...";
            }
        }
        String head = code != null ? code
                : facts != null && facts.httpStatus() != 0 ? "HTTP " + facts.httpStatus()
                : t.getClass().getSimpleName();
        return message == null || message.isEmpty() ? head : head + ": " + message;
    }

    private static List<Throwable> chain(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable c = t; c != null && out.size() < MAX_DEPTH && seen.add(c); c = c.getCause()) {
            out.add(c);
        }
        return out;
    }

    private static List<ErrorInspector> discover() {
        List<ErrorInspector> found = new ArrayList<>();
        try {
            for (ErrorInspector i : ServiceLoader.load(ErrorInspector.class, Classifier.class.getClassLoader())) {
                found.add(i);
            }
        } catch (java.util.ServiceConfigurationError e) {
            org.slf4j.LoggerFactory.getLogger("cloudg.resilience")
                    .warn("Could not load an error inspector: {}", e.getMessage());
        }
        return List.copyOf(found);
    }

    private static Set<String> caseInsensitive(String... values) {
        Set<String> s = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        Collections.addAll(s, values);
        return Collections.unmodifiableSet(s);
    }
}
