package io.cloudg.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The schema check catches what it is there for (so that a test passing it means something). */
class MapSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VALID = """
            {"format": "cloudg.inventory-map/1",
             "run": {"id": "20260101-000000-aaaaaa", "mode": "embedded", "providers": ["aws"],
                     "started_at": "2026-01-01T00:00:00Z", "finished_at": "2026-01-01T00:00:01.5Z", "governor": "memory"},
             "summary": {"assets": 1, "accounts": 1, "regions": 1, "records": {"SUCCESS": 0, "PARTIAL": 1, "FAILED": 0},
                         "services": {"SUCCESS": 0, "PARTIAL": 1, "FAILED": 0}, "duration_seconds": 1.5},
             "coverage": [{"provider": "aws", "account_id": "111111111111", "region": "us-east-1", "status": "PARTIAL",
                           "services": [{"service": "vpc", "status": "PARTIAL", "asset_count": 1, "error": "throttled: x"}]}],
             "assets": [{"provider": "aws", "account_id": "111111111111", "region": "us-east-1", "service": "ec2",
                         "type": "AWS::EC2::VPC", "id": "vpc-1", "tags": {}, "attributes": {}}]}
            """;

    private ObjectNode valid() throws Exception {
        return (ObjectNode) JSON.readTree(VALID);
    }

    @Test
    void aWellFormedMapPasses() throws Exception {
        assertThat(MapSchema.problems(valid())).isEmpty();
    }

    @Test
    void anEntryThatIsNotSuccessMustSayWhy() throws Exception {
        ObjectNode m = valid();
        ((ObjectNode) m.at("/coverage/0/services/0")).putNull("error");
        assertThat(MapSchema.problems(m)).isNotEmpty();
    }

    @Test
    void anAssetWithoutItsIdentityFails() throws Exception {
        ObjectNode m = valid();
        ((ObjectNode) m.at("/assets/0")).remove("account_id");
        assertThat(MapSchema.problems(m)).anyMatch(p -> p.contains("account_id"));
    }

    @Test
    void aDestinationTargetMustNotCarryAPassword() throws Exception {
        ObjectNode m = valid();
        ((ObjectNode) m.get("run")).putArray("destinations").addObject().put("type", "postgres")
                .put("target", "postgres postgresql://u:secret@db:5432/x (schema cloudg)").put("status", "OK").put("assets_written", 1);
        assertThat(MapSchema.problems(m)).isNotEmpty();
        ((ObjectNode) m.at("/run/destinations/0")).put("target", "postgres postgresql://u:***@db:5432/x (schema cloudg)");
        assertThat(MapSchema.problems(m)).isEmpty();
    }

    @Test
    void anUnknownTopLevelFieldFails() throws Exception {
        ObjectNode m = valid();
        m.put("extra", 1);
        assertThat(MapSchema.problems(m)).isNotEmpty();
    }
}
