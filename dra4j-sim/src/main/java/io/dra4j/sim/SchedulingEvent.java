package io.dra4j.sim;

import java.util.Objects;

/** An event as kube-scheduler records it for a pod: {@code Normal Scheduled} or {@code Warning FailedScheduling}. */
public record SchedulingEvent(String type, String reason, String namespace, String pod, String message) {
    public SchedulingEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(message, "message");
    }
}
