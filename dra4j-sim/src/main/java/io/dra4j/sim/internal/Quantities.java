package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/** Resource quantities as the scheduler counts them: cpu in millicores, everything else in whole units (bytes). */
final class Quantities {
    static final String CPU = "cpu";
    static final String MEMORY = "memory";
    static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    static final String PODS = "pods";

    private Quantities() {}

    /** The value of {@code name} in the scheduler's unit, rounded up as resource.Quantity's MilliValue/Value do. */
    static long value(String name, Quantity q) {
        BigDecimal amount = Quantity.getAmountInBytes(q);
        if (name.equals(CPU)) {
            amount = amount.multiply(BigDecimal.valueOf(1000));
        }
        return amount.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    static long get(Map<String, Quantity> list, String name) {
        if (list == null) {
            return 0;
        }
        Quantity q = list.get(name);
        return q == null ? 0 : value(name, q);
    }
}
