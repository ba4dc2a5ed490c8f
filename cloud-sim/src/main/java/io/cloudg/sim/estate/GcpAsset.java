package io.cloudg.sim.estate;

/**
 * One Cloud Asset.
 *
 * @param assetType     {@code compute.googleapis.com/Instance}
 * @param name          full resource name, {@code //compute.googleapis.com/projects/p/zones/z/instances/i}
 * @param project       owning project, or null for organization-level assets
 * @param location      zone, region or {@code global}
 * @param displayName   short name
 * @param parentName    full resource name of the parent (project or organization)
 * @param parentType    asset type of the parent
 * @param ordinal       its place in its project's listing (page cursors are ordinals)
 * @param life          when it exists ({@link Lifetime#ALWAYS} unless it churns while a map runs)
 * @param env           its {@code env} label, set by the estate generation that last modified it; null if none
 */
public record GcpAsset(String assetType, String name, GcpProject project, String location, String displayName,
                       String parentName, String parentType, long ordinal, Lifetime life, String env) {

    GcpAsset with(long ordinal, Lifetime life) {
        return new GcpAsset(assetType, name, project, location, displayName, parentName, parentType, ordinal, life, env);
    }

    GcpAsset withEnv(String e) {
        return new GcpAsset(assetType, name, project, location, displayName, parentName, parentType, ordinal, life, e);
    }

    /** The API's service, {@code compute} for {@code compute.googleapis.com/Instance}. */
    public String service() {
        return assetType.substring(0, assetType.indexOf('.'));
    }
}
