package io.cloudg.sim.aws;

import io.cloudg.sim.estate.AwsType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkPojo;

/** A small DSL the catalogue files use to declare operations as data. */
final class OpTable {
    private final List<AwsOperation> ops = new ArrayList<>();

    List<AwsOperation> operations() {
        return ops;
    }

    /** A query or JSON operation with its own handler. */
    OpTable op(AwsService s, String name, Supplier<? extends SdkPojo> request, AwsHandler handler) {
        ops.add(new AwsOperation(s, name, request, handler, null, null));
        return this;
    }

    /** A REST operation: {@code route} such as {@code GET /2015-03-31/functions}. */
    OpTable rest(AwsService s, String name, String route, String xmlRoot, Supplier<? extends SdkPojo> request,
                 AwsHandler handler) {
        int sp = route.indexOf(' ');
        ops.add(new AwsOperation(s, name, request, handler, RestRoute.of(route.substring(0, sp), route.substring(sp + 1)),
            xmlRoot));
        return this;
    }

    /** A listing of one resource type in the caller's account and region. */
    OpTable list(AwsService s, String name, Supplier<? extends SdkPojo> request, Supplier<? extends SdkPojo> response,
                 String listMember, Paging paging, AwsType type, Listing.Item item) {
        return op(s, name, request, new Listing(response, listMember, paging, Listing.Source.of(type), item));
    }
}
