package io.cloudg.sim.azure;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One row of a Resource Graph table ({@code Resources} or {@code ResourceContainers}).
 *
 * @param ordinal its place in an unordered result (subscription first, then the resource's own ordinal): page
 *                cursors of queries without {@code order by}
 * @param tags    its tags
 */
record GraphRow(String id, String name, String type, String tenantId, String location, String resourceGroup,
                String subscriptionId, long ordinal, Map<String, String> tags) {

    static final String[] COLUMNS = {"id", "name", "type", "tenantId", "kind", "location", "resourceGroup",
        "subscriptionId", "managedBy", "sku", "plan", "properties", "tags", "identity", "zones", "extendedLocation"};

    /** A column's value; Resource Graph column names are case-sensitive. Null for unknown columns. */
    Object column(String c) {
        return switch (c) {
            case "id" -> id;
            case "name" -> name;
            case "type" -> type;
            case "tenantId" -> tenantId;
            case "kind", "managedBy" -> "";
            case "location" -> location;
            case "resourceGroup" -> resourceGroup;
            case "subscriptionId" -> subscriptionId;
            case "properties" -> Map.of();
            case "tags" -> tags;
            case "sku", "plan", "identity", "zones", "extendedLocation" -> null;
            default -> throw AzureErrors.invalidQuery("Column '" + c + "' does not exist in the table.");
        };
    }

    static boolean known(String c) {
        for (String k : COLUMNS) {
            if (k.equals(c)) {
                return true;
            }
        }
        return false;
    }

    Map<String, Object> toMap(java.util.List<String> columns) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String c : columns) {
            m.put(c, column(c));
        }
        return m;
    }

    static String lower(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }
}
