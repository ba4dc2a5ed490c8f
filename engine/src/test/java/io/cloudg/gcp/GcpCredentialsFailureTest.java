package io.cloudg.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.gax.grpc.GrpcStatusCode;
import com.google.api.gax.rpc.PermissionDeniedException;
import com.google.api.gax.rpc.UnauthenticatedException;
import com.google.api.gax.rpc.UnavailableException;
import io.grpc.Status;
import org.junit.jupiter.api.Test;

/** Which failures of the project listing stop the start (credentials) and which the map reports (the rest). */
class GcpCredentialsFailureTest {
    @Test
    void onlyATokenGoogleRejectsOrCouldNotGetStopsTheMapARefusalIsReported() {
        assertThat(GcpProvider.credentialsFailed(new UnauthenticatedException(
                Status.UNAUTHENTICATED.withDescription("Request had invalid authentication credentials").asRuntimeException(),
                GrpcStatusCode.of(Status.Code.UNAUTHENTICATED), false))).isTrue();
        assertThat(GcpProvider.credentialsFailed(new RuntimeException("wrapped", Status.UNAUTHENTICATED
                .withDescription("Failed computing credential metadata").withCause(new java.io.IOException("no token"))
                .asRuntimeException()))).as("gRPC's report of credentials that got no token").isTrue();
        assertThat(GcpProvider.credentialsFailed(new PermissionDeniedException(
                Status.PERMISSION_DENIED.withDescription("The caller does not have permission").asRuntimeException(),
                GrpcStatusCode.of(Status.Code.PERMISSION_DENIED), false))).as("an authenticated caller refused").isFalse();
        assertThat(GcpProvider.credentialsFailed(new UnavailableException(Status.UNAVAILABLE.asRuntimeException(),
                GrpcStatusCode.of(Status.Code.UNAVAILABLE), true))).isFalse();
        assertThat(GcpProvider.credentialsFailed(new IllegalStateException("anything else"))).isFalse();
    }
}
