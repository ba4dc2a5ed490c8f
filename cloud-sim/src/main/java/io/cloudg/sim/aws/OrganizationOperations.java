package io.cloudg.sim.aws;

import static io.cloudg.sim.aws.AwsService.ORGANIZATIONS;

import io.cloudg.sim.estate.AwsAccount;
import io.cloudg.sim.estate.AwsEstate;
import io.cloudg.sim.estate.AwsOrgUnit;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.organizations.model.Child;
import software.amazon.awssdk.services.organizations.model.DescribeAccountRequest;
import software.amazon.awssdk.services.organizations.model.DescribeAccountResponse;
import software.amazon.awssdk.services.organizations.model.DescribeOrganizationalUnitRequest;
import software.amazon.awssdk.services.organizations.model.DescribeOrganizationalUnitResponse;
import software.amazon.awssdk.services.organizations.model.ListAccountsForParentRequest;
import software.amazon.awssdk.services.organizations.model.ListAccountsForParentResponse;
import software.amazon.awssdk.services.organizations.model.ListChildrenRequest;
import software.amazon.awssdk.services.organizations.model.ListChildrenResponse;
import software.amazon.awssdk.services.organizations.model.ListOrganizationalUnitsForParentRequest;
import software.amazon.awssdk.services.organizations.model.ListOrganizationalUnitsForParentResponse;
import software.amazon.awssdk.services.organizations.model.ListParentsRequest;
import software.amazon.awssdk.services.organizations.model.ListParentsResponse;
import software.amazon.awssdk.services.organizations.model.ListRootsRequest;
import software.amazon.awssdk.services.organizations.model.ListRootsResponse;
import software.amazon.awssdk.services.organizations.model.OrganizationalUnit;
import software.amazon.awssdk.services.organizations.model.Parent;
import software.amazon.awssdk.services.organizations.model.Root;

/**
 * The organization's structure, as Organizations serves it to the management account: ListRoots,
 * ListOrganizationalUnitsForParent, ListAccountsForParent, ListChildren, ListParents,
 * DescribeOrganizationalUnit and DescribeAccount, each paged like ListAccounts (at most 20 per page). Ids
 * that do not exist are Organizations' own {@code ParentNotFoundException},
 * {@code OrganizationalUnitNotFoundException}, {@code ChildNotFoundException} and
 * {@code AccountNotFoundException}; malformed ones {@code InvalidInputException}.
 */
final class OrganizationOperations {
    private OrganizationOperations() {
    }

    static void register(OpTable t, Paging paging) {
        t.op(ORGANIZATIONS, "ListRoots", ListRootsRequest::builder, Listing.of(ListRootsResponse::builder, "Roots", paging,
            (call, req) -> {
                IdentityOperations.management(call);
                return List.of(call.estate().root());
            },
            (c, r) -> Root.builder().id(r.id()).arn(r.arn()).name(r.name()).build()));
        t.op(ORGANIZATIONS, "ListOrganizationalUnitsForParent", ListOrganizationalUnitsForParentRequest::builder,
            Listing.of(ListOrganizationalUnitsForParentResponse::builder, "OrganizationalUnits", paging,
                (call, req) -> call.estate().childUnits(parent(call,
                    ((ListOrganizationalUnitsForParentRequest) req).parentId()).id()),
                (c, u) -> unit(u)));
        t.op(ORGANIZATIONS, "ListAccountsForParent", ListAccountsForParentRequest::builder,
            Listing.of(ListAccountsForParentResponse::builder, "Accounts", paging,
                (call, req) -> call.estate().accountsIn(parent(call, ((ListAccountsForParentRequest) req).parentId()).id()),
                IdentityOperations::account));
        t.op(ORGANIZATIONS, "ListChildren", ListChildrenRequest::builder, Listing.of(ListChildrenResponse::builder,
            "Children", paging, OrganizationOperations::children, (c, child) -> child));
        t.op(ORGANIZATIONS, "ListParents", ListParentsRequest::builder, Listing.of(ListParentsResponse::builder, "Parents",
            paging, OrganizationOperations::parents, (c, p) -> p));
        t.op(ORGANIZATIONS, "DescribeOrganizationalUnit", DescribeOrganizationalUnitRequest::builder, (call, request) -> {
            IdentityOperations.management(call);
            String id = ((DescribeOrganizationalUnitRequest) request).organizationalUnitId();
            checkId(id, "ou-[0-9a-z]{4,32}-[a-z0-9]{8,32}", "OrganizationalUnitId");
            AwsOrgUnit u = call.estate().unit(id);
            if (u == null || u.root()) {
                throw AwsErrors.client("OrganizationalUnitNotFoundException",
                    "We can't find an organizational unit (OU) with the OrganizationalUnitId that you specified.", 400);
            }
            return DescribeOrganizationalUnitResponse.builder().organizationalUnit(unit(u)).build();
        });
        t.op(ORGANIZATIONS, "DescribeAccount", DescribeAccountRequest::builder, (call, request) -> {
            IdentityOperations.management(call);
            String id = ((DescribeAccountRequest) request).accountId();
            checkId(id, "\\d{12}", "AccountId");
            AwsAccount a = call.estate().account(id);
            if (a == null) {
                throw AwsErrors.client("AccountNotFoundException",
                    "You specified an account that doesn't exist.", 400);
            }
            return DescribeAccountResponse.builder().account(IdentityOperations.account(call, a)).build();
        });
    }

    private static OrganizationalUnit unit(AwsOrgUnit u) {
        return OrganizationalUnit.builder().id(u.id()).arn(u.arn()).name(u.name()).build();
    }

    /** The root or unit {@code id} names, for the management account; Organizations' errors otherwise. */
    private static AwsOrgUnit parent(AwsCall call, String id) {
        IdentityOperations.management(call);
        checkId(id, "(r-[0-9a-z]{4,32})|(ou-[0-9a-z]{4,32}-[a-z0-9]{8,32})", "ParentId");
        AwsOrgUnit p = call.estate().unit(id);
        if (p == null) {
            throw AwsErrors.client("ParentNotFoundException", "We can't find a root or OU with the ParentId that you "
                + "specified.", 400);
        }
        return p;
    }

    private static List<Child> children(AwsCall call, SdkPojo request) {
        ListChildrenRequest req = (ListChildrenRequest) request;
        AwsOrgUnit p = parent(call, req.parentId());
        String type = req.childTypeAsString();
        List<Child> out = new ArrayList<>();
        if ("ORGANIZATIONAL_UNIT".equals(type)) {
            call.estate().childUnits(p.id()).forEach(u -> out.add(Child.builder().id(u.id()).type(type).build()));
        } else if ("ACCOUNT".equals(type)) {
            call.estate().accountsIn(p.id()).forEach(a -> out.add(Child.builder().id(a.id()).type(type).build()));
        } else {
            throw AwsErrors.invalidParameter(ORGANIZATIONS, "ChildType must be ACCOUNT or ORGANIZATIONAL_UNIT, got " + type);
        }
        return out;
    }

    private static List<Parent> parents(AwsCall call, SdkPojo request) {
        IdentityOperations.management(call);
        String child = ((ListParentsRequest) request).childId();
        checkId(child, "(\\d{12})|(ou-[0-9a-z]{4,32}-[a-z0-9]{8,32})", "ChildId");
        AwsEstate e = call.estate();
        String parentId;
        if (child.startsWith("ou-")) {
            AwsOrgUnit u = e.unit(child);
            parentId = u == null ? null : u.parentId();
        } else {
            AwsAccount a = e.account(child);
            parentId = a == null ? null : a.parentId();
        }
        if (parentId == null) {
            throw AwsErrors.client("ChildNotFoundException", "We can't find an organizational unit (OU) or AWS account "
                + "with the ChildId that you specified.", 400);
        }
        return List.of(Parent.builder().id(parentId).type(e.unit(parentId).root() ? "ROOT" : "ORGANIZATIONAL_UNIT").build());
    }

    private static void checkId(String id, String pattern, String member) {
        if (id == null || !id.matches(pattern)) {
            throw AwsErrors.invalidParameter(ORGANIZATIONS, "You provided a value that does not match the required pattern "
                + "for " + member + ": " + id);
        }
    }
}
