package io.cloudg.destination.postgres;

import io.cloudg.resilience.config.ConfigErrors;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A PostgreSQL address as users write it, {@code postgresql://user:password@host:5432/db?sslmode=require}
 * ({@code postgres://} too, or a JDBC URL {@code jdbc:postgresql://host/db}), split into what the JDBC
 * driver takes: the JDBC URL without credentials, the user, and the password if the URL carries one.
 * {@link #display()} is the address without its password, for logs and the map.
 *
 * @param jdbcUrl {@code jdbc:postgresql://host:port/db?params}, no credentials
 * @param user the user, or null for the driver's default
 * @param password the URL's password, or null
 * @param display the address as given, minus the password
 */
public record PostgresUrl(String jdbcUrl, String user, String password, String display) {

    /**
     * Parses {@code url}; {@code key} names the setting in errors ({@code destinations[0].url}, {@code --postgres}).
     *
     * @throws io.cloudg.resilience.config.ConfigException naming {@code key} when it is not a PostgreSQL URL
     */
    public static PostgresUrl parse(String key, String url) {
        String expectation = "a PostgreSQL URL like postgresql://user@host:5432/db";
        if (url == null || url.isBlank()) {
            throw ConfigErrors.mustBe(key, expectation, "(empty)");
        }
        String u = url.trim();
        if (u.startsWith("jdbc:postgresql:")) {
            if (!u.startsWith("jdbc:postgresql://")) {
                throw ConfigErrors.mustBe(key, expectation, redact(u));
            }
            return new PostgresUrl(u, null, null, redact(u));
        }
        if (!u.startsWith("postgresql://") && !u.startsWith("postgres://")) {
            throw ConfigErrors.mustBe(key, expectation, redact(u));
        }
        URI uri;
        try {
            uri = new URI(u);
        } catch (URISyntaxException e) {
            throw ConfigErrors.mustBe(key, expectation, redact(u));
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw ConfigErrors.mustBe(key, expectation + " (with a host)", redact(u));
        }
        String user = null;
        String password = null;
        String info = uri.getRawUserInfo();
        if (info != null && !info.isEmpty()) {
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? null : decode(info.substring(colon + 1));
        }
        StringBuilder jdbc = new StringBuilder("jdbc:postgresql://").append(uri.getHost());
        if (uri.getPort() > 0) {
            jdbc.append(':').append(uri.getPort());
        }
        String path = uri.getRawPath();
        jdbc.append(path == null || path.isEmpty() ? "/" : path);
        if (uri.getRawQuery() != null) {
            jdbc.append('?').append(uri.getRawQuery());
        }
        return new PostgresUrl(jdbc.toString(), user, password, redact(u));
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The URL with any password (in the user info or a {@code password=} parameter) replaced by {@code ***}. */
    static String redact(String url) {
        String out = url.replaceAll("(://[^/@:]*):[^@/]*@", "$1:***@");
        return out.replaceAll("(?i)([?&]password=)[^&]*", "$1***");
    }

    @Override
    public String toString() {
        return display;
    }
}
