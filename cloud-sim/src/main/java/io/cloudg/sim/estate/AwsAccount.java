package io.cloudg.sim.estate;

import java.time.Instant;
import java.util.List;

/**
 * One account of the organization.
 *
 * @param status   {@code ACTIVE} or {@code SUSPENDED} (a suspended account lists nothing and cannot be
 *                 entered: AssumeRole into it is refused)
 * @param parentId the root or organizational unit it sits in
 * @param regions  the regions enabled in it: the estate's regions, then the opt-in regions it enabled
 */
public record AwsAccount(String id, String name, String email, boolean management, Instant joined, String status,
                         String parentId, List<String> regions) {
    public static final String ACTIVE = "ACTIVE";
    public static final String SUSPENDED = "SUSPENDED";

    public AwsAccount {
        regions = regions == null ? List.of() : List.copyOf(regions);
    }

    /** An active account, outside any organization structure. */
    public AwsAccount(String id, String name, String email, boolean management, Instant joined) {
        this(id, name, email, management, joined, ACTIVE, null, List.of());
    }

    public boolean suspended() {
        return SUSPENDED.equals(status);
    }
}
