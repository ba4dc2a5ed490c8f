package io.cloudg.sim.aws;

import static io.cloudg.sim.aws.AwsService.EC2;

import io.cloudg.sim.aws.wire.Pojos;
import io.cloudg.sim.estate.AwsAccount;
import io.cloudg.sim.estate.AwsResource;
import io.cloudg.sim.estate.AwsSecurity;
import io.cloudg.sim.core.AwsType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.ec2.model.Address;
import software.amazon.awssdk.services.ec2.model.AttributeValue;
import software.amazon.awssdk.services.ec2.model.DescribeAddressesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeAddressesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeImageAttributeRequest;
import software.amazon.awssdk.services.ec2.model.DescribeImageAttributeResponse;
import software.amazon.awssdk.services.ec2.model.DescribeImagesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeImagesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeInternetGatewaysRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInternetGatewaysResponse;
import software.amazon.awssdk.services.ec2.model.DescribeKeyPairsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeKeyPairsResponse;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplatesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplatesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeNatGatewaysRequest;
import software.amazon.awssdk.services.ec2.model.DescribeNatGatewaysResponse;
import software.amazon.awssdk.services.ec2.model.DescribeNetworkInterfacesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeNetworkInterfacesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeRegionsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeRegionsResponse;
import software.amazon.awssdk.services.ec2.model.DescribeRouteTablesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeRouteTablesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeSecurityGroupsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeSecurityGroupsResponse;
import software.amazon.awssdk.services.ec2.model.DescribeSnapshotsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeSnapshotsResponse;
import software.amazon.awssdk.services.ec2.model.DescribeSubnetsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeSubnetsResponse;
import software.amazon.awssdk.services.ec2.model.DescribeVolumesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeVolumesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeVpcsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeVpcsResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Image;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceState;
import software.amazon.awssdk.services.ec2.model.InternetGateway;
import software.amazon.awssdk.services.ec2.model.InternetGatewayAttachment;
import software.amazon.awssdk.services.ec2.model.IpPermission;
import software.amazon.awssdk.services.ec2.model.IpRange;
import software.amazon.awssdk.services.ec2.model.Ipv6Range;
import software.amazon.awssdk.services.ec2.model.KeyPairInfo;
import software.amazon.awssdk.services.ec2.model.LaunchPermission;
import software.amazon.awssdk.services.ec2.model.LaunchTemplate;
import software.amazon.awssdk.services.ec2.model.NatGateway;
import software.amazon.awssdk.services.ec2.model.NetworkInterface;
import software.amazon.awssdk.services.ec2.model.Placement;
import software.amazon.awssdk.services.ec2.model.Region;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Route;
import software.amazon.awssdk.services.ec2.model.RouteTable;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;
import software.amazon.awssdk.services.ec2.model.Snapshot;
import software.amazon.awssdk.services.ec2.model.Subnet;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.UserIdGroupPair;
import software.amazon.awssdk.services.ec2.model.Volume;
import software.amazon.awssdk.services.ec2.model.Vpc;

/**
 * EC2 (EC2 query protocol). Every Describe* here is a {@link Listing} with EC2's own paging
 * ({@code MaxResults} 5..1000, everything in one answer when absent), the {@code ...Ids} member of the
 * request filtering by id, and the filters {@code vpc-id}, {@code subnet-id}, {@code availability-zone}
 * and {@code owner-id} (any other filter name is refused as EC2 refuses an invalid filter). Security
 * groups carry their inbound and outbound rules ({@link AwsSecurity}).
 */
final class Ec2Operations {
    private Ec2Operations() {
    }

    static void register(OpTable t) {
        t.op(EC2, "DescribeRegions", DescribeRegionsRequest::builder, Ec2Operations::describeRegions);
        t.op(EC2, "DescribeImageAttribute", DescribeImageAttributeRequest::builder, Ec2Operations::describeImageAttribute);

        list(t, "DescribeVpcs", DescribeVpcsRequest::builder, DescribeVpcsResponse::builder, "Vpcs", "VpcIds",
            AwsType.EC2_VPC, paged(5, 1000), (c, r) -> Vpc.builder().vpcId(r.id()).ownerId(r.account())
                .cidrBlock(cidr(r, 16)).state("available").isDefault(false).instanceTenancy("default")
                .dhcpOptionsId("dopt-" + r.id().substring(4)).tags(tags(r)).build());
        list(t, "DescribeSubnets", DescribeSubnetsRequest::builder, DescribeSubnetsResponse::builder, "Subnets",
            "SubnetIds", AwsType.EC2_SUBNET, paged(5, 1000), (c, r) -> Subnet.builder().subnetId(r.id()).vpcId(r.vpcId())
                .cidrBlock(cidr(r, 24)).availabilityZone(r.zone()).availableIpAddressCount(251).state("available")
                .ownerId(r.account()).mapPublicIpOnLaunch(false).defaultForAz(false).subnetArn(r.arn()).tags(tags(r))
                .build());
        list(t, "DescribeSecurityGroups", DescribeSecurityGroupsRequest::builder, DescribeSecurityGroupsResponse::builder,
            "SecurityGroups", "GroupIds", AwsType.EC2_SECURITY_GROUP, paged(5, 1000), (c, r) -> {
                AwsSecurity.SecurityGroup rules = c.estate().security().securityGroup(r);
                return SecurityGroup.builder().groupId(r.id()).groupName(r.name()).description("cloud-sim security group")
                    .vpcId(r.vpcId()).ownerId(r.account()).securityGroupArn(r.arn()).tags(tags(r))
                    .ipPermissions(permissions(r.account(), rules.ingress()))
                    .ipPermissionsEgress(permissions(r.account(), rules.egress())).build();
            });
        list(t, "DescribeNetworkInterfaces", DescribeNetworkInterfacesRequest::builder,
            DescribeNetworkInterfacesResponse::builder, "NetworkInterfaces", "NetworkInterfaceIds",
            AwsType.EC2_NETWORK_INTERFACE, paged(5, 1000), (c, r) -> NetworkInterface.builder()
                .networkInterfaceId(r.id()).subnetId(r.subnetId()).vpcId(r.vpcId()).availabilityZone(r.zone())
                .privateIpAddress(ip(r)).status("in-use").ownerId(r.account()).interfaceType("interface")
                .macAddress("02:" + r.id().substring(4, 6) + ":00:00:00:01").tagSet(tags(r)).build());
        list(t, "DescribeInstances", DescribeInstancesRequest::builder, DescribeInstancesResponse::builder,
            "Reservations", "InstanceIds", AwsType.EC2_INSTANCE, paged(5, 1000), (c, r) -> Reservation.builder()
                .reservationId("r-" + r.id().substring(2)).ownerId(r.account())
                .instances(Instance.builder().instanceId(r.id()).instanceType("t3.micro").subnetId(r.subnetId())
                    .vpcId(r.vpcId()).privateIpAddress(ip(r)).launchTime(r.created())
                    .state(InstanceState.builder().code(16).name("running").build())
                    .placement(Placement.builder().availabilityZone(r.zone()).tenancy("default").build())
                    .architecture("x86_64").rootDeviceType("ebs").tags(tags(r)).build())
                .build());
        list(t, "DescribeVolumes", DescribeVolumesRequest::builder, DescribeVolumesResponse::builder, "Volumes",
            "VolumeIds", AwsType.EC2_VOLUME, paged(5, 500), (c, r) -> Volume.builder().volumeId(r.id()).size(8)
                .availabilityZone(r.zone()).state("available").volumeType("gp3").createTime(r.created())
                .encrypted(true).iops(3000).tags(tags(r)).build());
        list(t, "DescribeSnapshots", DescribeSnapshotsRequest::builder, DescribeSnapshotsResponse::builder, "Snapshots",
            "SnapshotIds", AwsType.EC2_SNAPSHOT, paged(5, 1000), (c, r) -> Snapshot.builder().snapshotId(r.id())
                .ownerId(r.account()).state("completed").startTime(r.created()).volumeSize(8).progress("100%")
                .encrypted(true).description("cloud-sim snapshot " + r.name()).tags(tags(r)).build());
        list(t, "DescribeImages", DescribeImagesRequest::builder, DescribeImagesResponse::builder, "Images", "ImageIds",
            AwsType.EC2_IMAGE, paged(5, 1000), (c, r) -> Image.builder().imageId(r.id()).name(r.name())
                .ownerId(r.account()).state("available").creationDate(r.created().toString()).architecture("x86_64")
                .imageType("machine").publicLaunchPermissions(false).rootDeviceType("ebs").virtualizationType("hvm")
                .description("cloud-sim image " + r.name()).tags(tags(r)).build());
        list(t, "DescribeInternetGateways", DescribeInternetGatewaysRequest::builder,
            DescribeInternetGatewaysResponse::builder, "InternetGateways", "InternetGatewayIds",
            AwsType.EC2_INTERNET_GATEWAY, paged(5, 1000), (c, r) -> InternetGateway.builder()
                .internetGatewayId(r.id()).ownerId(r.account()).tags(tags(r))
                .attachments(r.vpcId() == null ? List.of() : List.of(InternetGatewayAttachment.builder().vpcId(r.vpcId())
                    .state("available").build()))
                .build());
        list(t, "DescribeNatGateways", DescribeNatGatewaysRequest::builder, DescribeNatGatewaysResponse::builder,
            "NatGateways", "NatGatewayIds", AwsType.EC2_NAT_GATEWAY, paged(5, 1000), (c, r) -> NatGateway.builder()
                .natGatewayId(r.id()).subnetId(r.subnetId()).vpcId(r.vpcId()).state("available").createTime(r.created())
                .connectivityType("public").tags(tags(r)).build());
        list(t, "DescribeRouteTables", DescribeRouteTablesRequest::builder, DescribeRouteTablesResponse::builder,
            "RouteTables", "RouteTableIds", AwsType.EC2_ROUTE_TABLE, paged(5, 100), (c, r) -> RouteTable.builder()
                .routeTableId(r.id()).vpcId(r.vpcId()).ownerId(r.account())
                .routes(Route.builder().destinationCidrBlock("10.0.0.0/8").gatewayId("local").state("active")
                    .origin("CreateRouteTable").build())
                .tags(tags(r)).build());
        list(t, "DescribeKeyPairs", DescribeKeyPairsRequest::builder, DescribeKeyPairsResponse::builder, "KeyPairs",
            "KeyNames", AwsType.EC2_KEY_PAIR, Paging.NONE, (c, r) -> KeyPairInfo.builder()
                .keyPairId(r.arn().substring(r.arn().lastIndexOf('/') + 1)).keyName(r.id())
                .keyFingerprint(fingerprint(r)).keyType("rsa").createTime(r.created()).tags(tags(r)).build());
        list(t, "DescribeAddresses", DescribeAddressesRequest::builder, DescribeAddressesResponse::builder, "Addresses",
            "AllocationIds", AwsType.EC2_EIP, Paging.NONE, (c, r) -> Address.builder().allocationId(r.id())
                .publicIp(publicIp(r)).domain("vpc").networkBorderGroup(r.region()).publicIpv4Pool("amazon")
                .tags(tags(r)).build());
        list(t, "DescribeLaunchTemplates", DescribeLaunchTemplatesRequest::builder, DescribeLaunchTemplatesResponse::builder,
            "LaunchTemplates", "LaunchTemplateIds", AwsType.EC2_LAUNCH_TEMPLATE, paged(1, 200), (c, r) -> LaunchTemplate
                .builder().launchTemplateId(r.id()).launchTemplateName(r.name()).createTime(r.created())
                .createdBy("arn:aws:iam::" + r.account() + ":root").defaultVersionNumber(1L).latestVersionNumber(1L)
                .tags(tags(r)).build());
    }

    /** Security group rules as DescribeSecurityGroups returns them (no ports for protocol -1). */
    private static List<IpPermission> permissions(String account, List<AwsSecurity.Rule> rules) {
        List<IpPermission> out = new ArrayList<>(rules.size());
        for (AwsSecurity.Rule rule : rules) {
            IpPermission.Builder p = IpPermission.builder().ipProtocol(rule.protocol());
            if (rule.fromPort() != null) {
                p.fromPort(rule.fromPort()).toPort(rule.toPort());
            }
            if (!rule.ipv4Cidrs().isEmpty()) {
                p.ipRanges(rule.ipv4Cidrs().stream().map(c -> IpRange.builder().cidrIp(c).description(rule.description())
                    .build()).toList());
            }
            if (!rule.ipv6Cidrs().isEmpty()) {
                p.ipv6Ranges(rule.ipv6Cidrs().stream().map(c -> Ipv6Range.builder().cidrIpv6(c)
                    .description(rule.description()).build()).toList());
            }
            if (!rule.groupIds().isEmpty()) {
                p.userIdGroupPairs(rule.groupIds().stream().map(g -> UserIdGroupPair.builder().userId(account).groupId(g)
                    .description(rule.description()).build()).toList());
            }
            out.add(p.build());
        }
        return out;
    }

    /** Describe* actions EC2 treats as resource-intensive when called without pagination or filters. */
    private static final java.util.Set<String> RESOURCE_INTENSIVE = java.util.Set.of("DescribeInstances",
        "DescribeVolumes", "DescribeSnapshots", "DescribeSecurityGroups", "DescribeNetworkInterfaces", "DescribeImages");

    /** Whether this call is a resource-intensive Describe* with no parameter but Action, Version and DryRun. */
    static boolean unpaginated(String action, java.util.Map<String, String> form) {
        if (!RESOURCE_INTENSIVE.contains(action)) {
            return false;
        }
        for (String k : form.keySet()) {
            if (!k.equals("Action") && !k.equals("Version") && !k.equals("DryRun")) {
                return false;
            }
        }
        return true;
    }

    private static Paging paged(int min, int max) {
        return Paging.token("MaxResults", Integer.MAX_VALUE, min, max);
    }

    private static void list(OpTable t, String name, Supplier<? extends SdkPojo> req, Supplier<? extends SdkPojo> resp,
                             String listMember, String idsMember, AwsType type, Paging paging, Listing.Item item) {
        t.op(EC2, name, req, new Listing(resp, listMember, paging, filtered(type, idsMember), item));
    }

    /** The caller's resources of {@code type}, narrowed by the request's id list, owners and filters. */
    private static Listing.Source filtered(AwsType type, String idsMember) {
        return (call, req) -> {
            List<AwsResource> all = call.estate().list(call.account(), call.region(), type);
            if (!ownersInclude(call, req)) {
                return List.of();
            }
            Object ids = Pojos.get(req, idsMember);
            List<Filter> filters = Pojos.has(req, "Filters") ? castFilters(Pojos.get(req, "Filters")) : List.of();
            if (ids == null && filters.isEmpty()) {
                return all;
            }
            List<AwsResource> out = new ArrayList<>();
            for (AwsResource r : all) {
                if ((ids == null || ((Collection<?>) ids).contains(r.id())) && passes(call, r, filters)) {
                    out.add(r);
                }
            }
            return out;
        };
    }

    @SuppressWarnings("unchecked")
    private static List<Filter> castFilters(Object o) {
        return o == null ? List.of() : (List<Filter>) o;
    }

    /** {@code Owners} (DescribeImages) and {@code OwnerIds} (DescribeSnapshots): only the caller's own exist. */
    private static boolean ownersInclude(AwsCall call, SdkPojo req) {
        String member = Pojos.has(req, "Owners") ? "Owners" : Pojos.has(req, "OwnerIds") ? "OwnerIds" : null;
        if (member == null) {
            return true;
        }
        Object owners = Pojos.get(req, member);
        if (owners == null) {
            return true;
        }
        for (Object o : (Collection<?>) owners) {
            if ("self".equals(o) || call.account().equals(o)) {
                return true;
            }
        }
        return false;
    }

    private static boolean passes(AwsCall call, AwsResource r, List<Filter> filters) {
        for (Filter f : filters) {
            String value = switch (f.name()) {
                case "vpc-id" -> r.vpcId();
                case "subnet-id" -> r.subnetId();
                case "availability-zone" -> r.zone();
                case "owner-id" -> r.account();
                default -> throw AwsErrors.invalidParameter(EC2, "The filter '" + f.name() + "' is invalid");
            };
            if (value == null || !f.values().contains(value)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The regions of the caller's account: those enabled in every account ({@code opt-in-not-required}) and
     * the opt-in regions it enabled ({@code opted-in}); with {@code AllRegions} also the organization's opt-in
     * regions it has not ({@code not-opted-in}). {@code RegionNames} narrows the answer.
     */
    private static SdkPojo describeRegions(AwsCall call, SdkPojo request) {
        DescribeRegionsRequest req = (DescribeRegionsRequest) request;
        AwsAccount account = call.estate().account(call.account());
        List<String> enabled = account == null ? call.estate().regions() : account.regions();
        boolean all = Boolean.TRUE.equals(req.allRegions());
        List<String> names = req.hasRegionNames() ? req.regionNames() : null;
        List<Region> regions = new ArrayList<>();
        for (String r : call.estate().regions()) {
            boolean on = enabled.contains(r);
            boolean optIn = call.estate().optInRegion(r);
            if ((!on && !all) || (names != null && !names.contains(r))) {
                continue;
            }
            regions.add(Region.builder().regionName(r).endpoint("ec2." + r + ".amazonaws.com")
                .optInStatus(!optIn ? "opt-in-not-required" : on ? "opted-in" : "not-opted-in").build());
        }
        return DescribeRegionsResponse.builder().regions(regions).build();
    }

    /**
     * One AMI's attribute. Odd-numbered AMIs (by id hash) are shared with the next account of the
     * organization, so launch-permission collectors see both shapes.
     */
    private static SdkPojo describeImageAttribute(AwsCall call, SdkPojo request) {
        DescribeImageAttributeRequest req = (DescribeImageAttributeRequest) request;
        if (req.imageId() == null) {
            throw AwsErrors.client("MissingParameter", "The request must contain the parameter ImageId", 400);
        }
        if (req.attributeAsString() == null) {
            throw AwsErrors.client("MissingParameter", "The request must contain the parameter Attribute", 400);
        }
        AwsResource image = call.estate().find(call.account(), call.region(), AwsType.EC2_IMAGE, req.imageId());
        if (image == null) {
            throw AwsErrors.client("InvalidAMIID.NotFound", "The image id '[" + req.imageId() + "]' does not exist", 400);
        }
        DescribeImageAttributeResponse.Builder b = DescribeImageAttributeResponse.builder().imageId(image.id());
        switch (req.attributeAsString()) {
            case "launchPermission" -> b.launchPermissions(launchPermissions(call, image));
            case "description" -> b.description(AttributeValue.builder().value("cloud-sim image " + image.name()).build());
            case "bootMode" -> b.bootMode(AttributeValue.builder().value("uefi-preferred").build());
            case "imdsSupport" -> b.imdsSupport(AttributeValue.builder().value("v2.0").build());
            case "deregistrationProtection" -> b.deregistrationProtection(AttributeValue.builder().value("disabled").build());
            case "lastLaunchedTime" -> b.lastLaunchedTime(AttributeValue.builder().value(image.created().toString()).build());
            case "kernel", "ramdisk", "productCodes", "blockDeviceMapping", "sriovNetSupport", "tpmSupport", "uefiData" -> {
                // present but empty for these images, as for most real AMIs
            }
            default -> throw AwsErrors.invalidParameter(EC2, "Value (" + req.attributeAsString()
                + ") for parameter attribute is invalid. Unknown attribute.");
        }
        return b.build();
    }

    private static List<LaunchPermission> launchPermissions(AwsCall call, AwsResource image) {
        if ((image.id().hashCode() & 1) == 0) {
            return List.of();
        }
        List<AwsAccount> accounts = call.estate().accounts();
        int idx = 0;
        for (int i = 0; i < accounts.size(); i++) {
            if (accounts.get(i).id().equals(image.account())) {
                idx = i;
            }
        }
        AwsAccount other = accounts.get((idx + 1) % accounts.size());
        return List.of(LaunchPermission.builder().userId(other.id()).build());
    }

    static Tag name(AwsResource r) {
        return Tag.builder().key("Name").value(r.name()).build();
    }

    /** A resource's tags: its {@code Name}, and the {@code env} an estate generation set, if any. */
    static List<Tag> tags(AwsResource r) {
        return r.env() == null ? List.of(name(r)) : List.of(name(r), Tag.builder().key("env").value(r.env()).build());
    }

    private static int octet(AwsResource r, int salt) {
        return Math.floorMod(r.id().hashCode() * 31 + salt, 250) + 1;
    }

    private static String cidr(AwsResource r, int bits) {
        return bits == 16 ? "10." + octet(r, 1) + ".0.0/16" : "10." + octet(r, 1) + "." + octet(r, 2) + ".0/24";
    }

    private static String ip(AwsResource r) {
        return "10." + octet(r, 1) + "." + octet(r, 2) + "." + octet(r, 3);
    }

    static String publicIp(AwsResource r) {
        return "3." + octet(r, 4) + "." + octet(r, 5) + "." + octet(r, 6);
    }

    private static String fingerprint(AwsResource r) {
        String h = String.format(Locale.ROOT, "%032x", (long) r.id().hashCode() * 0x9E3779B97F4A7C15L & Long.MAX_VALUE);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 32; i += 2) {
            sb.append(i == 0 ? "" : ":").append(h, i, i + 2);
        }
        return sb.toString();
    }
}
