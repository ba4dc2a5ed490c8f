package io.cloudg.aws;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.protocol.MarshallingKnownType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;
import software.amazon.awssdk.utils.builder.SdkBuilder;

/**
 * The AWS SDK v2 read through its own model, so that a collector is data: an operation is found on the client
 * interface by its API name ({@code DescribeInstances} is {@code describeInstances(DescribeInstancesRequest)},
 * its paginator {@code describeInstancesPaginator(...)}), a request is built member by member through
 * {@link SdkPojo#sdkFields()}, a response is walked by member names ({@code Reservations.Instances}) and
 * serialized generically (member name to value, nested structures as maps, timestamps as ISO-8601, blobs in
 * base64). Lookups are cached per class.
 */
final class SdkModel {
    /** Each client interface's operations by API name (a class-keyed cache: no key string built per call). */
    private static final ClassValue<Map<String, Operation>> OPERATIONS = new ClassValue<>() {
        @Override
        protected Map<String, Operation> computeValue(Class<?> client) {
            return new ConcurrentHashMap<>();
        }
    };
    /** Each model class's static {@code builder()}, of type {@code () -> Object}, linked once. */
    private static final ClassValue<MethodHandle> BUILDERS = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            try {
                return MethodHandles.publicLookup().unreflect(type.getMethod("builder"))
                        .asType(MethodType.methodType(Object.class));
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException(type.getName() + " is not an SDK model class", e);
            }
        }
    };
    private static final Map<Class<?>, Map<String, SdkField<?>>> FIELDS = new ConcurrentHashMap<>();

    private SdkModel() {
    }

    /**
     * One operation of one client interface: {@code call} and {@code paginator} (null when the model has none)
     * are method handles of type {@code (Object client, Object request) -> Object}.
     */
    record Operation(Class<?> client, String name, MethodHandle call, MethodHandle paginator, Class<?> requestClass) {
        /** A request with {@code members} set (values converted to each member's type). */
        SdkRequest request(Map<String, Object> members) {
            return request(members, null);
        }

        /** A request with {@code members} set and {@code override} (an account's: {@link AccountClient#override()}), if given. */
        SdkRequest request(Map<String, Object> members, AwsRequestOverrideConfiguration override) {
            SdkPojo builder = builderOf(requestClass);
            for (Map.Entry<String, Object> e : members.entrySet()) {
                set(builder, e.getKey(), e.getValue());
            }
            if (override != null) {
                ((AwsRequest.Builder) builder).overrideConfiguration(override);
            }
            return (SdkRequest) ((SdkBuilder<?, ?>) builder).build();
        }

        /** One call. */
        SdkResponse invoke(Object client, SdkRequest request) {
            return (SdkResponse) SdkModel.invoke(call, client, request);
        }

        /** Every page: the SDK's paginator where the model has one, else the one answer. */
        Iterable<? extends SdkResponse> pages(Object client, SdkRequest request) {
            if (paginator == null) {
                return List.of(invoke(client, request));
            }
            @SuppressWarnings("unchecked")
            Iterable<? extends SdkResponse> pages = (Iterable<? extends SdkResponse>) SdkModel.invoke(paginator, client, request);
            return pages;
        }
    }

    /**
     * The operation {@code name} (the API's name, {@code ListMFADevices}) of {@code client}.
     *
     * @throws IllegalArgumentException when the client has no such operation
     */
    static Operation operation(Class<?> client, String name) {
        Map<String, Operation> ops = OPERATIONS.get(client);
        Operation op = ops.get(name); // a read first: this runs on every call, computeIfAbsent locks a bin
        return op != null ? op : ops.computeIfAbsent(name, k -> find(client, name));
    }

    /**
     * The operation by the SDK's naming convention ({@code DescribeInstances}: {@code describeInstances(DescribeInstancesRequest)}
     * returning {@code DescribeInstancesResponse} in the client's {@code model} package, its paginator
     * {@code describeInstancesPaginator(...)} returning {@code DescribeInstancesIterable} in {@code paginators}; the
     * model classes of a name with acronyms are named as {@link #modelName} says: {@code listMFADevices(ListMfaDevicesRequest)}), looked up
     * as method handles: the VM links the one method without building the reflection data of the whole client
     * interface, which would load every request and response class of the service (thousands of classes
     * across the catalog, seconds of CPU at every start). Any other spelling is found by scanning the
     * interface's methods, ignoring case.
     */
    private static Operation find(Class<?> client, String name) {
        Operation byConvention = byConvention(client, name, name);
        String stem = modelName(name);
        if (byConvention == null && !stem.equals(name)) {
            byConvention = byConvention(client, name, stem);
        }
        return byConvention != null ? byConvention : byScan(client, name);
    }

    /**
     * The SDK's model class stem for an API name whose words are acronyms: a run of capitals keeps its first
     * letter only, the run's last capital starting the next word when a lower-case letter follows
     * ({@code DescribeDBInstances}: {@code DescribeDbInstances}, {@code ListMFADevices}: {@code ListMfaDevices},
     * {@code ListWebACLs}: {@code ListWebAcLs}).
     */
    static String modelName(String name) {
        StringBuilder out = new StringBuilder(name.length());
        int i = 0;
        while (i < name.length()) {
            int run = i;
            while (run < name.length() && Character.isUpperCase(name.charAt(run))) {
                run++;
            }
            int end = run < name.length() && run - i > 1 ? run - 1 : run; // the last capital starts a word
            if (end > i) {
                out.append(name.charAt(i)).append(name.substring(i + 1, end).toLowerCase(java.util.Locale.ROOT));
                i = end;
            } else {
                out.append(name.charAt(i));
                i++;
            }
        }
        return out.toString();
    }

    private static final MethodType CALL = MethodType.methodType(Object.class, Object.class, Object.class);

    /** The operation {@code name} if its model classes are named {@code <stem>Request}, {@code <stem>Response}. */
    private static Operation byConvention(Class<?> client, String name, String stem) {
        String pkg = client.getPackageName();
        String method = Character.toLowerCase(name.charAt(0)) + name.substring(1);
        ClassLoader loader = client.getClassLoader();
        Class<?> request;
        Class<?> response;
        try {
            request = Class.forName(pkg + ".model." + stem + "Request", false, loader);
            response = Class.forName(pkg + ".model." + stem + "Response", false, loader);
        } catch (ClassNotFoundException e) {
            return null;
        }
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle call;
        try {
            call = lookup.findVirtual(client, method, MethodType.methodType(response, request)).asType(CALL);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
        MethodHandle paginator = null;
        try {
            Class<?> iterable = Class.forName(pkg + ".paginators." + stem + "Iterable", false, loader);
            paginator = lookup.findVirtual(client, method + "Paginator", MethodType.methodType(iterable, request)).asType(CALL);
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
            // no paginator: one answer per call
        }
        return new Operation(client, name, call, paginator, request);
    }

    private static Operation byScan(Class<?> client, String name) {
        Method call = null;
        Method paginator = null;
        for (Method m : client.getMethods()) {
            if (m.getParameterCount() != 1 || !SdkRequest.class.isAssignableFrom(m.getParameterTypes()[0])) {
                continue;
            }
            if (m.getName().equalsIgnoreCase(name) && SdkResponse.class.isAssignableFrom(m.getReturnType())) {
                call = m;
            } else if (m.getName().equalsIgnoreCase(name + "Paginator")) {
                paginator = m;
            }
        }
        if (call == null) {
            throw new IllegalArgumentException(client.getSimpleName() + " has no operation " + name);
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            return new Operation(client, name, lookup.unreflect(call).asType(CALL),
                    paginator == null ? null : lookup.unreflect(paginator).asType(CALL), call.getParameterTypes()[0]);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(client.getSimpleName() + "." + call.getName() + " is not accessible", e);
        }
    }

    private static Object invoke(MethodHandle m, Object target, Object arg) {
        try {
            return m.invokeExact(target, arg);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static SdkPojo builderOf(Class<?> type) {
        try {
            return (SdkPojo) (Object) BUILDERS.get(type).invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(type.getName() + ".builder() failed", e);
        }
    }

    static Map<String, SdkField<?>> fields(SdkPojo p) {
        return FIELDS.computeIfAbsent(p.getClass(), c -> {
            Map<String, SdkField<?>> m = new LinkedHashMap<>();
            for (SdkField<?> f : p.sdkFields()) {
                m.put(f.memberName(), f);
            }
            return m;
        });
    }

    /** The model member {@code member} of {@code p}, matched exactly, else ignoring case; null if none. */
    static SdkField<?> field(SdkPojo p, String member) {
        Map<String, SdkField<?>> fs = fields(p);
        SdkField<?> f = fs.get(member);
        if (f == null) {
            for (SdkField<?> g : fs.values()) {
                if (g.memberName().equalsIgnoreCase(member)) {
                    return g;
                }
            }
        }
        return f;
    }

    /** Sets a member on a builder, converting YAML scalars, lists and maps to the member's type. */
    static void set(SdkPojo builder, String member, Object value) {
        SdkField<?> f = field(builder, member);
        if (f == null) {
            throw new IllegalArgumentException(builder.getClass().getName().replace("$BuilderImpl", "") + " has no member "
                    + member);
        }
        f.set(builder, convert(f, value));
    }

    private static Object convert(SdkField<?> f, Object v) {
        if (v == null) {
            return null;
        }
        MarshallingKnownType kind = f.marshallingType().getKnownType();
        switch (kind) {
            case STRING:
                return String.valueOf(v);
            case INTEGER:
                return v instanceof Number n ? n.intValue() : Integer.valueOf(v.toString().trim());
            case LONG:
                return v instanceof Number n ? n.longValue() : Long.valueOf(v.toString().trim());
            case BOOLEAN:
                return v instanceof Boolean b ? b : Boolean.valueOf(v.toString().trim());
            case DOUBLE:
                return v instanceof Number n ? n.doubleValue() : Double.valueOf(v.toString().trim());
            case LIST: {
                SdkField<?> member = f.getTrait(ListTrait.class).memberFieldInfo();
                List<Object> out = new ArrayList<>();
                for (Object o : v instanceof Collection<?> c ? c : List.of(v)) {
                    out.add(convert(member, o));
                }
                return out;
            }
            case MAP: {
                SdkField<?> valueField = f.getTrait(MapTrait.class).valueFieldInfo();
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    out.put(String.valueOf(e.getKey()), convert(valueField, e.getValue()));
                }
                return out;
            }
            case SDK_POJO: {
                if (v instanceof SdkPojo) {
                    return v;
                }
                SdkPojo b = f.constructor().get();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    set(b, String.valueOf(e.getKey()), e.getValue());
                }
                return ((SdkBuilder<?, ?>) b).build();
            }
            default:
                throw new IllegalArgumentException("cannot set member " + f.memberName() + " of type " + kind + " from data");
        }
    }

    /** The value of {@code member} of {@code p}, or null (never set lists and maps are null). */
    static Object get(SdkPojo p, String member) {
        SdkField<?> f = field(p, member);
        if (f == null) {
            throw new IllegalArgumentException(p.getClass().getSimpleName() + " has no member " + member);
        }
        Object v = f.getValueOrDefault(p);
        return v instanceof SdkAutoConstructList || v instanceof SdkAutoConstructMap ? null : v;
    }

    /**
     * The values at a dotted member path ({@code Reservations.Instances}); a list met on the way is
     * flattened, so the answer is every value the path reaches, in order. {@code .} is the root itself.
     */
    static List<Object> path(Object root, String path) {
        List<Object> current = new ArrayList<>();
        add(current, root);
        if (path.equals(".")) {
            return current;
        }
        for (String step : path.split("\\.")) {
            List<Object> next = new ArrayList<>();
            for (Object o : current) {
                if (o instanceof SdkPojo p) {
                    add(next, get(p, step));
                } else if (o instanceof Map<?, ?> m) {
                    add(next, m.get(step));
                }
            }
            current = next;
        }
        return current;
    }

    private static void add(List<Object> into, Object v) {
        if (v == null) {
            return;
        }
        if (v instanceof Collection<?> c) {
            for (Object o : c) {
                if (o != null) {
                    into.add(o);
                }
            }
        } else {
            into.add(v);
        }
    }

    /** The first value at {@code path}, or null. */
    static Object first(Object root, String path) {
        List<Object> v = path(root, path);
        return v.isEmpty() ? null : v.get(0);
    }

    /**
     * An SDK object as the provider returned it: member name to value for every member the answer set,
     * nested structures as maps, lists as lists, timestamps as ISO-8601 text, blobs in base64. HTTP
     * header and status members of a response are left out (they describe the exchange, not the resource).
     */
    static Map<String, Object> serialize(SdkPojo p) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (SdkField<?> f : p.sdkFields()) {
            if (f.location() != software.amazon.awssdk.core.protocol.MarshallLocation.PAYLOAD) {
                continue;
            }
            Object v = f.getValueOrDefault(p);
            if (v == null || v instanceof SdkAutoConstructList || v instanceof SdkAutoConstructMap) {
                continue;
            }
            out.put(f.memberName(), plain(v));
        }
        return out;
    }

    /** A value as plain Java (maps, lists, strings, numbers, booleans). */
    static Object plain(Object v) {
        if (v instanceof SdkPojo p) {
            return serialize(p);
        }
        if (v instanceof Collection<?> c) {
            List<Object> l = new ArrayList<>(c.size());
            for (Object o : c) {
                l.add(plain(o));
            }
            return l;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(String.valueOf(e.getKey()), plain(e.getValue()));
            }
            return out;
        }
        if (v instanceof Instant i) {
            return i.toString();
        }
        if (v instanceof SdkBytes b) {
            return Base64.getEncoder().encodeToString(b.asByteArrayUnsafe());
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return v;
    }

    /** {@code text} as text for a template: strings as they are, other scalars by {@code toString}. */
    static String text(Object v) {
        if (v == null) {
            return null;
        }
        Object p = plain(v);
        return p instanceof String s ? s : String.valueOf(p);
    }

    /** Tag key/value pairs from a list of tag structures (Key/Value, TagKey/TagValue...) or a map. */
    static Map<String, String> tags(List<Object> values) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Object v : values) {
            if (v instanceof Map<?, ?> m) {
                m.forEach((k, val) -> out.put(String.valueOf(k), val == null ? "" : String.valueOf(val)));
            } else if (v instanceof SdkPojo p) {
                String key = null;
                String value = null;
                for (SdkField<?> f : p.sdkFields()) {
                    String n = f.memberName().toLowerCase(Locale.ROOT);
                    Object x = f.getValueOrDefault(p);
                    if (n.equals("key") || n.equals("tagkey")) {
                        key = x == null ? null : x.toString();
                    } else if (n.equals("value") || n.equals("tagvalue")) {
                        value = x == null ? null : x.toString();
                    }
                }
                if (key != null) {
                    out.put(key, value == null ? "" : value);
                }
            }
        }
        return out;
    }
}
