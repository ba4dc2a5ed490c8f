package io.cloudg.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.Classifier;
import io.cloudg.resilience.spi.ErrorClass;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.handler.timeout.WriteTimeoutException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * The SDK and transport failures that carry no HTTP response are read by this module's inspectors (found by
 * the governor's classifier through {@code META-INF/services}), not by class names in the governor.
 */
class SdkErrorInspectorsTest {
    private final Classifier classifier = Classifier.defaultClassifier();

    @Test
    void anAwsAttemptTimeoutIsTransientAlsoWhenWrapped() {
        ApiCallAttemptTimeoutException timeout = ApiCallAttemptTimeoutException.create(1_000);
        assertThat(classifier.classify(timeout)).isEqualTo(ErrorClass.TRANSIENT);
        assertThat(classifier.classify(SdkClientException.create("call failed", timeout))).isEqualTo(ErrorClass.TRANSIENT);
    }

    @Test
    void anApacheConnectionClosedWithoutOrInTheMiddleOfAnAnswerIsTransientAlsoWhenWrapped() {
        org.apache.http.NoHttpResponseException none = new org.apache.http.NoHttpResponseException("127.0.0.1:4566 failed to respond");
        assertThat(classifier.classify(none)).isEqualTo(ErrorClass.TRANSIENT);
        // the SDK's wrapping of it, with a message the classifier's text fallback does not know
        assertThat(classifier.classify(SdkClientException.create("Unable to execute HTTP request",
                new org.apache.http.NoHttpResponseException("opaque")))).isEqualTo(ErrorClass.TRANSIENT);
        assertThat(classifier.classify(SdkClientException.create("Unable to unmarshall response",
                new org.apache.http.ConnectionClosedException("Premature end of Content-Length delimited message body"))))
                .isEqualTo(ErrorClass.TRANSIENT);
        assertThat(classifier.classify(new org.apache.http.TruncatedChunkException("Truncated chunk (expected size: 10; actual size: 2)")))
                .isEqualTo(ErrorClass.TRANSIENT);
    }

    @Test
    void nettyTimeoutsAndAnEarlyCloseAreTransient() {
        assertThat(classifier.classify(ReadTimeoutException.INSTANCE)).isEqualTo(ErrorClass.TRANSIENT);
        assertThat(classifier.classify(new RuntimeException("wrapped", WriteTimeoutException.INSTANCE)))
                .isEqualTo(ErrorClass.TRANSIENT);
        Throwable early = reactor.netty.http.client.PrematureCloseException.TEST_EXCEPTION;
        assertThat(classifier.classify(new UncheckedIOException(new java.io.IOException("io", early))))
                .isEqualTo(ErrorClass.TRANSIENT);
    }

    @Test
    void anUnknownFailureStaysFatal() {
        assertThat(classifier.classify(new IllegalStateException("a bug"))).isEqualTo(ErrorClass.FATAL);
    }
}
