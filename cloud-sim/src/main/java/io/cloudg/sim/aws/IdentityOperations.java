package io.cloudg.sim.aws;

import static io.cloudg.sim.aws.AwsService.IAM;
import static io.cloudg.sim.aws.AwsService.ORGANIZATIONS;
import static io.cloudg.sim.aws.AwsService.STS;

import io.cloudg.sim.estate.AwsAccount;
import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.estate.AwsSecurity;
import io.cloudg.sim.core.AwsType;
import io.cloudg.sim.estate.Ids;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.iam.model.Group;
import software.amazon.awssdk.services.iam.model.ListGroupsRequest;
import software.amazon.awssdk.services.iam.model.ListGroupsResponse;
import software.amazon.awssdk.services.iam.model.ListMfaDevicesRequest;
import software.amazon.awssdk.services.iam.model.ListMfaDevicesResponse;
import software.amazon.awssdk.services.iam.model.ListPoliciesRequest;
import software.amazon.awssdk.services.iam.model.ListPoliciesResponse;
import software.amazon.awssdk.services.iam.model.ListRolesRequest;
import software.amazon.awssdk.services.iam.model.ListRolesResponse;
import software.amazon.awssdk.services.iam.model.ListUsersRequest;
import software.amazon.awssdk.services.iam.model.ListUsersResponse;
import software.amazon.awssdk.services.iam.model.MFADevice;
import software.amazon.awssdk.services.iam.model.Policy;
import software.amazon.awssdk.services.iam.model.Role;
import software.amazon.awssdk.services.iam.model.User;
import software.amazon.awssdk.services.organizations.model.Account;
import software.amazon.awssdk.services.organizations.model.DescribeOrganizationRequest;
import software.amazon.awssdk.services.organizations.model.DescribeOrganizationResponse;
import software.amazon.awssdk.services.organizations.model.ListAccountsRequest;
import software.amazon.awssdk.services.organizations.model.ListAccountsResponse;
import software.amazon.awssdk.services.organizations.model.Organization;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.AssumedRoleUser;
import software.amazon.awssdk.services.sts.model.Credentials;
import software.amazon.awssdk.services.sts.model.GetCallerIdentityRequest;
import software.amazon.awssdk.services.sts.model.GetCallerIdentityResponse;

/**
 * STS, IAM and Organizations. AssumeRole accepts exactly the roles the estate holds (the organization
 * access role in every member account, and the generated IAM roles); anything else is STS's own
 * {@code AccessDenied}, as is AssumeRole into a suspended account. Organizations answers only the management
 * account, as in AWS: ListAccounts (suspended accounts with status {@code SUSPENDED}) and the organization's
 * structure ({@link OrganizationOperations}). IAM
 * ListMFADevices lists a user's devices ({@link AwsSecurity}), paged with {@code Marker} like every IAM list.
 */
final class IdentityOperations {
    private static final Pattern ROLE_ARN = Pattern.compile("arn:aws:iam::(\\d{12}):role/(?:[\\w+=,.@/-]*/)?([\\w+=,.@-]+)");
    private static final Ids IDS = new Ids(0x1DE47L);

    private IdentityOperations() {
    }

    static void register(OpTable t) {
        t.op(STS, "GetCallerIdentity", GetCallerIdentityRequest::builder, (call, req) -> GetCallerIdentityResponse.builder()
            .account(call.account()).arn(call.principal().arn()).userId(call.principal().userId()).build());
        t.op(STS, "AssumeRole", AssumeRoleRequest::builder, IdentityOperations::assumeRole);

        Paging iam = Paging.marker("Marker", "Marker", "MaxItems", 100, 1, 1000, "IsTruncated");
        t.list(IAM, "ListUsers", ListUsersRequest::builder, ListUsersResponse::builder, "Users", iam, AwsType.IAM_USER,
            (c, r) -> User.builder().path("/").userName(r.id()).userId("AIDA" + uid(r)).arn(r.arn())
                .createDate(r.created()).build());
        t.list(IAM, "ListRoles", ListRolesRequest::builder, ListRolesResponse::builder, "Roles", iam, AwsType.IAM_ROLE,
            (c, r) -> Role.builder().path("/").roleName(r.id()).roleId("AROA" + uid(r)).arn(r.arn())
                .createDate(r.created()).maxSessionDuration(3600).assumeRolePolicyDocument(trustPolicy(c)).build());
        t.op(IAM, "ListPolicies", ListPoliciesRequest::builder, new Listing(ListPoliciesResponse::builder, "Policies", iam,
            (call, req) -> {
                String scope = ((ListPoliciesRequest) req).scopeAsString();
                return "AWS".equals(scope) ? List.of() : call.estate().list(call.account(), call.region(), AwsType.IAM_POLICY);
            },
            (c, r) -> Policy.builder().policyName(r.name()).policyId("ANPA" + uid(r)).arn(r.arn()).path("/")
                .defaultVersionId("v1").attachmentCount(0).permissionsBoundaryUsageCount(0).isAttachable(true)
                .createDate(r.created()).updateDate(r.created()).build()));
        t.list(IAM, "ListGroups", ListGroupsRequest::builder, ListGroupsResponse::builder, "Groups", iam,
            AwsType.IAM_GROUP, (c, r) -> Group.builder().path("/").groupName(r.id()).groupId("AGPA" + uid(r))
                .arn(r.arn()).createDate(r.created()).build());
        t.op(IAM, "ListMFADevices", ListMfaDevicesRequest::builder, Listing.of(ListMfaDevicesResponse::builder, "MFADevices",
            iam, IdentityOperations::mfaDevices, (c, d) -> MFADevice.builder().userName(d.userName())
                .serialNumber(d.serialNumber()).enableDate(d.enabled()).build()));

        t.op(ORGANIZATIONS, "DescribeOrganization", DescribeOrganizationRequest::builder, IdentityOperations::describeOrg);
        Paging org = Paging.token("MaxResults", 20, 1, 20);
        t.op(ORGANIZATIONS, "ListAccounts", ListAccountsRequest::builder, new Listing(ListAccountsResponse::builder,
            "Accounts", org,
            (call, req) -> {
                management(call);
                return call.estate().organizationAccounts();
            },
            (c, r) -> account(c, c.estate().account(r.id()))));
        OrganizationOperations.register(t, org);
    }

    /** Organizations answers only the management account (members get AccessDeniedException). */
    static void management(AwsCall call) {
        if (!call.principal().management()) {
            throw AwsErrors.accessDenied(ORGANIZATIONS, "You don't have permissions to access this resource.");
        }
    }

    /** An account as Organizations describes it: a suspended one has status and state {@code SUSPENDED}. */
    static Account account(AwsCall c, AwsAccount a) {
        String arn = "arn:aws:organizations::" + c.estate().management().id() + ":account/" + c.estate().organizationId()
            + "/" + a.id();
        return Account.builder().id(a.id()).arn(arn).email(a.email()).name(a.name()).status(a.status())
            .state(a.status()).joinedMethod(a.management() ? "INVITED" : "CREATED").joinedTimestamp(a.joined()).build();
    }

    /**
     * The MFA devices of the request's user, or of the calling IAM user when it names none (a role's
     * session must name one); a user the account does not hold is IAM's {@code NoSuchEntity}.
     */
    private static List<AwsSecurity.MfaDevice> mfaDevices(AwsCall call, SdkPojo request) {
        String user = ((ListMfaDevicesRequest) request).userName();
        String arn = call.principal().arn();
        String caller = arn.contains(":user/") ? arn.substring(arn.lastIndexOf('/') + 1) : null;
        if (user == null) {
            if (caller == null) {
                throw AwsErrors.client("ValidationError", "Must specify userName when calling with non-User credentials",
                    400);
            }
            user = caller;
        }
        String name = user;
        boolean exists = call.estate().list(call.account(), call.region(), AwsType.IAM_USER).stream()
            .anyMatch(u -> u.id().equals(name));
        if (!exists) {
            if (name.equals(caller)) {
                return List.of(); // the simulator's own user, outside the estate: no device
            }
            throw AwsErrors.client("NoSuchEntity", "The user with name " + name + " cannot be found.", 404);
        }
        return call.estate().security().mfaDevices(call.account(), name);
    }

    private static String uid(AwsResource r) {
        return IDS.upperAlnum(r.arn(), 17);
    }

    private static String trustPolicy(AwsCall c) {
        String doc = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"
            + "\"arn:aws:iam::" + c.estate().management().id() + ":root\"},\"Action\":\"sts:AssumeRole\"}]}";
        return URLEncoder.encode(doc, StandardCharsets.UTF_8);
    }

    private static SdkPojo assumeRole(AwsCall call, SdkPojo request) {
        AssumeRoleRequest req = (AssumeRoleRequest) request;
        if (req.roleArn() == null || req.roleSessionName() == null) {
            throw AwsErrors.client("ValidationError", "1 validation error detected: Value null at '"
                + (req.roleArn() == null ? "roleArn" : "roleSessionName") + "' failed to satisfy constraint: Member must "
                + "not be null", 400);
        }
        Matcher m = ROLE_ARN.matcher(req.roleArn());
        String denied = "User: " + call.principal().arn() + " is not authorized to perform: sts:AssumeRole on resource: "
            + req.roleArn();
        if (!m.matches()) {
            throw AwsErrors.client("ValidationError", "Invalid RoleArn: " + req.roleArn(), 400);
        }
        String account = m.group(1);
        String role = m.group(2);
        AwsAccount target = call.estate().account(account);
        if (target != null && target.suspended()) {
            throw AwsErrors.accessDenied(STS, denied + " (account " + account + " is suspended)");
        }
        if (target == null || !call.estate().roleExists(account, role)) {
            throw AwsErrors.accessDenied(STS, denied);
        }
        int duration = req.durationSeconds() == null ? 3600 : req.durationSeconds();
        if (duration < 900 || duration > 43200) {
            throw AwsErrors.client("ValidationError", "The requested DurationSeconds exceeds the MaxSessionDuration set "
                + "for this role.", 400);
        }
        Instant expires = call.clock().now().plusSeconds(duration);
        AwsPrincipals.Issued issued = call.context().principals().assume(account, role, req.roleSessionName(), expires);
        return AssumeRoleResponse.builder()
            .credentials(Credentials.builder().accessKeyId(issued.accessKeyId()).secretAccessKey(issued.secretAccessKey())
                .sessionToken(issued.sessionToken()).expiration(expires).build())
            .assumedRoleUser(AssumedRoleUser.builder().arn(issued.principal().arn()).assumedRoleId(issued.assumedRoleId())
                .build())
            .build();
    }

    private static SdkPojo describeOrg(AwsCall call, SdkPojo request) {
        AwsAccount mgmt = call.estate().management();
        String org = call.estate().organizationId();
        return DescribeOrganizationResponse.builder().organization(Organization.builder().id(org)
            .arn("arn:aws:organizations::" + mgmt.id() + ":organization/" + org).featureSet("ALL")
            .masterAccountId(mgmt.id()).masterAccountEmail(mgmt.email())
            .masterAccountArn("arn:aws:organizations::" + mgmt.id() + ":account/" + org + "/" + mgmt.id()).build()).build();
    }
}
