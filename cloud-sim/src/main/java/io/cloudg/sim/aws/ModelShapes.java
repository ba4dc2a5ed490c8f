package io.cloudg.sim.aws;

import io.cloudg.sim.estate.AwsResource;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.protocol.MarshallingKnownType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.utils.builder.SdkBuilder;

/**
 * The SDK model as data for the operations of {@link ModelOperations}: an operation's request and response
 * classes found on the service's client interface ({@code ListWebACLs} is
 * {@code listWebACLs(ListWebAcLsRequest)}), its REST route read from the SDK's own marshaller binding
 * (method and URI template), and SDK objects assembled from member assignments such as
 * {@code VpcEndpointId=id}, {@code State='available'}, {@code Config.PrivateZone='false'},
 * {@code clusters[].clusterArn=arn} or {@code Tags=tags}, whose values come from the resource.
 */
final class ModelShapes {
    private ModelShapes() {
    }

    /** An operation's request builder and response builder. */
    record Shape(Supplier<SdkPojo> request, Supplier<SdkPojo> response, Class<?> requestClass) {
    }

    static Shape shape(Class<?> client, String operation) {
        for (Method m : client.getMethods()) {
            if (m.getName().equalsIgnoreCase(operation) && m.getParameterCount() == 1
                && SdkRequest.class.isAssignableFrom(m.getParameterTypes()[0])
                && SdkResponse.class.isAssignableFrom(m.getReturnType())) {
                Class<?> req = m.getParameterTypes()[0];
                Class<?> resp = m.getReturnType();
                return new Shape(() -> builder(req), () -> builder(resp), req);
            }
        }
        throw new IllegalArgumentException(client.getSimpleName() + " has no operation " + operation);
    }

    private static SdkPojo builder(Class<?> type) {
        try {
            return (SdkPojo) type.getMethod("builder").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type.getName() + " is not an SDK model class", e);
        }
    }

    /** {@code GET /2015-03-31/functions/{FunctionName}/policy}: the route the SDK's marshaller sends the operation to. */
    static String route(Class<?> requestClass) {
        String simple = requestClass.getSimpleName();
        String marshaller = requestClass.getPackageName().replace(".model", ".transform") + "."
            + simple.substring(0, simple.length() - "Request".length()) + "RequestMarshaller";
        try {
            Field f = Class.forName(marshaller).getDeclaredField("SDK_OPERATION_BINDING");
            f.setAccessible(true);
            software.amazon.awssdk.protocols.core.OperationInfo info =
                (software.amazon.awssdk.protocols.core.OperationInfo) f.get(null);
            String uri = info.requestUri().replace("+}", "}");
            // S3 binds the bucket outside the URI template (virtual host or path style): ?policy is /{Bucket}?policy
            return info.httpMethod().name() + " " + (uri.startsWith("?") ? "/{Bucket}" + uri : uri);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no marshaller binding for " + requestClass.getName(), e);
        }
    }

    /** Where an assigned value comes from. */
    @FunctionalInterface
    interface Value {
        Object of(AwsResource r);
    }

    /** Parses {@code Member.Path=source} assignments; sources: id, name, arn, region, account, zone, created, tags, 'literal'. */
    static Map<String, Value> assignments(String... specs) {
        Map<String, Value> out = new LinkedHashMap<>();
        for (String s : specs) {
            int eq = s.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("an assignment is Member=source, but was " + s);
            }
            out.put(s.substring(0, eq), source(s.substring(eq + 1)));
        }
        return out;
    }

    static final Object TAGS = new Object();

    private static Value source(String s) {
        if (s.startsWith("'") && s.endsWith("'") && s.length() >= 2) {
            String literal = s.substring(1, s.length() - 1);
            if (!literal.contains("{")) {
                return r -> literal;
            }
            return r -> literal.replace("{region}", r.region()).replace("{account}", r.account())
                .replace("{id}", r.id()).replace("{name}", r.name());
        }
        return switch (s) {
            case "id" -> AwsResource::id;
            case "name" -> AwsResource::name;
            case "arn" -> AwsResource::arn;
            case "region" -> AwsResource::region;
            case "account" -> AwsResource::account;
            case "zone" -> r -> r.zone() != null ? r.zone() : r.region() + "a";
            case "created" -> AwsResource::created;
            case "vpc" -> AwsResource::vpcId;
            case "tags" -> r -> TAGS;
            default -> throw new IllegalArgumentException("unknown value source " + s);
        };
    }

    /** An SDK object built from {@code assignments} for resource {@code r}. */
    static SdkPojo build(Supplier<SdkPojo> builder, Map<String, Value> assignments, AwsResource r) {
        Map<String, Object> tree = new LinkedHashMap<>();
        assignments.forEach((path, v) -> put(tree, path.split("\\."), 0, v.of(r)));
        return pojo(builder.get(), tree, r);
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> tree, String[] path, int i, Object v) {
        if (i == path.length - 1) {
            tree.put(path[i], v);
            return;
        }
        Object child = tree.computeIfAbsent(path[i], k -> new LinkedHashMap<String, Object>());
        put((Map<String, Object>) child, path, i + 1, v);
    }

    @SuppressWarnings("unchecked")
    private static SdkPojo pojo(SdkPojo builder, Map<String, Object> tree, AwsResource r) {
        for (Map.Entry<String, Object> e : tree.entrySet()) {
            String member = e.getKey();
            boolean listOfOne = member.endsWith("[]");
            if (listOfOne) {
                member = member.substring(0, member.length() - 2);
            }
            SdkField<?> f = field(builder, member);
            Object v = e.getValue();
            Object value;
            if (v == TAGS) {
                value = tags(f, r);
            } else if (v instanceof Map<?, ?> m && f.marshallingType().getKnownType() == MarshallingKnownType.MAP) {
                value = convert(f, m);
            } else if (v instanceof Map<?, ?> m) {
                SdkField<?> structure = listOfOne ? f.getTrait(ListTrait.class).memberFieldInfo() : f;
                SdkPojo built = pojo(structure.constructor().get(), (Map<String, Object>) m, r);
                value = listOfOne ? List.of(built) : built;
            } else {
                value = convert(listOfOne ? f.getTrait(ListTrait.class).memberFieldInfo() : f, v);
                value = listOfOne ? List.of(value) : value;
            }
            f.set(builder, value);
        }
        return (SdkPojo) ((SdkBuilder<?, ?>) builder).build();
    }

    private static SdkField<?> field(SdkPojo p, String member) {
        for (SdkField<?> f : p.sdkFields()) {
            if (f.memberName().equals(member)) {
                return f;
            }
        }
        throw new IllegalArgumentException(p.getClass().getName() + " has no member " + member);
    }

    /** The resource's tags ({@code Name}, and {@code env} once a generation set it) in the member's shape: a map, or a list of Key/Value structures. */
    private static Object tags(SdkField<?> f, AwsResource r) {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("Name", r.name());
        if (r.env() != null) {
            tags.put("env", r.env());
        }
        MarshallingKnownType kind = f.marshallingType().getKnownType();
        if (kind == MarshallingKnownType.MAP) {
            return tags;
        }
        SdkField<?> member = f.getTrait(ListTrait.class).memberFieldInfo();
        List<Object> out = new ArrayList<>();
        tags.forEach((k, v) -> {
            SdkPojo tag = member.constructor().get();
            for (SdkField<?> tf : tag.sdkFields()) {
                String n = tf.memberName().toLowerCase(java.util.Locale.ROOT);
                if (n.equals("key") || n.equals("tagkey")) {
                    tf.set(tag, k);
                } else if (n.equals("value") || n.equals("tagvalue")) {
                    tf.set(tag, v);
                }
            }
            out.add(((SdkBuilder<?, ?>) tag).build());
        });
        return out;
    }

    /** A value in the member's Java type. */
    static Object convert(SdkField<?> f, Object v) {
        if (v == null) {
            return null;
        }
        MarshallingKnownType kind = f.marshallingType().getKnownType();
        String s = v instanceof Instant ? v.toString() : String.valueOf(v);
        return switch (kind) {
            case STRING -> s;
            case INTEGER -> Integer.valueOf(s);
            case LONG -> v instanceof Instant i ? i.toEpochMilli() : Long.valueOf(s);
            case BOOLEAN -> Boolean.valueOf(s);
            case DOUBLE -> Double.valueOf(s);
            case FLOAT -> Float.valueOf(s);
            case BIG_DECIMAL -> new BigDecimal(s);
            case INSTANT -> v instanceof Instant i ? i : Instant.parse(s);
            case LIST -> {
                SdkField<?> member = f.getTrait(ListTrait.class).memberFieldInfo();
                List<Object> out = new ArrayList<>();
                for (Object o : v instanceof Collection<?> c ? c : List.of(v)) {
                    out.add(convert(member, o));
                }
                yield out;
            }
            case MAP -> {
                SdkField<?> valueField = f.getTrait(MapTrait.class).valueFieldInfo();
                Map<String, Object> out = new LinkedHashMap<>();
                ((Map<?, ?>) v).forEach((k, x) -> out.put(String.valueOf(k), convert(valueField, x)));
                yield out;
            }
            default -> throw new IllegalArgumentException("cannot assign member " + f.memberName() + " of type " + kind);
        };
    }
}
