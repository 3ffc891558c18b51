package io.dra4j.allocator.internal;

import io.dra4j.allocator.DeviceId;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import java.util.ArrayList;
import java.util.List;

/**
 * DeviceTaintRules as the scheduler's ResourceSlice tracker applies them ({@code resourceslice/tracker}
 * {@code applyPatches}): a rule's taint is appended to every device whose driver, pool and device name equal the set
 * fields of its selector. A rule without a selector matches no device; a set field is compared as written, so an
 * empty one (which the API server rejects) matches nothing.
 */
final class TaintRules {
    static final TaintRules NONE = new TaintRules(List.of());
    private final List<DeviceTaintRule> rules;

    TaintRules(List<DeviceTaintRule> rules) {
        this.rules = List.copyOf(rules);
    }

    List<DeviceTaint> taintsFor(DeviceId id) {
        if (rules.isEmpty()) {
            return List.of();
        }
        List<DeviceTaint> out = new ArrayList<>();
        for (DeviceTaintRule rule : rules) {
            if (rule.getSpec() == null || rule.getSpec().getTaint() == null) {
                continue;
            }
            DeviceTaintSelector s = rule.getSpec().getDeviceSelector();
            if (s == null
                    || !matches(s.getDriver(), id.driver())
                    || !matches(s.getPool(), id.pool())
                    || !matches(s.getDevice(), id.device())) {
                continue;
            }
            out.add(rule.getSpec().getTaint());
        }
        return out;
    }

    private static boolean matches(String want, String actual) {
        return want == null || want.equals(actual);
    }
}
