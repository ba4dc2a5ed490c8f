package io.cloudg.aws;

import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.spi.ErrorFacts;
import io.cloudg.resilience.spi.ErrorInspector;
import org.apache.http.ConnectionClosedException;
import org.apache.http.NoHttpResponseException;
import org.apache.http.TruncatedChunkException;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * Teaches the governor's classifier to read AWS SDK v2 service exceptions: the error code and message
 * from {@link AwsErrorDetails}, the HTTP status, the {@code Retry-After} header, and the SDK's own
 * throttling verdict. Transient too: an attempt or a call that ran past its timeout, and the failures of the
 * Apache transport cloudg's clients use that carry no answer, a connection closed before the answer
 * ({@link NoHttpResponseException}: a server or load balancer closing an idle keep-alive connection) or in
 * the middle of it, retried like a reset. Registered through {@code META-INF/services}.
 */
public final class AwsErrorInspector implements ErrorInspector {
    @Override
    public ErrorFacts inspect(Throwable t) {
        if (t instanceof AwsServiceException) {
            AwsServiceException e = (AwsServiceException) t;
            AwsErrorDetails d = e.awsErrorDetails();
            ErrorFacts.Builder b = ErrorFacts.builder().httpStatus(e.statusCode());
            if (d != null) {
                b.code(d.errorCode()).message(d.errorMessage());
                if (d.sdkHttpResponse() != null) {
                    d.sdkHttpResponse().firstMatchingHeader("Retry-After").ifPresent(b::retryAfter);
                }
            }
            if (e.isThrottlingException()) {
                b.sdkVerdict(ErrorClass.THROTTLED);
            }
            return b.build();
        }
        if (t instanceof ApiCallAttemptTimeoutException || t instanceof ApiCallTimeoutException
                || t instanceof NoHttpResponseException || t instanceof ConnectionClosedException
                || t instanceof TruncatedChunkException) {
            return ErrorFacts.builder().message(t.getMessage()).sdkVerdict(ErrorClass.TRANSIENT).build();
        }
        if (t instanceof SdkServiceException) {
            SdkServiceException e = (SdkServiceException) t;
            return ErrorFacts.builder().httpStatus(e.statusCode()).message(e.getMessage())
                    .sdkVerdict(e.isThrottlingException() ? ErrorClass.THROTTLED : null).build();
        }
        return null;
    }
}
