package io.cloudg.sim.aws;

import java.util.ArrayList;
import java.util.List;

/**
 * An AWS error answer. Built only by {@link AwsErrors}; rendered in the service's own shape by
 * {@link AwsWire}.
 *
 * @see AwsErrors
 */
public final class AwsError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final int status;
    private final boolean sender;
    private final transient long retryAfterSeconds;
    private final transient List<String[]> details;
    private final transient List<String[]> headers;

    AwsError(String code, String message, int status, boolean sender, long retryAfterSeconds) {
        this(code, message, status, sender, retryAfterSeconds, List.of(), List.of());
    }

    private AwsError(String code, String message, int status, boolean sender, long retryAfterSeconds, List<String[]> details,
                     List<String[]> headers) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
        this.sender = sender;
        this.retryAfterSeconds = retryAfterSeconds;
        this.details = details;
        this.headers = headers;
    }

    /** The same error with one more element in its body (S3's {@code BucketName}, {@code Endpoint}...). */
    AwsError withDetail(String element, String value) {
        List<String[]> d = new ArrayList<>(details);
        d.add(new String[] {element, value});
        return new AwsError(code, getMessage(), status, sender, retryAfterSeconds, List.copyOf(d), headers);
    }

    /** The same error with one more response header (S3's {@code x-amz-bucket-region}). */
    AwsError withHeader(String name, String value) {
        List<String[]> h = new ArrayList<>(headers);
        h.add(new String[] {name, value});
        return new AwsError(code, getMessage(), status, sender, retryAfterSeconds, details, List.copyOf(h));
    }

    /** Extra body elements, name and text, in order (written by the S3 error shape). */
    List<String[]> details() {
        return details;
    }

    /** Extra response headers, name and value. */
    List<String[]> headers() {
        return headers;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    /** Client's fault ({@code Sender}) or the server's ({@code Receiver}). */
    public boolean sender() {
        return sender;
    }

    /** Seconds for a {@code Retry-After} header; 0 for none. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
