/**
 * How the {@code cloudg} command logs and shows progress: {@link io.cloudg.cli.log.LogSetup} configures Logback from
 * {@code --log-format text|json} and {@code --log-level} (third-party loggers silent unless debugging; every line
 * timestamped; the MDC's run and task context on every line; the same level names in both formats);
 * {@link io.cloudg.cli.log.EcsEncoder} writes the JSON lines in the Elastic Common Schema's logging layout, and the
 * command's own notices (a start-up failure) take the same shape, so that every stderr line of a JSON run parses.
 * {@link io.cloudg.cli.log.ConsoleLine} shares standard error between log lines and a live status line under one
 * lock, so a progress line redrawn with {@code \r} is never garbled by a log line, and fits that line to the
 * terminal's width ({@link io.cloudg.cli.log.StatusFit}, {@link io.cloudg.cli.log.Terminals}) so it never wraps.
 */
package io.cloudg.cli.log;
