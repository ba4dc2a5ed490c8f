package io.cloudg.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.SpecException;
import io.cloudg.sim.http.SimRequest;
import io.cloudg.sim.http.SimResponse;
import java.util.Map;

/**
 * {@code /_sim}: {@code GET /_sim/truth}, {@code GET /_sim/findings} (the security findings the estate holds),
 * {@code GET /_sim/stats}, {@code GET /_sim/quotas} (the quota table in effect, each limit with its source),
 * {@code GET /_sim/health} and {@code PUT /_sim/faults} (a fault file as the body;
 * replaces the rules).
 */
final class AdminService {
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private final CloudSim sim;
    private volatile byte[] truthJson;

    AdminService(CloudSim sim) {
        this.sim = sim;
    }

    SimResponse handle(SimRequest req) {
        try {
            switch (req.method() + " " + req.path()) {
                case "GET /_sim/truth" -> {
                    byte[] t = truthJson;
                    if (t == null) {
                        t = JSON.writeValueAsBytes(Map.of("assets", sim.truth().assets()));
                        truthJson = t;
                    }
                    return SimResponse.status(200).body("application/json", t).build();
                }
                case "GET /_sim/findings" -> {
                    return SimResponse.status(200).body("application/json", JSON.writeValueAsBytes(sim.findings())).build();
                }
                case "GET /_sim/stats" -> {
                    return SimResponse.status(200).body("application/json", JSON.writeValueAsBytes(sim.stats())).build();
                }
                case "GET /_sim/quotas" -> {
                    return SimResponse.status(200).body("application/json", JSON.writeValueAsBytes(Map.of(
                        "realism", sim.options().estate().realism().id(),
                        "quotas", sim.options().estate().quotas().table()))).build();
                }
                case "GET /_sim/health" -> {
                    return SimResponse.status(200).body("application/json", "{\"status\":\"ok\"}").build();
                }
                case "PUT /_sim/faults", "POST /_sim/faults" -> {
                    try {
                        sim.setFaults(FaultSpec.fromYaml(req.bodyUtf8()));
                    } catch (SpecException e) {
                        return SimResponse.status(400).body("application/json",
                            JSON.writeValueAsBytes(Map.of("error", e.getMessage()))).build();
                    }
                    return SimResponse.status(200).body("application/json", "{\"status\":\"ok\"}").build();
                }
                default -> {
                    return SimResponse.status(404).body("application/json",
                        JSON.writeValueAsBytes(Map.of("error", "no such admin route: " + req.method() + " " + req.path(),
                            "routes", "GET /_sim/truth, GET /_sim/findings, GET /_sim/stats, GET /_sim/quotas, "
                            + "GET /_sim/health, PUT /_sim/faults"))).build();
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
