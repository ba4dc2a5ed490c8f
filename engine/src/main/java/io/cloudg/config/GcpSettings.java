package io.cloudg.config;

import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code gcp} block.
 *
 * @param endpointUrl {@code host:port} of a Cloud Asset gRPC endpoint (a running {@code cloudg sim}), or null
 *        for Google; {@code host:port} and {@code http://host:port} are plain text without credentials,
 *        {@code https://host:port} is TLS with the configured credentials
 * @param organization the organization id whose projects to map (discovered through Cloud Asset), or null
 * @param projects explicit project ids
 * @param credentialsFile a service-account key file, or null for application default credentials
 * @param pageSize Cloud Asset's {@code page_size} (1 to 1000; SearchAllResources takes at most 500), or null
 *        for the largest each method accepts
 * @param consumerProject the project Cloud Asset charges every call to (sent as {@code x-goog-user-project}), or
 *        null for the credentials' quota project or project
 */
public record GcpSettings(String endpointUrl, String organization, List<String> projects, String credentialsFile,
                          Integer pageSize, String consumerProject) {
    static final Set<String> KEYS = Set.of("endpoint_url", "organization", "projects", "credentials_file", "page_size",
            "consumer_project");
    static final int MAX_PAGE_SIZE = 1000;
    static final Pattern PROJECT = Pattern.compile("[a-z][a-z0-9-]{4,28}[a-z0-9]");
    static final Pattern ORG = Pattern.compile("\\d+");
    static final Pattern HOST_PORT = Pattern.compile("(https?://)?[A-Za-z0-9.\\-]+:\\d{1,5}");

    public static final GcpSettings DEFAULTS = new GcpSettings(null, null, List.of(), null, null, null);

    public GcpSettings {
        projects = List.copyOf(projects);
    }

    /** Settings that leave the consumer project to its default. */
    public GcpSettings(String endpointUrl, String organization, List<String> projects, String credentialsFile,
                       Integer pageSize) {
        this(endpointUrl, organization, projects, credentialsFile, pageSize, null);
    }

    public static GcpSettings load(ConfigNode y) {
        y.warnUnknown(KEYS);
        return new GcpSettings(y.string("endpoint_url", null, HOST_PORT, "host:port like 127.0.0.1:8085"),
                y.string("organization", null, ORG, "a numeric organization id"),
                y.strings("projects", List.of(), PROJECT, "a project id like my-project-123"),
                y.string("credentials_file", null), pageSize(y.integer("page_size", null, 1), "gcp.page_size"),
                y.string("consumer_project", null, PROJECT, "a project id like my-tools-project"));
    }

    private static Integer pageSize(Integer n, String key) {
        if (n != null && n > MAX_PAGE_SIZE) {
            throw ConfigErrors.mustBe(key, "an integer from 1 to " + MAX_PAGE_SIZE, n);
        }
        return n;
    }

    public GcpSettings withEndpoint(String hostPort) {
        if (hostPort != null && !HOST_PORT.matcher(hostPort).matches()) {
            throw ConfigErrors.mustBe("gcp.endpoint_url", "host:port like 127.0.0.1:8085", hostPort);
        }
        return new GcpSettings(hostPort, organization, projects, credentialsFile, pageSize, consumerProject);
    }

    public GcpSettings withOrganization(String org) {
        if (org != null && !ORG.matcher(org).matches()) {
            throw ConfigErrors.mustBe("gcp.organization", "a numeric organization id", org);
        }
        return new GcpSettings(endpointUrl, org, projects, credentialsFile, pageSize, consumerProject);
    }

    public GcpSettings withProjects(List<String> ids) {
        for (String p : ids) {
            if (!PROJECT.matcher(p).matches()) {
                throw ConfigErrors.mustBe("gcp.projects entry", "a project id like my-project-123", p);
            }
        }
        return new GcpSettings(endpointUrl, organization, ids, credentialsFile, pageSize, consumerProject);
    }

    public GcpSettings withPageSize(Integer n) {
        if (n != null && n < 1) {
            throw ConfigErrors.mustBe("gcp.page_size", "an integer from 1 to " + MAX_PAGE_SIZE, n);
        }
        return new GcpSettings(endpointUrl, organization, projects, credentialsFile, pageSize(n, "gcp.page_size"),
                consumerProject);
    }

    public GcpSettings withConsumerProject(String project) {
        if (project != null && !PROJECT.matcher(project).matches()) {
            throw ConfigErrors.mustBe("gcp.consumer_project", "a project id like my-tools-project", project);
        }
        return new GcpSettings(endpointUrl, organization, projects, credentialsFile, pageSize, project);
    }

    /** Whether {@link #endpointUrl()} is reached in plain text ({@code host:port} or {@code http://host:port}). */
    public boolean plaintext() {
        return endpointUrl != null && !endpointUrl.startsWith("https://");
    }

    /** {@link #endpointUrl()} without its scheme, {@code host:port}. */
    public String endpointTarget() {
        return endpointUrl == null ? null : endpointUrl.replaceFirst("^https?://", "");
    }

    @Override
    public String toString() {
        return "GcpSettings{endpoint=" + endpointUrl + ", organization=" + organization + ", projects=" + projects
                + ", page_size=" + (pageSize == null ? "max" : pageSize)
                + ", consumer_project=" + (consumerProject == null ? "default" : consumerProject) + ", credentials="
                + (credentialsFile == null ? "default" : "key file") + "}";
    }
}
