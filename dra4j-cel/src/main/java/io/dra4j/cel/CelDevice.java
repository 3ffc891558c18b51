package io.dra4j.cel;

import io.dra4j.cel.internal.DeviceView;

/**
 * A device as CEL selectors see it ({@code device.driver}, {@code device.attributes}, {@code device.capacity},
 * {@code device.allowMultipleAllocations}). Built once per device by
 * {@link DeviceSelectorEnvironment#device}; immutable, and reusable across selectors and threads.
 */
public final class CelDevice {

    private final DeviceView view;

    CelDevice(DeviceView view) {
        this.view = view;
    }

    DeviceView view() {
        return view;
    }
}
