package io.cloudg.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cloudg.aws.AwsCatalog;
import io.cloudg.aws.AwsCollector;
import io.cloudg.aws.AwsPermissions;
import io.cloudg.resilience.config.ConfigException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudg collectors [SELECTOR...]}: the AWS collectors this build has, with the API calls each makes and
 * the IAM actions those need; {@code --policy} prints the least-privilege policy and {@code --markdown} the
 * permissions reference ({@code docs/aws-permissions.md}), both generated from the catalog.
 */
@Command(name = "collectors", mixinStandardHelpOptions = true,
        description = "Lists the AWS collectors, the API calls each makes and the IAM permissions they need.")
final class CollectorsCommand implements Callable<Integer> {
    @Parameters(paramLabel = "SELECTOR", arity = "0..*",
            description = "only these: a collector name, a service (ec2) or a glob (iam_*, iam.*), as aws.collectors takes")
    List<String> selectors = new ArrayList<>();

    @Option(names = "--json", description = "one JSON object per collector")
    boolean json;

    @Option(names = "--policy", description = "print the least-privilege IAM policy for every collector (JSON)")
    boolean policy;

    @Option(names = "--markdown", description = "print the permissions reference (docs/aws-permissions.md)")
    boolean markdown;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        if (policy) {
            out.print(AwsPermissions.policyJson());
            return ExitCodes.OK;
        }
        if (markdown) {
            out.print(AwsPermissions.markdown());
            return ExitCodes.OK;
        }
        List<AwsCollector> chosen;
        try {
            chosen = AwsCatalog.select(selectors, List.of());
        } catch (ConfigException e) {
            System.err.println("cloudg: " + e.getMessage().replace("aws.collectors entry", "SELECTOR"));
            return ExitCodes.CANNOT_START;
        }
        if (json) {
            ObjectMapper m = new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT);
            for (AwsCollector c : chosen) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("name", c.name());
                o.put("service", c.service());
                o.put("type", c.type());
                o.put("scope", AwsPermissions.scope(c));
                o.put("calls", c.operations());
                o.put("permissions", c.permissions());
                out.println(m.writeValueAsString(o));
            }
            return ExitCodes.OK;
        }
        out.printf("%-36s %-15s %-10s %s%n", "COLLECTOR", "SERVICE", "SCOPE", "CALLS -> IAM ACTIONS");
        for (AwsCollector c : chosen) {
            out.printf("%-36s %-15s %-10s %s -> %s%n", c.name(), c.service(), AwsPermissions.scope(c),
                    String.join(", ", c.operations()), String.join(", ", c.permissions()));
        }
        out.println(chosen.size() + " collector(s); cloudg collectors --policy prints the IAM policy they need");
        return ExitCodes.OK;
    }
}
