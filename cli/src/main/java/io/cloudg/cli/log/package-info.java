/**
 * How the {@code cloudg} command logs: {@link io.cloudg.cli.log.LogSetup} configures Logback from
 * {@code --log-format text|json} and {@code --log-level} (third-party loggers silent unless debugging;
 * every line timestamped; the MDC's run and task context on every line), and
 * {@link io.cloudg.cli.log.ConsoleLine} shares standard error between log lines and a live status line
 * under one lock, so a progress line redrawn with {@code \r} is never garbled by a log line.
 */
package io.cloudg.cli.log;
