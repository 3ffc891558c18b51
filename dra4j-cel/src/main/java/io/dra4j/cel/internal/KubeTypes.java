package io.dra4j.cel.internal;

import dev.cel.common.types.OpaqueType;

/** The CEL types the Kubernetes libraries introduce, under upstream's type names. */
public final class KubeTypes {

    /** {@code kubernetes.Quantity}, held as {@link io.dra4j.cel.KubeQuantity}. */
    public static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
    /** {@code kubernetes.Semver}, held as {@link io.dra4j.cel.Semver}. */
    public static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");
    /** {@code net.IP}, held as {@link IpAddress}. */
    public static final OpaqueType IP = OpaqueType.create("net.IP");
    /** {@code net.CIDR}, held as {@link IpPrefix}. */
    public static final OpaqueType CIDR = OpaqueType.create("net.CIDR");
    /** {@code kubernetes.URL}, held as {@link GoUrl}. */
    public static final OpaqueType URL = OpaqueType.create("kubernetes.URL");
    /** {@code kubernetes.NamedFormat}, held as {@link NamedFormat}. */
    public static final OpaqueType NAMED_FORMAT = OpaqueType.create("kubernetes.NamedFormat");

    private KubeTypes() {}
}
