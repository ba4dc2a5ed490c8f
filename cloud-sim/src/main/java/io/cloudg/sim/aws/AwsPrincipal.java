package io.cloudg.sim.aws;

/**
 * Who is calling.
 *
 * @param account   the account the call acts in
 * @param arn       caller ARN as GetCallerIdentity reports it
 * @param userId    caller user id as GetCallerIdentity reports it
 * @param management whether the caller is the organization's management account
 */
public record AwsPrincipal(String account, String arn, String userId, boolean management) {
}
