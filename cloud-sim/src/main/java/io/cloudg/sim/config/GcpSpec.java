package io.cloudg.sim.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GCP organization.
 *
 * @param organization organization number (null: derived from the seed)
 * @param projects     projects under the organization
 * @param locations    zones' regions resources are spread over (zonal types get zone {@code -a})
 * @param counts       assets per project by Cloud Asset type ({@code compute.googleapis.com/Instance})
 * @param consumerProject the project of the caller's credentials (a project id): in {@code strict}, Cloud Asset
 *                     charges it for calls that name no {@code x-goog-user-project}; null: the estate's first
 *                     project
 */
public record GcpSpec(String organization, int projects, List<String> locations, Map<String, Integer> counts,
                      String consumerProject) {

    public GcpSpec {
        locations = List.copyOf(locations);
        counts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    }

    public GcpSpec(String organization, int projects, List<String> locations, Map<String, Integer> counts) {
        this(organization, projects, locations, counts, null);
    }

    static GcpSpec read(SpecNode n, GcpSpec dflt) {
        if (!n.present()) {
            return dflt;
        }
        n.onlyKeys("organization", "projects", "locations", "resources", "consumer_project");
        Map<String, Integer> counts = new LinkedHashMap<>();
        SpecNode res = n.get("resources");
        if (res.present()) {
            for (Map.Entry<String, SpecNode> e : res.entries().entrySet()) {
                if (!e.getKey().matches("[a-z]+\\.googleapis\\.com/[A-Z][A-Za-z]+")) {
                    throw e.getValue().error("expected a Cloud Asset type such as compute.googleapis.com/Instance");
                }
                counts.put(e.getKey(), e.getValue().nonNegativeInt(0));
            }
        } else {
            counts.putAll(dflt.counts());
        }
        return new GcpSpec(n.get("organization").matching("\\d{6,19}", "an organization number", dflt.organization()),
            n.get("projects").nonNegativeInt(dflt.projects()),
            n.get("locations").stringList(dflt.locations()),
            counts,
            n.get("consumer_project").matching("[a-z][a-z0-9-]{4,28}[a-z0-9]", "a GCP project id such as my-tools-project",
                dflt.consumerProject()));
    }
}
