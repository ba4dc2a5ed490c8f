package io.cloudg.sim.aws;

import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkPojo;

/**
 * One operation of the catalogue: its name, the SDK request class's builder (the wire readers fill it),
 * its handler and, for REST services, its route and the XML root element name.
 */
public record AwsOperation(AwsService service, String name, Supplier<? extends SdkPojo> requestBuilder,
                           AwsHandler handler, RestRoute route, String xmlRoot) {
}
