package io.cloudg.sim.aws.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;

/**
 * Reads EC2 and awsQuery form parameters into an SDK request. awsQuery lists are
 * {@code Name.member.N} (or {@code Name.N} when flattened), maps {@code Name.entry.N.key}; EC2 lists are
 * always {@code Name.N}; structures are {@code Name.Member}.
 */
public final class QueryReader {
    private QueryReader() {
    }

    /**
     * @param builder a fresh builder of the request class
     * @param params  the form, sorted by name
     * @param ec2     EC2 dialect (every list flattened)
     */
    public static SdkPojo read(SdkPojo builder, NavigableMap<String, String> params, boolean ec2) {
        fill(builder, "", params, ec2);
        return Pojos.build(builder);
    }

    private static void fill(SdkPojo b, String prefix, NavigableMap<String, String> params, boolean ec2) {
        for (SdkField<?> f : b.sdkFields()) {
            Object v = value(f, prefix + f.locationName(), params, ec2);
            if (v != null) {
                f.set(b, v);
            }
        }
    }

    private static Object value(SdkField<?> f, String name, NavigableMap<String, String> params, boolean ec2) {
        switch (Pojos.kind(f)) {
            case LIST -> {
                ListTrait lt = f.getTrait(ListTrait.class);
                String base = ec2 || lt.isFlattened() ? name
                    : name + "." + (lt.memberLocationName() != null ? lt.memberLocationName() : "member");
                List<Object> out = new ArrayList<>();
                for (int i = 1; ; i++) {
                    Object item = value(lt.memberFieldInfo(), base + "." + i, params, ec2);
                    if (item == null) {
                        break;
                    }
                    out.add(item);
                }
                return Pojos.listOrNull(out);
            }
            case MAP -> {
                MapTrait mt = f.getTrait(MapTrait.class);
                String base = mt.isFlattened() ? name : name + ".entry";
                Map<String, Object> out = new LinkedHashMap<>();
                for (int i = 1; ; i++) {
                    String k = params.get(base + "." + i + "." + mt.keyLocationName());
                    if (k == null) {
                        break;
                    }
                    out.put(k, value(mt.valueFieldInfo(), base + "." + i + "." + mt.valueLocationName(), params, ec2));
                }
                return out.isEmpty() ? null : out;
            }
            case SDK_POJO -> {
                String p = name + ".";
                String next = params.ceilingKey(p);
                if (next == null || !next.startsWith(p)) {
                    return null;
                }
                SdkPojo nested = f.constructor().get();
                fill(nested, p, params, ec2);
                return Pojos.build(nested);
            }
            default -> {
                String s = params.get(name);
                return s == null ? null : Pojos.scalar(f, name, s);
            }
        }
    }
}
