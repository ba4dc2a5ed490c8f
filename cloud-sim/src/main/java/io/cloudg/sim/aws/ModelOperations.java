package io.cloudg.sim.aws;

import io.cloudg.sim.aws.wire.Pojos;
import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.core.AwsType;
import io.cloudg.sim.estate.ModelTypes;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingKnownType;
import software.amazon.awssdk.core.traits.ListTrait;

/**
 * Operations declared as data and served from the SDK model ({@link ModelShapes}): the breadth of services
 * cloudg's collector catalog reads. Four kinds:
 * <ul>
 *   <li>{@link #list}: the caller's resources of a type, paged by the operation's own token and limit members
 *       (found in the model), each item assembled from assignments;</li>
 *   <li>{@link #children}: the same, narrowed to one parent named by a request member (a cluster's services,
 *       a zone's record sets);</li>
 *   <li>{@link #detail}: one resource named by a request member (its id, name or ARN; a list member takes its
 *       first element), answered with assignments, or the service's not-found error;</li>
 *   <li>{@link #singleton}: an account-level setting (a password policy, a Security Hub subscription).</li>
 * </ul>
 * REST operations are routed by the URI template of the SDK's own marshaller binding.
 */
final class ModelOperations {
    /** Request members that carry a page token, and response members that return one, most common first. */
    private static final List<String> TOKENS_IN = List.of("NextToken", "nextToken", "Marker", "marker", "position",
        "PaginationToken", "NextMarker");
    private static final List<String> TOKENS_OUT = List.of("NextToken", "nextToken", "NextMarker", "Marker", "marker",
        "position", "PaginationToken");
    private static final List<String> LIMITS = List.of("MaxResults", "maxResults", "MaxRecords", "Limit", "limit",
        "MaxItems", "maxItems", "PageSize");
    private static final Set<String> TRUNCATED = Set.of("IsTruncated", "Truncated");

    private final OpTable table;

    private ModelOperations(OpTable table) {
        this.table = table;
    }

    static void register(OpTable t) {
        ModelCatalog.register(new ModelOperations(t));
    }

    private void add(AwsService s, String operation, ModelShapes.Shape shape, AwsHandler handler) {
        if (s.protocol() == AwsProtocol.REST_JSON || s.protocol() == AwsProtocol.REST_XML) {
            table.rest(s, operation, ModelShapes.route(shape.requestClass()), null, shape.request(), handler);
        } else {
            table.op(s, operation, shape.request(), handler);
        }
    }

    /** A listing of {@code type}; {@code members} assign each item (none: the item is the resource's id string). */
    ModelOperations list(AwsService s, String operation, AwsType type, String listMember, String... members) {
        ModelShapes.Shape shape = ModelShapes.shape(ModelCatalog.client(s), operation);
        add(s, operation, shape, listing(s, shape, type, listMember, Listing.Source.of(type), members));
        return this;
    }

    /** A listing of the children of the parent the request's {@code parentMember} names. */
    ModelOperations children(AwsService s, String operation, AwsType type, String parentMember, String listMember,
                             String... members) {
        ModelShapes.Shape shape = ModelShapes.shape(ModelCatalog.client(s), operation);
        AwsType parentType = ModelTypes.parentType(type);
        Listing.Source source = (call, req) -> {
            AwsResource parent = find(call, parentType, Pojos.get(req, parentMember));
            return call.estate().list(call.account(), call.region(), type).stream()
                .filter(r -> parent.id().equals(ModelTypes.parentId(r))).toList();
        };
        add(s, operation, shape, listing(s, shape, type, listMember, source, members));
        return this;
    }

    /** One resource of {@code type}, named by {@code keyMember}, answered with {@code members}. */
    ModelOperations detail(AwsService s, String operation, AwsType type, String keyMember, String... members) {
        ModelShapes.Shape shape = ModelShapes.shape(ModelCatalog.client(s), operation);
        Map<String, ModelShapes.Value> assign = ModelShapes.assignments(members);
        add(s, operation, shape, (call, req) -> {
            AwsResource r = find(call, type, Pojos.get(req, keyMember));
            return ModelShapes.build(shape.response(), assign, r);
        });
        return this;
    }

    /**
     * An account-level answer (a Security Hub subscription): the caller's one resource of {@code type} in the
     * call's region fills the assignments; without one the service answers {@code absentCode}.
     */
    ModelOperations singleton(AwsService s, String operation, AwsType type, String absentCode, String... members) {
        ModelShapes.Shape shape = ModelShapes.shape(ModelCatalog.client(s), operation);
        Map<String, ModelShapes.Value> assign = ModelShapes.assignments(members);
        add(s, operation, shape, (call, req) -> {
            List<AwsResource> found = call.estate().list(call.account(), call.region(), type);
            if (found.isEmpty()) {
                throw AwsErrors.client(absentCode, type.cfnType() + " is not enabled in this account and region", 400);
            }
            return ModelShapes.build(shape.response(), assign, found.get(0));
        });
        return this;
    }

    private static Listing listing(AwsService s, ModelShapes.Shape shape, AwsType type, String listMember,
                                   Listing.Source source, String... members) {
        Map<String, ModelShapes.Value> assign = ModelShapes.assignments(members);
        SdkPojo request = shape.request().get();
        SdkPojo response = shape.response().get();
        SdkField<?> list = field(response, listMember);
        if (list == null || list.marshallingType().getKnownType() != MarshallingKnownType.LIST) {
            throw new IllegalArgumentException(s + " " + type + ": the response has no list member " + listMember);
        }
        SdkField<?> element = list.getTrait(ListTrait.class).memberFieldInfo();
        Listing.Item item;
        if (element.marshallingType().getKnownType() == MarshallingKnownType.SDK_POJO) {
            item = (call, r) -> ModelShapes.build(element.constructor(), assign, r);
        } else {
            ModelShapes.Value v = assign.isEmpty() ? AwsResource::id : assign.values().iterator().next();
            item = (call, r) -> String.valueOf(v.of(r));
        }
        return new Listing(shape.response(), listMember, paging(s, request, response), source, item);
    }

    /** The operation's paging in its own member names, read from the model. */
    private static Paging paging(AwsService s, SdkPojo request, SdkPojo response) {
        String in = first(request, TOKENS_IN);
        String out = first(response, TOKENS_OUT);
        String limit = first(request, LIMITS);
        String flag = TRUNCATED.stream().filter(f -> field(response, f) != null).findFirst().orElse(null);
        if (in == null || out == null) {
            return Paging.NONE;
        }
        int dflt = s == AwsService.EC2 && limit != null ? Integer.MAX_VALUE : 100;
        int min = s == AwsService.EC2 ? 5 : 1;
        return new Paging(in, out, limit, dflt, min, 10000, flag, false);
    }

    private static String first(SdkPojo p, List<String> names) {
        for (String n : names) {
            if (field(p, n) != null) {
                return n;
            }
        }
        return null;
    }

    private static SdkField<?> field(SdkPojo p, String member) {
        for (SdkField<?> f : p.sdkFields()) {
            if (f.memberName().equals(member)) {
                return f;
            }
        }
        return null;
    }

    /**
     * The caller's resource of {@code type} that {@code key} names (id, name or ARN; the first of a list),
     * in the call's region for regional types; the service's not-found error if there is none.
     */
    static AwsResource find(AwsCall call, AwsType type, Object key) {
        Object k = key instanceof Collection<?> c ? (c.isEmpty() ? null : c.iterator().next()) : key;
        if (k != null) {
            String wanted = k.toString();
            for (AwsResource r : call.estate().list(call.account(), call.region(), type)) {
                if (wanted.equals(r.id()) || wanted.equals(r.name()) || wanted.equals(r.arn())) {
                    return r;
                }
            }
        }
        throw AwsErrors.client(ModelCatalog.notFoundCode(call.service()), type.cfnType() + " " + k + " not found",
            call.service().protocol() == AwsProtocol.REST_JSON ? 404 : 400);
    }
}
