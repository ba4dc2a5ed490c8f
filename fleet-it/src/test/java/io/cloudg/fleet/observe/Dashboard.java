package io.cloudg.fleet.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The Grafana dashboard of deploy/grafana: its queries, and each as plain PromQL (Grafana's variables filled in). */
public final class Dashboard {
    public static final Path FILE = Path.of("..").toAbsolutePath().normalize().resolve("deploy/grafana/cloudg-fleet.json");

    private Dashboard() {
    }

    /** Each target expression, as written in the dashboard. */
    public static List<String> queries() throws IOException {
        JsonNode d = new ObjectMapper().readTree(FILE.toFile());
        List<String> out = new ArrayList<>();
        for (JsonNode p : d.get("panels")) {
            for (JsonNode t : p.path("targets")) {
                out.add(t.get("expr").asText());
            }
        }
        return out;
    }

    /** {@code expr} as Prometheus would get it from Grafana: all jobs and providers, a 1m rate interval, a 1h range. */
    public static String promql(String expr) {
        return expr.replace("$__rate_interval", "1m").replace("$__range", "1h").replace("$job", ".*")
                .replace("$provider", ".*");
    }
}
