package io.cloudg.sim.estate;

/**
 * The organization's root or one of its organizational units.
 *
 * @param id       {@code r-xxxx} for the root, {@code ou-xxxx-yyyyyyyy} for a unit
 * @param name     {@code Root}, or the unit's name ({@code Web})
 * @param path     {@code Root}, or the names from the root ({@code Root/Prod/Web})
 * @param parentId the parent's id; null for the root
 * @param arn      {@code arn:aws:organizations::MGMT:root/o-.../r-...} or {@code ...:ou/o-.../ou-...}
 */
public record AwsOrgUnit(String id, String name, String path, String parentId, String arn) {
    public boolean root() {
        return parentId == null;
    }
}
