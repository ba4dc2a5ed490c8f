package io.cloudg.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One entry of the collector catalog ({@code io/cloudg/aws/collectors.yaml}), as data:
 *
 * <pre>
 * - name: amis                          # the coverage entry, and what aws.collectors names
 *   service: ec2                        # the AwsServices key: which client, which quotas
 *   type: AWS::EC2::Image               # CloudFormation's name of what it lists
 *   call: DescribeImages                # the list operation (paged by the SDK's paginator when it has one)
 *   request: {Owners: [self], MaxResults: 500}
 *   items: Images                       # where the items are in each page (a member path)
 *   id: ImageId                         # member path, or a template such as "{parent}|{Name}"
 *   display: Name                       # the asset's name: member path, or tag:Name
 *   tags: Tags                          # member path to a tag list or map
 *   arn: "arn:{partition}:ec2:{region}::image/{id}"   # a template, or arn_field: a member path (+ arn_type)
 *   details:                            # per-item calls, aws.item_concurrency at a time
 *     - call: DescribeImageAttribute
 *       request: {ImageId: "{id}", Attribute: launchPermission}
 *       key: launch_permissions         # the answer kept under this attribute (detail: full)
 *       derive: {public: "any(LaunchPermissions.Group == 'all')"}
 * </pre>
 *
 * Other keys: {@code scope: management} (the organization's management account only), {@code absent}
 * (error codes of the list call that mean "none here": a singleton not configured), {@code parent}
 * ({@code {call, request, items, id}}: list the parents first, then call {@code call} once per parent with
 * {@code {parent}} filled in), {@code paging} ({@code {in, out}} for an operation the SDK has no paginator
 * for), {@code permissions} (IAM actions beyond the ones derived from the calls). A detail may also name
 * {@code absent} codes (an answer meaning "not configured", e.g. {@code NoSuchBucketPolicy}) with
 * {@code absent_derive} values, {@code region} (a member path giving the item's region, with
 * {@code region_map: s3} for S3's location constraints, and {@code region_fallback}: a member path of the
 * listed item giving its region when the call fails, as S3's ListBuckets names each bucket's
 * {@code BucketRegion}), {@code tags}, and {@code permission}.
 */
record CollectorSpec(String name, String service, String type, Call list, String items, String id, String display,
                     String tags, String arn, String arnField, String arnType, boolean managementOnly,
                     List<String> absent, Parent parent, Paging paging, Map<String, Derive> derive,
                     List<Detail> details, List<String> permissions) {

    /** An operation and the members its request sets (templates allowed in values). */
    record Call(String operation, Map<String, Object> request) {
    }

    /** Parents listed first; the child listing runs once per parent. */
    record Parent(Call call, String items, String id) {
    }

    /** Manual paging: request member {@code in} takes the page token found at response path {@code out}. */
    record Paging(String in, String out) {
    }

    /** One per-item call. */
    record Detail(Call call, String key, List<String> absent, Map<String, Object> absentDerive, String region,
                  String regionMap, String regionFallback, Map<String, Derive> derive, String tags, String permission) {
        /** Whether the call is needed for more than the full configuration (region, tags or derived attributes). */
        boolean summaryNeeds() {
            return region != null || tags != null || !derive.isEmpty();
        }
    }

    private static final Set<String> KEYS = Set.of("name", "service", "type", "call", "request", "items", "id",
            "display", "tags", "arn", "arn_field", "arn_type", "scope", "absent", "parent", "paging", "derive", "details",
            "permissions");
    private static final Set<String> DETAIL_KEYS = Set.of("call", "request", "key", "absent", "absent_derive", "region",
            "region_map", "region_fallback", "derive", "tags", "permission");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");
    private static final Pattern TYPE = Pattern.compile("AWS::\\w+::\\w+");
    private static final Pattern OPERATION = Pattern.compile("[A-Z][A-Za-z0-9]+");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether the asset's name comes from its {@code Name} tag. */
    boolean nameFromTag() {
        return display != null && display.startsWith("tag:");
    }

    /**
     * The tagging sweep's {@code service:resource-type} for this collector's ARNs ({@code ec2:instance},
     * {@code s3:}), from {@code arn_type} or the ARN template.
     */
    String arnTypeKey() {
        if (arnType != null) {
            return arnType;
        }
        return arn == null || arn.equals("{id}") ? null : AwsProvider.arnType(arn.replaceAll("\\{[a-z.A-Z]+}", "x"));
    }

    static CollectorSpec read(JsonNode n) {
        String where = "collector " + (n.hasNonNull("name") ? n.get("name").asText() : "#?");
        unknown(n, KEYS, where);
        String name = required(n, "name", where);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(where + ": name must be lower_snake_case");
        }
        String type = required(n, "type", where);
        if (!TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException(where + ": type must be a CloudFormation type name, but was " + type);
        }
        String scope = text(n, "scope");
        if (scope != null && !scope.equals("management")) {
            throw new IllegalArgumentException(where + ": scope must be management, but was " + scope);
        }
        Parent parent = null;
        if (n.has("parent")) {
            JsonNode p = n.get("parent");
            unknown(p, Set.of("call", "request", "items", "id"), where + " parent");
            parent = new Parent(call(p, where + " parent"), required(p, "items", where + " parent"), text(p, "id"));
        }
        Paging paging = null;
        if (n.has("paging")) {
            JsonNode p = n.get("paging");
            unknown(p, Set.of("in", "out"), where + " paging");
            paging = new Paging(required(p, "in", where + " paging"), required(p, "out", where + " paging"));
        }
        List<Detail> details = new ArrayList<>();
        for (JsonNode d : n.path("details")) {
            String dw = where + " detail " + d.path("call").asText("?");
            unknown(d, DETAIL_KEYS, dw);
            Call c = call(d, dw);
            String key = text(d, "key");
            details.add(new Detail(c, key != null ? key : snake(c.operation()), strings(d, "absent"),
                    map(d.get("absent_derive")), text(d, "region"), text(d, "region_map"), text(d, "region_fallback"),
                    derives(d.get("derive"), dw),
                    text(d, "tags"), text(d, "permission")));
        }
        String arn = text(n, "arn");
        String arnField = text(n, "arn_field");
        if (arn != null && arnField != null) {
            throw new IllegalArgumentException(where + ": arn and arn_field are exclusive");
        }
        return new CollectorSpec(name, required(n, "service", where), type, call(n, where), required(n, "items", where),
                required(n, "id", where), text(n, "display"), text(n, "tags"), arn, arnField, text(n, "arn_type"),
                scope != null, strings(n, "absent"), parent, paging, derives(n.get("derive"), where), List.copyOf(details),
                strings(n, "permissions"));
    }

    private static Call call(JsonNode n, String where) {
        String op = required(n, "call", where);
        if (!OPERATION.matcher(op).matches()) {
            throw new IllegalArgumentException(where + ": call must be an API operation name like DescribeVpcs, but was " + op);
        }
        return new Call(op, map(n.get("request")));
    }

    private static Map<String, Derive> derives(JsonNode n, String where) {
        Map<String, Derive> out = new LinkedHashMap<>();
        if (n != null) {
            Map<String, Object> raw = map(n);
            raw.forEach((k, v) -> out.put(k, Derive.parse(v, where + " derive " + k)));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(JsonNode n) {
        if (n == null || n.isNull()) {
            return Map.of();
        }
        return JSON.convertValue(n, LinkedHashMap.class);
    }

    private static List<String> strings(JsonNode n, String k) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : n.path(k)) {
            out.add(s.asText());
        }
        return List.copyOf(out);
    }

    private static String text(JsonNode n, String k) {
        return n.hasNonNull(k) ? n.get(k).asText() : null;
    }

    private static String required(JsonNode n, String k, String where) {
        String v = text(n, k);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(where + ": " + k + " is required");
        }
        return v;
    }

    private static void unknown(JsonNode n, Set<String> known, String where) {
        n.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                throw new IllegalArgumentException(where + ": unknown key " + f + " (known: " + new java.util.TreeSet<>(known) + ")");
            }
        });
    }

    /** {@code GetBucketPolicyStatus} becomes {@code bucket_policy_status}: the verb goes, words join with _. */
    static String snake(String operation) {
        String s = operation.replaceFirst("^(Get|Describe|List)", "");
        return s.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }
}
