package io.cloudg.mcp.guard;

import java.util.List;

/**
 * Why a live call did not start, in the words of the -31029 payload.
 *
 * @param tool the tool refused
 * @param reason busy, cooldown or quota
 * @param limit the {@code ratelimit.live_*} key that refused
 * @param retryAfterSeconds whole seconds until a retry could pass (rounded up, at least 1)
 * @param useDataset the newest saved dataset covering the same providers, or null if there is none
 * @param scopes the scopes in the way (empty for the overall cap and the quota)
 */
public record Refusal(String tool, RefusalReason reason, String limit, long retryAfterSeconds, String useDataset,
                      List<String> scopes) {
    public Refusal {
        scopes = List.copyOf(scopes);
    }

    /** One line for the error message. */
    public String message() {
        String what = switch (reason) {
            case BUSY -> scopes.isEmpty() ? "the server already runs its maximum of live operations"
                    : "a live operation is already running on " + String.join(", ", scopes);
            case COOLDOWN -> String.join(", ", scopes) + " cooling down after a recent live operation";
            case QUOTA -> "this caller's quota of live operations is used up";
        };
        return tool + " refused (" + reason.wire() + ", " + limit + "): " + what + "; retry in " + retryAfterSeconds + " s"
                + (useDataset == null ? "" : " or use dataset " + useDataset);
    }
}
