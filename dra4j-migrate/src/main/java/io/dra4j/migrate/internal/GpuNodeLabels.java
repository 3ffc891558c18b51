package io.dra4j.migrate.internal;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * NVIDIA GPU feature discovery node labels as CEL selectors on the attributes NVIDIA's DRA driver publishes per device
 * (node-side.md §5.2: {@code productName}, {@code architecture}, {@code cudaComputeCapability},
 * {@code driverVersion}, capacity {@code memory}). A label describes the node's GPUs; the selector asks the same of
 * the allocated device. Labels with no device attribute (the GPU count, MIG strategy) have none.
 */
public final class GpuNodeLabels {
    private static final String DOMAIN = "gpu.nvidia.com";
    private static final Pattern NUMBER = Pattern.compile("\\d{1,9}");

    private GpuNodeLabels() {}

    /** The CEL selector meaning {@code key=value}, or empty when the label has no device-attribute equivalent. */
    public static Optional<String> selector(String key, String value) {
        String attrs = "device.attributes['" + DOMAIN + "']";
        switch (key) {
            case "nvidia.com/gpu.product" -> {
                // GFD writes the NVML name with spaces as dashes, and appends -SHARED under time-slicing or MPS.
                String product = value.endsWith("-SHARED") ? value.substring(0, value.length() - 7) : value;
                return Optional.of(attrs + ".productName.replace(' ', '-') == " + quote(product));
            }
            case "nvidia.com/gpu.family" -> {
                return Optional.of(
                        attrs + ".architecture.lowerAscii() == " + quote(value.toLowerCase(java.util.Locale.ROOT)));
            }
            case "nvidia.com/gpu.memory" -> {
                // GFD's value is NVML's total memory in MiB; the driver publishes the same total in bytes.
                if (!NUMBER.matcher(value).matches()) {
                    return Optional.empty();
                }
                return Optional.of(
                        "device.capacity['" + DOMAIN + "'].memory.compareTo(quantity('" + value + "Mi')) == 0");
            }
            case "nvidia.com/gpu.compute.major" -> {
                return number(value).map(n -> attrs + ".cudaComputeCapability.major() == " + n);
            }
            case "nvidia.com/gpu.compute.minor" -> {
                return number(value).map(n -> attrs + ".cudaComputeCapability.minor() == " + n);
            }
            case "nvidia.com/cuda.driver.major", "nvidia.com/cuda.driver-version.major" -> {
                return number(value).map(n -> attrs + ".driverVersion.major() == " + n);
            }
            case "nvidia.com/cuda.driver.minor", "nvidia.com/cuda.driver-version.minor" -> {
                return number(value).map(n -> attrs + ".driverVersion.minor() == " + n);
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    /** The selector for {@code key In values}: any of the values. */
    public static Optional<String> selectorIn(String key, List<String> values) {
        if (values.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder sb = new StringBuilder();
        for (String v : values) {
            Optional<String> one = selector(key, v);
            if (one.isEmpty()) {
                return Optional.empty();
            }
            sb.append(sb.isEmpty() ? "" : " || ").append(values.size() > 1 ? "(" + one.get() + ")" : one.get());
        }
        return Optional.of(sb.toString());
    }

    /** True for the labels GPU feature discovery and NFD put on GPU nodes. */
    public static boolean isGpuLabel(String key) {
        return key.startsWith("nvidia.com/") || key.startsWith("feature.node.kubernetes.io/pci-10de");
    }

    private static Optional<String> number(String value) {
        return NUMBER.matcher(value).matches() ? Optional.of(String.valueOf(Long.parseLong(value))) : Optional.empty();
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
