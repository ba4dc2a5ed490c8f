package io.cloudg.gcp;

import com.google.cloud.asset.v1.Asset;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cloud Asset results as inventory assets: type is the asset type, id the full asset name, account the
 * project id (or {@code organizations/N}), region the resource's location ({@code global} when it has
 * none), service the API ({@code compute} for {@code compute.googleapis.com/Instance}), name the last
 * segment of the asset name, tags the resource's labels.
 */
final class GcpAssets {
    private GcpAssets() {
    }

    static io.cloudg.inventory.Asset of(Asset a, String account) {
        String location = a.hasResource() ? a.getResource().getLocation() : "";
        Struct data = a.hasResource() ? a.getResource().getData() : Struct.getDefaultInstance();
        return new io.cloudg.inventory.Asset("gcp", account, location.isEmpty() ? "global" : location,
                serviceOf(a.getAssetType()), a.getAssetType(), a.getName(), lastSegment(a.getName()), null, labels(data),
                Map.of());
    }

    /** {@code compute} of {@code compute.googleapis.com/Instance}. */
    static String serviceOf(String assetType) {
        int dot = assetType.indexOf('.');
        return dot < 0 ? assetType : assetType.substring(0, dot);
    }

    static String lastSegment(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }

    private static Map<String, String> labels(Struct data) {
        Value labels = data.getFieldsOrDefault("labels", null);
        if (labels == null || !labels.hasStructValue()) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        labels.getStructValue().getFieldsMap().forEach((k, v) -> out.put(k, v.hasStringValue() ? v.getStringValue() : v.toString()));
        return out;
    }
}
