package io.cloudg.sim;

/**
 * One asset of the ground truth.
 *
 * @param provider {@code aws}, {@code azure} or {@code gcp}
 * @param account  AWS account id; Azure subscription id; GCP project id ({@code organizations/N} for
 *                 organization-level assets)
 * @param region   AWS region or {@code global}; Azure location ({@code global} for subscriptions); GCP
 *                 location
 * @param service  AWS botocore service name ({@code ec2}); Azure resource provider namespace
 *                 ({@code Microsoft.Compute}); GCP API ({@code compute})
 * @param type     CloudFormation type ({@code AWS::EC2::VPC}); ARM type; Cloud Asset type
 * @param id       the identifier exactly as the listing API returns it (AWS: see
 *                 {@link io.cloudg.sim.estate.AwsType}; Azure: full ARM id; GCP: full asset name)
 * @param arn      AWS ARN (what Resource Groups Tagging returns); null elsewhere
 */
public record Asset(String provider, String account, String region, String service, String type, String id,
                    String arn) {
}
