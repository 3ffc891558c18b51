package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Consumable capacity (DRAConsumableCapacity): how much of each capacity an allocation consumes, given the
 * request and the device's request policy, and whether it still fits next to earlier allocations.
 */
final class ConsumableCapacity {
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final String NOT_REPRESENTABLE =
            "capacity request cannot be represented in the device's range arithmetic";

    private ConsumableCapacity() {}

    /** A failure to compute a consumption; upstream turns it into a fatal error. */
    static final class CapacityException extends Exception {
        private static final long serialVersionUID = 1L;

        CapacityException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Upstream's CmpRequestOverCapacity: false when the request names a capacity the device lacks, when a consumed
     * amount violates the request policy, or when persisted + this + in-flight consumption exceeds the capacity.
     */
    static boolean fits(
            Map<String, BigDecimal> persisted,
            Map<String, KubeQuantity> requests,
            DeviceInfo device,
            Map<String, BigDecimal> allocating,
            boolean fractional)
            throws CapacityException {
        if (requests == null && persisted == null && allocating == null) {
            return device.fitsAlone(fractional);
        }
        return compare(persisted, requests, device, allocating, fractional);
    }

    /** {@link #fits} computed from scratch. */
    static boolean compare(
            Map<String, BigDecimal> persisted,
            Map<String, KubeQuantity> requests,
            DeviceInfo device,
            Map<String, BigDecimal> allocating,
            boolean fractional)
            throws CapacityException {
        if (requests != null) {
            for (String name : requests.keySet()) {
                if (!device.capacity.containsKey(name)) {
                    return false;
                }
            }
        }
        if (device.capacity.isEmpty()) {
            return true;
        }
        // Every consumed amount is computed (and its error raised) before any is compared, as upstream does.
        KubeQuantity[] consumed = new KubeQuantity[device.capacity.size()];
        int i = 0;
        for (DeviceInfo.CapacityInfo cap : device.capacity.values()) {
            KubeQuantity q = consumed(requests == null ? null : requests.get(cap.name()), cap, fractional);
            if (q.value().signum() < 0) {
                throw new CapacityException("capacity \"" + cap.name() + "\": capacity value is negative");
            }
            consumed[i++] = q;
        }
        i = 0;
        for (DeviceInfo.CapacityInfo cap : device.capacity.values()) {
            KubeQuantity q = consumed[i++];
            if (violatesPolicy(q, cap, fractional)) {
                return false;
            }
            BigDecimal sum = q.value();
            if (persisted != null && persisted.containsKey(cap.name())) {
                sum = sum.add(persisted.get(cap.name()));
            }
            if (allocating != null && allocating.containsKey(cap.name())) {
                sum = sum.add(allocating.get(cap.name()));
            }
            if (sum.compareTo(cap.value().value()) > 0) {
                return false;
            }
        }
        return true;
    }

    /** The consumption recorded for a share of a multi-allocatable device: every capacity of the device. */
    static Map<String, KubeQuantity> consumption(
            Map<String, KubeQuantity> requests, DeviceInfo device, boolean fractional) throws CapacityException {
        Map<String, KubeQuantity> out = new LinkedHashMap<>();
        for (DeviceInfo.CapacityInfo cap : device.capacity.values()) {
            out.put(cap.name(), consumed(requests == null ? null : requests.get(cap.name()), cap, fractional));
        }
        return out;
    }

    static KubeQuantity consumed(KubeQuantity requested, DeviceInfo.CapacityInfo cap, boolean fractional)
            throws CapacityException {
        if (requested == null) {
            return cap.defaultValue() != null ? cap.defaultValue() : cap.value();
        }
        if (!cap.hasPolicy()) {
            return requested;
        }
        if (cap.hasValidRange() && cap.min() != null) {
            return roundUpRange(requested, cap, fractional);
        }
        if (!cap.validValues().isEmpty()) {
            for (KubeQuantity v : cap.validValues()) {
                if (requested.compareTo(v) <= 0) {
                    return v;
                }
            }
        }
        return requested;
    }

    private static KubeQuantity roundUpRange(KubeQuantity requested, DeviceInfo.CapacityInfo cap, boolean fractional)
            throws CapacityException {
        if (requested.compareTo(cap.min()) < 0) {
            return cap.min();
        }
        if (cap.step() == null) {
            return requested;
        }
        KubeQuantity.Format format = cap.step().format();
        if (useMilli(cap, fractional)) {
            Long requestedMilli = exactMilli(requested);
            if (requestedMilli == null) {
                throw new CapacityException("capacity \"" + cap.name() + "\": " + NOT_REPRESENTABLE + ": request "
                        + requested.canonical() + " is not a representable milli value");
            }
            long stepMilli = cap.step().milliValueCeil();
            long minMilli = cap.min().milliValueCeil();
            long added = requestedMilli - minMilli;
            long n = added / stepMilli;
            if (added % stepMilli != 0) {
                n++;
            }
            if (n > (Long.MAX_VALUE - minMilli) / stepMilli) {
                throw new CapacityException(
                        "capacity \"" + cap.name() + "\": " + NOT_REPRESENTABLE + ": rounding request "
                                + requested.canonical() + " up to the next step passes the milli-value range");
            }
            long valMilli = minMilli + stepMilli * n;
            return KubeQuantity.of(BigDecimal.valueOf(valMilli).divide(THOUSAND), format);
        }
        if (requested.value().compareTo(MAX_INT64) > 0) {
            throw new CapacityException("capacity \"" + cap.name() + "\": " + NOT_REPRESENTABLE + ": request "
                    + requested.canonical() + " exceeds MaxInt64");
        }
        long requestedInt = requested.valueCeil();
        long stepInt = cap.step().valueCeil();
        long minInt = cap.min().valueCeil();
        long added = requestedInt - minInt;
        long n = added / stepInt;
        if (added % stepInt != 0) {
            n++;
        }
        if (minInt >= 0 && n > (Long.MAX_VALUE - minInt) / stepInt) {
            throw new CapacityException("capacity \"" + cap.name() + "\": " + NOT_REPRESENTABLE + ": rounding request "
                    + requested.canonical() + " up to the next step passes MaxInt64");
        }
        return KubeQuantity.of(BigDecimal.valueOf(minInt + stepInt * n), format);
    }

    private static boolean violatesPolicy(KubeQuantity consumed, DeviceInfo.CapacityInfo cap, boolean fractional) {
        if (!cap.hasPolicy()) {
            return false;
        }
        if (cap.defaultValue() != null && consumed.identical(cap.defaultValue())) {
            return false;
        }
        if (cap.hasValidRange()) {
            if (cap.max() != null && consumed.compareTo(cap.max()) > 0) {
                return true;
            }
            if (cap.step() != null) {
                long requested, step, min;
                if (useMilli(cap, fractional)) {
                    Long m = exactMilli(consumed);
                    if (m == null) {
                        return true;
                    }
                    requested = m;
                    step = cap.step().milliValueCeil();
                    min = cap.min() == null ? 0 : cap.min().milliValueCeil();
                } else {
                    requested = consumed.valueCeil();
                    step = cap.step().valueCeil();
                    min = cap.min() == null ? 0 : cap.min().valueCeil();
                }
                return step != 0 && (requested - min) % step != 0;
            }
            return false;
        }
        if (!cap.validValues().isEmpty()) {
            for (KubeQuantity v : cap.validValues()) {
                if (consumed.compareTo(v) == 0) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** Milli arithmetic applies when the gate is on and min, max and step are all exact milli values, step >= 1m. */
    private static boolean useMilli(DeviceInfo.CapacityInfo cap, boolean fractional) {
        if (!fractional) {
            return false;
        }
        for (KubeQuantity q : new KubeQuantity[] {cap.min(), cap.max(), cap.step()}) {
            if (q != null && exactMilli(q) == null) {
                return false;
            }
        }
        return cap.step() == null || exactMilli(cap.step()) >= 1;
    }

    /** The value in milli units when it is an exact int64 there, else null. */
    private static Long exactMilli(KubeQuantity q) {
        BigDecimal m = q.value().movePointRight(3);
        BigInteger i;
        try {
            i = m.toBigIntegerExact();
        } catch (ArithmeticException e) {
            return null;
        }
        return i.bitLength() < 64 ? i.longValueExact() : null;
    }
}
