package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.config.ConfigException;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.redis.RateLimitRow;
import io.cloudg.resilience.redis.RedisRateLimitAdmin;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudg ratelimit show|reset [PREFIX]}: what the fleet's governor has learned (rates, ceilings,
 * throttles, breakers, budgets, bulkheads) in Redis, and forgetting it. PREFIX is a scope prefix matched on
 * whole parts ({@code aws/123456789012}, {@code aws/123456789012/us-east-1/ec2}).
 */
@Command(name = "ratelimit", mixinStandardHelpOptions = true,
        description = "Shows or resets the governor's learned state in Redis (fleet mode).",
        subcommands = {RatelimitCommand.Show.class, RatelimitCommand.Reset.class})
final class RatelimitCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** Options both subcommands share. */
    abstract static class Base implements Callable<Integer> {
        @Option(names = "--redis", paramLabel = "URL", description = "redis://[user:password@]host:port (or rediss://); "
                + "default: ratelimit.redis.url of --config")
        String redis;

        @Option(names = "--config", paramLabel = "FILE", description = "cloudg YAML configuration")
        Path config;

        @Parameters(index = "0", arity = "0..1", paramLabel = "PREFIX", description = "scope prefix, e.g. aws/123456789012")
        String prefix = "";

        RedisSettings settings() {
            RateLimitConfig rl = config == null ? RateLimitConfig.defaults() : CloudGConfig.load(config).ratelimit();
            RedisSettings s = rl.redis();
            if (redis != null) {
                s = s.withUrl(redis);
            }
            if (s.url() == null || s.url().isBlank()) {
                throw io.cloudg.resilience.config.ConfigErrors.mustBe("--redis", "a redis:// URL (or ratelimit.redis.url in --config)",
                        "(unset)");
            }
            return s;
        }

        @Override
        public Integer call() {
            PrintStream err = System.err;
            try (RedisRateLimitAdmin admin = RedisRateLimitAdmin.connect(settings())) {
                return run(admin, System.out);
            } catch (ConfigException e) {
                err.println("cloudg: " + e.getMessage());
                return ExitCodes.CANNOT_START;
            } catch (StateStoreUnavailableException e) {
                err.println("cloudg: cannot reach Redis: " + e.getMessage());
                return ExitCodes.CANNOT_START;
            }
        }

        abstract int run(RedisRateLimitAdmin admin, PrintStream out);
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Lists learned rates, breakers, budgets and bulkheads.")
    static final class Show extends Base {
        @Override
        int run(RedisRateLimitAdmin admin, PrintStream out) {
            List<RateLimitRow> rows = admin.show(prefix);
            if (rows.isEmpty()) {
                out.println("nothing learned" + (prefix.isEmpty() ? "" : " under " + prefix));
                return ExitCodes.OK;
            }
            out.printf(Locale.ROOT, "%-60s %-9s %10s %10s %9s %-9s %10s %8s%n", "SCOPE", "KIND", "RATE", "CEILING",
                    "THROTTLES", "BREAKER", "VALUE", "AGE(s)");
            for (RateLimitRow r : rows) {
                out.printf(Locale.ROOT, "%-60s %-9s %10s %10s %9d %-9s %10s %8.0f%n", r.scope(),
                        r.kind().name().toLowerCase(Locale.ROOT), num(r.rateRps()), num(r.ceilingRps()), r.throttles(),
                        r.breaker() == null ? "-" : r.breaker().name(), num(r.value()), r.ageSeconds());
            }
            long slowed = rows.stream().filter(RateLimitRow::slowed).count();
            out.printf("%d entr%s, %d leaf/leaves below its ceiling%n", rows.size(), rows.size() == 1 ? "y" : "ies", slowed);
            return ExitCodes.OK;
        }

        private static String num(Double d) {
            return d == null ? "-" : String.format(Locale.ROOT, "%.3f", d);
        }
    }

    @Command(name = "reset", mixinStandardHelpOptions = true, description = "Forgets the learned state under PREFIX (all of it without one).")
    static final class Reset extends Base {
        @Override
        int run(RedisRateLimitAdmin admin, PrintStream out) {
            long removed = admin.reset(prefix);
            out.println("removed " + removed + " key(s)" + (prefix.isEmpty() ? "" : " under " + prefix));
            return ExitCodes.OK;
        }
    }
}
