package io.cloudg.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The azure and gcp blocks (and aws.item_concurrency): wrong values fail naming the key and the value, unknown keys are reported. */
class ProviderSettingsTest {
    static final String TENANT = "8f3e2a10-0000-4000-8000-000000000001";

    @Test
    void awsDetailAndCollectorSelectionLoadAndNameWrongValues() {
        CloudGConfig c = CloudGConfig.fromYaml("aws: {detail: summary, collectors: [ec2, iam.*, s3_buckets], "
                + "exclude_collectors: [amis]}");
        assertThat(c.aws().detail()).isEqualTo(AwsSettings.Detail.SUMMARY);
        assertThat(c.aws().collectors()).containsExactly("ec2", "iam.*", "s3_buckets");
        assertThat(CloudGConfig.fromYaml("aws: {}").aws().detail()).isEqualTo(AwsSettings.Detail.FULL);
        assertThatThrownBy(() -> CloudGConfig.fromYaml("aws: {detail: everything}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("aws.detail").hasMessageContaining("everything");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("aws: {collectors: [ec3]}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("aws.collectors entry").hasMessageContaining("ec3");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("aws: {exclude_collectors: [\"iam_nothing*\"]}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("aws.exclude_collectors entry")
                .hasMessageContaining("iam_nothing*");
    }

    @Test
    void azureBlockLoads() {
        CloudGConfig c = CloudGConfig.fromYaml("""
                providers: [azure]
                azure: {endpoint_url: "http://127.0.0.1:4566", tenant_id: %s, resource_graph: true,
                        subscriptions: [6b08ecd8-3aa3-478a-a7b5-e4fbda638942]}
                """.formatted(TENANT));
        assertThat(c.azure().endpointUrl()).hasToString("http://127.0.0.1:4566");
        assertThat(c.azure().resourceGraph()).isTrue();
        assertThat(c.azure().subscriptions()).containsExactly("6b08ecd8-3aa3-478a-a7b5-e4fbda638942");
        assertThat(c.warnings()).isEmpty();
    }

    @Test
    void azureWrongValuesNameTheKeyAndTheValue() {
        assertThatThrownBy(() -> CloudGConfig.fromYaml("azure: {subscriptions: [not-a-guid]}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("azure.subscriptions entry")
                .hasMessageContaining("not-a-guid");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("azure: {resource_graph: sometimes}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("azure.resource_graph")
                .hasMessageContaining("sometimes");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("azure: {endpoint_url: localhost}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("azure.endpoint_url")
                .hasMessageContaining("localhost");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("azure: {tenant_id: contoso}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("azure.tenant_id").hasMessageContaining("contoso");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("azure: {client_id: app, tenant_id: " + TENANT + "}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("azure.client_secret");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("azure: {client_id: app, client_secret: s}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("azure.tenant_id");
    }

    @Test
    void gcpBlockLoadsAndNamesWrongValues() {
        CloudGConfig c = CloudGConfig.fromYaml("gcp: {endpoint_url: \"127.0.0.1:8085\", organization: \"123456789012\", "
                + "projects: [my-project-1], page_size: 50}");
        assertThat(c.gcp().plaintext()).isTrue();
        assertThat(c.gcp().endpointTarget()).isEqualTo("127.0.0.1:8085");
        assertThat(c.gcp().pageSize()).isEqualTo(50);
        assertThat(CloudGConfig.fromYaml("gcp: {endpoint_url: \"https://asset.example.com:443\"}").gcp().plaintext()).isFalse();
        assertThatThrownBy(() -> CloudGConfig.fromYaml("gcp: {page_size: 5000}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("gcp.page_size").hasMessageContaining("5000");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("gcp: {page_size: 0}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("gcp.page_size").hasMessageContaining("0");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("gcp: {organization: acme}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("gcp.organization").hasMessageContaining("acme");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("gcp: {projects: [Bad_Project]}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("gcp.projects entry").hasMessageContaining("Bad_Project");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("gcp: {endpoint_url: nowhere}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("gcp.endpoint_url").hasMessageContaining("nowhere");
        assertThat(CloudGConfig.fromYaml("gcp: {consumer_project: my-tools-project}").gcp().consumerProject())
                .isEqualTo("my-tools-project");
        assertThat(c.gcp().consumerProject()).as("by default the credentials' project").isNull();
        assertThatThrownBy(() -> CloudGConfig.fromYaml("gcp: {consumer_project: \"projects/123\"}"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("gcp.consumer_project must be a project id like my-tools-project, but was \"projects/123\"");
    }

    @Test
    void awsItemConcurrencyLoadsWithADefaultAndNamesWrongValues() {
        assertThat(CloudGConfig.fromYaml("providers: [aws]").aws().itemConcurrency()).isEqualTo(8);
        assertThat(CloudGConfig.fromYaml("aws: {item_concurrency: 2}").aws().itemConcurrency()).isEqualTo(2);
        assertThatThrownBy(() -> CloudGConfig.fromYaml("aws: {item_concurrency: 0}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("aws.item_concurrency").hasMessageContaining("0");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("aws: {item_concurrency: many}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("aws.item_concurrency").hasMessageContaining("many");
    }

    @Test
    void unknownKeysAreNamedInAWarning() {
        CloudGConfig c = CloudGConfig.fromYaml("azure: {subscriptionz: [x]}\ngcp: {projectz: [y]}");
        assertThat(c.warnings()).anySatisfy(w -> assertThat(w).contains("azure.subscriptionz"))
                .anySatisfy(w -> assertThat(w).contains("gcp.projectz"));
    }
}
