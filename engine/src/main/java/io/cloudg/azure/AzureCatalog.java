package io.cloudg.azure;

import java.util.List;

/**
 * The Azure services cloudg lists one by one, each under its own resource-provider scope and coverage
 * entry. Adding one is a line here. Types outside the catalog are not lost: the {@code azure_other}
 * sweep lists everything the catalog does not name.
 */
public final class AzureCatalog {
    /** The resource provider of subscriptions and resource groups, and of the generic resource listing. */
    public static final String RESOURCES_NAMESPACE = "Microsoft.Resources";
    public static final String SUBSCRIPTION_TYPE = "Microsoft.Resources/subscriptions";
    public static final String RESOURCE_GROUP_TYPE = "Microsoft.Resources/resourceGroups";
    /** The entry of the subscription itself and its resource groups. */
    public static final String RESOURCES_ENTRY = "azure_resources";
    /** The entry of the sweep over every type the catalog does not list. */
    public static final String OTHER_ENTRY = "azure_other";
    /** The per-subscription summary entry. */
    public static final String FULL_ENTRY = "azure_full";

    public static final List<AzureService> SERVICES = List.of(
            AzureService.of("Microsoft.Compute", "virtualMachines", "virtualMachineScaleSets", "disks", "snapshots",
                    "images", "availabilitySets", "sshPublicKeys", "galleries"),
            AzureService.of("Microsoft.Network", "virtualNetworks", "networkInterfaces", "networkSecurityGroups",
                    "publicIPAddresses", "loadBalancers", "applicationGateways", "routeTables", "natGateways",
                    "privateEndpoints", "virtualNetworkGateways", "dnszones", "privateDnsZones"),
            AzureService.of("Microsoft.Storage", "storageAccounts"),
            AzureService.of("Microsoft.KeyVault", "vaults", "managedHSMs"),
            AzureService.of("Microsoft.Web", "sites", "serverFarms"),
            AzureService.of("Microsoft.Sql", "servers", "managedInstances"),
            AzureService.of("Microsoft.ContainerService", "managedClusters"),
            AzureService.of("Microsoft.ContainerRegistry", "registries"),
            AzureService.of("Microsoft.DocumentDB", "databaseAccounts"),
            AzureService.of("Microsoft.DBforPostgreSQL", "flexibleServers"),
            AzureService.of("Microsoft.ManagedIdentity", "userAssignedIdentities"));

    private AzureCatalog() {
    }

    /** Whether some catalog service lists {@code armType} (any case). */
    public static boolean covers(String armType) {
        for (AzureService s : SERVICES) {
            if (s.lists(armType)) {
                return true;
            }
        }
        return false;
    }

    /** Every catalog type. */
    public static List<String> allTypes() {
        return SERVICES.stream().flatMap(s -> s.types().stream()).toList();
    }
}
