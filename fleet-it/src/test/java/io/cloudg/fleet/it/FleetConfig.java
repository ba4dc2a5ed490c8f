package io.cloudg.fleet.it;

import io.cloudg.CloudGConfig;
import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetSettings;
import java.nio.file.Path;

/** One fleet test's {@code cloudg.yaml}, read as the CLI reads it: the map's sections and the fleet's. */
public record FleetConfig(CloudGConfig config, FleetSettings fleet) {
    static FleetConfig fromYaml(String yaml) {
        return of(ConfigFile.fromYaml(yaml));
    }

    static FleetConfig load(Path file) {
        return of(ConfigFile.load(file));
    }

    private static FleetConfig of(ConfigFile f) {
        return new FleetConfig(CloudGConfig.from(f), FleetSettings.from(f));
    }
}
