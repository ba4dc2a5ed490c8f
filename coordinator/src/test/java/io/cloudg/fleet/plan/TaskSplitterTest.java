package io.cloudg.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class TaskSplitterTest {
    static final Map<String, String> SERVICE = Map.ofEntries(Map.entry("vpc", "ec2"), Map.entry("subnets", "ec2"),
            Map.entry("instances", "ec2"), Map.entry("volumes", "ec2"), Map.entry("functions", "lambda"),
            Map.entry("tables", "dynamodb"), Map.entry("queues", "sqs"), Map.entry("accounts", "organizations"),
            Map.entry("users", "iam"), Map.entry("roles", "iam"));
    static final Function<String, String> SVC = SERVICE::get;

    static List<String> flat(List<Segment> segments) {
        List<String> out = new ArrayList<>();
        segments.forEach(s -> out.addAll(s.jobs()));
        return out;
    }

    @Test
    void aSmallTaskStaysWhole() {
        List<String> jobs = List.of("vpc", "subnets", "functions");
        assertThat(new TaskSplitter(12).split(jobs, SVC, j -> false)).containsExactly(new Segment(jobs, false));
    }

    @Test
    void aLargeTaskIsCutBetweenServicesInOrder() {
        List<String> jobs = List.of("vpc", "subnets", "instances", "functions", "tables", "queues");
        List<Segment> s = new TaskSplitter(4).split(jobs, SVC, j -> false);
        assertThat(flat(s)).isEqualTo(jobs);
        assertThat(s).allSatisfy(seg -> assertThat(seg.jobs()).hasSizeLessThanOrEqualTo(4));
        assertThat(s.get(0).jobs()).containsExactly("vpc", "subnets", "instances", "functions");
        assertThat(s.get(1).jobs()).containsExactly("tables", "queues");
    }

    @Test
    void aServiceLargerThanTheLimitIsSplitItself() {
        List<String> jobs = List.of("vpc", "subnets", "instances", "volumes", "functions");
        List<Segment> s = new TaskSplitter(3).split(jobs, SVC, j -> false);
        assertThat(flat(s)).isEqualTo(jobs);
        assertThat(s).extracting(Segment::jobs).containsExactly(List.of("vpc", "subnets", "instances"),
                List.of("volumes", "functions"));
    }

    @Test
    void aServiceIsNotSplitWhenItFitsInTheNextGroup() {
        List<String> jobs = List.of("functions", "vpc", "subnets", "instances");
        assertThat(new TaskSplitter(3).split(jobs, SVC, j -> false)).extracting(Segment::jobs)
                .containsExactly(List.of("functions"), List.of("vpc", "subnets", "instances"));
    }

    @Test
    void discoveryJobsGetLocalSegmentsOfTheirOwnInPlace() {
        List<String> jobs = List.of("users", "roles", "accounts", "queues");
        List<Segment> s = new TaskSplitter(12).split(jobs, SVC, "accounts"::equals);
        assertThat(s).containsExactly(new Segment(List.of("users", "roles"), false), new Segment(List.of("accounts"), true),
                new Segment(List.of("queues"), false));
    }
}
