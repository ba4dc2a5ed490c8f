package io.cloudg.sim.aws;

import io.cloudg.sim.aws.wire.Pojos;
import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.core.AwsType;
import io.cloudg.sim.paging.BadPageToken;
import io.cloudg.sim.paging.Pager;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkPojo;

/**
 * A generic listing: picks the caller's resources, cuts the page the request asks for (through the
 * simulator's {@link Pager}: full pages and offset tokens in lenient, seeded short and empty pages and sealed
 * cursors in strict), turns each resource into the SDK item type and sets the list and the next token on the
 * SDK response. A token from another listing, account or region is refused with the service's own error.
 */
public final class Listing implements AwsHandler {

    /** Which resources a call lists. */
    @FunctionalInterface
    public interface Source {
        List<AwsResource> select(AwsCall call, SdkPojo request);

        /** The caller's resources of one type in the call's account and region. */
        static Source of(AwsType type) {
            return (call, req) -> call.estate().list(call.account(), call.region(), type);
        }
    }

    /** Turns one resource into the listing's SDK item (an SDK object or a plain string). */
    @FunctionalInterface
    public interface Item {
        Object of(AwsCall call, AwsResource r);
    }

    private final Supplier<? extends SdkPojo> responseBuilder;
    private final String listMember;
    private final Paging paging;
    private final Source source;
    private final Item item;

    public Listing(Supplier<? extends SdkPojo> responseBuilder, String listMember, Paging paging, Source source, Item item) {
        this.responseBuilder = responseBuilder;
        this.listMember = listMember;
        this.paging = paging;
        this.source = source;
        this.item = item;
    }

    @Override
    public SdkPojo handle(AwsCall call, SdkPojo request) {
        return page(call, request, source.select(call, request), AwsResource::id, r -> item.of(call, r));
    }

    /**
     * A listing of things that are not estate resources (a user's MFA devices): {@code items} picks them,
     * {@code item} turns one into the SDK item. Paged like any listing; {@link Paging#lastKey()} is not
     * supported.
     */
    public static <T> AwsHandler of(Supplier<? extends SdkPojo> responseBuilder, String listMember, Paging paging,
                                    BiFunction<AwsCall, SdkPojo, List<T>> items,
                                    BiFunction<AwsCall, T, Object> item) {
        if (paging.lastKey()) {
            throw new IllegalArgumentException("a listing of " + listMember + " cannot page by last key");
        }
        Listing shape = new Listing(responseBuilder, listMember, paging, null, null);
        return (call, request) -> shape.page(call, request, items.apply(call, request), t -> {
            throw new IllegalStateException("no key");
        }, t -> item.apply(call, t));
    }

    private <T> SdkPojo page(AwsCall call, SdkPojo request, List<T> all, Function<T, String> key,
                             Function<T, Object> toItem) {
        int size = pageSize(call, request);
        List<T> page;
        String next = null;
        if (paging.lastKey()) {
            int start = lastKeyStart(request, all, key);
            page = all.subList(start, (int) Math.min((long) start + size, all.size()));
            if (start + page.size() < all.size()) {
                next = key.apply(page.get(page.size() - 1));
            }
        } else if (paging.inToken() == null) {
            page = all;
        } else {
            Object t = Pojos.get(request, paging.inToken());
            try {
                Pager.Page<T> p = call.context().pager().page(call.operation() + "|" + call.account() + "|" + call.region(),
                    all, ORDINAL_OF_RESOURCES, t == null ? null : t.toString(), size);
                page = p.items();
                next = p.nextToken();
            } catch (BadPageToken e) {
                throw AwsErrors.invalidToken(call.service(), paging.inToken());
            }
        }
        List<Object> items = new ArrayList<>(page.size());
        for (T item : page) {
            items.add(toItem.apply(item));
        }
        call.meter().items(items.size());
        SdkPojo b = responseBuilder.get();
        Pojos.set(b, listMember, items);
        if (next != null && paging.outToken() != null) {
            Pojos.set(b, paging.outToken(), next);
        }
        if (paging.truncatedFlag() != null) {
            Pojos.set(b, paging.truncatedFlag(), next != null);
        }
        return Pojos.build(b);
    }

    /**
     * Resources are paged by ordinal, type first (the tagging sweep lists several types in one listing):
     * a cursor is never confused by resources appearing or disappearing between pages. Other items (MFA
     * devices) by index.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final java.util.function.ToLongFunction ORDINAL_OF_RESOURCES = item -> item instanceof AwsResource r
        ? ((long) r.type().ordinal() << 44) + r.ordinal() + (1L << 43) : -1;

    private int pageSize(AwsCall call, SdkPojo request) {
        if (paging.limitMember() == null) {
            return paging.defaultSize();
        }
        Object v = Pojos.get(request, paging.limitMember());
        if (v == null) {
            return paging.defaultSize();
        }
        int n;
        try {
            n = v instanceof Number num ? num.intValue() : Integer.parseInt(v.toString().trim());
        } catch (NumberFormatException e) {
            throw AwsErrors.invalidParameter(call.service(), "Value '" + v + "' for parameter " + paging.limitMember()
                + " is invalid. Expected an integer.");
        }
        if (n < paging.minSize() || n > paging.maxSize()) {
            throw AwsErrors.invalidParameter(call.service(), "Value '" + n + "' for parameter " + paging.limitMember()
                + " is invalid. Expected a value between " + paging.minSize() + " and " + paging.maxSize() + ".");
        }
        return n;
    }

    /** DynamoDB's paging: the token is the last name returned, and the next page starts after it. */
    private <T> int lastKeyStart(SdkPojo request, List<T> all, Function<T, String> key) {
        Object t = Pojos.get(request, paging.inToken());
        if (t == null || t.toString().isEmpty()) {
            return 0;
        }
        String token = t.toString();
        int idx = 0;
        while (idx < all.size() && key.apply(all.get(idx)).compareTo(token) <= 0) {
            idx++;
        }
        return idx;
    }
}
