package io.dra4j.cel;

import dev.cel.common.types.CelType;
import io.dra4j.cel.internal.CidrLibrary;
import io.dra4j.cel.internal.IpLibrary;
import io.dra4j.cel.internal.KubeTypes;
import io.dra4j.cel.internal.ListsLibrary;
import io.dra4j.cel.internal.QuantityLibrary;
import io.dra4j.cel.internal.RegexLibrary;
import io.dra4j.cel.internal.SemverLibrary;
import java.util.List;

/**
 * The Kubernetes CEL libraries of the DRA device-selector environment (Kubernetes 1.37 base environment,
 * k8s.io/apiserver v0.37.2 pkg/cel/library), ready to add to a cel-java compiler and runtime.
 *
 * <p>Add every library of {@link #all()} to both the {@code CelCompilerBuilder} and the {@code CelRuntimeBuilder}.
 * Runtime values: {@code kubernetes.Quantity} is {@link KubeQuantity}, {@code kubernetes.Semver} is
 * {@link Semver}; {@code net.IP}, {@code net.CIDR}, {@code kubernetes.URL} and {@code kubernetes.NamedFormat} are
 * produced only by the libraries themselves. Library errors surface as {@code CelEvaluationException}s whose
 * message is upstream's error text.
 */
public final class KubernetesLibraries {

    /** {@code kubernetes.Quantity}. */
    public static final CelType QUANTITY_TYPE = KubeTypes.QUANTITY;
    /** {@code kubernetes.Semver}. */
    public static final CelType SEMVER_TYPE = KubeTypes.SEMVER;
    /** {@code net.IP}. */
    public static final CelType IP_TYPE = KubeTypes.IP;
    /** {@code net.CIDR}. */
    public static final CelType CIDR_TYPE = KubeTypes.CIDR;
    /** {@code kubernetes.URL}. */
    public static final CelType URL_TYPE = KubeTypes.URL;
    /** {@code kubernetes.NamedFormat}. */
    public static final CelType NAMED_FORMAT_TYPE = KubeTypes.NAMED_FORMAT;

    private static final List<KubernetesCelLibrary> ALL = List.of(
            new QuantityLibrary(),
            new SemverLibrary(),
            new ListsLibrary(),
            new RegexLibrary(),
            new IpLibrary(),
            new CidrLibrary());

    private KubernetesLibraries() {
    }

    /** All libraries; the instances are immutable and may be shared by any number of environments. */
    public static List<KubernetesCelLibrary> all() {
        return ALL;
    }

    /** The opaque types the libraries introduce (declare them if the environment needs type names). */
    public static List<CelType> opaqueTypes() {
        return List.of(QUANTITY_TYPE, SEMVER_TYPE, IP_TYPE, CIDR_TYPE, URL_TYPE, NAMED_FORMAT_TYPE);
    }
}
