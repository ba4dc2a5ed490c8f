package io.cloudg.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.spi.ErrorFacts;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ClassifierTest {
    final Classifier classifier = Classifier.defaultClassifier();

    @ParameterizedTest
    @ValueSource(strings = {"Throttling", "ThrottlingException", "ThrottledException", "RequestLimitExceeded",
            "TooManyRequestsException", "SlowDown", "RequestThrottled", "RequestThrottledException",
            "EC2ThrottledException", "ProvisionedThroughputExceededException", "BandwidthLimitExceeded",
            "SubscriptionRequestsThrottled", "ResourceExhausted", "RESOURCE_EXHAUSTED", "PriorRequestNotComplete"})
    void throttlingCodes(String code) {
        assertThat(classifier.classify(new ProviderException(code, 400, "x"))).isEqualTo(ErrorClass.THROTTLED);
    }

    @Test
    void statusesDecideWhenTheCodeIsUnknownOrAbsent() {
        assertThat(classifier.classify(new ProviderException(null, 429, "x"))).isEqualTo(ErrorClass.THROTTLED);
        assertThat(classifier.classify(new ProviderException(null, 503, "x"))).isEqualTo(ErrorClass.THROTTLED);
        assertThat(classifier.classify(new ProviderException("Weird", 503, "x"))).isEqualTo(ErrorClass.THROTTLED);
        for (int s : new int[] {408, 500, 502, 504}) {
            assertThat(classifier.classify(new ProviderException(null, s, "x"))).as("HTTP %d", s).isEqualTo(ErrorClass.TRANSIENT);
        }
        assertThat(classifier.classify(new ProviderException("InternalError", 500, "x"))).isEqualTo(ErrorClass.TRANSIENT);
    }

    @Test
    void anythingElseWithACodeIsFatal() {
        assertThat(classifier.classify(new ProviderException("AccessDenied", 403, "not authorized"))).isEqualTo(ErrorClass.FATAL);
        assertThat(classifier.classify(new ProviderException("NoSuchBucket", 404, "x"))).isEqualTo(ErrorClass.FATAL);
        assertThat(classifier.classify(new ProviderException(null, 400, "Rate exceeded"))).as("status beats text")
                .isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void connectionErrorsAreTransient() {
        assertThat(classifier.classify(new SocketException("Connection reset"))).isEqualTo(ErrorClass.TRANSIENT);
        assertThat(classifier.classify(new SocketTimeoutException("Read timed out"))).isEqualTo(ErrorClass.TRANSIENT);
        assertThat(classifier.classify(new IOException("wrapper", new java.net.ConnectException("refused"))))
                .isEqualTo(ErrorClass.TRANSIENT);
    }

    @Test
    void aConnectionClosedWithoutAnAnswerIsTransientWhateverClientSaysSo() {
        for (String m : new String[] {"The target server failed to respond", "HTTP/1.1 header parser received no bytes",
                "Unexpected end of file from server", "Connection prematurely closed BEFORE response"}) {
            assertThat(classifier.classify(new IOException("Unable to execute HTTP request: " + m))).as(m)
                    .isEqualTo(ErrorClass.TRANSIENT);
        }
    }

    @Test
    void messageTextIsTheLastResort() {
        assertThat(classifier.classify(new RuntimeException("Rate exceeded"))).isEqualTo(ErrorClass.THROTTLED);
        assertThat(classifier.classify(new IllegalStateException("connection reset by peer"))).isEqualTo(ErrorClass.TRANSIENT);
        assertThat(classifier.classify(new NullPointerException())).isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void causesAreRead() {
        Throwable t = new CompletionException(new RuntimeException("sdk wrapper", new ProviderException("SlowDown", 503, "x")));
        assertThat(classifier.classify(t)).isEqualTo(ErrorClass.THROTTLED);
    }

    @Test
    void inspectorsTeachItOtherExceptionsAndFaultyOnesAreSkipped() {
        class SdkError extends RuntimeException {
            SdkError() {
                super("opaque");
            }
        }
        Classifier c = classifier
                .with(t -> { throw new IllegalStateException("a broken inspector"); })
                .with(t -> t instanceof SdkError ? ErrorFacts.builder().code("TooManyRequestsException")
                        .retryAfter("3").message("Rate exceeded").build() : null);
        Classification r = c.explain(new SdkError(), 0);
        assertThat(r.errorClass()).isEqualTo(ErrorClass.THROTTLED);
        assertThat(r.retryAfterNanos()).isEqualTo(3_000_000_000L);
        assertThat(r.summary()).isEqualTo("TooManyRequestsException: Rate exceeded");
        assertThat(classifier.classify(new SdkError())).as("the default one does not know it").isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void theSdksOwnVerdictCountsOnlyWhenCodeAndStatusSayNothing() {
        Classifier c = classifier.with(t -> ErrorFacts.builder().sdkVerdict(ErrorClass.THROTTLED).build());
        assertThat(c.classify(new RuntimeException())).isEqualTo(ErrorClass.THROTTLED);
    }

    @Test
    void interruptionIsNeverRetried() {
        assertThat(classifier.classify(new RuntimeException("Rate exceeded", new InterruptedException()))).isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void a503IsThrottlingWhateverItsCode() {
        assertThat(classifier.classify(new ProviderException("ServiceUnavailable", 503, "Service is unavailable")))
                .isEqualTo(ErrorClass.THROTTLED);
        assertThat(classifier.classify(new ProviderException("InternalError", 503, "x"))).isEqualTo(ErrorClass.THROTTLED);
        assertThat(classifier.classify(new ProviderException("ServiceUnavailableException", 0, "x")))
                .as("the name alone").isEqualTo(ErrorClass.THROTTLED);
        assertThat(classifier.classify(new ProviderException("UNAVAILABLE", 0, "GCP's 503"))).isEqualTo(ErrorClass.THROTTLED);
        assertThat(classifier.classify(new ProviderException("InternalError", 500, "x"))).isEqualTo(ErrorClass.TRANSIENT);
        assertThat(classifier.classify(new ProviderException("DEADLINE_EXCEEDED", 0, "x"))).isEqualTo(ErrorClass.TRANSIENT);
    }
}
