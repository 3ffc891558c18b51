package io.dra4j.drivers.nvidia;

import java.util.List;

/** One NVIDIA GPU as discovery found it; {@code addressingMode} and {@code cudaComputeCapability} may be null. */
public record GpuInfo(int minor, String uuid, String productName, String brand, String architecture,
                      String cudaComputeCapability, String driverVersion, String cudaDriverVersion, String pciBusId,
                      long memoryBytes, String addressingMode, boolean migEnabled, List<MigInfo> migDevices) {
    public GpuInfo {
        migDevices = List.copyOf(migDevices);
    }

    /** A MIG device of a GPU: its GPU instance profile and placement (memory slices start..start+size-1). */
    public record MigInfo(int index, int gpuInstanceId, int computeInstanceId, String profile, int giProfileId,
                          int placementStart, int placementSize, String uuid, long multiprocessors, long copyEngines,
                          long decoders, long encoders, long jpegEngines, long ofaEngines, long memoryBytes) {
    }
}
