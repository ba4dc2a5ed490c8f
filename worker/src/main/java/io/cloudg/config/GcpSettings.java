package io.cloudg.config;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code gcp} block.
 *
 * @param endpointUrl {@code host:port} of a Cloud Asset gRPC endpoint (a running {@code cloudg sim}, plain
 *        text), or null for Google
 * @param organization the organization id whose projects to map (discovered through Cloud Asset), or null
 * @param projects explicit project ids
 * @param credentialsFile a service-account key file, or null for application default credentials
 */
public record GcpSettings(String endpointUrl, String organization, List<String> projects, String credentialsFile) {
    static final Set<String> KEYS = Set.of("endpoint_url", "organization", "projects", "credentials_file");
    static final Pattern PROJECT = Pattern.compile("[a-z][a-z0-9-]{4,28}[a-z0-9]");
    static final Pattern ORG = Pattern.compile("\\d+");
    static final Pattern HOST_PORT = Pattern.compile("(https?://)?[A-Za-z0-9.\\-]+:\\d{1,5}");

    public static final GcpSettings DEFAULTS = new GcpSettings(null, null, List.of(), null);

    public GcpSettings {
        projects = List.copyOf(projects);
    }

    static GcpSettings load(Yaml y, List<String> warnings) {
        y.warnUnknown(KEYS, warnings);
        return new GcpSettings(y.string("endpoint_url", null, HOST_PORT, "host:port like 127.0.0.1:8085"),
                y.string("organization", null, ORG, "a numeric organization id"),
                y.strings("projects", List.of(), PROJECT, "a project id like my-project-123"),
                y.string("credentials_file", null));
    }

    public GcpSettings withEndpoint(String hostPort) {
        return new GcpSettings(hostPort, organization, projects, credentialsFile);
    }

    public GcpSettings withOrganization(String org) {
        return new GcpSettings(endpointUrl, org, projects, credentialsFile);
    }
}
