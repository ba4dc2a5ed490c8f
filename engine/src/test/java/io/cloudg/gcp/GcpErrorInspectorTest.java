package io.cloudg.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import io.cloudg.resilience.Classification;
import io.cloudg.resilience.Classifier;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.core.QuotaWindow;
import io.grpc.protobuf.StatusProto;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a Cloud Asset quota error tells the governor: its ErrorInfo's quota as a window, and no retry hint. */
class GcpErrorInspectorTest {
    static ErrorInfo quota(Map<String, String> metadata) {
        return ErrorInfo.newBuilder().setReason("RATE_LIMIT_EXCEEDED").setDomain("googleapis.com").putAllMetadata(metadata)
                .build();
    }

    @Test
    void aQuotaErrorsLimitAndUnitAreItsWindow() {
        assertThat(GcpErrorInspector.window(quota(Map.of("quota_limit_value", "100", "quota_unit", "1/min/{project}"))))
                .isEqualTo(QuotaWindow.sized(100, TimeUnit.MINUTES.toNanos(1)).per("project"));
        assertThat(GcpErrorInspector.window(quota(Map.of("quota_limit_value", "800",
                "quota_unit", "1/min/{organization}")))).isEqualTo(QuotaWindow.sized(800, TimeUnit.MINUTES.toNanos(1))
                .per("organization"));
        assertThat(GcpErrorInspector.window(quota(Map.of("quota_limit_value", "2000", "quota_unit", "1/100s/{project}"))))
                .isEqualTo(QuotaWindow.sized(2000, TimeUnit.SECONDS.toNanos(100)).per("project"));
        assertThat(GcpErrorInspector.window(quota(Map.of("quota_limit_value", "5000", "quota_unit", "1/d"))))
                .isEqualTo(QuotaWindow.sized(5000, TimeUnit.DAYS.toNanos(1)));
    }

    @Test
    void anIncompleteOrUnreadableQuotaSaysNothing() {
        assertThat(GcpErrorInspector.window(null)).isEqualTo(QuotaWindow.NONE);
        assertThat(GcpErrorInspector.window(quota(Map.of("quota_limit", "ListAssetsRequestsPerMinutePerProject"))))
                .isEqualTo(QuotaWindow.NONE);
        assertThat(GcpErrorInspector.window(quota(Map.of("quota_limit_value", "0", "quota_unit", "1/min/{project}"))))
                .isEqualTo(QuotaWindow.NONE);
        assertThat(GcpErrorInspector.window(quota(Map.of("quota_limit_value", "100", "quota_unit", "per minute"))))
                .isEqualTo(QuotaWindow.NONE);
    }

    @Test
    void aResourceExhaustedWithoutRetryInfoIsThrottledWithItsWindowAndNoHint() {
        com.google.rpc.Status s = com.google.rpc.Status.newBuilder().setCode(Code.RESOURCE_EXHAUSTED_VALUE)
                .setMessage("Quota exceeded for quota metric 'cloudasset.googleapis.com/list_assets_requests'")
                .addDetails(Any.pack(quota(Map.of("quota_limit_value", "100", "quota_unit", "1/min/{project}"))))
                .build();
        Classification c = Classifier.defaultClassifier().explain(StatusProto.toStatusRuntimeException(s), 0);
        assertThat(c.errorClass()).isEqualTo(ErrorClass.THROTTLED);
        assertThat(c.hasRetryAfter()).isFalse();
        assertThat(c.window()).isEqualTo(QuotaWindow.sized(100, TimeUnit.MINUTES.toNanos(1)).per("project"));
        assertThat(c.summary()).startsWith("RESOURCE_EXHAUSTED: RATE_LIMIT_EXCEEDED: Quota exceeded");
    }
}
