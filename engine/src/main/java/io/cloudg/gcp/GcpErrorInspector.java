package io.cloudg.gcp;

import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.ErrorDetails;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.cloudg.resilience.core.QuotaWindow;
import io.cloudg.resilience.spi.ErrorFacts;
import io.cloudg.resilience.spi.ErrorInspector;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Teaches the governor's classifier to read Google Cloud errors: gax's {@link ApiException} and raw gRPC
 * {@link StatusRuntimeException}/{@link StatusException}. The code is the gRPC status
 * ({@code RESOURCE_EXHAUSTED} and {@code UNAVAILABLE}, GCP's 503, are throttling; {@code DEADLINE_EXCEEDED} transient),
 * the message the status description prefixed with the {@code google.rpc.ErrorInfo} reason
 * ({@code RATE_LIMIT_EXCEEDED: Quota exceeded ...}), the wait hint {@code google.rpc.RetryInfo}'s delay (the
 * real Cloud Asset sends none), and the quota that refused: {@code ErrorInfo}'s {@code quota_limit_value} and
 * {@code quota_unit} ({@code 1/min/{project}}: 100 calls per one-minute window, counted per project) are a
 * {@link QuotaWindow} the governor learns the leaf's rate from. Registered through {@code META-INF/services}.
 */
public final class GcpErrorInspector implements ErrorInspector {
    @Override
    public ErrorFacts inspect(Throwable t) {
        if (t instanceof ApiException) {
            ApiException e = (ApiException) t;
            ErrorDetails d = e.getErrorDetails();
            RetryInfo retry = d == null ? null : d.getRetryInfo();
            ErrorInfo info = d == null ? null : d.getErrorInfo();
            return facts(e.getStatusCode().getCode().name(), e.getReason(), description(e), retry, info);
        }
        if (t instanceof StatusRuntimeException || t instanceof StatusException) {
            Status s = Status.fromThrowable(t);
            String reason = null;
            RetryInfo retry = null;
            ErrorInfo info = null;
            com.google.rpc.Status rich = StatusProto.fromThrowable(t);
            if (rich != null) {
                for (Any any : rich.getDetailsList()) {
                    try {
                        if (any.is(ErrorInfo.class)) {
                            info = any.unpack(ErrorInfo.class);
                            reason = info.getReason();
                        } else if (any.is(RetryInfo.class)) {
                            retry = any.unpack(RetryInfo.class);
                        }
                    } catch (InvalidProtocolBufferException ignored) {
                        // a detail we cannot read says nothing
                    }
                }
            }
            return facts(s.getCode().name(), reason, s.getDescription(), retry, info);
        }
        return null;
    }

    private static ErrorFacts facts(String code, String reason, String description, RetryInfo retry, ErrorInfo info) {
        String message = description == null ? null : reason == null || reason.isEmpty() ? description : reason + ": " + description;
        ErrorFacts.Builder b = ErrorFacts.builder().code(code).message(message).window(window(info));
        if (retry != null && retry.hasRetryDelay()) {
            com.google.protobuf.Duration d = retry.getRetryDelay();
            b.retryAfter(Double.toString(d.getSeconds() + d.getNanos() / 1e9));
        }
        return b.build();
    }

    /** {@code 1/min/{project}}, {@code 1/100s/{project}}, {@code 1/d}: a window's length and what it counts per. */
    private static final Pattern UNIT = Pattern.compile("1/(\\d*)(s|min|h|d)(?:/\\{(\\w+)\\})?");

    /**
     * The quota a RESOURCE_EXHAUSTED names in its {@code ErrorInfo}: {@code quota_limit_value} calls per the
     * window of {@code quota_unit}, counted per what the unit's braces name; {@link QuotaWindow#NONE} when either
     * is missing or unreadable. Google never says when the window resets.
     */
    static QuotaWindow window(ErrorInfo info) {
        if (info == null) {
            return QuotaWindow.NONE;
        }
        String value = info.getMetadataOrDefault("quota_limit_value", "");
        Matcher unit = UNIT.matcher(info.getMetadataOrDefault("quota_unit", ""));
        if (!value.matches("\\d{1,12}") || !unit.matches() || Long.parseLong(value) == 0) {
            return QuotaWindow.NONE;
        }
        long n = unit.group(1).isEmpty() ? 1 : Long.parseLong(unit.group(1));
        long seconds = switch (unit.group(2)) {
            case "s" -> 1;
            case "min" -> 60;
            case "h" -> 3600;
            default -> 86_400;
        };
        return QuotaWindow.sized(Long.parseLong(value), TimeUnit.SECONDS.toNanos(n * seconds)).per(unit.group(3));
    }

    /** The gRPC status description under gax's wrapping, else gax's message. */
    private static String description(ApiException e) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof StatusRuntimeException || c instanceof StatusException) {
                return Status.fromThrowable(c).getDescription();
            }
        }
        return e.getMessage();
    }
}
