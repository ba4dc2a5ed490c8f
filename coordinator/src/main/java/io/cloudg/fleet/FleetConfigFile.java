package io.cloudg.fleet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.cloudg.CloudGConfig;
import io.cloudg.resilience.config.ConfigErrors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code cloudg.yaml} read for a fleet process: the {@code fleet} block as {@link FleetSettings}, the
 * rest as the usual {@link CloudGConfig} (coordinator and workers read the same file, typically one
 * ConfigMap), and the warnings about keys nobody reads, from both.
 */
public record FleetConfigFile(CloudGConfig config, FleetSettings fleet, List<String> warnings) {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public FleetConfigFile {
        warnings = List.copyOf(warnings);
    }

    public static FleetConfigFile defaults() {
        return new FleetConfigFile(CloudGConfig.builder().build(), FleetSettings.DEFAULTS, List.of());
    }

    public static FleetConfigFile load(Path file) {
        try {
            return fromYaml(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw ConfigErrors.mustBe("--config", "an existing file", file.toString());
        } catch (IOException e) {
            throw ConfigErrors.invalid("--config", "cannot read " + file + ": " + e.getMessage());
        }
    }

    public static FleetConfigFile fromYaml(String yaml) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml == null ? "" : yaml);
        } catch (JsonProcessingException e) {
            throw ConfigErrors.invalid("(config)", "the YAML could not be read: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return defaults();
        }
        if (!(root instanceof ObjectNode obj)) {
            throw ConfigErrors.mustBe("(config)", "a mapping", root.getNodeType());
        }
        ObjectNode rest = obj.deepCopy();
        JsonNode fleet = rest.remove("fleet");
        try {
            CloudGConfig config = CloudGConfig.fromYaml(YAML.writeValueAsString(rest));
            List<String> warnings = new ArrayList<>(config.warnings());
            FleetSettings settings = FleetSettings.load(fleet, warnings);
            return new FleetConfigFile(config, settings, warnings);
        } catch (JsonProcessingException e) {
            throw ConfigErrors.invalid("(config)", "cannot re-read the configuration: " + e.getOriginalMessage());
        }
    }
}
