package io.cloudg.resilience.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScopeTest {
    @Test
    void printsAndParses() {
        Scope s = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeSubnets");
        assertThat(s).hasToString("aws/123456789012/us-east-1/ec2/DescribeSubnets");
        assertThat(s.withoutOperation()).hasToString("aws/123456789012/us-east-1/ec2");
        assertThat(Scope.parse(s.toString())).isEqualTo(s);
        assertThat(Scope.parse("aws/123456789012/us-east-1/ec2")).isEqualTo(s.withoutOperation());
        assertThat(Scope.of("azure", "sub", null, "network", null)).hasToString("azure/sub/network");
        assertThat(s.accountScope()).hasToString("aws/123456789012").isEqualTo(Scope.account("aws", "123456789012"));
    }

    @Test
    void rejectsBadParts() {
        assertThatThrownBy(() -> Scope.of("", "a", null, "s", null)).hasMessage("scope provider must be non-empty, but was \"\"");
        assertThatThrownBy(() -> Scope.of("aws", "a/b", null, "s", null)).hasMessage("scope account must not contain '/', but was \"a/b\"");
        assertThatThrownBy(() -> Scope.parse("a/b/c/d/e/f")).hasMessageContaining("but was \"a/b/c/d/e/f\"");
    }
}
