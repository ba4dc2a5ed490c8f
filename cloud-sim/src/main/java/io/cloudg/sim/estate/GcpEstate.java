package io.cloudg.sim.estate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The GCP organization, its projects and their assets. */
public final class GcpEstate {
    public static final String PROJECT_TYPE = "cloudresourcemanager.googleapis.com/Project";
    public static final String ORGANIZATION_TYPE = "cloudresourcemanager.googleapis.com/Organization";

    private final String organization;
    private final List<GcpProject> projects;
    private final Map<String, GcpProject> byIdOrNumber = new HashMap<>();
    private final Map<String, List<GcpAsset>> assets;
    private final List<GcpAsset> organizationAssets;

    private final Timeline timeline;

    GcpEstate(String organization, List<GcpProject> projects, Map<String, List<GcpAsset>> assets,
              List<GcpAsset> organizationAssets, Timeline timeline) {
        this.timeline = timeline;
        this.organization = organization;
        this.projects = List.copyOf(projects);
        for (GcpProject p : projects) {
            byIdOrNumber.put(p.id(), p);
            byIdOrNumber.put(Long.toString(p.number()), p);
        }
        this.assets = Map.copyOf(assets);
        this.organizationAssets = List.copyOf(organizationAssets);
    }

    /** Organization number. */
    public String organization() {
        return organization;
    }

    public List<GcpProject> projects() {
        return projects;
    }

    /** A project by id or number; null if unknown. */
    public GcpProject project(String idOrNumber) {
        return byIdOrNumber.get(idOrNumber);
    }

    /** Every asset the project ever holds (churned ones included), its own Project asset first, in ordinal order. */
    public List<GcpAsset> assets(GcpProject p) {
        return assets.getOrDefault(p.id(), List.of());
    }

    /** The project's assets that exist now. */
    public List<GcpAsset> assetsNow(GcpProject p) {
        long t = timeline.elapsedNanos();
        List<GcpAsset> all = assets(p);
        return all.stream().allMatch(a -> a.life().stable()) ? all : all.stream().filter(a -> a.life().existsAt(t)).toList();
    }

    /** Assets that belong to the organization itself (the Organization asset). */
    public List<GcpAsset> organizationAssets() {
        return organizationAssets;
    }
}
