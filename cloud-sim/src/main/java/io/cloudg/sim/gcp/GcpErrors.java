package io.cloudg.sim.gcp;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.cloudg.sim.quota.BucketRef;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

/** Every gRPC error the Cloud Asset service answers with, with Google's rich error details. */
final class GcpErrors {
    private GcpErrors() {
    }

    static StatusRuntimeException rateLimited(String method, String parent, String consumer, long retryAfterNanos) {
        String metric = method.equals("ListAssets") ? "list_assets_requests" : "search_all_resources_requests";
        String limit = (method.equals("ListAssets") ? "ListAssetsRequests" : "SearchAllResourcesRequests")
            + "PerMinutePer" + (parent.startsWith("organizations/") ? "Org" : "Project");
        ErrorInfo info = ErrorInfo.newBuilder().setReason("RATE_LIMIT_EXCEEDED").setDomain("googleapis.com")
            .putMetadata("service", "cloudasset.googleapis.com")
            .putMetadata("quota_metric", "cloudasset.googleapis.com/" + metric)
            .putMetadata("quota_limit", limit)
            .putMetadata("consumer", consumer)
            .build();
        RetryInfo retry = RetryInfo.newBuilder().setRetryDelay(Duration.newBuilder()
            .setSeconds(retryAfterNanos / 1_000_000_000L).setNanos((int) (retryAfterNanos % 1_000_000_000L))).build();
        return status(Code.RESOURCE_EXHAUSTED, "Quota exceeded for quota metric 'cloudasset.googleapis.com/" + metric
            + "' and limit '" + limit + "' of service 'cloudasset.googleapis.com' for consumer '" + consumer + "'.",
            Any.pack(info), Any.pack(retry));
    }

    /**
     * Strict: Cloud Asset's quota error as the real service sends it: {@code RESOURCE_EXHAUSTED} with an
     * {@code ErrorInfo} naming the metric, the limit, its value and the consumer project, and no
     * {@code RetryInfo}.
     *
     * @param bucket   the refusing bucket (its name is the limit's)
     * @param consumer {@code projects/NUMBER} of the charged project
     */
    static StatusRuntimeException quotaExceeded(String method, BucketRef bucket, String consumer) {
        String metric = "cloudasset.googleapis.com/" + (method.equals("ListAssets") ? "list_assets_requests"
            : "search_all_resources_requests");
        String limit = bucket != null && bucket.name() != null ? bucket.name() : method + "RequestsPerMinutePerProject";
        long value = bucket == null ? 0 : Math.round(bucket.quota().capacity());
        ErrorInfo.Builder info = ErrorInfo.newBuilder().setReason("RATE_LIMIT_EXCEEDED").setDomain("googleapis.com")
            .putMetadata("service", "cloudasset.googleapis.com")
            .putMetadata("quota_metric", metric)
            .putMetadata("quota_limit", limit)
            .putMetadata("quota_limit_value", Long.toString(value))
            .putMetadata("quota_location", "global")
            .putMetadata("quota_unit", "1/min/{" + (limit.endsWith("Organization") ? "organization" : "project") + "}")
            .putMetadata("consumer", consumer);
        return status(Code.RESOURCE_EXHAUSTED, "Quota exceeded for quota metric '" + metric + "' and limit '" + limit
            + "' of service 'cloudasset.googleapis.com' for consumer '" + consumer + "'.", Any.pack(info.build()));
    }

    static StatusRuntimeException invalidArgument(String message) {
        return status(Code.INVALID_ARGUMENT, message);
    }

    static StatusRuntimeException permissionDenied(String parent) {
        return status(Code.PERMISSION_DENIED, "The caller does not have permission to access " + parent + ".",
            Any.pack(ErrorInfo.newBuilder().setReason("IAM_PERMISSION_DENIED").setDomain("cloudasset.googleapis.com")
                .putMetadata("resource", parent).build()));
    }

    static StatusRuntimeException unavailable(String message) {
        return status(Code.UNAVAILABLE, message);
    }

    static StatusRuntimeException status(Code code, String message, Any... details) {
        com.google.rpc.Status.Builder s = com.google.rpc.Status.newBuilder().setCode(code.getNumber()).setMessage(message);
        for (Any d : details) {
            s.addDetails(d);
        }
        return StatusProto.toStatusRuntimeException(s.build());
    }
}
