package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a successful search into one AllocationResult per claim: the device results in allocation order, the
 * configuration from classes and from the claim (1.37 rules: claim configs once, then compacted), and the node
 * selector under which the allocation is usable.
 */
public final class ResultAssembler {
    private ResultAssembler() {}

    /** Fails with the error {@link #assemble} would report, without building anything. */
    static void check(Search search) throws AllocationException {
        for (int ci = 0; ci < search.claims.size(); ci++) {
            try {
                nodeSelector(search, search.results[ci], false);
            } catch (AllocationException e) {
                throw new AllocationException(
                        "create NodeSelector for claim " + claimName(search.claims.get(ci)) + ": " + e.getMessage());
            }
        }
    }

    public static List<AllocationResult> assemble(Search search) throws AllocationException {
        List<AllocationResult> out = new ArrayList<>();
        for (int ci = 0; ci < search.claims.size(); ci++) {
            ResourceClaim claim = search.claims.get(ci);
            AllocationResult result = new AllocationResult();
            DeviceAllocationResult devices = new DeviceAllocationResult();
            List<DeviceRequestAllocationResult> results = new ArrayList<>();
            for (Search.DeviceResult r : search.results[ci]) {
                results.add(deviceResult(search, r));
            }
            devices.setResults(results);
            devices.setConfig(configs(search, ci, claim));
            result.setDevices(devices);
            try {
                result.setNodeSelector(nodeSelector(search, search.results[ci], true));
            } catch (AllocationException e) {
                throw new AllocationException(
                        "create NodeSelector for claim " + claimName(claim) + ": " + e.getMessage());
            }
            out.add(result);
        }
        return out;
    }

    private static String claimName(ResourceClaim claim) {
        return claim.getMetadata() == null ? "" : claim.getMetadata().getName();
    }

    private static DeviceRequestAllocationResult deviceResult(Search search, Search.DeviceResult r) {
        DeviceRequestAllocationResult out = new DeviceRequestAllocationResult();
        out.setRequest(r.request().fullName());
        out.setDriver(r.device().id.driver());
        out.setPool(r.device().id.pool());
        out.setDevice(r.device().id.device());
        if (r.request().adminAccess) {
            out.setAdminAccess(true);
        }
        if (!r.request().tolerations.isEmpty()) {
            out.setTolerations(r.request().tolerationsCopy());
        }
        if (r.shareId() != null) {
            out.setShareID(r.shareId());
        }
        if (r.consumedCapacity() != null) {
            Map<String, Quantity> consumed = new LinkedHashMap<>();
            for (Map.Entry<String, KubeQuantity> e : r.consumedCapacity().entrySet()) {
                consumed.put(e.getKey(), new Quantity(e.getValue().canonical()));
            }
            out.setConsumedCapacity(consumed);
        }
        if (search.f.bindingAndStatus()) {
            List<String> bc = r.device().device.getBindingConditions();
            List<String> bfc = r.device().device.getBindingFailureConditions();
            if (bc != null && !bc.isEmpty()) {
                out.setBindingConditions(new ArrayList<>(bc));
            }
            if (bfc != null && !bfc.isEmpty()) {
                out.setBindingFailureConditions(new ArrayList<>(bfc));
            }
        }
        if (search.f.variant() == EngineFeatures.Variant.EXPERIMENTAL
                && !r.device().slice.skipNodeOperations.isEmpty()) {
            out.setSkipNodeOperations(new ArrayList<>(r.device().slice.skipNodeOperations));
        }
        return out;
    }

    // Class configs come first, one block per class in request order, listing every request that used the class;
    // then claim configs that name a request (or the chosen subrequest) or no request at all; finally a config that
    // covers every request of the claim is stored as applying to all.
    private static List<DeviceAllocationConfiguration> configs(Search search, int ci, ResourceClaim claim) {
        List<DeviceAllocationConfiguration> configs = new ArrayList<>();
        List<DeviceRequest> requests = ClaimDevices.requests(claim);
        RequestData[][] data = search.requests[ci];
        Map<String, int[]> classRange = new HashMap<>();
        for (int qi = 0; qi < data.length; qi++) {
            RequestData rd = data[qi][data[qi][0].parentName == null ? 0 : search.selectedSub[ci][qi]];
            int[] range = classRange.get(rd.className);
            if (range != null) {
                for (int i = range[0]; i < range[1]; i++) {
                    configs.get(i).getRequests().add(rd.fullName());
                }
                continue;
            }
            int start = configs.size();
            List<DeviceClassConfiguration> classConfigs =
                    rd.deviceClass.getSpec() == null || rd.deviceClass.getSpec().getConfig() == null
                            ? List.of()
                            : rd.deviceClass.getSpec().getConfig();
            for (DeviceClassConfiguration cc : classConfigs) {
                DeviceAllocationConfiguration c = new DeviceAllocationConfiguration();
                c.setSource("FromClass");
                List<String> names = new ArrayList<>();
                names.add(rd.fullName());
                c.setRequests(names);
                c.setOpaque(cc.getOpaque());
                configs.add(c);
            }
            classRange.put(rd.className, new int[] {start, configs.size()});
        }
        List<DeviceClaimConfiguration> claimConfigs = ClaimDevices.config(claim);
        for (DeviceClaimConfiguration cc : claimConfigs) {
            List<String> named = cc.getRequests() == null ? List.of() : cc.getRequests();
            boolean include = named.isEmpty();
            for (int qi = 0; qi < requests.size() && !include; qi++) {
                if (named.contains(requests.get(qi).getName())) {
                    include = true;
                } else if (data[qi][0].parentName != null
                        && named.contains(data[qi][search.selectedSub[ci][qi]].fullName())) {
                    include = true;
                }
            }
            if (include) {
                DeviceAllocationConfiguration c = new DeviceAllocationConfiguration();
                c.setSource("FromClaim");
                c.setRequests(new ArrayList<>(named));
                c.setOpaque(cc.getOpaque());
                configs.add(c);
            }
        }
        for (DeviceAllocationConfiguration c : configs) {
            if (c.getRequests().isEmpty()) {
                continue;
            }
            boolean all = true;
            for (int qi = 0; qi < requests.size() && all; qi++) {
                if (c.getRequests().contains(requests.get(qi).getName())) {
                    continue;
                }
                all = data[qi][0].parentName != null
                        && c.getRequests().contains(data[qi][search.selectedSub[ci][qi]].fullName());
            }
            if (all) {
                c.setRequests(new ArrayList<>());
            }
        }
        return configs;
    }

    // A node-local device pins the whole allocation to the node; node selectors of network-attached devices are
    // merged into one term (requirements ANDed, duplicates dropped); allNodes adds nothing. Without build, only the
    // error is looked for (null is returned).
    private static NodeSelector nodeSelector(Search search, List<Search.DeviceResult> results, boolean build)
            throws AllocationException {
        NodeSelectorTerm term = build ? new NodeSelectorTerm() : null;
        if (build) {
            term.setMatchExpressions(new ArrayList<>());
            term.setMatchFields(new ArrayList<>());
        }
        for (Search.DeviceResult r : results) {
            DeviceInfo d = r.device();
            String nodeName;
            NodeSelector selector;
            if (Boolean.TRUE.equals(d.slice.perDeviceNodeSelection)) {
                nodeName = d.device.getNodeName();
                selector = d.device.getNodeSelector();
            } else {
                nodeName = d.slice.nodeName;
                selector = d.slice.nodeSelector;
            }
            boolean bindsToNode = !search.f.stable() && Boolean.TRUE.equals(d.device.getBindsToNode());
            if ((nodeName != null || bindsToNode) && !build) {
                return null;
            }
            if (nodeName != null || bindsToNode) {
                String pinned = search.f.stable() ? nodeName : search.nodeName;
                NodeSelectorRequirement req = new NodeSelectorRequirementBuilder()
                        .withKey("metadata.name")
                        .withOperator("In")
                        .withValues(pinned)
                        .build();
                NodeSelectorTerm only = new NodeSelectorTerm();
                only.setMatchFields(new ArrayList<>(List.of(req)));
                NodeSelector ns = new NodeSelector();
                ns.setNodeSelectorTerms(new ArrayList<>(List.of(only)));
                return ns;
            }
            if (selector != null && selector.getNodeSelectorTerms() != null) {
                List<NodeSelectorTerm> terms = selector.getNodeSelectorTerms();
                if (terms.size() == 1 && build) {
                    addNew(terms.get(0).getMatchFields(), term.getMatchFields());
                    addNew(terms.get(0).getMatchExpressions(), term.getMatchExpressions());
                } else if (terms.size() > 1) {
                    throw new AllocationException(
                            "unsupported ResourceSlice.NodeSelector with " + terms.size() + " terms");
                }
            }
        }
        if (!build
                || (term.getMatchFields().isEmpty()
                        && term.getMatchExpressions().isEmpty())) {
            return null;
        }
        NodeSelector ns = new NodeSelector();
        ns.setNodeSelectorTerms(new ArrayList<>(List.of(term)));
        return ns;
    }

    private static void addNew(List<NodeSelectorRequirement> from, List<NodeSelectorRequirement> to) {
        if (from == null) {
            return;
        }
        for (NodeSelectorRequirement r : from) {
            boolean present = false;
            for (NodeSelectorRequirement e : to) {
                if (e.getKey().equals(r.getKey())
                        && e.getOperator().equals(r.getOperator())
                        && new HashSet<>(nullToEmpty(e.getValues()))
                                .equals(new HashSet<>(nullToEmpty(r.getValues())))) {
                    present = true;
                    break;
                }
            }
            if (!present) {
                to.add(r);
            }
        }
    }

    private static List<String> nullToEmpty(List<String> l) {
        return l == null ? List.of() : l;
    }
}
