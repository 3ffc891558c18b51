package io.dra4j.kubelet.dra;

/** What the kubelet last said through NotifyRegistrationStatus; {@link #PENDING} before it said anything. */
public record RegistrationStatus(boolean notified, boolean registered, String error) {
    public static final RegistrationStatus PENDING = new RegistrationStatus(false, false, "");
}
