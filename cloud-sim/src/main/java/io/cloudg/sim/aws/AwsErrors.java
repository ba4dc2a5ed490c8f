package io.cloudg.sim.aws;

/** Every AWS error the simulator answers with, in each service's own codes and statuses. */
public final class AwsErrors {
    private AwsErrors() {
    }

    /** The service's throttling error ({@code RequestLimitExceeded}, {@code Throttling}, ...). */
    public static AwsError throttled(AwsService s, long retryAfterSeconds) {
        String msg = s == AwsService.EC2 ? "Request limit exceeded." : s == AwsService.S3
            ? "Please reduce your request rate." : "Rate exceeded";
        return new AwsError(s.throttleCode(), msg, s.throttleStatus(), true, retryAfterSeconds);
    }

    /** An action the service (or the simulator) does not have. */
    public static AwsError unknownOperation(AwsService s, String operation) {
        String op = operation == null ? "" : operation;
        return switch (s.protocol()) {
            case EC2_QUERY -> new AwsError("InvalidAction", "The action " + op + " is not valid for this web service.", 400,
                true, 0);
            case AWS_QUERY -> new AwsError("InvalidAction", "Could not find operation " + op + " for version "
                + "of service " + s.signingName() + ".", 400, true, 0);
            case AWS_JSON_1_0, AWS_JSON_1_1 -> unknownJsonOperation(op);
            case REST_JSON -> new AwsError("UnknownOperationException", "Unknown operation " + op, 404, true, 0);
            case REST_XML -> s == AwsService.S3
                ? new AwsError("NotImplemented", "A header or query you provided implies functionality that is not "
                    + "implemented: " + op, 501, true, 0)
                : new AwsError("InvalidAction", "Unknown operation " + op, 404, true, 0);
        };
    }

    /** awsJson's answer to a target it does not know, also used when the target prefix is unknown. */
    public static AwsError unknownJsonOperation(String target) {
        return new AwsError("UnknownOperationException", "Unknown operation " + target, 400, true, 0);
    }

    public static AwsError accessDenied(AwsService s, String message) {
        return switch (s.protocol()) {
            case EC2_QUERY -> new AwsError("UnauthorizedOperation", message, 403, true, 0);
            case AWS_QUERY -> new AwsError("AccessDenied", message, 403, true, 0);
            case AWS_JSON_1_0, AWS_JSON_1_1 -> new AwsError("AccessDeniedException", message, 400, true, 0);
            case REST_JSON -> new AwsError("AccessDeniedException", message, 403, true, 0);
            case REST_XML -> new AwsError("AccessDenied", message, 403, true, 0);
        };
    }

    /** A server-side failure the SDK retries. */
    public static AwsError transientFailure(AwsService s) {
        return switch (s.protocol()) {
            case EC2_QUERY -> new AwsError("InternalError", "An internal error has occurred", 500, false, 0);
            case REST_XML -> new AwsError("InternalError", "We encountered an internal error. Please try again.", 500,
                false, 0);
            default -> new AwsError("InternalFailure", "The request processing has failed because of an unknown error, "
                + "exception or failure.", 500, false, 0);
        };
    }

    /** A bad parameter value (page size out of range, malformed token, unparsable number). */
    public static AwsError invalidParameter(AwsService s, String message) {
        return switch (s.protocol()) {
            case EC2_QUERY -> new AwsError("InvalidParameterValue", message, 400, true, 0);
            case AWS_QUERY -> new AwsError(s == AwsService.IAM || s == AwsService.CLOUDFORMATION
                || s == AwsService.AUTOSCALING ? "ValidationError" : "InvalidParameterValue", message, 400, true, 0);
            case AWS_JSON_1_0, AWS_JSON_1_1 -> new AwsError(s == AwsService.ORGANIZATIONS ? "InvalidInputException"
                : "ValidationException", message, 400, true, 0);
            case REST_JSON -> new AwsError(s == AwsService.APIGATEWAY || s == AwsService.EFS ? "BadRequestException"
                : s == AwsService.LAMBDA ? "InvalidParameterValueException" : "InvalidParameterException", message, 400,
                true, 0);
            case REST_XML -> new AwsError(s == AwsService.S3 ? "InvalidArgument" : "InvalidInput", message, 400, true, 0);
        };
    }

    /** A pagination token this listing did not issue. */
    public static AwsError invalidToken(AwsService s, String member) {
        String msg = "Invalid " + member + ": the token was not issued by this listing";
        String code = switch (s) {
            case EC2, SSM, SQS -> "InvalidNextToken";
            case ORGANIZATIONS -> "InvalidInputException";
            case KMS -> "InvalidMarkerException";
            case ACM -> "InvalidArgsException";
            case SECRETSMANAGER -> "InvalidNextTokenException";
            case LOGS, ECR -> "InvalidParameterException";
            case TAGGING -> "PaginationTokenExpiredException";
            default -> null;
        };
        return code == null ? invalidParameter(s, msg) : new AwsError(code, msg, 400, true, 0);
    }

    /** An S3 error about one bucket; its body names the bucket ({@code BucketName}) as S3's does. */
    public static AwsError s3Bucket(String code, String message, int status, String bucket) {
        return new AwsError(code, message, status, true, 0).withDetail("BucketName", bucket);
    }

    /** S3's {@code NoSuchBucket}. */
    public static AwsError noSuchBucket(String bucket) {
        return s3Bucket("NoSuchBucket", "The specified bucket does not exist", 404, bucket);
    }

    /**
     * S3's answer to a bucket request sent to (signed for) another region than the bucket's: 301
     * {@code PermanentRedirect} with the bucket's region in {@code x-amz-bucket-region}, which is what the
     * SDK's cross-region access reads to re-send the request.
     */
    public static AwsError permanentRedirect(String bucket, String region) {
        return new AwsError("PermanentRedirect", "The bucket you are attempting to access must be addressed using the "
            + "specified endpoint. Please send all future requests to this endpoint.", 301, true, 0)
            .withDetail("Endpoint", "s3." + region + ".amazonaws.com").withDetail("Bucket", bucket)
            .withHeader("x-amz-bucket-region", region);
    }

    /**
     * A call signed for an opt-in region the account has not enabled: AWS does not recognise the credentials
     * there (EC2's {@code AuthFailure}, the query services' {@code InvalidClientTokenId}, the JSON services'
     * {@code UnrecognizedClientException}).
     */
    public static AwsError regionNotEnabled(AwsService s, String region) {
        String msg = "The security token included in the request is invalid: region " + region
            + " is not enabled for this account";
        return switch (s.protocol()) {
            case EC2_QUERY -> new AwsError("AuthFailure", "AWS was not able to validate the provided access credentials: "
                + "region " + region + " is not enabled for this account", 401, true, 0);
            case AWS_QUERY -> new AwsError("InvalidClientTokenId", msg, 403, true, 0);
            case AWS_JSON_1_0, AWS_JSON_1_1 -> new AwsError("UnrecognizedClientException", msg, 400, true, 0);
            case REST_JSON -> new AwsError("UnrecognizedClientException", msg, 403, true, 0);
            case REST_XML -> new AwsError("InvalidAccessKeyId", msg, 403, true, 0);
        };
    }

    /** A specific client error with its own code. */
    public static AwsError client(String code, String message, int status) {
        return new AwsError(code, message, status, true, 0);
    }
}
