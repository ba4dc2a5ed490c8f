package io.cloudg.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * An account discovery found and the map left out, in {@code summary.skipped_accounts}: the reason is
 * {@link #SUSPENDED} (AWS Organizations says so: nothing in it can be read), {@link #EXCLUDED} (the
 * configuration leaves it out: {@code detail} names the key), or for another account state its name in
 * lower case ({@code pending_closure}). Skipping is not a gap in coverage: it does not change the exit code.
 *
 * @param name the account's name in the organization, or null
 * @param detail what decided it ({@code aws.exclude_accounts}, {@code aws.exclude_organizational_units Root/Sandbox},
 *        {@code not under aws.organizational_units}, {@code SUSPENDED in AWS Organizations})
 */
@JsonPropertyOrder({"provider", "account_id", "name", "reason", "detail"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SkippedAccount(@JsonProperty("provider") String provider, @JsonProperty("account_id") String accountId,
                             @JsonProperty("name") String name, @JsonProperty("reason") String reason,
                             @JsonProperty("detail") String detail) {
    public static final String SUSPENDED = "suspended";
    public static final String EXCLUDED = "excluded";

    public SkippedAccount {
        Objects.requireNonNull(provider);
        Objects.requireNonNull(accountId);
        Objects.requireNonNull(reason);
    }
}
