package io.cloudg.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.SpecException;
import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.http.SimRequest;
import io.cloudg.sim.http.SimResponse;
import java.util.Map;

/**
 * {@code /_sim}: {@code GET /_sim/truth} (optionally {@code ?provider=P&account=A}), {@code GET /_sim/findings} (the security findings the estate holds),
 * {@code GET /_sim/changes?from=K} (what changed since generation K), {@code GET /_sim/stats}, {@code GET /_sim/quotas} (the quota table in effect, each limit with its source),
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

    /**
     * The truth as JSON, written asset by asset as the estate is walked (nothing kept but the bytes):
     * {@code seed}, {@code realism}, {@code churn} (the window), {@code organization} (the AWS organization's
     * units and accounts, see {@link Organization}), {@code generation} and, after generation 0, {@code changes}
     * (see {@link Changes}), {@code assets} (each with {@code churn} when
     * churned) and {@code counts} ({@code assets}, {@code stable}, {@code churned}).
     */
    private byte[] truthJson(java.util.function.Predicate<Asset> keep) throws java.io.IOException {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream(1 << 16);
        long[] counts = new long[2];
        try (com.fasterxml.jackson.core.JsonGenerator g = JSON.getFactory().createGenerator(buf)) {
            g.setCodec(JSON);
            g.writeStartObject();
            g.writeNumberField("seed", sim.seed());
            g.writeStringField("realism", sim.options().estate().realism().id());
            io.cloudg.sim.config.ChurnSpec churn = sim.options().estate().effectiveChurn();
            g.writeObjectFieldStart("churn");
            g.writeNumberField("created", churn.created());
            g.writeNumberField("deleted", churn.deleted());
            g.writeNumberField("from_ms", churn.from().toMillis());
            g.writeNumberField("until_ms", churn.until().toMillis());
            g.writeEndObject();
            g.writeObjectField("organization", sim.organization());
            g.writeNumberField("generation", sim.generation());
            if (sim.generation() > 0) {
                g.writeObjectField("changes", sim.changes());
            }
            g.writeArrayFieldStart("assets");
            java.io.IOException[] failed = new java.io.IOException[1];
            sim.truth().forEach(a -> {
                if (failed[0] != null || !keep.test(a)) {
                    return;
                }
                counts[a.stable() ? 0 : 1]++;
                try {
                    g.writeObject(a);
                } catch (java.io.IOException e) {
                    failed[0] = e;
                }
            });
            if (failed[0] != null) {
                throw failed[0];
            }
            g.writeEndArray();
            g.writeObjectFieldStart("counts");
            g.writeNumberField("assets", counts[0] + counts[1]);
            g.writeNumberField("stable", counts[0]);
            g.writeNumberField("churned", counts[1]);
            g.writeEndObject();
            g.writeEndObject();
        }
        return buf.toByteArray();
    }

    SimResponse handle(SimRequest req) {
        try {
            switch (req.method() + " " + req.path()) {
                case "GET /_sim/truth" -> {
                    String provider = req.queryParam("provider");
                    String account = req.queryParam("account");
                    if (provider != null || account != null) {
                        return SimResponse.status(200).body("application/json", truthJson(a ->
                            (provider == null || a.provider().equals(provider))
                                && (account == null || a.account().equals(account)))).build();
                    }
                    byte[] t = truthJson;
                    if (t == null) {
                        t = truthJson(a -> true);
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
                case "GET /_sim/changes" -> {
                    String from = req.queryParam("from");
                    int f;
                    try {
                        f = from == null ? Math.max(0, sim.generation() - 1) : Integer.parseInt(from);
                        if (f < 0) {
                            throw new NumberFormatException();
                        }
                    } catch (NumberFormatException e) {
                        return SimResponse.status(400).body("application/json", JSON.writeValueAsBytes(Map.of("error",
                            "from: expected a generation (a non-negative integer), got \"" + from + "\""))).build();
                    }
                    return SimResponse.status(200).body("application/json", JSON.writeValueAsBytes(sim.changes(f))).build();
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
                            "routes", "GET /_sim/truth, GET /_sim/changes, GET /_sim/findings, GET /_sim/stats, GET /_sim/quotas, "
                            + "GET /_sim/health, PUT /_sim/faults"))).build();
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
