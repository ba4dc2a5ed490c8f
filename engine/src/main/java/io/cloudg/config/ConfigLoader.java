package io.cloudg.config;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.resilience.config.RateLimitConfig;
import java.nio.file.Path;
import java.util.List;

/** Binds the worker's sections of a {@link ConfigFile} to {@link CloudGConfig}. The {@code ratelimit} block is the governor's own loader. */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    public static CloudGConfig load(ConfigFile file, CloudGConfig.Builder b) {
        ConfigNode y = file.root();
        if (y.has("providers")) {
            List<String> p = y.strings("providers", List.of(), null, null);
            b.providers(p.toArray(String[]::new));
        }
        b.aws(AwsSettings.load(y.section("aws")));
        b.azure(AzureSettings.load(y.section("azure")));
        b.gcp(GcpSettings.load(y.section("gcp")));
        b.ratelimit(RateLimitConfig.from(y.section("ratelimit")));
        b.output(OutputSettings.load(y));
        String out = y.string("output_dir", null);
        if (out != null) {
            b.outputDir(Path.of(out));
        }
        Integer workers = y.integer("workers", null, 1);
        if (workers != null) {
            b.workers(workers);
        }
        file.warnings().forEach(b::warning);
        return b.build();
    }
}
