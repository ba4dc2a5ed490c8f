package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.Governors;
import io.cloudg.fleet.local.FreePorts;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.ProviderException;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.embedded.RedisServer;

/** {@code cloudg ratelimit show|reset} against a real redis-server holding what a governor learned. */
class RatelimitCommandTest {
    RedisServer redis;
    String url;

    @BeforeEach
    void startRedis() throws Exception {
        int port = FreePorts.next();
        redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly no").build();
        redis.start();
        url = "redis://127.0.0.1:" + port;
    }

    @AfterEach
    void stopRedis() throws Exception {
        redis.stop();
    }

    /** picocli formats descriptions: a bare % in one made it print the text raw, with a warning, on --help. */
    @Test
    void everyCommandsHelpIsFormattedWithoutAWarning() {
        java.util.List<java.util.List<String>> paths = new java.util.ArrayList<>();
        collect(new picocli.CommandLine(new Main()), new java.util.ArrayList<>(), paths);
        assertThat(paths).hasSizeGreaterThan(5);
        for (java.util.List<String> path : paths) {
            java.util.List<String> args = new java.util.ArrayList<>(path);
            args.add("--help");
            MapCommandTest.Run help = MapCommandTest.run(args.toArray(new String[0]));
            assertThat(help.out() + help.err()).as(String.join(" ", args)).containsIgnoringCase("usage:")
                    .doesNotContain("picocli WARN").doesNotContain("Could not format");
        }
    }

    private static void collect(picocli.CommandLine cl, java.util.List<String> path,
            java.util.List<java.util.List<String>> into) {
        for (java.util.Map.Entry<String, picocli.CommandLine> e : cl.getSubcommands().entrySet()) {
            java.util.List<String> p = new java.util.ArrayList<>(path);
            p.add(e.getKey());
            into.add(p);
            collect(e.getValue(), p, into);
        }
    }

    @Test
    void showsWhatWasLearnedAndResetForgetsIt() throws Exception {
        RateLimitConfig config = RateLimitConfig.builder().build()
                .withBackend(RateLimitConfig.Backend.REDIS, RateLimitConfig.defaults().redis().withUrl(url));
        Scope subnets = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeSubnets");
        try (Governor g = Governors.create(config)) {
            try (GovernedCall c = g.open(subnets)) {
                c.beforeSend();
                c.onFailure(new ProviderException("RequestLimitExceeded", 503, "Request limit exceeded."));
            }
            g.call(Scope.of("aws", "999999999999", "us-east-1", "iam", "ListRoles"), () -> "ok");
        }
        MapCommandTest.Run show = MapCommandTest.run("ratelimit", "show", "--redis", url, "aws/123456789012");
        assertThat(show.code()).as(show.err()).isZero();
        assertThat(show.out()).contains("aws/123456789012/us-east-1/ec2/DescribeSubnets", "10.000", "20.000")
                .doesNotContain("999999999999").contains("below its ceiling");

        MapCommandTest.Run reset = MapCommandTest.run("ratelimit", "reset", "--redis", url, "aws/123456789012");
        assertThat(reset.code()).isZero();
        assertThat(reset.out()).matches("(?s)removed [1-9]\\d* key\\(s\\) under aws/123456789012\\s*");

        MapCommandTest.Run after = MapCommandTest.run("ratelimit", "show", "--redis", url, "aws/123456789012");
        assertThat(after.out()).contains("nothing learned under aws/123456789012");
        MapCommandTest.Run other = MapCommandTest.run("ratelimit", "show", "--redis", url);
        assertThat(other.out()).contains("aws/999999999999");
    }

    /** Redis keeps an account's state per estate too: show groups it by estate, --estate picks one to show or reset. */
    @Test
    void redisStateIsShownAndResetPerEstate() throws Exception {
        RateLimitConfig config = RateLimitConfig.builder().build()
                .withBackend(RateLimitConfig.Backend.REDIS, RateLimitConfig.defaults().redis().withUrl(url));
        Scope subnets = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeSubnets");
        String real = "aws:123456789012@aws";
        String sim = "aws:123456789012@http://127.0.0.1:4566";
        for (String estate : new String[] {real, sim, null}) {
            try (Governor g = Governors.create(config)) {
                if (estate != null) {
                    io.cloudg.run.EstateKeys.tell(g, "aws", estate);
                }
                try (GovernedCall c = g.open(subnets)) {
                    c.beforeSend();
                    c.onFailure(new ProviderException("RequestLimitExceeded", 503, "Request limit exceeded."));
                }
            }
        }
        // Redis names an estate's keys by its endpoint (any identity there: see RedisKeys.shared)
        String realKeys = "aws:*@aws";
        String simKeys = "aws:*@http://127.0.0.1:4566";
        MapCommandTest.Run all = MapCommandTest.run("ratelimit", "show", "--redis", url);
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).contains("estate " + realKeys + "\n", "estate " + simKeys + "\n", "no estate (kept before",
                "in 2 estate(s)");

        MapCommandTest.Run one = MapCommandTest.run("ratelimit", "show", "--redis", url, "--estate", "aws:123456789012@http");
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out()).contains("estate " + simKeys, "10.000").doesNotContain("estate " + realKeys + "\n")
                .doesNotContain("no estate");

        MapCommandTest.Run reset = MapCommandTest.run("ratelimit", "reset", "--redis", url, "--estate", sim);
        assertThat(reset.code()).as(reset.err()).isZero();
        assertThat(reset.out()).matches("(?s)removed [1-9]\\d* key\\(s\\) of estate " + java.util.regex.Pattern.quote(sim) + "\\s*");
        MapCommandTest.Run after = MapCommandTest.run("ratelimit", "show", "--redis", url);
        assertThat(after.out()).contains("estate " + realKeys, "no estate").doesNotContain(simKeys);

        MapCommandTest.Run legacy = MapCommandTest.run("ratelimit", "reset", "--redis", url, "--estate", "none");
        assertThat(legacy.code()).as(legacy.err()).isZero();
        assertThat(MapCommandTest.run("ratelimit", "show", "--redis", url).out()).contains("estate " + realKeys)
                .doesNotContain("no estate");
    }

    /** The embedded governor's state file keeps rates per estate: show lists each, --estate picks one to show or reset. */
    @Test
    void theStateFileIsShownAndResetPerEstate(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("learned-rates.json");
        long now = System.currentTimeMillis();
        Scope subnets = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeSubnets");
        String real = "aws:123456789012@aws";
        String sim = "aws:123456789012@http://127.0.0.1:4566";
        new io.cloudg.resilience.memory.LearnedRatesFile(file).merge(java.util.List.of(
                new io.cloudg.resilience.memory.LearnedRate(real, subnets, 10, 20, 2, now),
                new io.cloudg.resilience.memory.LearnedRate(sim, subnets, 5, 20, 4, now)), java.util.Map.of(), now, 3_600_000L);
        String cfg = java.nio.file.Files.writeString(dir.resolve("cloudg.yaml"), "ratelimit: {state_file: \"" + file + "\"}\n")
                .toString();

        MapCommandTest.Run all = MapCommandTest.run("ratelimit", "show", "--config", cfg);
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).contains("estate " + real + "\n", "estate " + sim + "\n", "10.000", "5.000",
                "2 leaf/leaves below its ceiling, in 2 estate(s)");

        MapCommandTest.Run one = MapCommandTest.run("ratelimit", "show", "--config", cfg, "--estate", "aws:123456789012@http");
        assertThat(one.out()).contains("estate " + sim, "5.000").doesNotContain("estate " + real + "\n").doesNotContain("10.000");

        MapCommandTest.Run reset = MapCommandTest.run("ratelimit", "reset", "--config", cfg, "--estate", sim);
        assertThat(reset.code()).as(reset.err()).isZero();
        assertThat(reset.out()).contains("removed 1 learned rate(s) from " + file + " of estate " + sim);
        MapCommandTest.Run after = MapCommandTest.run("ratelimit", "show", "--config", cfg);
        assertThat(after.out()).contains("estate " + real, "10.000").doesNotContain(sim);
        MapCommandTest.Run none = MapCommandTest.run("ratelimit", "show", "--config", cfg, "--estate", sim);
        assertThat(none.out()).contains("nothing learned of estate " + sim);

        MapCommandTest.Run everything = MapCommandTest.run("ratelimit", "reset", "--config", cfg);
        assertThat(everything.code()).as("all of it needs --yes").isEqualTo(ExitCodes.CANNOT_START);

        java.nio.file.Files.writeString(file, "{\"version\": 1, \"leaves\": [{\"scope\": \"" + subnets + "\", \"rate_rps\": 5.0, "
                + "\"ceiling_rps\": 20.0, \"throttles\": 4, \"last_throttle_at\": \"" + java.time.Instant.ofEpochMilli(now) + "\"}]}");
        MapCommandTest.Run legacy = MapCommandTest.run("ratelimit", "show", "--config", cfg);
        assertThat(legacy.out()).contains("estate legacy (from a version-1 file, which named no estate");
    }

    @Test
    void anUnreachableRedisCannotStartAndSaysWhere() throws Exception {
        int closed = FreePorts.next();
        MapCommandTest.Run r = MapCommandTest.run("ratelimit", "show", "--redis", "redis://127.0.0.1:" + closed);
        assertThat(r.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(r.err()).contains("cloudg: cannot reach Redis", "127.0.0.1:" + closed);
        MapCommandTest.Run bad = MapCommandTest.run("ratelimit", "show", "--redis", "http://nope");
        assertThat(bad.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(bad.err()).contains("http://nope");
    }
}
