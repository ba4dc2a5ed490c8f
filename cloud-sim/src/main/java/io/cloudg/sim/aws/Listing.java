package io.cloudg.sim.aws;

import io.cloudg.sim.aws.wire.Pojos;
import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.estate.AwsType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkPojo;

/**
 * A generic listing: picks the caller's resources, cuts the page the request asks for, turns each
 * resource into the SDK item type and sets the list and the next token on the SDK response. Opaque
 * tokens encode the operation and the offset, so a token from another listing is refused.
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
        int start = start(call, request, all, key);
        int end = (int) Math.min((long) start + size, all.size());
        List<Object> items = new ArrayList<>(Math.max(0, end - start));
        for (int i = start; i < end; i++) {
            items.add(toItem.apply(all.get(i)));
        }
        call.meter().items(items.size());
        SdkPojo b = responseBuilder.get();
        Pojos.set(b, listMember, items);
        boolean more = end < all.size();
        if (more && paging.outToken() != null) {
            Pojos.set(b, paging.outToken(), paging.lastKey() ? key.apply(all.get(end - 1)) : encode(call.operation(), end));
        }
        if (paging.truncatedFlag() != null) {
            Pojos.set(b, paging.truncatedFlag(), more);
        }
        return Pojos.build(b);
    }

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

    private <T> int start(AwsCall call, SdkPojo request, List<T> all, Function<T, String> key) {
        if (paging.inToken() == null) {
            return 0;
        }
        Object t = Pojos.get(request, paging.inToken());
        if (t == null || t.toString().isEmpty()) {
            return 0;
        }
        String token = t.toString();
        if (paging.lastKey()) {
            for (int i = 0; i < all.size(); i++) {
                if (key.apply(all.get(i)).equals(token)) {
                    return i + 1;
                }
            }
            int idx = 0;
            while (idx < all.size() && key.apply(all.get(idx)).compareTo(token) <= 0) {
                idx++;
            }
            return idx;
        }
        int offset = decode(call.operation(), token);
        if (offset < 0 || offset > all.size()) {
            throw AwsErrors.invalidToken(call.service(), paging.inToken());
        }
        return offset;
    }

    static String encode(String operation, int offset) {
        String raw = "cloudg-sim|" + operation + "|" + offset;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    static int decode(String operation, String token) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            String[] p = raw.split("\\|");
            if (p.length != 3 || !p[0].equals("cloudg-sim") || !p[1].equals(operation)) {
                return -1;
            }
            return Integer.parseInt(p[2]);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }
}
