package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.ListMfaDevicesRequest;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.rds.model.DescribeDbInstancesRequest;
import software.amazon.awssdk.services.wafv2.Wafv2Client;
import software.amazon.awssdk.services.wafv2.model.ListWebAcLsRequest;

class SdkModelTest {
    @Test
    void modelClassStemsSpellAcronymsAsTheSdkDoes() {
        assertThat(SdkModel.modelName("DescribeInstances")).isEqualTo("DescribeInstances");
        assertThat(SdkModel.modelName("DescribeDBInstances")).isEqualTo("DescribeDbInstances");
        assertThat(SdkModel.modelName("ListMFADevices")).isEqualTo("ListMfaDevices");
        assertThat(SdkModel.modelName("ListWebACLs")).isEqualTo("ListWebAcLs");
        assertThat(SdkModel.modelName("DescribeDBClusterSnapshots")).isEqualTo("DescribeDbClusterSnapshots");
    }

    @Test
    void operationsAreFoundWithTheirRequestClassesAndPaginators() {
        assertThat(SdkModel.operation(Ec2Client.class, "DescribeInstances").requestClass()).isEqualTo(DescribeInstancesRequest.class);
        assertThat(SdkModel.operation(Ec2Client.class, "DescribeInstances").paginator()).isNotNull();
        assertThat(SdkModel.operation(IamClient.class, "ListMFADevices").requestClass()).isEqualTo(ListMfaDevicesRequest.class);
        assertThat(SdkModel.operation(RdsClient.class, "DescribeDBInstances").requestClass()).isEqualTo(DescribeDbInstancesRequest.class);
        assertThat(SdkModel.operation(Wafv2Client.class, "ListWebACLs").requestClass()).isEqualTo(ListWebAcLsRequest.class);
        assertThat(SdkModel.operation(Wafv2Client.class, "ListWebACLs").paginator()).isNull();
        assertThatThrownBy(() -> SdkModel.operation(Ec2Client.class, "DescribeNothing"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Ec2Client has no operation DescribeNothing");
    }
}
