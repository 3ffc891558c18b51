package io.dra4j.kubelet.dra;

import java.util.List;

/** What a driver's prepare of one claim came to: the prepared devices or an error for the kubelet. */
public sealed interface PrepareResult {
    record Prepared(List<PreparedDevice> devices) implements PrepareResult {
        public Prepared {
            devices = List.copyOf(devices);
        }
    }

    record Failed(String error) implements PrepareResult {}

    static PrepareResult prepared(List<PreparedDevice> devices) {
        return new Prepared(devices);
    }

    static PrepareResult failed(String error) {
        return new Failed(error);
    }
}
