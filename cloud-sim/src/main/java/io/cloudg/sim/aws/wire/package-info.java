/**
 * Generic AWS wire formats driven by the SDK's own model.
 *
 * <p>Every generated SDK request and response class describes its members at run time through
 * {@link software.amazon.awssdk.core.SdkPojo#sdkFields()}: member name, marshalling type, location
 * (payload, query string, header, URI path), wire name for each direction, list member names, flattening
 * and timestamp format. The readers here build SDK request objects from the wire
 * ({@link io.cloudg.sim.aws.wire.QueryReader} for EC2 and awsQuery forms,
 * {@link io.cloudg.sim.aws.wire.JsonReader} for awsJson and restJson bodies,
 * {@link io.cloudg.sim.aws.wire.RestReader} for URI/query/header members) and the writers serialize SDK
 * response objects ({@link io.cloudg.sim.aws.wire.XmlWriter} for EC2, awsQuery and restXml,
 * {@link io.cloudg.sim.aws.wire.JsonWriter} for awsJson and restJson) exactly the way the SDK's
 * unmarshallers read them back. Adding an operation therefore needs no wire code at all: a handler
 * returns an SDK response object and these classes put it on the wire.
 */
package io.cloudg.sim.aws.wire;
