package io.cloudg.fleet;

import io.cloudg.resilience.config.ConfigNode;
import io.cloudg.resilience.config.ConfigErrors;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The fleet's topics, all named from one prefix: {@code <prefix>.tasks} (coordinator to workers),
 * {@code <prefix>.results} (workers to coordinator), {@code <prefix>.dead-letters} (what nobody could use,
 * with the reason) and {@code <prefix>.runs} (the run journal, for {@code --resume}). Estates sharing a
 * Kafka cluster differ by prefix; runs of one estate share the topics and tell their messages apart by
 * run id.
 *
 * @param prefix {@code [A-Za-z0-9._-]+}, default {@code cloudg}
 * @param taskPartitions partitions of the tasks topic: the most workers that can take tasks at once
 * @param resultPartitions partitions of the results topic
 * @param replicationFactor replicas of each topic, or 0 for the broker's default
 */
public record Topics(String prefix, int taskPartitions, int resultPartitions, int replicationFactor) {
    static final Set<String> KEYS = Set.of("prefix", "task_partitions", "result_partitions", "replication_factor");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    public static final Topics DEFAULTS = new Topics("cloudg", 24, 12, 0);

    public Topics {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw ConfigErrors.mustBe("fleet.topics.prefix", "1-200 characters of [A-Za-z0-9._-]", prefix);
        }
        if (taskPartitions < 1) {
            throw ConfigErrors.mustBe("fleet.topics.task_partitions", "an integer >= 1", taskPartitions);
        }
        if (resultPartitions < 1) {
            throw ConfigErrors.mustBe("fleet.topics.result_partitions", "an integer >= 1", resultPartitions);
        }
        if (replicationFactor < 0 || replicationFactor > Short.MAX_VALUE) {
            throw ConfigErrors.mustBe("fleet.topics.replication_factor", "0 (the broker's default) or a positive integer",
                    replicationFactor);
        }
    }

    public String tasks() {
        return prefix + ".tasks";
    }

    public String results() {
        return prefix + ".results";
    }

    public String deadLetters() {
        return prefix + ".dead-letters";
    }

    public String runs() {
        return prefix + ".runs";
    }

    static Topics load(ConfigNode y) {
        y.warnUnknown(KEYS);
        Topics d = DEFAULTS;
        return new Topics(y.string("prefix", d.prefix), y.integer("task_partitions", d.taskPartitions, 1),
                y.integer("result_partitions", d.resultPartitions, 1), y.integer("replication_factor", d.replicationFactor, 0));
    }
}
