package io.cloudg.sim.aws;

/** The AWS wire protocols, as SDK 2.40.2 speaks them for the services the simulator serves. */
public enum AwsProtocol {
    /** Form POST, {@code <XResponse>} root without a result wrapper, lists flattened as {@code Name.N}. */
    EC2_QUERY,
    /** Form POST, {@code <XResponse><XResult>}, lists as {@code Name.member.N}. */
    AWS_QUERY,
    /** POST with {@code X-Amz-Target}, {@code application/x-amz-json-1.0}. */
    AWS_JSON_1_0,
    /** POST with {@code X-Amz-Target}, {@code application/x-amz-json-1.1}. */
    AWS_JSON_1_1,
    /** REST routes with JSON bodies. */
    REST_JSON,
    /** REST routes with XML bodies. */
    REST_XML;

    public boolean isJson() {
        return this == AWS_JSON_1_0 || this == AWS_JSON_1_1;
    }

    public boolean isQuery() {
        return this == EC2_QUERY || this == AWS_QUERY;
    }

    public boolean isRest() {
        return this == REST_JSON || this == REST_XML;
    }
}
