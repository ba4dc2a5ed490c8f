package io.cloudg.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The IAM permissions cloudg needs, generated from the collector catalog so that they cannot drift from it:
 * {@code docs/aws-permissions.md} (every collector, the API calls it makes and the actions they need) and a
 * least-privilege read-only policy ({@code docs/aws-readonly-policy.json}). A test checks that the committed
 * files equal what this class generates; {@code cloudg collectors --markdown} and {@code --policy} print them.
 */
public final class AwsPermissions {
    /**
     * What discovery and the sweeps call besides the collectors: who am I, the organization's accounts, the
     * regions, the member accounts' role, the Cloud Control and tagging sweeps.
     */
    public static final Map<String, List<String>> DISCOVERY = Map.of(
            "discovery (management account)", List.of("sts:GetCallerIdentity", "sts:AssumeRole", "organizations:ListAccounts",
                    "ec2:DescribeRegions"),
            "cloudcontrol sweep", List.of("cloudformation:ListResources"),
            "tagging sweep", List.of("tag:GetResources"));

    private AwsPermissions() {
    }

    /** Every IAM action the catalog, discovery and the sweeps need, sorted. */
    public static List<String> actions() {
        TreeSet<String> all = new TreeSet<>();
        for (AwsCollector c : AwsCatalog.all()) {
            all.addAll(c.permissions());
        }
        DISCOVERY.values().forEach(all::addAll);
        return new ArrayList<>(all);
    }

    /** The least-privilege read-only policy, as pretty-printed JSON (two-space indent, one action a line). */
    public static String policyJson() {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n  \"Version\": \"2012-10-17\",\n  \"Statement\": [\n    {\n");
        sb.append("      \"Sid\": \"CloudgReadOnlyInventory\",\n      \"Effect\": \"Allow\",\n      \"Action\": [\n");
        List<String> actions = actions();
        for (int i = 0; i < actions.size(); i++) {
            sb.append("        \"").append(actions.get(i)).append('"').append(i + 1 < actions.size() ? ",\n" : "\n");
        }
        sb.append("      ],\n      \"Resource\": \"*\"\n    }\n  ]\n}\n");
        return sb.toString();
    }

    /** The size AWS counts against a managed policy's 6,144-character limit (whitespace excluded). */
    public static int policySize() {
        return policyJson().replaceAll("\\s", "").length();
    }

    /** {@code docs/aws-permissions.md}. */
    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# AWS permissions\n\n");
        sb.append("Generated from the collector catalog (`engine/src/main/resources/io/cloudg/aws/collectors.yaml`) by\n");
        sb.append("`cloudg collectors --markdown`; a test fails when this file and the catalog disagree. Every call is a\n");
        sb.append("read. The least-privilege policy with exactly these actions is\n");
        sb.append("[`aws-readonly-policy.json`](aws-readonly-policy.json) (`cloudg collectors --policy`; ")
                .append(actions().size()).append(" actions, ").append(policySize())
                .append(" characters without whitespace: ")
                .append(policySize() <= 6144 ? "within" : "over")
                .append(" the 6,144 a customer managed policy may hold")
                .append(policySize() <= 6144 ? ").\n\n" : ", so attach it as an inline role policy (10,240) or split it).\n\n");
        sb.append("In member accounts cloudg assumes `aws.role_name` (`OrganizationAccountAccessRole` by default); that role\n");
        sb.append("needs the collectors' actions, the management account's credentials also need the discovery actions.\n");
        sb.append("Choose collectors with `aws.collectors` / `aws.exclude_collectors` (a name, a service such as `ec2`, or a\n");
        sb.append("glob such as `iam_*` or `iam.*`); a collector that is not selected needs none of its actions.\n\n");
        sb.append("| what | actions |\n|---|---|\n");
        DISCOVERY.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                sb.append("| ").append(e.getKey()).append(" | ").append(code(e.getValue())).append(" |\n"));
        sb.append("\n## Collectors\n\n");
        sb.append("Scope: `regional` runs in every account x region, `global` once per account, `management` in the\n");
        sb.append("organization's management account only.\n\n");
        sb.append("| collector | service | type | scope | API calls | IAM actions |\n|---|---|---|---|---|---|\n");
        for (AwsCollector c : AwsCatalog.all()) {
            sb.append("| `").append(c.name()).append("` | ").append(c.service()).append(" | ").append(c.type()).append(" | ")
                    .append(scope(c)).append(" | ").append(String.join(", ", c.operations())).append(" | ")
                    .append(code(c.permissions())).append(" |\n");
        }
        sb.append("\n").append(AwsCatalog.all().size()).append(" collectors.\n");
        return sb.toString();
    }

    /** {@code regional}, {@code global} or {@code management}. */
    public static String scope(AwsCollector c) {
        return c.managementOnly() ? "management" : c.global() ? "global" : "regional";
    }

    private static String code(List<String> items) {
        StringBuilder sb = new StringBuilder();
        for (String s : items) {
            sb.append(sb.length() == 0 ? "" : ", ").append('`').append(s).append('`');
        }
        return sb.toString();
    }
}
