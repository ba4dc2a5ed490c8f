package io.cloudg.sim.aws;

import software.amazon.awssdk.core.SdkPojo;

/** Answers one operation: SDK request object in, built SDK response object out (or an {@link AwsError}). */
@FunctionalInterface
public interface AwsHandler {
    SdkPojo handle(AwsCall call, SdkPojo request);
}
