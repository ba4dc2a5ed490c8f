package io.cloudg.run;

import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.EstateKeyed;
import java.net.URI;

/**
 * The name of an estate as the governor keys learned state by it, {@code <provider>:<identity>@<endpoint>}, and
 * telling the governor's store which estate a provider's calls go to. Here, below the providers, so that a
 * provider's discovery can tell its estate the moment it knows it (AWS: once STS named the management account,
 * before the organization and the regions are read), not only once its whole plan is made.
 * {@link io.cloudg.Estates} says which identity each provider's estate has.
 */
public final class EstateKeys {
    private EstateKeys() {
    }

    /** {@code provider:identity@endpoint}; a blank or null endpoint is the provider's public cloud. */
    public static String of(String provider, String identity, String endpoint) {
        return provider + ":" + identity + "@" + (endpoint == null || endpoint.isBlank() ? provider : endpoint);
    }

    /** An AWS estate: its management account at {@code endpoint} (null: AWS itself). */
    public static String aws(String managementAccount, URI endpoint) {
        return of("aws", managementAccount, endpoint(endpoint));
    }

    /** A configured endpoint as estate names write it: without a trailing slash; null for none. */
    public static String endpoint(URI uri) {
        if (uri == null) {
            return null;
        }
        String s = uri.toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /**
     * Tells the governor's store, if it keeps learned state per estate (the embedded governor's state file,
     * Redis), that {@code provider}'s calls go to the estate {@code key} names; nothing when the key is null.
     * Telling the same estate again changes nothing.
     */
    public static void tell(Governor governor, String provider, String key) {
        if (key != null) {
            EstateKeyed.in(governor.store()).ifPresent(l -> l.useEstate(provider, key));
        }
    }
}
