package io.cloudg.sim.aws;

import io.cloudg.sim.http.SimRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Every AWS operation the simulator serves, by service and name, plus the REST routing tables. */
public final class AwsCatalog {
    private final Map<AwsService, Map<String, AwsOperation>> byName = new EnumMap<>(AwsService.class);
    private final Map<AwsService, List<AwsOperation>> routes = new EnumMap<>(AwsService.class);

    /** A REST request matched to its operation. */
    public record RestMatch(AwsOperation operation, Map<String, String> pathVars) {
    }

    public AwsCatalog() {
        OpTable t = new OpTable();
        Ec2Operations.register(t);
        IdentityOperations.register(t);
        ServiceOperations.register(t);
        SweepOperations.register(t);
        ModelOperations.register(t);
        for (AwsOperation op : t.operations()) {
            AwsOperation prev = byName.computeIfAbsent(op.service(), s -> new HashMap<>()).put(op.name(), op);
            if (prev != null) {
                throw new IllegalStateException("duplicate operation " + op.service() + "." + op.name());
            }
            if (op.route() != null) {
                routes.computeIfAbsent(op.service(), s -> new ArrayList<>()).add(op);
            }
        }
        routes.values().forEach(l -> l.sort(Comparator.comparingInt((AwsOperation o) -> o.route().specificity()).reversed()));
    }

    public AwsOperation operation(AwsService service, String name) {
        Map<String, AwsOperation> m = byName.get(service);
        return m == null ? null : m.get(name);
    }

    /** All operations, for documentation and tests. */
    public List<AwsOperation> operations() {
        List<AwsOperation> out = new ArrayList<>();
        byName.values().forEach(m -> out.addAll(m.values()));
        out.sort(Comparator.comparing((AwsOperation o) -> o.service().id()).thenComparing(AwsOperation::name));
        return out;
    }

    /**
     * The REST operation of {@code service} (or of a service signing with the same name: API Gateway v1 and
     * v2) this request addresses; null if none.
     */
    public RestMatch route(AwsService service, SimRequest req) {
        RestMatch m = routeOf(service, req);
        for (AwsService other : AwsService.values()) {
            if (m == null && other != service && other.signingName().equals(service.signingName())) {
                m = routeOf(other, req);
            }
        }
        return m;
    }

    private RestMatch routeOf(AwsService service, SimRequest req) {
        for (AwsOperation op : routes.getOrDefault(service, List.of())) {
            Map<String, String> vars = op.route().match(req.method(), req.path(), req::hasQueryParam);
            if (vars != null) {
                return new RestMatch(op, vars);
            }
        }
        return null;
    }

    /** For unsigned REST requests: the first service with a matching route. */
    public RestMatch routeAny(SimRequest req) {
        for (AwsService s : routes.keySet()) {
            RestMatch m = routeOf(s, req);
            if (m != null) {
                return m;
            }
        }
        return null;
    }
}
