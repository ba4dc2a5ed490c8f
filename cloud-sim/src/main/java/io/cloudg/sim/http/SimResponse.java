package io.cloudg.sim.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One answer. Immutable once built.
 *
 * @param status     HTTP status
 * @param headers    header name/value pairs in order
 * @param body       body bytes
 * @param delayNanos wait this long before sending
 * @param drop       end the connection instead of answering ({@link Drop#NONE}: answer)
 * @param items      items the answer lists (a page's length), for the per-item latency; not sent
 */
public record SimResponse(int status, List<Header> headers, byte[] body, long delayNanos, Drop drop, int items) {

    public record Header(String name, String value) {
    }

    /** How a connection ends without an answer. */
    public enum Drop {
        /** It does not: the answer is sent. */
        NONE,
        /** Reset (TCP RST): the client reads "Connection reset". */
        RESET,
        /** Closed in order (TCP FIN) before any byte of the answer: the client reads the end of the stream. */
        CLOSE
    }

    public static SimResponse reset(long delayNanos) {
        return new SimResponse(0, List.of(), new byte[0], delayNanos, Drop.RESET, 0);
    }

    /** The connection closed in order without a byte of an answer (Apache's {@code NoHttpResponseException}). */
    public static SimResponse closed(long delayNanos) {
        return new SimResponse(0, List.of(), new byte[0], delayNanos, Drop.CLOSE, 0);
    }

    public static Builder status(int status) {
        return new Builder(status);
    }

    public SimResponse withDelay(long nanos) {
        return new SimResponse(status, headers, body, nanos, drop, items);
    }

    /** The same answer without a body (a HEAD answer: status and headers only). */
    public SimResponse withoutBody() {
        return new SimResponse(status, headers, new byte[0], delayNanos, drop, items);
    }

    public String bodyUtf8() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** Builds a response. */
    public static final class Builder {
        private final int status;
        private final List<Header> headers = new ArrayList<>(6);
        private byte[] body = new byte[0];
        private int items;

        private Builder(int status) {
            this.status = status;
        }

        public Builder header(String name, String value) {
            headers.add(new Header(name, value));
            return this;
        }

        public Builder body(String contentType, byte[] bytes) {
            headers.add(new Header("Content-Type", contentType));
            this.body = bytes;
            return this;
        }

        public Builder body(String contentType, String text) {
            return body(contentType, text.getBytes(StandardCharsets.UTF_8));
        }

        /** Items the answer lists (not sent; drives the per-item latency). */
        public Builder items(int n) {
            this.items = n;
            return this;
        }

        public SimResponse build() {
            return new SimResponse(status, List.copyOf(headers), body, 0, Drop.NONE, items);
        }
    }
}
