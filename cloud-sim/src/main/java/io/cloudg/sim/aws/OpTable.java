package io.cloudg.sim.aws;

import io.cloudg.sim.aws.wire.Pojos;
import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.core.AwsType;
import java.util.ArrayList;
import java.util.Collection;
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

    /**
     * The caller's resources of {@code type}, narrowed to those whose id, name or ARN the request's
     * {@code member} (a string or a list of strings) names, when it names any.
     */
    static Listing.Source narrowedBy(AwsType type, String member) {
        return (call, req) -> {
            List<AwsResource> all = call.estate().list(call.account(), call.region(), type);
            Object wanted = Pojos.get(req, member);
            if (wanted == null) {
                return all;
            }
            Collection<?> names = wanted instanceof Collection<?> c ? c : List.of(wanted);
            return all.stream().filter(r -> names.contains(r.id()) || names.contains(r.name()) || names.contains(r.arn()))
                .toList();
        };
    }

    /** Post-processing of a response: adds echoed or fixed members, wraps a nested payload. */
    @FunctionalInterface
    interface After {
        SdkPojo apply(AwsCall call, SdkPojo request, SdkPojo response);
    }

    /** A handler that post-processes another handler's response. */
    static AwsHandler then(AwsHandler h, After after) {
        return (call, req) -> after.apply(call, req, h.handle(call, req));
    }

    /** A listing of one resource type in the caller's account and region. */
    OpTable list(AwsService s, String name, Supplier<? extends SdkPojo> request, Supplier<? extends SdkPojo> response,
                 String listMember, Paging paging, AwsType type, Listing.Item item) {
        return op(s, name, request, new Listing(response, listMember, paging, Listing.Source.of(type), item));
    }
}
