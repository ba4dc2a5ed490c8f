package io.cloudg.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.CloudGConfig;
import io.cloudg.resilience.config.RateLimitConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Binds a YAML tree to {@link CloudGConfig}. The {@code ratelimit} block is the governor's own loader. */
public final class ConfigLoader {
    /** Top-level keys; {@code fleet} is read by the fleet's own loader (coordinator), and is valid here too. */
    static final Set<String> KEYS = Set.of("providers", "aws", "azure", "gcp", "ratelimit", "output_dir", "workers",
            "mcp", "fleet");

    private ConfigLoader() {
    }

    public static CloudGConfig load(JsonNode root, CloudGConfig.Builder b) {
        Yaml y = Yaml.root(root);
        List<String> warnings = new ArrayList<>();
        y.warnUnknown(KEYS, warnings);
        if (y.has("providers")) {
            List<String> p = y.strings("providers", List.of(), null, null);
            b.providers(p.toArray(String[]::new));
        }
        b.aws(AwsSettings.load(y.section("aws"), warnings));
        b.azure(AzureSettings.load(y.section("azure"), warnings));
        b.gcp(GcpSettings.load(y.section("gcp"), warnings));
        b.ratelimit(RateLimitConfig.fromTree(y.raw("ratelimit"), warnings));
        b.mcp(McpSettings.load(y.section("mcp"), warnings));
        String out = y.string("output_dir", null);
        if (out != null) {
            b.outputDir(Path.of(out));
        }
        Integer workers = y.integer("workers", null, 1);
        if (workers != null) {
            b.workers(workers);
        }
        warnings.forEach(b::warning);
        return b.build();
    }
}
