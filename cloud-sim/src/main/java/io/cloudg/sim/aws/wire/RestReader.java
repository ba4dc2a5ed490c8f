package io.cloudg.sim.aws.wire;

import io.cloudg.sim.http.SimRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallLocation;
import software.amazon.awssdk.core.traits.ListTrait;

/** Reads the URI path, query string and header members of a REST request. */
public final class RestReader {
    private RestReader() {
    }

    /**
     * Fills non-payload members of {@code builder}; does not build.
     *
     * @param pathVars values of the route's {@code {Name}} segments
     */
    public static void fill(SdkPojo builder, SimRequest req, Map<String, String> pathVars) {
        for (SdkField<?> f : builder.sdkFields()) {
            MarshallLocation loc = f.location();
            String name = f.locationName();
            Object v = null;
            if (loc == MarshallLocation.PATH || loc == MarshallLocation.GREEDY_PATH) {
                String s = pathVars.get(name);
                v = s == null ? null : Pojos.scalar(f, name, s);
            } else if (loc == MarshallLocation.QUERY_PARAM) {
                List<String> values = req.query().get(name);
                if (values != null && !values.isEmpty()) {
                    if (Pojos.kind(f) == software.amazon.awssdk.core.protocol.MarshallingKnownType.LIST) {
                        SdkField<?> member = f.getTrait(ListTrait.class).memberFieldInfo();
                        List<Object> out = new ArrayList<>();
                        for (String s : values) {
                            out.add(Pojos.scalar(member, name, s));
                        }
                        v = out;
                    } else if (Pojos.kind(f) != software.amazon.awssdk.core.protocol.MarshallingKnownType.MAP) {
                        v = Pojos.scalar(f, name, values.get(0));
                    }
                }
            } else if (loc == MarshallLocation.HEADER) {
                String s = req.header(name);
                if (s != null && Pojos.kind(f) != software.amazon.awssdk.core.protocol.MarshallingKnownType.MAP
                    && Pojos.kind(f) != software.amazon.awssdk.core.protocol.MarshallingKnownType.LIST) {
                    v = Pojos.scalar(f, name, s);
                }
            }
            if (v != null) {
                f.set(builder, v);
            }
        }
    }
}
