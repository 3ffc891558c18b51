package io.dra4j.kubelet.dra;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how a {@link DraPlugin} runs. Defaults follow the kubelet's: registration socket
 * {@code <root>/plugins_registry/<driver>-reg.sock}, service socket {@code <root>/plugins/<driver>/dra.sock} with
 * {@code <root> = /var/lib/kubelet}, CDI specs in {@code /var/run/cdi} with vendor {@code k8s.<driver>} and class
 * {@code claim}. With a rolling-update pod UID the sockets get the UID in their names and calls are serialised with
 * a file lock shared with the other instance. With {@code serveHealth} the plugin also serves and advertises
 * {@code v1.DRAResourceHealth} and {@code v1alpha1.DRAResourceHealth} (the driver reports through {@link DraPlugin#reportHealth});
 * {@link #withHealthV1} and {@link #withHealthV1alpha1} turn one version off.
 */
public record DraPluginOptions(
        String driverName,
        String nodeName,
        Map<String, String> nodeLabels,
        Path registrarDirectory,
        Path pluginDataDirectory,
        Path cdiDirectory,
        String cdiVendor,
        String cdiClass,
        String rollingUpdatePodUid,
        boolean serveV1beta1,
        boolean serveHealth,
        boolean serveHealthV1,
        boolean serveHealthV1alpha1) {
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    public static final Path DEFAULT_KUBELET_ROOT = Path.of("/var/lib/kubelet");

    public DraPluginOptions {
        Objects.requireNonNull(driverName, "driverName");
        Objects.requireNonNull(nodeName, "nodeName");
        if (driverName.length() > 63 || !DNS_SUBDOMAIN.matcher(driverName).matches()) {
            throw new IllegalArgumentException(
                    "driver name " + driverName + " is not a lower-case DNS subdomain of at most 63 characters");
        }
        nodeLabels = Map.copyOf(nodeLabels);
        registrarDirectory = registrarDirectory.toAbsolutePath();
        pluginDataDirectory = pluginDataDirectory.toAbsolutePath();
        cdiDirectory = cdiDirectory.toAbsolutePath();
    }

    /** Options with the kubelet's default paths under {@code kubeletRoot}. */
    public static DraPluginOptions defaults(String driverName, String nodeName, Path kubeletRoot) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                Map.of(),
                kubeletRoot.resolve("plugins_registry"),
                kubeletRoot.resolve("plugins").resolve(driverName),
                Path.of("/var/run/cdi"),
                "k8s." + driverName,
                "claim",
                null,
                true,
                false,
                true,
                true);
    }

    public DraPluginOptions withCdiDirectory(Path dir) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                nodeLabels,
                registrarDirectory,
                pluginDataDirectory,
                dir,
                cdiVendor,
                cdiClass,
                rollingUpdatePodUid,
                serveV1beta1,
                serveHealth,
                serveHealthV1,
                serveHealthV1alpha1);
    }

    public DraPluginOptions withCdiKind(String vendor, String clazz) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                nodeLabels,
                registrarDirectory,
                pluginDataDirectory,
                cdiDirectory,
                vendor,
                clazz,
                rollingUpdatePodUid,
                serveV1beta1,
                serveHealth,
                serveHealthV1,
                serveHealthV1alpha1);
    }

    public DraPluginOptions withNodeLabels(Map<String, String> labels) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                labels,
                registrarDirectory,
                pluginDataDirectory,
                cdiDirectory,
                cdiVendor,
                cdiClass,
                rollingUpdatePodUid,
                serveV1beta1,
                serveHealth,
                serveHealthV1,
                serveHealthV1alpha1);
    }

    public DraPluginOptions withRollingUpdate(String podUid) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                nodeLabels,
                registrarDirectory,
                pluginDataDirectory,
                cdiDirectory,
                cdiVendor,
                cdiClass,
                podUid,
                serveV1beta1,
                serveHealth,
                serveHealthV1,
                serveHealthV1alpha1);
    }

    public DraPluginOptions withServeV1beta1(boolean serve) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                nodeLabels,
                registrarDirectory,
                pluginDataDirectory,
                cdiDirectory,
                cdiVendor,
                cdiClass,
                rollingUpdatePodUid,
                serve,
                serveHealth,
                serveHealthV1,
                serveHealthV1alpha1);
    }

    public DraPluginOptions withHealth(boolean serve) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                nodeLabels,
                registrarDirectory,
                pluginDataDirectory,
                cdiDirectory,
                cdiVendor,
                cdiClass,
                rollingUpdatePodUid,
                serveV1beta1,
                serve,
                serveHealthV1,
                serveHealthV1alpha1);
    }

    /**
     * Whether {@code v1.DRAResourceHealth} is served and advertised when health is on (default true); as upstream's
     * {@code HealthV1} option. Off, only a kubelet that knows v1alpha1 (every one from 1.34) reads health.
     */
    public DraPluginOptions withHealthV1(boolean serve) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                nodeLabels,
                registrarDirectory,
                pluginDataDirectory,
                cdiDirectory,
                cdiVendor,
                cdiClass,
                rollingUpdatePodUid,
                serveV1beta1,
                serveHealth,
                serve,
                serveHealthV1alpha1);
    }

    /**
     * Whether {@code v1alpha1.DRAResourceHealth} is served and advertised when health is on (default true, so that
     * 1.34-1.36 kubelets, which know only v1alpha1, read health); as upstream's {@code HealthV1alpha1} option.
     * With both versions off nothing is advertised or served, as upstream's helper does.
     */
    public DraPluginOptions withHealthV1alpha1(boolean serve) {
        return new DraPluginOptions(
                driverName,
                nodeName,
                nodeLabels,
                registrarDirectory,
                pluginDataDirectory,
                cdiDirectory,
                cdiVendor,
                cdiClass,
                rollingUpdatePodUid,
                serveV1beta1,
                serveHealth,
                serveHealthV1,
                serve);
    }

    public Path registrationSocket() {
        return registrarDirectory.resolve(
                rollingUpdatePodUid == null
                        ? driverName + "-reg.sock"
                        : driverName + "-" + rollingUpdatePodUid + "-reg.sock");
    }

    public Path draSocket() {
        return pluginDataDirectory.resolve(
                rollingUpdatePodUid == null ? "dra.sock" : "dra-" + rollingUpdatePodUid + ".sock");
    }

    public Path checkpointFile() {
        return pluginDataDirectory.resolve("checkpoint.json");
    }

    public Path serializeLockFile() {
        return pluginDataDirectory.resolve("serialize.lock");
    }
}
