package io.cloudg.sim.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault file: {@code faults: [{match: {provider: aws, service: ec2, operation: DescribeSubnets},
 * error: throttle, count: 3}]}. Rules are tried in order; the first that fires decides.
 */
public record FaultSpec(List<FaultRule> rules) {
    public static final FaultSpec NONE = new FaultSpec(List.of());

    public FaultSpec {
        rules = List.copyOf(rules);
    }

    public static FaultSpec of(FaultRule... rules) {
        return new FaultSpec(List.of(rules));
    }

    public static FaultSpec load(Path file) {
        try {
            return fromYaml(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read fault file " + file, e);
        }
    }

    public static FaultSpec fromYaml(String yaml) {
        SpecNode root = SpecNode.parse("", yaml);
        if (!root.present()) {
            return NONE;
        }
        root.onlyKeys("faults");
        List<FaultRule> rules = new ArrayList<>();
        SpecNode list = root.get("faults");
        for (SpecNode item : list.items()) {
            rules.add(FaultRule.read(item));
        }
        return new FaultSpec(rules);
    }
}
