package io.cloudg.destination;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.inventory.RunFiles;
import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a run's results go besides {@code output_dir}: how many run directories to keep there
 * ({@code keep_runs}, default {@value RunFiles#DEFAULT_KEEP}) and the {@code destinations} written while
 * the run streams.
 *
 * <pre>{@code
 * keep_runs: 10
 * destinations:
 *   - {type: postgres, url: "postgresql://cloudg@db:5432/inventory", schema: cloudg, password_env: CLOUDG_PG_PASSWORD}
 * }</pre>
 */
public record OutputSettings(int keepRuns, List<DestinationSpec> destinations) {
    public static final OutputSettings DEFAULTS = new OutputSettings(RunFiles.DEFAULT_KEEP, List.of());

    public OutputSettings {
        if (keepRuns < 1) {
            throw ConfigErrors.mustBe("keep_runs", "an integer >= 1", keepRuns);
        }
        destinations = List.copyOf(destinations);
    }

    /**
     * {@code keep_runs} and {@code destinations} of the root mapping; each entry is read by the
     * {@link DestinationType} its {@code type} names.
     */
    public static OutputSettings load(ConfigNode root) {
        int keep = root.integer("keep_runs", DEFAULTS.keepRuns(), 1);
        List<DestinationSpec> out = new ArrayList<>();
        JsonNode list = root.raw("destinations");
        if (list != null) {
            if (!list.isArray()) {
                throw ConfigErrors.mustBe("destinations", "a list of destinations (- type: postgres ...)",
                        ConfigNode.show(list));
            }
            for (int i = 0; i < list.size(); i++) {
                ConfigNode d = ConfigNode.at("destinations[" + i + "]", list.get(i), root.warnings());
                String type = d.string("type", null);
                Map<String, DestinationType> types = DestinationType.installed();
                if (type == null || !types.containsKey(type)) {
                    throw ConfigErrors.mustBe(d.key("type"), "one of " + String.join(", ", types.keySet()),
                            type == null ? "(unset)" : type);
                }
                out.add(types.get(type).load(d));
            }
        }
        return new OutputSettings(keep, out);
    }

    public OutputSettings withKeepRuns(int n) {
        if (n < 1) {
            throw ConfigErrors.mustBe("--keep", "an integer >= 1", n);
        }
        return new OutputSettings(n, destinations);
    }

    /** These settings with one more destination. */
    public OutputSettings withDestination(DestinationSpec d) {
        List<DestinationSpec> all = new ArrayList<>(destinations);
        all.add(d);
        return new OutputSettings(keepRuns, all);
    }

    @Override
    public String toString() {
        return "OutputSettings{keep_runs=" + keepRuns + ", destinations="
                + destinations.stream().map(DestinationSpec::describe).toList() + "}";
    }
}
