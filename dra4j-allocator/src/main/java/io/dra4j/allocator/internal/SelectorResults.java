package io.dra4j.allocator.internal;

import com.google.common.collect.MapMaker;
import io.dra4j.cel.CelDevice;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EvalResult;
import io.fabric8.kubernetes.api.model.resource.v1.Device;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Selector results per device object, shared by every allocator built from the same objects: kube-scheduler builds
 * a new allocator for every pod from the same informer objects, and a selector's result depends only on the device,
 * its driver and the expression. Entries are keyed by object identity and disappear with the object, so a slice
 * that changes (a new object, as informers deliver it) is evaluated afresh. Objects handed to an allocator must not
 * be modified afterwards.
 */
final class SelectorResults {
    private static final ConcurrentMap<Device, Entry> BY_DEVICE = new MapMaker().weakKeys().makeMap();

    private SelectorResults() {
    }

    /** The CEL view and the results of one device for one driver and environment. */
    private record Entry(String driver, DeviceSelectorEnvironment env, CelDevice view,
                         Map<CompiledExpression, EvalResult> results) {
    }

    static EvalResult evaluate(Device device, String driver, DeviceSelectorEnvironment env, CompiledExpression expression) {
        Entry e = BY_DEVICE.get(device);
        if (e == null || e.env != env || !e.driver.equals(driver)) {
            e = new Entry(driver, env, env.device(driver, device), new ConcurrentHashMap<>());
            BY_DEVICE.put(device, e);
        }
        EvalResult r = e.results.get(expression);
        if (r == null) {
            r = expression.evaluate(e.view);
            e.results.put(expression, r);
        }
        return r;
    }
}
