package io.cloudg.mcp.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A live operation's scopes come from the configuration: per account, else per profile / tenant / organization. */
class LiveScopesTest {
    static List<String> scopes(CloudGConfig c, String provider) {
        return LiveScopes.provider(c, provider).stream().map(LiveScope::toString).toList();
    }

    @Test
    void awsScopesArePerAccountElsePerProfileElseTheProvider() {
        CloudGConfig accounts = CloudGConfig.fromYaml("aws: {accounts: ['111111111111', '222222222222']}");
        assertThat(scopes(accounts, "aws")).containsExactly("aws/111111111111", "aws/222222222222");
        assertThat(scopes(CloudGConfig.fromYaml("aws: {profile: prod}"), "aws")).containsExactly("aws/profile:prod");
        assertThat(scopes(CloudGConfig.fromYaml("providers: [aws]"), "aws")).containsExactly("aws");
    }

    @Test
    void azureScopesArePerSubscriptionElsePerTenant() {
        String sub = "0b1f6471-1bf0-4dda-aec3-cb9272f09590";
        String tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
        assertThat(scopes(CloudGConfig.fromYaml("azure: {subscriptions: ['" + sub + "']}"), "azure"))
                .containsExactly("azure/" + sub);
        assertThat(scopes(CloudGConfig.fromYaml("azure: {tenant_id: '" + tenant + "'}"), "azure"))
                .containsExactly("azure/tenant:" + tenant);
        assertThat(scopes(CloudGConfig.fromYaml("providers: [azure]"), "azure")).containsExactly("azure");
    }

    @Test
    void gcpScopesArePerProjectElsePerOrganization() {
        assertThat(scopes(CloudGConfig.fromYaml("gcp: {projects: [web-prod, data-prod]}"), "gcp"))
                .containsExactly("gcp/web-prod", "gcp/data-prod");
        assertThat(scopes(CloudGConfig.fromYaml("gcp: {organization: '123456789'}"), "gcp")).containsExactly("gcp/org:123456789");
    }

    @Test
    void anOperationOnOneAccountUsesItsScopeWhenConfiguredElseTheEstates() {
        CloudGConfig listed = CloudGConfig.fromYaml("aws: {accounts: ['111111111111']}");
        assertThat(LiveScopes.account(listed, "aws", "111111111111")).hasValueSatisfying(s ->
                assertThat(s).extracting(LiveScope::toString).containsExactly("aws/111111111111"));
        assertThat(LiveScopes.account(listed, "aws", "999999999999")).as("not configured and nothing discovers it").isEmpty();
        CloudGConfig org = CloudGConfig.fromYaml("aws: {org: true, profile: mgmt}");
        assertThat(LiveScopes.account(org, "aws", "999999999999")).hasValueSatisfying(s ->
                assertThat(s).extracting(LiveScope::toString).containsExactly("aws/profile:mgmt"));
    }
}
