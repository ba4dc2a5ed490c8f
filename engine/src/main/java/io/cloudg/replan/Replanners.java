package io.cloudg.replan;

import io.cloudg.CloudGConfig;
import io.cloudg.azure.AzureProvider;
import io.cloudg.collect.TaskSummary;
import io.cloudg.resilience.Governor;
import io.cloudg.config.StartupException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The providers that can be planned here and re-planned elsewhere, opened once per process and shared by
 * every task. A provider that cannot re-plan a task from its target (and so cannot map as a fleet nor retry
 * failed entries) fails the start with a clear line, rather than mapping part of the estate.
 */
public final class Replanners implements AutoCloseable {
    /** Providers that can be re-planned (mapped as a fleet, retried) in this build. */
    public static final List<String> SUPPORTED = List.of("aws", "azure", "gcp");

    private final Map<String, Replanner> open = new LinkedHashMap<>();
    private final CloudGConfig config;
    private final Governor governor;
    private final int maxConnections;

    private Replanners(CloudGConfig config, Governor governor, int maxConnections) {
        this.config = config;
        this.governor = governor;
        this.maxConnections = maxConnections;
    }

    /** Opens {@code names} (the configured providers, for a coordinator) with {@code governor}. */
    public static Replanners open(List<String> names, CloudGConfig config, Governor governor, int maxConnections) {
        Replanners p = new Replanners(config, governor, maxConnections);
        for (String n : names) {
            if (!SUPPORTED.contains(n)) {
                p.close();
                throw new StartupException("mapping " + n + " as a fleet is not available in this build (fleet providers: "
                        + String.join(", ", SUPPORTED) + ")");
            }
            p.get(n);
        }
        return p;
    }

    /** Opens nothing yet: each provider is opened by the first task that needs it (a worker's way). */
    public static Replanners lazy(CloudGConfig config, Governor governor, int maxConnections) {
        return new Replanners(config, governor, maxConnections);
    }

    /**
     * The entry a provider derives from a whole record's entries once all its parts are in (Azure's
     * {@code azure_full}), or null: the coordinator adds it when assembling the record, as the embedded
     * runner adds it when a task's last job ends.
     */
    public static TaskSummary summaryOf(String provider) {
        return "azure".equals(provider) ? AzureProvider.summary() : null;
    }

    /**
     * Tells the governor's store that {@code provider}'s calls go to the estate its configuration and
     * {@code discovery} (a task target's facts: AWS's management account) name ({@link io.cloudg.Estates}), so that
     * its learned state is that estate's; nothing when the estate cannot be told. A coordinator calls it after
     * discovery, a worker before each task (the first estate told for a provider holds).
     */
    public void useEstate(String provider, Map<String, String> discovery) {
        io.cloudg.run.EstateKeys.tell(governor, provider, io.cloudg.Estates.key(provider, config, discovery));
    }

    /** How many calls each collector of the configuration makes (its call shapes: {@link CloudGConfig#callShapes}). */
    public io.cloudg.run.CallEstimates callEstimates() {
        return new io.cloudg.run.CallEstimates(io.cloudg.run.PriorRun.NONE, config.callShapes());
    }

    /** The governor every provider's calls go through. */
    public Governor governor() {
        return governor;
    }

    public synchronized List<Replanner> all() {
        return new ArrayList<>(open.values());
    }

    /**
     * The provider named, opened on first use.
     *
     * @throws IllegalArgumentException for a provider the fleet cannot map in this build
     */
    public synchronized Replanner get(String name) {
        Replanner p = open.get(name);
        if (p == null) {
            if (!SUPPORTED.contains(name)) {
                throw new IllegalArgumentException("provider " + name + " cannot run on a fleet worker of this build");
            }
            p = switch (name) {
                case "azure" -> PlannerReplanner.azure(config, governor);
                case "gcp" -> PlannerReplanner.gcp(config, governor, maxConnections);
                default -> new AwsReplanner(config, governor, maxConnections);
            };
            open.put(name, p);
        }
        return p;
    }

    @Override
    public synchronized void close() {
        for (Replanner p : open.values()) {
            try {
                p.close();
            } catch (RuntimeException e) {
                // closing is best effort; the process is ending or the run is over
            }
        }
        open.clear();
    }
}
