package io.cloudg.azure;

import java.util.List;
import java.util.Locale;

/**
 * One Azure service as cloudg maps it: a resource-provider namespace and the ARM types listed under it.
 * Its {@link #key()} ({@code compute} for {@code Microsoft.Compute}) is both the governor's service key (a
 * bucket and breaker per subscription x resource provider) and the coverage entry's suffix
 * ({@code azure_compute}).
 *
 * @param namespace {@code Microsoft.Compute}
 * @param types full ARM types, {@code Microsoft.Compute/virtualMachines}
 */
public record AzureService(String namespace, List<String> types) {
    private static final String MICROSOFT = "Microsoft.";

    public AzureService {
        types = List.copyOf(types);
        for (String t : types) {
            if (!t.startsWith(namespace + "/")) {
                throw new IllegalArgumentException(t + " is not a type of " + namespace);
            }
        }
    }

    /** {@code Microsoft.Compute} + {@code virtualMachines, disks} */
    static AzureService of(String namespace, String... leafTypes) {
        return new AzureService(namespace, java.util.Arrays.stream(leafTypes).map(t -> namespace + "/" + t).toList());
    }

    /** The rate-table key: the namespace without {@code Microsoft.}, lower case ({@code network}). */
    public String key() {
        return keyOf(namespace);
    }

    /** The coverage entry, {@code azure_network}. */
    public String coverageName() {
        return "azure_" + key();
    }

    /** Whether {@code armType} (any case) is one of this service's types. */
    public boolean lists(String armType) {
        for (String t : types) {
            if (t.equalsIgnoreCase(armType)) {
                return true;
            }
        }
        return false;
    }

    /** The rate-table key of a namespace: {@code Microsoft.Network} -> {@code network}. */
    public static String keyOf(String namespace) {
        String n = namespace.regionMatches(true, 0, MICROSOFT, 0, MICROSOFT.length())
                ? namespace.substring(MICROSOFT.length()) : namespace;
        return n.toLowerCase(Locale.ROOT).replace('.', '_');
    }
}
