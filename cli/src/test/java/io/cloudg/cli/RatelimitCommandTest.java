package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.Governors;
import io.cloudg.resilience.GovernedCall;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.ProviderException;
import io.cloudg.resilience.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import java.net.ServerSocket;
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
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
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

    @Test
    void anUnreachableRedisCannotStartAndSaysWhere() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        MapCommandTest.Run r = MapCommandTest.run("ratelimit", "show", "--redis", "redis://127.0.0.1:" + closed);
        assertThat(r.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(r.err()).contains("cloudg: cannot reach Redis", "127.0.0.1:" + closed);
        MapCommandTest.Run bad = MapCommandTest.run("ratelimit", "show", "--redis", "http://nope");
        assertThat(bad.code()).isEqualTo(ExitCodes.CANNOT_START);
        assertThat(bad.err()).contains("http://nope");
    }
}
