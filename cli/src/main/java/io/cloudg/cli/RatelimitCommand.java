package io.cloudg.cli;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.LearnedRate;
import io.cloudg.resilience.memory.LearnedRatesFile;
import io.cloudg.resilience.redis.RateLimitRow;
import io.cloudg.resilience.redis.RedisRateLimitAdmin;
import io.cloudg.resilience.time.TimeSource;
import io.cloudg.config.StartupException;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudg ratelimit show|reset [PREFIX]}: what the governor has learned, and forgetting it. The state
 * is where the maps keep it: Redis when {@code --redis} is given or the configuration's backend is redis, else
 * the embedded governor's state file ({@code ratelimit.state_file}). PREFIX is a scope prefix matched on
 * whole parts ({@code aws/123456789012}, {@code aws/123456789012/us-east-1/ec2}). Both keep an account's
 * learned state per estate ({@code aws:123456789012@aws}): {@code --estate} selects one (or those its beginning
 * names; in Redis {@code none} selects the accounts' state kept without an estate); {@code show} lists each
 * estate's state under its name. Redis names an estate's keys by its provider and endpoint only
 * ({@code aws:*@aws}: see {@code RedisKeys.shared}), so there an estate selects its endpoint's keys.
 */
@Command(name = "ratelimit", mixinStandardHelpOptions = true,
        description = {"Shows or resets what the governor learned: slowed rates, breakers, retry budgets, bulkheads.",
                "Reads Redis with --redis (or ratelimit.backend: redis in the configuration), else the embedded "
                        + "governor's state file (ratelimit.state_file, default ~/.cache/cloudg/learned-rates.json), "
                        + "Both keep learned state per estate (--estate selects one).",
                "Exit codes: 0 done, 2 could not start (no subcommand, bad flag or configuration, Redis unreachable)."},
        subcommands = {RatelimitCommand.Show.class, RatelimitCommand.Reset.class})
final class RatelimitCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("cloudg: ratelimit needs a subcommand: show or reset (see cloudg ratelimit --help)");
        return ExitCodes.CANNOT_START;
    }

    /** Where the learned state is, and what both subcommands share. */
    abstract static class Base implements Callable<Integer> {
        @Option(names = "--redis", paramLabel = "URL", description = "redis://[user:password@]host:port (or rediss://); "
                + "default: ratelimit.redis.url when the configuration's backend is redis")
        String redis;

        @Option(names = "--config", paramLabel = "FILE", description = "cloudg YAML configuration (default: $CLOUDG_CONFIG, "
                + "then ./cloudg.yaml)")
        Path config;

        @Parameters(index = "0", arity = "0..1", paramLabel = "PREFIX", description = "scope prefix, e.g. aws/123456789012")
        String prefix = "";

        @Option(names = "--estate", paramLabel = "KEY", description = "the estate whose learned state to show or reset, "
                + "as show names it (aws:123456789012@aws; its beginning selects every estate it starts, e.g. "
                + "aws:123456789012 for each endpoint of that organization); Redis keeps an estate's state under its "
                + "provider and endpoint (show names it aws:*@aws), so there an estate selects its endpoint's state; "
                + "in Redis, none selects the accounts' state kept without an estate (before cloudg kept it per estate, "
                + "or before discovery)")
        String estate;

        @Override
        public Integer call() {
            RateLimitConfig rl = CloudGConfig.from(ConfigLocation.load(config)).ratelimit().withRedisUrl(redis);
            if (rl.backend() == RateLimitConfig.Backend.REDIS) {
                // a Redis that cannot be used says why (StateStoreUnavailableException): a start-up failure
                try (RedisRateLimitAdmin admin = RedisRateLimitAdmin.connect(rl.redis())) {
                    return redis(admin, String.join(",", rl.redis().addresses()) + " prefix=" + rl.redis().keyPrefix(), System.out);
                }
            }
            if (RateLimitConfig.NO_STATE_FILE.equals(rl.stateFile())) {
                throw new StartupException("ratelimit.state_file is none: the embedded governor keeps nothing between "
                        + "runs (give --redis URL to read a fleet's Redis)");
            }
            Path file = rl.stateFile() == null ? LearnedRatesFile.defaultLocation(System::getenv) : Path.of(rl.stateFile());
            return file(new LearnedRatesFile(file), rl, System.out);
        }

        abstract int redis(RedisRateLimitAdmin admin, String where, PrintStream out);

        abstract int file(LearnedRatesFile file, RateLimitConfig rl, PrintStream out);

        /** Whether {@code r} is of the selected estate (all without --estate) and under PREFIX. */
        boolean selected(LearnedRate r) {
            return (estate == null || r.estate().startsWith(estate)) && under(r.leaf());
        }

        /** What the selection is, for messages: {@code " under aws/1 of estate aws:1@aws"}. */
        String selection() {
            return (prefix.isEmpty() ? "" : " under " + prefix) + (estate == null ? "" : " of estate " + estate);
        }

        boolean under(Scope s) {
            if (prefix.isEmpty()) {
                return true;
            }
            String text = s.toString();
            return text.equals(prefix) || text.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
        }

        List<LearnedRate> read(LearnedRatesFile file) {
            try {
                return file.readAll();
            } catch (IOException e) {
                throw new StartupException("cannot read " + file.path() + ": " + e.getMessage(), e);
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"Lists what the governor learned under PREFIX (all of it without one).",
                    "Columns: SCOPE the leaf or bucket; KIND leaf (a rate-limit bucket per operation or service), "
                            + "account (the account-wide bucket), bulkhead (calls in flight), global (provider-wide "
                            + "bucket) or budget (retry budget); RATE the rate it runs at now and CEILING the "
                            + "configured rate, in requests per second (a leaf below its ceiling was slowed by "
                            + "throttling and recovers 5%% of the ceiling per quiet 5 s); THROTTLES throttled answers "
                            + "seen; BREAKER the circuit breaker's phase; VALUE retry tokens left, or slots held; "
                            + "AGE(s) seconds since it last changed (in a state file: since the last throttle; "
                            + "entries older than ratelimit.learned_ttl_hours are ignored, marked expired)."})
    static final class Show extends Base {
        @Override
        int redis(RedisRateLimitAdmin admin, String where, PrintStream out) {
            List<RateLimitRow> rows = admin.show(estate, prefix);
            out.println("learned state in Redis " + where + " (a map starts from its own estate's)");
            if (rows.isEmpty()) {
                out.println("nothing learned" + selection());
                return ExitCodes.OK;
            }
            String group = null;
            boolean first = true;
            for (RateLimitRow r : rows) { // sorted by estate: provider-wide and estate-less state first
                String g = r.estate() != null ? "estate " + r.estate()
                        : isAccounts(r) ? "no estate (kept before cloudg kept state per estate, or before discovery: "
                        + "no map of an estate uses it; it expires with learned_ttl_hours)" : "provider-wide";
                if (first || !g.equals(group)) {
                    out.println(g);
                    out.printf(Locale.ROOT, "  %-60s %-9s %10s %10s %9s %-9s %10s %8s%n", "SCOPE", "KIND", "RATE",
                            "CEILING", "THROTTLES", "BREAKER", "VALUE", "AGE(s)");
                    group = g;
                    first = false;
                }
                out.printf(Locale.ROOT, "  %-60s %-9s %10s %10s %9d %-9s %10s %8.0f%n", r.scope(),
                        r.kind().name().toLowerCase(Locale.ROOT), num(r.rateRps()), num(r.ceilingRps()), r.throttles(),
                        r.breaker() == null ? "-" : r.breaker().name(), num(r.value()), r.ageSeconds());
            }
            long slowed = rows.stream().filter(RateLimitRow::slowed).count();
            long estates = rows.stream().map(RateLimitRow::estate).filter(java.util.Objects::nonNull).distinct().count();
            out.printf("%d entr%s, %d leaf/leaves below its ceiling, in %d estate(s)%n", rows.size(),
                    rows.size() == 1 ? "y" : "ies", slowed, estates);
            return ExitCodes.OK;
        }

        private static boolean isAccounts(RateLimitRow r) {
            return r.kind() != io.cloudg.resilience.redis.RedisKeys.Kind.GLOBAL
                    && r.kind() != io.cloudg.resilience.redis.RedisKeys.Kind.BUDGET;
        }

        @Override
        int file(LearnedRatesFile file, RateLimitConfig rl, PrintStream out) {
            List<LearnedRate> rows = read(file).stream().filter(this::selected).toList();
            out.println("learned rates in " + file.path() + " (embedded governor; kept " + fmt(rl.learnedTtlHours())
                    + " h after the last throttle; a map starts from its own estate's)");
            if (rows.isEmpty()) {
                out.println("nothing learned" + selection());
                return ExitCodes.OK;
            }
            long now = TimeSource.system().epochMillis();
            long ttl = (long) (rl.learnedTtlHours() * 3_600_000L);
            java.util.Map<String, List<LearnedRate>> byEstate = new java.util.TreeMap<>();
            rows.forEach(r -> byEstate.computeIfAbsent(r.estate(), k -> new java.util.ArrayList<>()).add(r));
            for (java.util.Map.Entry<String, List<LearnedRate>> e : byEstate.entrySet()) {
                out.println("estate " + e.getKey() + (e.getKey().equals(LearnedRatesFile.LEGACY)
                        ? " (from a version-1 file, which named no estate: no map uses these; the next map drops them)" : ""));
                out.printf(Locale.ROOT, "  %-60s %-9s %10s %10s %9s %8s%n", "SCOPE", "KIND", "RATE", "CEILING", "THROTTLES",
                        "AGE(s)");
                for (LearnedRate r : e.getValue()) {
                    out.printf(Locale.ROOT, "  %-60s %-9s %10.3f %10.3f %9d %8.0f%s%n", r.leaf(), "leaf", r.rateRps(),
                            r.ceilingRps(), r.throttles(), (now - r.lastThrottleEpochMillis()) / 1000.0,
                            r.expired(now, ttl) ? " expired" : "");
                }
            }
            out.printf("%d leaf/leaves below its ceiling, in %d estate(s)%n", rows.size(), byEstate.size());
            return ExitCodes.OK;
        }

        private static String num(Double d) {
            return d == null ? "-" : String.format(Locale.ROOT, "%.3f", d);
        }

        private static String fmt(double d) {
            return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
        }
    }

    @Command(name = "reset", mixinStandardHelpOptions = true,
            description = {"Forgets what the governor learned under PREFIX (of the --estate given); without a PREFIX "
                    + "or an --estate, all of it, which asks first on a terminal and needs --yes otherwise."})
    static final class Reset extends Base {
        @Option(names = {"-y", "--yes"}, description = "reset everything without asking")
        boolean yes;

        @Override
        public Integer call() {
            if (prefix.isEmpty() && estate == null && !yes && !confirmed()) {
                throw new StartupException("ratelimit reset without a PREFIX forgets everything the governor learned: "
                        + "give a PREFIX, or --yes to reset it all");
            }
            return super.call();
        }

        private static boolean confirmed() {
            Console console = System.console();
            if (console == null) {
                return false;
            }
            System.err.print("Forget everything the governor learned? [y/N] ");
            System.err.flush();
            try {
                String answer = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                return answer != null && answer.trim().toLowerCase(Locale.ROOT).startsWith("y");
            } catch (IOException e) {
                return false;
            }
        }

        @Override
        int redis(RedisRateLimitAdmin admin, String where, PrintStream out) {
            long removed = admin.reset(estate, prefix);
            out.println("removed " + removed + " key(s)" + selection());
            return ExitCodes.OK;
        }

        @Override
        int file(LearnedRatesFile file, RateLimitConfig rl, PrintStream out) {
            read(file); // a file that cannot be read is reported, not overwritten
            int removed;
            try {
                removed = file.remove(this::selected);
            } catch (IOException e) {
                throw new StartupException("cannot rewrite " + file.path() + ": " + e.getMessage(), e);
            }
            out.println("removed " + removed + " learned rate(s) from " + file.path() + selection());
            return ExitCodes.OK;
        }
    }
}
