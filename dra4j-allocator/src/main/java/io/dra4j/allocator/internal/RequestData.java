package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceDerivedAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One request without subrequests, or one subrequest of a firstAvailable request, with everything the search
 * needs: class, selectors, mode, count, tolerations, capacity requests, and (for All) the fixed device list.
 */
final class RequestData {
    static final String EXACT_COUNT = "ExactCount";
    static final String ALL = "All";

    final int claimIndex;
    final int requestIndex;
    final int subRequestIndex;
    /** Dense index of this request or subrequest within one search, used to key per-call caches. */
    final int slot;

    final String name;
    final String parentName;
    final String className;
    final List<DeviceSelector> selectors;
    final List<DeviceDerivedAttribute> derivedAttributes;
    final String mode;
    final long count;
    final boolean adminAccess;
    final boolean adminAccessSet;
    final List<DeviceToleration> tolerations;
    final boolean capacitySet;
    final Map<String, KubeQuantity> capacityRequests;
    DeviceClass deviceClass;
    int numDevices;
    List<DeviceInfo> allDevices = List.of();
    /** Positions of {@link #allDevices} among the call's candidates. */
    int[] allDevicePositions = new int[0];
    /**
     * What decides this request's selectability (see {@link Search#selectionKey}): its class's and its own selector
     * expressions; null until known, {@link Search#INCOMPLETE} when some selector has no expression.
     */
    List<Object> selectionKey;
    /** Which candidates of the call's node pass this request's selectors, as far as known (see ClusterView.NodeView). */
    byte[] selectableRow;

    private RequestData(
            int claimIndex,
            int requestIndex,
            int subRequestIndex,
            int slot,
            String name,
            String parentName,
            String className,
            List<DeviceSelector> selectors,
            List<DeviceDerivedAttribute> derived,
            String mode,
            Long count,
            Boolean adminAccess,
            List<DeviceToleration> tolerations,
            CapacityRequirements capacity,
            Supplier<String> where) {
        this.claimIndex = claimIndex;
        this.requestIndex = requestIndex;
        this.subRequestIndex = subRequestIndex;
        this.slot = slot;
        this.name = name == null ? "" : name;
        this.parentName = parentName;
        this.className = className == null ? "" : className;
        this.selectors = selectors == null ? List.of() : selectors;
        this.derivedAttributes = derived == null ? List.of() : derived;
        // The API server defaults allocationMode to ExactCount and count to 1; objects built in code may lack both.
        this.mode = mode == null || mode.isEmpty() ? EXACT_COUNT : mode;
        this.count = count == null ? (EXACT_COUNT.equals(this.mode) ? 1 : 0) : count;
        this.adminAccess = Boolean.TRUE.equals(adminAccess);
        this.adminAccessSet = adminAccess != null;
        this.tolerations = tolerations == null ? List.of() : tolerations;
        this.capacitySet = capacity != null;
        if (capacity != null && capacity.getRequests() != null) {
            Map<String, KubeQuantity> caps = new LinkedHashMap<>();
            capacity.getRequests()
                    .forEach((k, v) ->
                            caps.put(k, SliceInfo.quantity(v, where.get() + ", capacity.requests[" + k + "]")));
            this.capacityRequests = caps;
        } else {
            this.capacityRequests = null;
        }
    }

    static RequestData exact(
            int claimIndex, int requestIndex, int slot, String name, ExactDeviceRequest r, Supplier<String> where) {
        return new RequestData(
                claimIndex,
                requestIndex,
                0,
                slot,
                name,
                null,
                r.getDeviceClassName(),
                r.getSelectors(),
                r.getDerivedAttributes(),
                r.getAllocationMode(),
                r.getCount(),
                r.getAdminAccess(),
                r.getTolerations(),
                r.getCapacity(),
                where);
    }

    static RequestData sub(
            int claimIndex,
            int requestIndex,
            int subIndex,
            int slot,
            String parentName,
            DeviceSubRequest r,
            Supplier<String> where) {
        return new RequestData(
                claimIndex,
                requestIndex,
                subIndex,
                slot,
                r.getName(),
                parentName,
                r.getDeviceClassName(),
                r.getSelectors(),
                r.getDerivedAttributes(),
                r.getAllocationMode(),
                r.getCount(),
                null,
                r.getTolerations(),
                r.getCapacity(),
                where);
    }

    /** {@code request} or {@code request/subrequest}, as results and constraints name it. */
    String fullName() {
        return parentName == null ? name : parentName + "/" + name;
    }

    /** The selectors of the request's device class (set once the class is resolved). */
    List<DeviceSelector> classSelectors() {
        return deviceClass.getSpec() == null || deviceClass.getSpec().getSelectors() == null
                ? List.of()
                : deviceClass.getSpec().getSelectors();
    }

    boolean allMode() {
        return ALL.equals(mode);
    }

    List<DeviceToleration> tolerationsCopy() {
        return new ArrayList<>(tolerations);
    }
}
