package io.dra4j.drivers.nvidia;

import java.util.List;

/**
 * One NVIDIA GPU as discovery found it; {@code addressingMode} and {@code cudaComputeCapability} may be null.
 * {@code index} is nvidia-smi's GPU index (what {@code -i} takes), {@code migDevices} the MIG devices that exist and
 * {@code migProfiles} the GPU instance profiles it offers with their placements (read only for dynamic MIG).
 */
public record GpuInfo(
        int index,
        int minor,
        String uuid,
        String productName,
        String brand,
        String architecture,
        String cudaComputeCapability,
        String driverVersion,
        String cudaDriverVersion,
        String pciBusId,
        long memoryBytes,
        String addressingMode,
        boolean migEnabled,
        List<MigInfo> migDevices,
        List<MigProfile> migProfiles) {
    public GpuInfo {
        migDevices = List.copyOf(migDevices);
        migProfiles = List.copyOf(migProfiles);
    }

    /** A MIG device of a GPU: its GPU instance profile and placement (memory slices start..start+size-1). */
    public record MigInfo(
            int index,
            int gpuInstanceId,
            int computeInstanceId,
            String profile,
            int giProfileId,
            int placementStart,
            int placementSize,
            String uuid,
            long multiprocessors,
            long copyEngines,
            long decoders,
            long encoders,
            long jpegEngines,
            long ofaEngines,
            long memoryBytes) {}

    /**
     * A GPU instance profile as {@code nvidia-smi mig -lgip} lists it ({@code 1g.10gb}, ID 19, its engines and
     * memory) with the placements {@code -lgipp} lists for it: each start index takes {@code placementSize} memory
     * slices from there. {@code memoryBytes} comes from the GiB nvidia-smi prints with two decimals, so it can be up
     * to 5 MiB off NVML's exact size.
     */
    public record MigProfile(
            int id,
            String name,
            int instances,
            long memoryBytes,
            long multiprocessors,
            long copyEngines,
            long decoders,
            long encoders,
            long jpegEngines,
            long ofaEngines,
            List<Integer> placementStarts,
            int placementSize) {
        public MigProfile {
            placementStarts = List.copyOf(placementStarts);
        }

        /** The compute slices of the profile: the {@code 3} of {@code 3g.20gb}. */
        public int computeSlices() {
            return Integer.parseInt(name.substring(0, name.indexOf('g')));
        }
    }
}
