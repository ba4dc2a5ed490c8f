package io.cloudg.gcp;

import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.ErrorDetails;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.cloudg.resilience.spi.ErrorFacts;
import io.cloudg.resilience.spi.ErrorInspector;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

/**
 * Teaches the governor's classifier to read Google Cloud errors: gax's {@link ApiException} and raw gRPC
 * {@link StatusRuntimeException}/{@link StatusException}. The code is the gRPC status
 * ({@code RESOURCE_EXHAUSTED} and {@code UNAVAILABLE}, GCP's 503, are throttling; {@code DEADLINE_EXCEEDED} transient),
 * the message the status description prefixed with the {@code google.rpc.ErrorInfo} reason
 * ({@code RATE_LIMIT_EXCEEDED: Quota exceeded ...}), and the wait hint {@code google.rpc.RetryInfo}'s
 * delay. Registered through {@code META-INF/services}.
 */
public final class GcpErrorInspector implements ErrorInspector {
    @Override
    public ErrorFacts inspect(Throwable t) {
        if (t instanceof ApiException) {
            ApiException e = (ApiException) t;
            ErrorDetails d = e.getErrorDetails();
            RetryInfo retry = d == null ? null : d.getRetryInfo();
            return facts(e.getStatusCode().getCode().name(), e.getReason(), description(e), retry);
        }
        if (t instanceof StatusRuntimeException || t instanceof StatusException) {
            Status s = Status.fromThrowable(t);
            String reason = null;
            RetryInfo retry = null;
            com.google.rpc.Status rich = StatusProto.fromThrowable(t);
            if (rich != null) {
                for (Any any : rich.getDetailsList()) {
                    try {
                        if (any.is(ErrorInfo.class)) {
                            reason = any.unpack(ErrorInfo.class).getReason();
                        } else if (any.is(RetryInfo.class)) {
                            retry = any.unpack(RetryInfo.class);
                        }
                    } catch (InvalidProtocolBufferException ignored) {
                        // a detail we cannot read says nothing
                    }
                }
            }
            return facts(s.getCode().name(), reason, s.getDescription(), retry);
        }
        return null;
    }

    private static ErrorFacts facts(String code, String reason, String description, RetryInfo retry) {
        String message = description == null ? null : reason == null || reason.isEmpty() ? description : reason + ": " + description;
        ErrorFacts.Builder b = ErrorFacts.builder().code(code).message(message);
        if (retry != null && retry.hasRetryDelay()) {
            com.google.protobuf.Duration d = retry.getRetryDelay();
            b.retryAfter(Double.toString(d.getSeconds() + d.getNanos() / 1e9));
        }
        return b.build();
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
