package io.cloudg.azure;

/** Reading ARM resource ids. */
final class AzureIds {
    private static final String PROVIDERS = "/providers/";

    private AzureIds() {
    }

    /**
     * The ARM type of a resource id in the id's own casing (Resource Graph lowercases its {@code type}
     * column; the id keeps the resource provider's casing):
     * {@code /subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/x}
     * is {@code Microsoft.Network/virtualNetworks/subnets}. Null when the id names no provider.
     */
    static String typeOf(String id) {
        if (id == null) {
            return null;
        }
        int at = id.toLowerCase(java.util.Locale.ROOT).lastIndexOf(PROVIDERS);
        if (at < 0) {
            return null;
        }
        String[] seg = id.substring(at + PROVIDERS.length()).split("/");
        if (seg.length < 3) {
            return null;
        }
        StringBuilder type = new StringBuilder(seg[0]);
        for (int i = 1; i < seg.length; i += 2) {
            type.append('/').append(seg[i]);
        }
        return type.toString();
    }

    /** {@code Microsoft.Compute} of {@code Microsoft.Compute/virtualMachines}. */
    static String namespaceOf(String type) {
        int slash = type.indexOf('/');
        return slash < 0 ? type : type.substring(0, slash);
    }
}
