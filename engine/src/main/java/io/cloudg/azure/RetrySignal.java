package io.cloudg.azure;

import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpResponse;
import io.cloudg.resilience.AttemptDecision;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * How the per-attempt policy tells the SDK's {@code RetryPolicy} (which sits before it in the pipeline)
 * that the governor granted a retry, and after how long: the failed attempt comes back wrapped in a
 * signal carrying the governor's {@link AttemptDecision}. An attempt that is not to be retried comes back
 * unwrapped, exactly as the service answered, and the SDK raises its usual exception for it.
 */
interface RetrySignal {
    AttemptDecision decision();

    /** The decision {@code o} carries, or null if it is not a signal. */
    static AttemptDecision of(Object o) {
        return o instanceof RetrySignal ? ((RetrySignal) o).decision() : null;
    }

    /** A failed answer the governor wants retried. Delegates everything to the answer. */
    final class Response extends HttpResponse implements RetrySignal {
        private final HttpResponse answer;
        private final AttemptDecision decision;

        Response(HttpResponse answer, AttemptDecision decision) {
            super(answer.getRequest());
            this.answer = answer;
            this.decision = decision;
        }

        @Override
        public AttemptDecision decision() {
            return decision;
        }

        @Override
        public int getStatusCode() {
            return answer.getStatusCode();
        }

        @Override
        @Deprecated
        public String getHeaderValue(String name) {
            return answer.getHeaderValue(name);
        }

        @Override
        public HttpHeaders getHeaders() {
            return answer.getHeaders();
        }

        @Override
        public Flux<ByteBuffer> getBody() {
            return answer.getBody();
        }

        @Override
        public Mono<byte[]> getBodyAsByteArray() {
            return answer.getBodyAsByteArray();
        }

        @Override
        public Mono<String> getBodyAsString() {
            return answer.getBodyAsString();
        }

        @Override
        public Mono<String> getBodyAsString(Charset charset) {
            return answer.getBodyAsString(charset);
        }

        @Override
        public void close() {
            answer.close();
        }
    }

    /** A failed send (connection reset, timeout) the governor wants retried; the cause is the failure. */
    final class Failure extends RuntimeException implements RetrySignal {
        private static final long serialVersionUID = 1L;
        private final transient AttemptDecision decision;

        Failure(Throwable cause, AttemptDecision decision) {
            super("retrying after: " + cause, cause);
            this.decision = decision;
        }

        @Override
        public AttemptDecision decision() {
            return decision;
        }
    }
}
